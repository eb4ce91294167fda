// ASTC decoder, LDR and sRGB operation modes, 2D and 3D footprints: one invocation per texel.
// Khronos Data Format Specification, "ASTC Compressed Texture Image Formats" (shared/specs/astc.txt);
// the quoted names below are that chapter's sections.
//
// Every invocation decodes what its texel needs from the 128-bit block: block mode (through the
// footprint's block mode table), partition, colour endpoint mode, the endpoint values of its
// partition and the (up to 4 per plane) stored weights its infill reads. Integer sequences are
// read by random access (a trit or quint block is found from the value index), so nothing is
// shared between invocations.
//
// Footprint: specialization constants BLOCK_W/H/D. SRGB: sRGB operation mode (endpoint expansion
// C << 8 | 0x80). STORE: RGBA8 = decode_unorm8 (the top 8 bits of the UNORM16 result; sRGB bytes
// stay encoded), RGBA16F = decode_float16 (linear) or the sRGB byte v as v / 255 (sRGB formats).
// Error colours (ORACLES.md, "ASTC error colors"): RGBA8 magenta; RGBA16F four NaNs (0xFFFF) for
// illegal blocks and HDR void extents, magenta (1, 0, 1, 1) for texels of a partition whose
// endpoint mode is HDR.
#version 450
#extension GL_GOOGLE_include_directive : require

#define TEXDEC_PER_TEXEL
#include "interface.h"
#include "common/layout.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"

layout(constant_id = TEXDEC_SC_BLOCK_W) const uint BLOCK_W = 4u;
layout(constant_id = TEXDEC_SC_BLOCK_H) const uint BLOCK_H = 4u;
layout(constant_id = TEXDEC_SC_BLOCK_D) const uint BLOCK_D = 1u;
const bool IS_3D = BLOCK_D > 1u;
const bool IS_SRGB = SRGB != 0u;

layout(std430, set = 0, binding = TEXDEC_BINDING_LUT) readonly buffer SharedLut {
    uint lut[];
};
layout(std430, set = 0, binding = TEXDEC_BINDING_FOOTPRINT_LUT) readonly buffer FootprintLut {
    uint footprint_lut[];
};

// ---- bits ---------------------------------------------------------------------------------------

// Bits [offset, offset + count) of the 128-bit block (bit 0 = bit 0 of word 0), count 0..32.
uint block_bits(uvec4 b, uint offset, uint count) {
    if (count == 0u) return 0u;
    // Selects instead of b[word]: a dynamically indexed vector may be spilled to local memory.
    uint word = offset >> 5u, shift = offset & 31u;
    uint w0 = word == 0u ? b.x : word == 1u ? b.y : word == 2u ? b.z : b.w;
    uint w1 = word == 0u ? b.y : word == 1u ? b.z : word == 2u ? b.w : 0u;
    uint high = shift != 0u ? w1 << (32u - shift) : 0u;
    return bitfieldExtract((w0 >> shift) | high, 0, int(count));
}

// Bits [offset, offset + count) of an integer sequence that starts at bit `start` of `b` and is
// `length` bits long. "If there are insufficient bits in the stream to fill the final block, then
// unused (higher-order) bits are assumed to be 0": bits past the end read as 0.
uint stream_bits(uvec4 b, uint start, uint length, uint offset, uint count) {
    if (offset >= length) return 0u;
    return block_bits(b, start + offset, min(count, length - offset));
}

// ---- "Integer Sequence Encoding" ----------------------------------------------------------------

struct IseRange {
    uint bits;  // n
    bool trits;
    bool quints;
};

IseRange ise_range(uint range) {
    uint info = lut[TEXDEC_ASTC_LUT_ISE_RANGE + range];
    return IseRange(info & 0xFFu, (info & 0x100u) != 0u, (info & 0x200u) != 0u);
}

// "Data Size Determination": bits used by `count` values.
uint ise_length(IseRange r, uint count) {
    return (count * 8u * uint(r.trits) + 4u) / 5u + (count * 7u * uint(r.quints) + 2u) / 3u + count * r.bits;
}

