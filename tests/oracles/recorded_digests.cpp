// See recorded_digests.h.
#include "oracles/recorded_digests.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace texdec_test {
namespace {

// FNV-1a, 64 bits.
uint64_t fnv1a(const uint8_t* p, size_t n, uint64_t h = 0xCBF29CE484222325ull) {
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

// A second, independent hash: 8-byte words through a multiply / xor-shift mix, then the length.
uint64_t word_mix(const uint8_t* p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    auto mix = [&](uint64_t w) {
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    };
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        mix(w);
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p + i, n - i);
    mix(tail);
    mix(uint64_t(n));
    return h;
}

struct Files {
    std::mutex mutex;
    std::map<std::string, std::unordered_map<uint64_t, OracleDigest>> loaded;
};

Files& files() {
    static Files f;
    return f;
}

const std::unordered_map<uint64_t, OracleDigest>& load_locked(Files& f, const std::string& path) {
    auto it = f.loaded.find(path);
    if (it != f.loaded.end()) return it->second;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("recorded oracle digests: cannot read " + path);
    std::unordered_map<uint64_t, OracleDigest> table;
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
        unsigned long long key, a, b;
        if (std::sscanf(line.c_str(), "%llx %llx %llx", &key, &a, &b) != 3)
            throw std::runtime_error("recorded oracle digests: " + path + " line " + std::to_string(number) +
                                     " is not 'KEY DIGEST_A DIGEST_B'");
        table[key] = OracleDigest{a, b};
    }
    return f.loaded.emplace(path, std::move(table)).first->second;
}

}  // namespace

uint64_t oracle_input_key(const std::string& tag, const uint8_t* data, size_t size) {
    const uint64_t h = fnv1a(reinterpret_cast<const uint8_t*>(tag.data()), tag.size());
    return fnv1a(data, size, h ^ 0xFF);
}

OracleDigest oracle_answer_digest(const uint8_t* data, size_t size) {
    return OracleDigest{fnv1a(data, size), word_mix(data, size)};
}

std::string to_string(const OracleDigest& d) {
    char text[40];
    std::snprintf(text, sizeof text, "%016" PRIx64 " %016" PRIx64, d.a, d.b);
    return text;
}

void record_oracle_digest(const std::string& path, uint64_t key, const OracleDigest& digest) {
    Files& f = files();
    std::lock_guard<std::mutex> lock(f.mutex);
    std::ofstream out(path, std::ios::app);
    char line[64];
    std::snprintf(line, sizeof line, "%016" PRIx64 " %s\n", key, to_string(digest).c_str());
    out << line;
    if (!out) throw std::runtime_error("recorded oracle digests: cannot write " + path);
}

bool find_recorded_digest(const std::string& path, uint64_t key, OracleDigest* digest) {
    Files& f = files();
    std::lock_guard<std::mutex> lock(f.mutex);
    const auto& table = load_locked(f, path);
    auto it = table.find(key);
    if (it == table.end()) return false;
    *digest = it->second;
    return true;
}

size_t recorded_digest_count(const std::string& path) {
    Files& f = files();
    std::lock_guard<std::mutex> lock(f.mutex);
    return load_locked(f, path).size();
}

}  // namespace texdec_test
