// A minimal JSON writer for astc-gpu-decode's --json output: objects and arrays written in order,
// strings escaped (RFC 8259), non-finite numbers written as null.
#pragma once

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
        for (const char ch : s) {
            const auto c = static_cast<unsigned char>(ch);
            if (c == '"' || c == '\\') {
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
                text_ += char(c);  // UTF-8 passes through
            }
        }
        text_ += '"';
    }
};

}  // namespace cli