// Value `index` of a sequence of range `r` stored from bit `start` of `b`, `length` bits long.
uint ise_value(uvec4 b, uint start, uint length, IseRange r, uint index) {
    uint n = r.bits;
    if (r.trits) {
        // "ASTC trit-based packing": 5 values per 8 + 5n bits; m_j at 0, n+2, 2n+4, 3n+5, 4n+7.
        uint group = index / 5u, j = index - group * 5u;
        uint base = group * (8u + 5u * n);
        uint packed = stream_bits(b, start, length, base + n, 2u)
                    | (stream_bits(b, start, length, base + 2u * n + 2u, 2u) << 2u)
                    | (stream_bits(b, start, length, base + 3u * n + 4u, 1u) << 4u)
                    | (stream_bits(b, start, length, base + 4u * n + 5u, 2u) << 5u)
                    | (stream_bits(b, start, length, base + 5u * n + 7u, 1u) << 7u);
        uint m_offset = j * n + (j == 0u ? 0u : j == 1u ? 2u : j == 2u ? 4u : j == 3u ? 5u : 7u);
        uint m = stream_bits(b, start, length, base + m_offset, n);
        uint t = bitfieldExtract(lut[TEXDEC_ASTC_LUT_TRITS + packed], int(2u * j), 2);
        return (t << n) | m;
    }
    if (r.quints) {
        // "ASTC quint-based packing": 3 values per 7 + 3n bits; m_j at 0, n+3, 2n+5.
        uint group = index / 3u, j = index - group * 3u;
        uint base = group * (7u + 3u * n);
        uint packed = stream_bits(b, start, length, base + n, 3u)
                    | (stream_bits(b, start, length, base + 2u * n + 3u, 2u) << 3u)
                    | (stream_bits(b, start, length, base + 3u * n + 5u, 2u) << 5u);
        uint m_offset = j * n + (j == 0u ? 0u : j == 1u ? 3u : 5u);
        uint m = stream_bits(b, start, length, base + m_offset, n);
        uint q = bitfieldExtract(lut[TEXDEC_ASTC_LUT_QUINTS + packed], int(3u * j), 3);
        return (q << n) | m;
    }
    return stream_bits(b, start, length, index * n, n);
}

// ---- output codes ---------------------------------------------------------------------------------

const uint ERROR_ILLEGAL_BLOCK = 1u;   // illegal encoding, HDR void extent in LDR
const uint ERROR_HDR_ENDPOINTS = 2u;   // texel of a partition with an HDR endpoint mode

uvec4 error_codes(uint error) {
    if (!STORE_IS_HALF) return uvec4(255u, 0u, 255u, 255u);
    if (error == ERROR_ILLEGAL_BLOCK) return uvec4(0xFFFFu);
    return uvec4(TEXDEC_HALF_ONE, 0u, TEXDEC_HALF_ONE, TEXDEC_HALF_ONE);
}

// decode_float16 of a UNORM16 result C < 65535: C / 65536 converted to FP16 with round-to-zero
// ("Weight Application"). C = 2^k + rest with k = findMSB(C): exponent k - 16, mantissa the 10
// bits below the leading one (truncated); below 2^-14 (k < 2) the value is the subnormal C << 8.
uint half_from_unorm16_rtz(uint c) {
    if (c < 4u) return c << 8u;
    int k = findMSB(c);
    uint mantissa = k >= 10 ? (c >> uint(k - 10)) : (c << uint(10 - k));
    return (uint(k - 1) << 10u) | (mantissa & 0x3FFu);
}

// The output codes of the interpolated UNORM16 values ("Weight Application", LDR endpoint modes).
uvec4 unorm16_codes(uvec4 c) {
    uvec4 top = c >> 8u;  // decode_unorm8, and the sRGB bytes
    if (!STORE_IS_HALF) return top;
    uvec4 codes;
    for (int i = 0; i < 4; ++i) {
        if (IS_SRGB) codes[i] = texdec_half_from_ratio(top[i], 255u);
        else codes[i] = c[i] == 65535u ? TEXDEC_HALF_ONE : half_from_unorm16_rtz(c[i]);
    }
    return codes;
}

// ---- "Void-Extent Blocks" ---------------------------------------------------------------------------

