// A minimal JSON writer for astc-gpu-decode's --json output: objects and arrays written in order,
// strings escaped (RFC 8259), non-finite numbers written as null.
//
// Every string written is valid UTF-8, so any strict JSON parser reads the output: '"', '\\' and the
// control characters U+0000-U+001F are escaped (\n, \t, \r, else \u00XX), valid UTF-8 passes
// through, and each byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF) is written as \ufffd. File names are not always
// UTF-8 (POSIX names are bytes): path_field() writes such a name's exact bytes beside it, in base64
// (RFC 4648, with padding), as NAME_base64 - so a script recovers the path exactly.
// --help documents the scheme (the --json option).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

class Json {
public:
    Json& begin_object() { return open('{'); }
    Json& end_object() { return close('}'); }
    Json& begin_array() { return open('['); }
    Json& end_array() { return close(']'); }

    Json& key(std::string_view name) {
        separate();
        quote(name);
        text_ += ": ";
        after_key_ = true;
        return *this;
    }
    Json& value(std::string_view s) { return raw_value([&] { quote(s); }); }
    Json& value(const char* s) { return value(std::string_view(s)); }
    Json& value(const std::string& s) { return value(std::string_view(s)); }
    Json& value(bool b) { return raw_value([&] { text_ += b ? "true" : "false"; }); }
    Json& value(uint64_t n) { return raw_value([&] { text_ += std::to_string(n); }); }
    Json& value(uint32_t n) { return value(uint64_t(n)); }
    Json& value(int n) { return raw_value([&] { text_ += std::to_string(n); }); }
    Json& value(double d) {
        return raw_value([&] {
            if (!std::isfinite(d)) {
                text_ += "null";
                return;
            }
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.6g", d);
            text_ += buffer;
        });
    }
    Json& null() { return raw_value([&] { text_ += "null"; }); }
    template <class T>
    Json& field(std::string_view name, const T& v) {
        return key(name).value(v);
    }
    // A file name: field(name, path), and when path is not valid UTF-8 also NAME_base64 with its bytes.
    Json& path_field(std::string_view name, std::string_view path) {
        field(name, path);
        if (!valid_utf8(path)) field(std::string(name) + "_base64", base64(path));
        return *this;
    }

    // The length of the well-formed UTF-8 sequence at s[at] (RFC 3629, table 3-7 of Unicode), or 0.
    static size_t utf8_sequence(std::string_view s, size_t at) {
        const auto byte = [&](size_t i) { return at + i < s.size() ? static_cast<unsigned char>(s[at + i]) : 0u; };
        const unsigned c = byte(0);
        if (c < 0x80) return 1;
        const auto cont = [&](size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
            return byte(i) >= lo && byte(i) <= hi;
        };
        if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
        if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;        // no overlong forms
        if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
        if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
        if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
        if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
        if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;  // up to U+10FFFF
        return 0;
    }
    static bool valid_utf8(std::string_view s) {
        for (size_t at = 0, n; at < s.size(); at += n)
            if ((n = utf8_sequence(s, at)) == 0) return false;
        return true;
    }
    static std::string base64(std::string_view bytes) {
        static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string out;
        for (size_t i = 0; i < bytes.size(); i += 3) {
            const size_t n = std::min<size_t>(3, bytes.size() - i);
            uint32_t group = 0;
            for (size_t k = 0; k < 3; ++k) group = group << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
            for (size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(group >> (18 - 6 * k)) & 63] : '=';
        }
        return out;
    }

    const std::string& text() const { return text_; }

private:
    std::string text_;
    std::vector<bool> first_;  // per open container: nothing written in it yet
    bool after_key_ = false;

    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) text_ += ',';
            first_.back() = false;
            text_ += '\n';
            text_.append(2 * first_.size(), ' ');
        }
    }
    template <class F>
    Json& raw_value(F&& write) {
        separate();
        write();
        return *this;
    }
    Json& open(char c) {
        separate();
        text_ += c;
        first_.push_back(true);
        return *this;
    }
    Json& close(char c) {
        const bool empty = first_.back();
        first_.pop_back();
        if (!empty) {
            text_ += '\n';
            text_.append(2 * first_.size(), ' ');
        }
        text_ += c;
        return *this;
    }
    void quote(std::string_view s) {
        text_ += '"';
        for (size_t at = 0; at < s.size(); ++at) {
            const auto c = static_cast<unsigned char>(s[at]);
            if (c >= 0x80) {
                const size_t n = utf8_sequence(s, at);
                if (n == 0) {
                    text_ += "\\ufffd";  // not UTF-8: path_field() keeps the bytes
                } else {
                    text_.append(s.substr(at, n));
                    at += n - 1;
                }
            } else if (c == '"' || c == '\\') {
                text_ += '\\';
                text_ += char(c);
            } else if (c == '\n') {
                text_ += "\\n";
            } else if (c == '\t') {
                text_ += "\\t";
            } else if (c == '\r') {
                text_ += "\\r";
            } else if (c < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                text_ += buffer;
            } else {
                text_ += char(c);
            }
        }
        text_ += '"';
    }
};

}  // namespace cli
