// astc-gpu-decode decode --verify: the decoded texels (GPU or CPU backend) against the CPU
// reference's, texel for texel, with the first mismatch and the PSNR.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "decode_command.h"
#include "reference/half.h"  // half_to_float
#include "io_test_hooks.h"

namespace cli {
namespace {

using texdec_reference::half_to_float;

// The channel values of one texel as floats (UNORM / SNORM normalised, halves as they are); the
// channel count, 0 for a format outside texdec's texel table.
int texel_channels(VkFormat format, const uint8_t* t, float out[4]) {
    texdec_texel_format_info info{};
    if (texdec_texel_format_get_info(format, &info) != TEXDEC_SUCCESS) return 0;
    const bool is_signed = info.flags & TEXDEC_TEXEL_FORMAT_SIGNED;
    for (uint32_t c = 0; c < info.channels; ++c) {
        if (info.channel_bytes == 1) {
            out[c] = is_signed ? std::max(int(int8_t(t[c])), -127) / 127.0f : t[c] / 255.0f;
            continue;
        }
        const uint16_t v = uint16_t(t[2 * c] | t[2 * c + 1] << 8);
        if (info.flags & TEXDEC_TEXEL_FORMAT_HALF) out[c] = half_to_float(v);
        else out[c] = is_signed ? std::max(int(int16_t(v)), -32767) / 32767.0f : v / 65535.0f;
    }
    return int(info.channels);
}


std::string hex_bytes(const uint8_t* bytes, size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string text;
    for (size_t i = 0; i < n; ++i) {
        text += digits[bytes[i] >> 4];
        text += digits[bytes[i] & 15];
    }
    return text;
}

}  // namespace

void compare_texels(const char* backend, std::span<const uint8_t> decoded, const std::vector<uint8_t>& reference,
                    size_t texel_bytes, VkFormat vk_format, bool hdr, uint32_t width, uint32_t height,
                    const std::string& where, VerifyStats& stats) {
    const size_t count = decoded.size() / texel_bytes;
    stats.ran = true;
    stats.texels += count;
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* g = decoded.data() + i * texel_bytes;
        const uint8_t* r = reference.data() + i * texel_bytes;
        float gv[4], rv[4];
        const int channels = texel_channels(vk_format, g, gv);
        texel_channels(vk_format, r, rv);
        for (int c = 0; c < channels; ++c) {
            if (!std::isfinite(rv[c])) continue;
            if (hdr) stats.peak = std::max(stats.peak, double(std::fabs(rv[c])));
            if (!std::isfinite(gv[c])) continue;
            const double d = double(gv[c]) - double(rv[c]);
            stats.squared_error += d * d;
            ++stats.channels;
        }
        if (std::memcmp(g, r, texel_bytes) == 0) continue;
        if (stats.mismatched++ == 0) {
            const size_t x = i % width, y = (i / width) % height, z = i / (size_t(width) * height);
            stats.first_mismatch = where + " texel (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                                   std::to_string(z) + "): " + backend + " " + hex_bytes(g, texel_bytes) +
                                   ", reference " + hex_bytes(r, texel_bytes);
        }
    }
}

// TEXDEC_CLI_VERIFY_FAULT=N (tests only): flip the lowest bit of texel N of the first surface the
// GPU decoded, so the tests can see --verify report a planted mismatch.
std::optional<uint64_t> planted_fault() {
    const char* text = TEXDEC_IO_TEST_HOOK("TEXDEC_CLI_VERIFY_FAULT");
    if (!text || !*text) return std::nullopt;
    return parse_u32(text);
}

}  // namespace cli