uvec4 void_extent_codes(uvec4 b) {
    bool legal;
    if (IS_3D) {  // six 9-bit coordinates from bit 10; no reserved bits
        uint min_s = block_bits(b, 10u, 9u), max_s = block_bits(b, 19u, 9u);
        uint min_t = block_bits(b, 28u, 9u), max_t = block_bits(b, 37u, 9u);
        uint min_r = block_bits(b, 46u, 9u), max_r = block_bits(b, 55u, 9u);
        bool all_ones = (min_s & max_s & min_t & max_t & min_r & max_r) == 0x1FFu;
        legal = all_ones || (min_s < max_s && min_t < max_t && min_r < max_r);
    } else {  // "Bits 10 and 11 are reserved and must be 1", then four 13-bit coordinates
        uint min_s = block_bits(b, 12u, 13u), max_s = block_bits(b, 25u, 13u);
        uint min_t = block_bits(b, 38u, 13u), max_t = block_bits(b, 51u, 13u);
        bool all_ones = (min_s & max_s & min_t & max_t) == 0x1FFFu;
        legal = block_bits(b, 10u, 2u) == 3u && (all_ones || (min_s < max_s && min_t < max_t));
    }
    // Bit 9: the colour is FP16 (HDR), which an LDR operation mode decodes as the error colour.
    if (!legal || block_bits(b, 9u, 1u) != 0u) return error_codes(ERROR_ILLEGAL_BLOCK);
    // LDR: UNORM16 values that take the interpolator's output path.
    return unorm16_codes(uvec4(b.z & 0xFFFFu, b.z >> 16u, b.w & 0xFFFFu, b.w >> 16u));
}

// ---- "LDR Endpoint Decoding" -------------------------------------------------------------------------

void bit_transfer_signed(inout int a, inout int b) {
    b >>= 1;
    b |= a & 0x80;
    a >>= 1;
    a &= 0x3F;
    if ((a & 0x20) != 0) a -= 0x40;
}

ivec4 blue_contract(int r, int g, int b, int a) {
    return ivec4((r + b) >> 1, (g + b) >> 1, b, a);
}

