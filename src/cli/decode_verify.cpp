// astc-gpu-decode decode --verify: the GPU's texels against the CPU reference's, texel for texel,
// with the first mismatch and the PSNR.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "decode_command.h"
#include "reference/half.h"  // half_to_float

namespace cli {
namespace {

using texdec_reference::half_to_float;

// The channel values of one texel as floats (UNORM / SNORM normalised, halves as they are).
int texel_channels(VkFormat format, const uint8_t* t, float out[4]) {
    auto u16 = [&](int i) { return uint16_t(t[2 * i] | t[2 * i + 1] << 8); };
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
        for (int c = 0; c < 4; ++c) out[c] = t[c] / 255.0f;
        return 4;
    case VK_FORMAT_R8_UNORM:
    case VK_FORMAT_R8G8_UNORM:
        for (int c = 0; c < (format == VK_FORMAT_R8_UNORM ? 1 : 2); ++c) out[c] = t[c] / 255.0f;
        return format == VK_FORMAT_R8_UNORM ? 1 : 2;
    case VK_FORMAT_R8_SNORM:
    case VK_FORMAT_R8G8_SNORM:
        for (int c = 0; c < (format == VK_FORMAT_R8_SNORM ? 1 : 2); ++c)
            out[c] = std::max(int(int8_t(t[c])), -127) / 127.0f;
        return format == VK_FORMAT_R8_SNORM ? 1 : 2;
    case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_R16G16_UNORM:
        for (int c = 0; c < (format == VK_FORMAT_R16_UNORM ? 1 : 2); ++c) out[c] = u16(c) / 65535.0f;
        return format == VK_FORMAT_R16_UNORM ? 1 : 2;
    case VK_FORMAT_R16_SNORM:
    case VK_FORMAT_R16G16_SNORM:
        for (int c = 0; c < (format == VK_FORMAT_R16_SNORM ? 1 : 2); ++c)
            out[c] = std::max(int(int16_t(u16(c))), -32767) / 32767.0f;
        return format == VK_FORMAT_R16_SNORM ? 1 : 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT:
        for (int c = 0; c < 4; ++c) out[c] = half_to_float(u16(c));
        return 4;
    default: return 0;
    }
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

// Compares the GPU texels of one surface with the CPU reference's.
void compare_texels(const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& reference, size_t texel_bytes,
                    VkFormat vk_format, bool hdr, uint32_t width, uint32_t height, const std::string& where,
                    VerifyStats& stats) {
    const size_t count = gpu.size() / texel_bytes;
    stats.ran = true;
    stats.texels += count;
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* g = gpu.data() + i * texel_bytes;
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
                                   std::to_string(z) + "): GPU " + hex_bytes(g, texel_bytes) + ", reference " +
                                   hex_bytes(r, texel_bytes);
        }
    }
}

// TEXDEC_CLI_VERIFY_FAULT=N (tests only): flip the lowest bit of texel N of the first surface the
// GPU decoded, so the tests can see --verify report a planted mismatch.
std::optional<uint64_t> planted_fault() {
    const char* text = std::getenv("TEXDEC_CLI_VERIFY_FAULT");
    if (!text || !*text) return std::nullopt;
    return parse_u32(text);
}

}  // namespace cli
