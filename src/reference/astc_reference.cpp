// See astc_reference.h. Written from astcenc.h (4.2) only.
#include "reference/astc_reference.h"

#define ASTCENC_DYNAMIC_LIBRARY 1  // 4.2's header gives extern "C" linkage only with this
#include <astcenc.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

namespace texdec_reference {
namespace {

struct CachedContext {
    std::mutex mutex;
    astcenc_context* ctx = nullptr;
    ~CachedContext() {
        if (ctx) astcenc_context_free(ctx);
    }
};

const char* profile_text(AstcProfile profile) {
    return profile == AstcProfile::ldr ? "LDR" : profile == AstcProfile::ldr_srgb ? "LDR_SRGB" : "HDR";
}

std::string describe(AstcProfile profile, AstcFootprint fp) {
    return std::string(profile_text(profile)) + " " + std::to_string(fp.x) + "x" +
           std::to_string(fp.y) + "x" + std::to_string(fp.z);
}

// One context per (profile, footprint), created on first use, never freed before exit.
CachedContext& context_for(AstcProfile profile, AstcFootprint fp) {
    static std::mutex map_mutex;
    static std::map<std::tuple<int, unsigned, unsigned, unsigned>, std::unique_ptr<CachedContext>> cache;
    std::lock_guard<std::mutex> lock(map_mutex);
    auto& slot = cache[{int(profile), fp.x, fp.y, fp.z}];
    if (!slot) {
        astcenc_config config{};
        const astcenc_profile p = profile == AstcProfile::ldr        ? ASTCENC_PRF_LDR
                                  : profile == AstcProfile::ldr_srgb ? ASTCENC_PRF_LDR_SRGB
                                                                     : ASTCENC_PRF_HDR;
        astcenc_error e =
            astcenc_config_init(p, fp.x, fp.y, fp.z, ASTCENC_PRE_FASTEST, ASTCENC_FLG_DECOMPRESS_ONLY, &config);
        if (e != ASTCENC_SUCCESS)
            throw std::runtime_error("astcenc: astcenc_config_init(" + describe(profile, fp) +
                                     ") failed: " + astcenc_get_error_string(e));
        auto entry = std::make_unique<CachedContext>();
        e = astcenc_context_alloc(&config, 1, &entry->ctx);
        if (e != ASTCENC_SUCCESS)
            throw std::runtime_error("astcenc: astcenc_context_alloc(" + describe(profile, fp) +
                                     ") failed: " + astcenc_get_error_string(e));
        slot = std::move(entry);
    }
    return *slot;
}

void check_input(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d, size_t size) {
    if (w == 0 || h == 0 || d == 0)
        throw std::runtime_error("astcenc: empty extent " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                                 std::to_string(d));
    const size_t need = astc_encoded_size(fp, w, h, d);
    // astcenc 4.2 itself reports a short buffer as ASTCENC_ERR_OUT_OF_MEM, which reads wrong.
    if (size < need)
        throw std::runtime_error("astcenc: short input for " + describe(profile, fp) + " " +
                                 std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(d) + ": need " +
                                 std::to_string(need) + " bytes, got " + std::to_string(size));
}

template <typename T>
std::vector<T> decode(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d, const uint8_t* data,
                      size_t size, astcenc_type type) {
    check_input(profile, fp, w, h, d, size);
    std::vector<T> out(size_t(w) * h * d * 4);
    std::vector<void*> slices(d);
    for (unsigned z = 0; z < d; ++z) slices[z] = out.data() + size_t(z) * w * h * 4;
    astcenc_image image{};
    image.dim_x = w;
    image.dim_y = h;
    image.dim_z = d;
    image.data_type = type;
    image.data = slices.data();
    const astcenc_swizzle swizzle{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
    CachedContext& c = context_for(profile, fp);
    std::lock_guard<std::mutex> lock(c.mutex);
    astcenc_error e = astcenc_decompress_reset(c.ctx);
    if (e == ASTCENC_SUCCESS) e = astcenc_decompress_image(c.ctx, data, size, &image, &swizzle, 0);
    if (e != ASTCENC_SUCCESS)
        throw std::runtime_error("astcenc: astcenc_decompress_image(" + describe(profile, fp) + ") failed: " +
                                 astcenc_get_error_string(e));
    return out;
}

}  // namespace

std::vector<uint16_t> astcenc_decode_f16(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                         const uint8_t* data, size_t size) {
    return decode<uint16_t>(profile, fp, w, h, d, data, size, ASTCENC_TYPE_F16);
}

std::vector<uint8_t> astcenc_decode_u8_srgb(AstcFootprint fp, unsigned w, unsigned h, unsigned d, const uint8_t* data,
                                            size_t size) {
    return decode<uint8_t>(AstcProfile::ldr_srgb, fp, w, h, d, data, size, ASTCENC_TYPE_U8);
}

uint8_t unorm8_from_f16(uint16_t half_bits) {
    if (half_bits & 0x8000u) return 0;  // negative (or -0)
    const unsigned exponent = (half_bits >> 10) & 0x1Fu, mantissa = half_bits & 0x3FFu;
    if (exponent == 0x1F) return mantissa ? 0 : 255;  // NaN / +inf
    // value = (exponent ? 1024 + mantissa : mantissa) * 2^(max(exponent,1) - 25); times 256 = 2^8.
    const uint64_t significand = exponent ? 1024u + mantissa : mantissa;
    const int shift = int(exponent ? exponent : 1) - 25 + 8;
    const uint64_t scaled = shift >= 0 ? (shift > 20 ? 256 : significand << shift) : significand >> -shift;
    return uint8_t(scaled > 255 ? 255 : scaled);
}

std::vector<uint8_t> decode_unorm8_from_f16(const std::vector<uint16_t>& f16) {
    std::vector<uint8_t> out(f16.size());
    for (size_t t = 0; t + 3 < f16.size(); t += 4) {
        bool nan = false;
        for (int c = 0; c < 4; ++c) nan |= (f16[t + c] & 0x7FFFu) > 0x7C00u;
        if (nan) {
            // 4.2's FP16 output of an error block (and of an HDR void extent in an LDR profile) is
            // 0xFFFF in all four channels; decode_unorm8 of an error texel is magenta.
            out[t] = 255, out[t + 1] = 0, out[t + 2] = 255, out[t + 3] = 255;
            continue;
        }
        for (int c = 0; c < 4; ++c) out[t + c] = unorm8_from_f16(f16[t + c]);
    }
    return out;
}

AstcBlockSummary astcenc_block_summary(AstcProfile profile, AstcFootprint fp, const uint8_t block[16]) {
    CachedContext& c = context_for(profile, fp);
    auto info = std::make_unique<astcenc_block_info>();
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        const astcenc_error e = astcenc_get_block_info(c.ctx, block, info.get());
        if (e != ASTCENC_SUCCESS)
            throw std::runtime_error("astcenc: astcenc_get_block_info(" + describe(profile, fp) +
                                     ") failed: " + astcenc_get_error_string(e));
    }
    AstcBlockSummary s;
    s.is_error = info->is_error_block;
    s.is_constant = info->is_constant_block;
    s.partition_count = info->partition_count;
    for (int i = 0; i < 4; ++i) s.cem[i] = info->color_endpoint_modes[i];
    const unsigned texels = fp.x * fp.y * fp.z;
    s.partition_of_texel.assign(info->partition_assignment, info->partition_assignment + texels);
    return s;
}

bool astc_cem_is_hdr(unsigned cem) {
    return cem == 2 || cem == 3 || cem == 7 || cem == 11 || cem == 14 || cem == 15;
}

std::vector<bool> hdr_endpoint_texels_in_ldr(AstcProfile profile, AstcFootprint fp, const uint8_t block[16]) {
    if (profile == AstcProfile::hdr)
        throw std::runtime_error("astcenc: hdr_endpoint_texels_in_ldr is for the LDR profiles");
    const AstcBlockSummary s = astcenc_block_summary(profile, fp, block);
    if (s.is_error || s.is_constant || s.partition_count == 0) return {};
    bool any = false;
    for (unsigned p = 0; p < s.partition_count && p < 4; ++p) any |= astc_cem_is_hdr(s.cem[p]);
    if (!any) return {};
    std::vector<bool> texels(s.partition_of_texel.size());
    for (size_t t = 0; t < texels.size(); ++t) {
        const unsigned p = s.partition_of_texel[t];
        texels[t] = p < 4 && astc_cem_is_hdr(s.cem[p]);
    }
    return texels;
}

namespace {

// Calls `mark(index of the texel's first channel)` for every texel inside the extent that belongs to an
// HDR-endpoint partition (hdr_endpoint_texels_in_ldr), block by block.
template <typename Mark>
void for_each_hdr_endpoint_texel(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                 const uint8_t* data, Mark mark) {
    const unsigned bw = (w + fp.x - 1) / fp.x, bh = (h + fp.y - 1) / fp.y, bd = (d + fp.z - 1) / fp.z;
    for (unsigned bz = 0; bz < bd; ++bz)
        for (unsigned by = 0; by < bh; ++by)
            for (unsigned bx = 0; bx < bw; ++bx) {
                const uint8_t* block = data + ((size_t(bz) * bh + by) * bw + bx) * 16;
                const std::vector<bool> bad = hdr_endpoint_texels_in_ldr(profile, fp, block);
                if (bad.empty()) continue;
                for (unsigned z = 0; z < fp.z; ++z)
                    for (unsigned y = 0; y < fp.y; ++y)
                        for (unsigned x = 0; x < fp.x; ++x) {
                            const unsigned ix = bx * fp.x + x, iy = by * fp.y + y, iz = bz * fp.z + z;
                            if (ix >= w || iy >= h || iz >= d) continue;
                            if (!bad[(z * fp.y + y) * fp.x + x]) continue;
                            mark(((size_t(iz) * h + iy) * w + ix) * 4);
                        }
            }
}

}  // namespace

std::vector<uint16_t> astcenc_decode_f16_spec(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h,
                                              unsigned d, const uint8_t* data, size_t size) {
    if (profile != AstcProfile::ldr)
        throw std::runtime_error("astcenc: astcenc_decode_f16_spec models linear LDR only");
    std::vector<uint16_t> out = astcenc_decode_f16(profile, fp, w, h, d, data, size);
    // astcenc 4.2 decodes HDR endpoint modes in an LDR profile (0x3BF8 ...); the spec (and
    // astcenc >= 5) gives the error colour, magenta for those partitions (docs/EXACTNESS.md).
    for_each_hdr_endpoint_texel(profile, fp, w, h, d, data, [&](size_t t) {
        out[t] = 0x3C00, out[t + 1] = 0, out[t + 2] = 0x3C00, out[t + 3] = 0x3C00;
    });
    return out;
}

std::vector<uint8_t> astcenc_decode_unorm8(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                           const uint8_t* data, size_t size) {
    if (profile == AstcProfile::hdr)
        throw std::runtime_error("astcenc: decode_unorm8 is invalid in the HDR operation mode");
    std::vector<uint8_t> out = profile == AstcProfile::ldr
                                   ? decode_unorm8_from_f16(astcenc_decode_f16(profile, fp, w, h, d, data, size))
                                   : astcenc_decode_u8_srgb(fp, w, h, d, data, size);
    // astcenc 4.2 decodes HDR endpoint modes in an LDR profile; the spec makes those texels the
    // error colour. Mesa (measured by test_astc_oracles.cpp) does so per partition: texels of the
    // block's LDR partitions keep their colour.
    for_each_hdr_endpoint_texel(profile, fp, w, h, d, data, [&](size_t t) {
        out[t] = 255, out[t + 1] = 0, out[t + 2] = 255, out[t + 3] = 255;
    });
    return out;
}

namespace {

bool is_nan(uint16_t h) { return (h & 0x7FFFu) > 0x7C00u; }
bool is_void_extent(const uint8_t* block) { return (block[0] | (block[1] & 1) << 8) == 0x1FC; }

std::string hex16(const uint8_t* block) {
    std::string s;
    char b[4];
    for (int i = 0; i < 16; ++i) std::snprintf(b, sizeof b, "%02x", block[i]), s += b;
    return s;
}

// The -sfloat formats: astcenc's FP16 bit for bit; block kinds for the statistics only (error =
// all four channels 0xFFFF at the block's first texel).
void expected_hdr(AstcFootprint fp, unsigned w, unsigned h, unsigned d, const uint8_t* data, AstcExpected& out) {
    const unsigned bw = (w + fp.x - 1) / fp.x, bh = (h + fp.y - 1) / fp.y, bd = (d + fp.z - 1) / fp.z;
    for (unsigned bz = 0; bz < bd; ++bz)
        for (unsigned by = 0; by < bh; ++by)
            for (unsigned bx = 0; bx < bw; ++bx) {
                const size_t bi = (size_t(bz) * bh + by) * bw + bx;
                const uint16_t* t = &out.rgba16f[((size_t(bz) * fp.z * h + size_t(by) * fp.y) * w + size_t(bx) * fp.x) * 4];
                const bool void_extent = is_void_extent(data + bi * 16);
                const bool error = t[0] == 0xFFFF && t[1] == 0xFFFF && t[2] == 0xFFFF && t[3] == 0xFFFF;
                out.kind[bi] = void_extent && !error ? AstcBlockKind::void_extent
                               : error               ? AstcBlockKind::error
                                                     : AstcBlockKind::normal;
                out.error_blocks += out.kind[bi] == AstcBlockKind::error;
                out.void_extents += out.kind[bi] == AstcBlockKind::void_extent;
            }
}

}  // namespace

AstcExpected astc_expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, unsigned d,
                                   const uint8_t* data, size_t size) {
    AstcExpected out;
    const std::vector<uint16_t> f16 = astcenc_decode_f16(profile, fp, w, h, d, data, size);
    const unsigned bw = (w + fp.x - 1) / fp.x, bh = (h + fp.y - 1) / fp.y, bd = (d + fp.z - 1) / fp.z;
    out.kind.resize(size_t(bw) * bh * bd);
    if (profile == AstcProfile::hdr) {
        out.rgba16f = f16;
        expected_hdr(fp, w, h, d, data, out);
        return out;
    }
    std::vector<uint8_t> u8;
    if (profile == AstcProfile::ldr_srgb) u8 = astcenc_decode_u8_srgb(fp, w, h, d, data, size);
    static const std::vector<uint16_t> half_of_byte = [] {
        std::vector<uint16_t> t(256);
        for (unsigned v = 0; v < 256; ++v) t[v] = half_from_unorm8(uint8_t(v));
        return t;
    }();
    out.rgba8.resize(size_t(w) * h * d * 4);
    out.rgba16f.resize(size_t(w) * h * d * 4);
    const std::string fp_text = std::to_string(fp.x) + "x" + std::to_string(fp.y) + (fp.z > 1 ? "x" + std::to_string(fp.z) : "");
    auto anomaly = [&](const uint8_t* block, const char* what) {
        if (out.anomalies.size() < 20)
            out.anomalies.push_back(std::string(profile == AstcProfile::ldr ? "LDR " : "sRGB ") + fp_text + " block " +
                                    hex16(block) + ": " + what);
    };
    for (unsigned bz = 0; bz < bd; ++bz)
        for (unsigned by = 0; by < bh; ++by)
            for (unsigned bx = 0; bx < bw; ++bx) {
                const size_t bi = (size_t(bz) * bh + by) * bw + bx;
                const uint8_t* block = data + bi * 16;
                // The block's first texel is always inside the extent.
                const bool error = is_nan(f16[((size_t(bz) * fp.z * h + size_t(by) * fp.y) * w + size_t(bx) * fp.x) * 4]);
                const bool void_extent = is_void_extent(block);
                std::vector<bool> hdr;
                if (!error && !void_extent) hdr = hdr_endpoint_texels_in_ldr(profile, fp, block);
                const AstcBlockKind kind = error         ? AstcBlockKind::error
                                           : void_extent ? AstcBlockKind::void_extent
                                           : !hdr.empty() ? AstcBlockKind::hdr_endpoint
                                                          : AstcBlockKind::normal;
                out.kind[bi] = kind;
                out.error_blocks += kind == AstcBlockKind::error;
                out.void_extents += kind == AstcBlockKind::void_extent;
                if (kind == AstcBlockKind::hdr_endpoint) {
                    ++out.hdr_endpoint_blocks;
                    bool some_ldr = false;
                    for (bool f : hdr) some_ldr |= !f;
                    out.mixed_hdr_ldr_blocks += some_ldr;
                }
                for (unsigned z = 0; z < fp.z; ++z)
                    for (unsigned y = 0; y < fp.y; ++y)
                        for (unsigned x = 0; x < fp.x; ++x) {
                            const unsigned ix = bx * fp.x + x, iy = by * fp.y + y, iz = bz * fp.z + z;
                            if (ix >= w || iy >= h || iz >= d) continue;
                            const size_t t = ((size_t(iz) * h + iy) * w + ix) * 4;
                            uint8_t* o8 = &out.rgba8[t];
                            uint16_t* o16 = &out.rgba16f[t];
                            const bool nan = is_nan(f16[t]) || is_nan(f16[t + 1]) || is_nan(f16[t + 2]) || is_nan(f16[t + 3]);
                            if (nan != error) anomaly(block, "only some texels or channels are NaN in astcenc's FP16 output");
                            if (error) {
                                if (!(f16[t] == 0xFFFF && f16[t + 1] == 0xFFFF && f16[t + 2] == 0xFFFF && f16[t + 3] == 0xFFFF))
                                    anomaly(block, "error texel whose FP16 is not 0xFFFF in all four channels");
                                if (!u8.empty() && !(u8[t] == 255 && u8[t + 1] == 0 && u8[t + 2] == 255 && u8[t + 3] == 255))
                                    anomaly(block, "sRGB error texel whose U8 is not magenta");
                                o8[0] = 255, o8[1] = 0, o8[2] = 255, o8[3] = 255;
                                // KDFS "ASTC error colors": the sRGB operation mode's error colour
                                // is magenta in every decode mode; astcenc 4.2's FP16 (checked
                                // above to be 0xFFFF x 4) is the linear mode's NaNs, so it is
                                // replaced here. Linear LDR keeps 4.2's NaNs.
                                if (profile == AstcProfile::ldr_srgb)
                                    o16[0] = 0x3C00, o16[1] = 0, o16[2] = 0x3C00, o16[3] = 0x3C00;
                                else
                                    o16[0] = o16[1] = o16[2] = o16[3] = 0xFFFF;
                                continue;
                            }
                            if (!hdr.empty() && hdr[(size_t(z) * fp.y + y) * fp.x + x]) {
                                o8[0] = 255, o8[1] = 0, o8[2] = 255, o8[3] = 255;
                                o16[0] = 0x3C00, o16[1] = 0, o16[2] = 0x3C00, o16[3] = 0x3C00;
                                continue;
                            }
                            for (int c = 0; c < 4; ++c) {
                                if (profile == AstcProfile::ldr) {
                                    o8[c] = unorm8_from_f16(f16[t + c]);
                                    o16[c] = f16[t + c];
                                } else {
                                    o8[c] = u8[t + c];
                                    o16[c] = half_of_byte[u8[t + c]];
                                }
                            }
                        }
            }
    return out;
}

AstcExpected astc_expected_outputs(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h, const uint8_t* data,
                                   size_t size) {
    if (fp.z != 1) throw std::runtime_error("astc_expected_outputs: 2D footprints only");
    if (profile == AstcProfile::hdr) throw std::runtime_error("astc_expected_outputs: LDR and sRGB only (HDR: test_astc_hdr.cpp)");
    return astc_expected_outputs(profile, fp, w, h, 1, data, size);
}

}  // namespace texdec_reference