// Endpoints e0, e1 (0..255) of an LDR endpoint mode from its unquantized values v.
void ldr_endpoints(uint cem, int v[8], out ivec4 e0, out ivec4 e1) {
    switch (cem) {
    case 0u:  // Luminance, direct
        e0 = ivec4(ivec3(v[0]), 255);
        e1 = ivec4(ivec3(v[1]), 255);
        break;
    case 1u: {  // Luminance, base+offset
        int l0 = (v[0] >> 2) | (v[1] & 0xC0);
        int l1 = min(l0 + (v[1] & 0x3F), 255);
        e0 = ivec4(ivec3(l0), 255);
        e1 = ivec4(ivec3(l1), 255);
        break;
    }
    case 4u:  // Luminance+Alpha, direct
        e0 = ivec4(ivec3(v[0]), v[2]);
        e1 = ivec4(ivec3(v[1]), v[3]);
        break;
    case 5u:  // Luminance+Alpha, base+offset
        bit_transfer_signed(v[1], v[0]);
        bit_transfer_signed(v[3], v[2]);
        e0 = ivec4(ivec3(v[0]), v[2]);
        e1 = ivec4(ivec3(v[0] + v[1]), v[2] + v[3]);
        break;
    case 6u:  // RGB, base+scale
        e0 = ivec4((v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 255);
        e1 = ivec4(v[0], v[1], v[2], 255);
        break;
    case 10u:  // RGB, base+scale plus two A
        e0 = ivec4((v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]);
        e1 = ivec4(v[0], v[1], v[2], v[5]);
        break;
    case 8u:
    case 12u: {  // RGB / RGBA, direct (alpha 0xFF for mode 8)
        int a0 = cem == 12u ? v[6] : 255, a1 = cem == 12u ? v[7] : 255;
        if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
            e0 = ivec4(v[0], v[2], v[4], a0);
            e1 = ivec4(v[1], v[3], v[5], a1);
        } else {
            e0 = blue_contract(v[1], v[3], v[5], a1);
            e1 = blue_contract(v[0], v[2], v[4], a0);
        }
        break;
    }
    default: {  // 9, 13: RGB / RGBA, base+offset
        bit_transfer_signed(v[1], v[0]);
        bit_transfer_signed(v[3], v[2]);
        bit_transfer_signed(v[5], v[4]);
        int a0 = 255, a1 = 255;
        if (cem == 13u) {
            bit_transfer_signed(v[7], v[6]);
            a0 = v[6];
            a1 = v[6] + v[7];
        }
        if (v[1] + v[3] + v[5] >= 0) {
            e0 = ivec4(v[0], v[2], v[4], a0);
            e1 = ivec4(v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
        } else {
            e0 = blue_contract(v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
            e1 = blue_contract(v[0], v[2], v[4], a0);
        }
        break;
    }
    }
    // clamp_unorm8 (a no-op for the modes that cannot leave 0..255)
    e0 = clamp(e0, 0, 255);
    e1 = clamp(e1, 0, 255);
}

// ---- weights ---------------------------------------------------------------------------------------

struct WeightGrid {
    uint w, h, d;
    uint range;
    bool dual_plane;
    uint bits;  // length of the weight stream
};

// Unquantized stored weight `index` of `plane` ("Weight Decoding": plane 0 and plane 1 weights
// alternate when dual-plane mode is on). `reversed` is the block with its bits reversed: "Bit n in
// the stream is thus bit 127-n in the block".
uint stored_weight(uvec4 reversed, WeightGrid g, IseRange r, uint index, uint plane) {
    uint value = ise_value(reversed, 0u, g.bits, r, g.dual_plane ? 2u * index + plane : index);
    return lut[TEXDEC_ASTC_LUT_WEIGHT_UNQ + g.range * 32u + value];
}

// D_s of "Weight Infill" for a block dimension (>= 2 for every ASTC footprint).
uint infill_scale(uint block_dim) {
    return (1024u + block_dim / 2u) / max(block_dim - 1u, 1u);
}

// "Weight Infill": the effective weight of texel `pos` for each plane (.y only in dual-plane mode).
uvec2 texel_weights(uvec4 reversed, WeightGrid g, uvec3 pos) {
    IseRange r = ise_range(g.range);
    uvec3 grid = uvec3(g.w, g.h, g.d);
    uvec3 c = uvec3(infill_scale(BLOCK_W), infill_scale(BLOCK_H), infill_scale(BLOCK_D)) * pos;
    uvec3 gpos = (c * (grid - 1u) + 32u) >> 6u;
    uvec3 j = gpos >> 4u;
    uvec3 f = gpos & 15u;
    uvec2 result = uvec2(0u);
    uint planes = g.dual_plane ? 2u : 1u;
    if (!IS_3D) {
        // Bilinear: corners whose factor is 0 are not read (they may lie outside the grid).
        uint v0 = j.x + j.y * g.w;
        uint w11 = (f.x * f.y + 8u) >> 4u;
        uint w10 = f.y - w11;
        uint w01 = f.x - w11;
        uint w00 = 16u - f.x - f.y + w11;
        for (uint p = 0u; p < planes; ++p) {
            uint sum = stored_weight(reversed, g, r, v0, p) * w00;
            if (w01 != 0u) sum += stored_weight(reversed, g, r, v0 + 1u, p) * w01;
            if (w10 != 0u) sum += stored_weight(reversed, g, r, v0 + g.w, p) * w10;
            if (w11 != 0u) sum += stored_weight(reversed, g, r, v0 + g.w + 1u, p) * w11;
            result[p] = (sum + 8u) >> 4u;
        }
    } else {
        // Simplex, "ASTC simplex interpolation parameters".
        uint row = g.w, slice = g.w * g.h;
        uint s1, s2, w0, w1, w2, w3;
        bool st = f.x > f.y, tr = f.y > f.z, sr = f.x > f.z;
        if (st && tr) { s1 = 1u; s2 = row; w0 = 16u - f.x; w1 = f.x - f.y; w2 = f.y - f.z; w3 = f.z; }
        else if (!st && tr && sr) { s1 = row; s2 = 1u; w0 = 16u - f.y; w1 = f.y - f.x; w2 = f.x - f.z; w3 = f.z; }
        else if (st && !tr && sr) { s1 = 1u; s2 = slice; w0 = 16u - f.x; w1 = f.x - f.z; w2 = f.z - f.y; w3 = f.y; }
        else if (st && !tr && !sr) { s1 = slice; s2 = 1u; w0 = 16u - f.z; w1 = f.z - f.x; w2 = f.x - f.y; w3 = f.y; }
        else if (!st && tr && !sr) { s1 = row; s2 = slice; w0 = 16u - f.y; w1 = f.y - f.z; w2 = f.z - f.x; w3 = f.x; }
        else { s1 = slice; s2 = row; w0 = 16u - f.z; w1 = f.z - f.y; w2 = f.y - f.x; w3 = f.x; }
        uint v0 = j.x + j.y * row + j.z * slice;
        for (uint p = 0u; p < planes; ++p) {
            uint sum = stored_weight(reversed, g, r, v0, p) * w0;
            if (w1 != 0u) sum += stored_weight(reversed, g, r, v0 + s1, p) * w1;
            if (w2 != 0u) sum += stored_weight(reversed, g, r, v0 + s1 + s2, p) * w2;
            if (w3 != 0u) sum += stored_weight(reversed, g, r, v0 + slice + row + 1u, p) * w3;
            result[p] = (sum + 8u) >> 4u;
        }
    }
    return result;
}

// ---- the texel ---------------------------------------------------------------------------------------

const uint HDR_ENDPOINT_MODES = 0xC88Cu;  // bit m set for modes 2, 3, 7, 11, 14, 15

// Number of values of an endpoint mode: 2 * (class + 1) ("ASTC color endpoint modes").
uint cem_value_count(uint cem) {
    return 2u * ((cem >> 2u) + 1u);
}

uvec4 decode_texel(uvec4 b, uvec3 pos) {
    if ((b.x & 0x1FFu) == 0x1FCu) return void_extent_codes(b);

    // "Block Mode", from the footprint's table (reserved and illegal modes are TEXDEC_ASTC_MODE_ERROR).
    uint mode = footprint_lut[TEXDEC_ASTC_LUT_MODES + (b.x & 0x7FFu)];
    if ((mode >> 25u) != TEXDEC_ASTC_MODE_WEIGHTS) return error_codes(ERROR_ILLEGAL_BLOCK);
    WeightGrid grid = WeightGrid(mode & 0xFu, (mode >> 4u) & 0xFu, (mode >> 8u) & 0xFu, (mode >> 12u) & 0xFu,
                                 ((mode >> 16u) & 1u) != 0u, (mode >> 17u) & 0xFFu);
    uint partitions = block_bits(b, 11u, 2u) + 1u;
    // "Dual-weight mode is enabled for a block with 4 partitions" is illegal.
    if (grid.dual_plane && partitions == 4u) return error_codes(ERROR_ILLEGAL_BLOCK);

    // "Color Endpoint Mode": one 4-bit mode per partition, packed in `cems`.
    uint weights_start = 128u - grid.bits;  // the weight stream grows down from bit 127
    uint color_start = 17u, extra_cem_bits = 0u, cems;
    if (partitions == 1u) {
        cems = block_bits(b, 13u, 4u);
    } else {
        color_start = 29u;
        uint selector = block_bits(b, 23u, 2u);
        if (selector == 0u) {
            cems = block_bits(b, 25u, 4u) * 0x1111u;  // one mode shared by every partition
        } else {
            // Bits 23..28 and the extra bits just below the weights: selector, class bits C_i,
            // then the 2-bit M_i fields ("ASTC multi-partition color endpoint mode layout").
            extra_cem_bits = 3u * partitions - 4u;
            uint field = block_bits(b, 23u, 6u) | (block_bits(b, weights_start - extra_cem_bits, extra_cem_bits) << 6u);
            cems = 0u;
            for (uint i = 0u; i < partitions; ++i) {
                uint cls = selector - 1u + bitfieldExtract(field, int(2u + i), 1);
                uint low = bitfieldExtract(field, int(2u + partitions + 2u * i), 2);
                cems |= ((cls << 2u) | low) << (4u * i);
            }
        }
    }
    uint ccs_bits = grid.dual_plane ? 2u : 0u;

    // "Data Size Determination": colour values, and the largest range that fits.
    uint value_count = 0u;
    for (uint i = 0u; i < partitions; ++i) value_count += cem_value_count((cems >> (4u * i)) & 0xFu);
    if (value_count > 18u) return error_codes(ERROR_ILLEGAL_BLOCK);
    int remaining = int(weights_start) - int(extra_cem_bits + ccs_bits) - int(color_start);
    if (remaining < 0) return error_codes(ERROR_ILLEGAL_BLOCK);
    uint color_range = lut[TEXDEC_ASTC_LUT_COLOR_RANGE + (value_count / 2u - 1u) * 128u + uint(remaining)];
    if (color_range == 0xFFu) return error_codes(ERROR_ILLEGAL_BLOCK);  // below 0..5

    // "Partition Pattern Generation", from the footprint's table.
    uint texel_partition = 0u;
    if (partitions > 1u) {
        uint seed = block_bits(b, 13u, 10u);
        uint texel = pos.x + BLOCK_W * (pos.y + BLOCK_H * pos.z);
        uint words_per_seed = (BLOCK_W * BLOCK_H * BLOCK_D + 15u) / 16u;
        uint word = footprint_lut[TEXDEC_ASTC_LUT_PARTITIONS + ((partitions - 2u) * 1024u + seed) * words_per_seed
                                  + texel / 16u];
        texel_partition = bitfieldExtract(word, int(2u * (texel % 16u)), 2);
    }
    uint cem = (cems >> (4u * texel_partition)) & 0xFu;
    // "Decoding from a HDR endpoint results in the error color" (LDR and sRGB operation modes),
    // for the texels of that partition only ("Illegal Encodings").
    if ((HDR_ENDPOINT_MODES & (1u << cem)) != 0u) return error_codes(ERROR_HDR_ENDPOINTS);

    // "Endpoint Unquantization" of this partition's values.
    uint first_value = 0u;
    for (uint i = 0u; i < texel_partition; ++i) first_value += cem_value_count((cems >> (4u * i)) & 0xFu);
    IseRange cr = ise_range(color_range);
    uint color_length = ise_length(cr, value_count);
    int v[8];
    uint count = cem_value_count(cem);
    for (uint i = 0u; i < 8u; ++i) {
        uint value = i < count ? ise_value(b, color_start, color_length, cr, first_value + i) : 0u;
        v[i] = int(lut[TEXDEC_ASTC_LUT_COLOR_UNQ + color_range * 256u + value]);
    }
    ivec4 e0, e1;
    ldr_endpoints(cem, v, e0, e1);

    // Weights ("Weight Infill", "Dual-Plane Decoding").
    uvec4 reversed = uvec4(bitfieldReverse(b.w), bitfieldReverse(b.z), bitfieldReverse(b.y), bitfieldReverse(b.x));
    uvec2 weights = texel_weights(reversed, grid, pos);
    uvec4 w = uvec4(weights.x);
    if (grid.dual_plane) w[block_bits(b, weights_start - extra_cem_bits - 2u, 2u)] = weights.y;

    // "Weight Application", LDR endpoint modes: expand to 16 bits and interpolate.
    uvec4 c0 = IS_SRGB ? (uvec4(e0) << 8u) | 0x80u : uvec4(e0) * 257u;
    uvec4 c1 = IS_SRGB ? (uvec4(e1) << 8u) | 0x80u : uvec4(e1) * 257u;
    return unorm16_codes((c0 * (64u - w) + c1 * w + 32u) >> 6u);
}

void main() {
    uvec3 texel = gl_GlobalInvocationID;  // relative to the chunk
    if (texel.x >= pc.width || texel.y >= pc.height || texel.z >= pc.depth) return;
    uvec3 footprint = uvec3(BLOCK_W, BLOCK_H, BLOCK_D);
    uvec3 block = texel / footprint;
    uint first_word = texdec_src_block_word(block, 4u);
    uvec4 b = uvec4(src_words[first_word], src_words[first_word + 1u], src_words[first_word + 2u],
                    src_words[first_word + 3u]);
    texdec_store_texel(texel, decode_texel(b, texel - block * footprint));
}
