// ASTC decoder: LDR, sRGB and HDR operation modes, 2D and 3D footprints.
// Khronos Data Format Specification, "ASTC Compressed Texture Image Formats";
// the quoted names below are that chapter's sections.
//
// A workgroup decodes a tile of TILE_BX x TILE_BY blocks of one block slice, in four steps
// separated by barriers, so that block-level work is done once per block instead of once per texel:
//   1. one invocation per block: block mode (through the footprint's table), partition count and
//      seed, colour endpoint modes, colour range and every check of "Illegal Encodings"; a void
//      extent stores its colour as the block's endpoints.
//   2. one invocation per group of values (a trit block of 5, a quint block of 3, or 4 plain
//      values) of the weight and colour integer sequences, unquantized into shared memory; groups
//      are found by random access, so these invocations are independent.
//   3. one invocation per partition: its two endpoints, expanded to UNORM16.
//   4. every invocation decodes several texels: partition, weight infill, interpolation, store.
// Measured on an NVIDIA H100, this is several times faster than one invocation per texel that
// redoes the block-level work for each texel (README, Performance).
//
// Footprint: specialization constants BLOCK_W/H/D; the tile follows from them
// (TEXDEC_ASTC_TILE_BLOCKS_X/Y in interface.h, which the host also uses to size the dispatch).
// SRGB: sRGB operation mode (endpoint expansion C << 8 | 0x80). STORE: RGBA8 = decode_unorm8 (the
// top 8 bits of the UNORM16 result; sRGB bytes stay encoded), RGBA16F = decode_float16 (linear)
// or the sRGB byte v as v / 255 (sRGB formats).
// VARIANT (interface.h, TEXDEC_ASTC_LDR / _HDR): the operation mode. HDR (the -sfloat formats,
// RGBA16F only) decodes HDR endpoint modes and HDR void extents instead of giving the error
// colour: step 3 stores the 12-bit HDR endpoint values shifted left by 4 in the same 16-bit
// slots as UNORM16 ones, step 1 marks per partition which channels are HDR, and step 4
// interpolates both alike, then converts each channel by its kind ("Weight Application"). In
// the LDR variant every IS_HDR branch is a specialization constant false: compiled away.
// Error colours (docs/EXACTNESS.md, "ASTC error colours"): RGBA8 magenta; RGBA16F four NaNs (0xFFFF) for
// illegal blocks and (LDR) HDR void extents, magenta (1, 0, 1, 1) for texels of a partition whose
// endpoint mode is HDR (LDR). sRGB formats: magenta (1, 0, 1, 1) for every error in RGBA16F too
// (the spec's table gives magenta in sRGB operation mode for every decode mode).
#version 450
#extension GL_GOOGLE_include_directive : require

#define TEXDEC_ASTC_TILED
#include "interface.h"
#include "common/layout.glsl"
#include "common/bits.glsl"
#include "common/encode.glsl"
#include "common/store.glsl"

layout(constant_id = TEXDEC_SC_BLOCK_W) const uint BLOCK_W = 4u;
layout(constant_id = TEXDEC_SC_BLOCK_H) const uint BLOCK_H = 4u;
layout(constant_id = TEXDEC_SC_BLOCK_D) const uint BLOCK_D = 1u;
const bool IS_3D = BLOCK_D > 1u;
const bool IS_SRGB = SRGB != 0u;
const bool IS_HDR = VARIANT == TEXDEC_ASTC_HDR;

// The tile of one workgroup (the host checks that every footprint's tile fits the arrays below).
const uint TILE_BX = TEXDEC_ASTC_TILE_BLOCKS_X(BLOCK_W);
const uint TILE_BY = TEXDEC_ASTC_TILE_BLOCKS_Y(BLOCK_H, BLOCK_D);
const uint TILE_BLOCKS = TILE_BX * TILE_BY;
const uint TILE_W = TILE_BX * BLOCK_W;
const uint TILE_H = TILE_BY * BLOCK_H;
const uint TILE_TEXELS = TILE_W * TILE_H * BLOCK_D;
const uint GROUP_SIZE = gl_WorkGroupSize.x;  // a specialization constant (layout.glsl)
// Stored weights per block, at most ("Illegal Encodings": no more than 64, and the grid is no
// larger than the footprint, so no more than 2 per texel).
const uint MAX_WEIGHTS = TEXDEC_ASTC_MAX_WEIGHTS(BLOCK_W * BLOCK_H * BLOCK_D);
// Groups of values (ise_group) per block, at most: quint groups of 3 are the smallest.
const uint WEIGHT_GROUPS = (MAX_WEIGHTS + 2u) / 3u;
const uint COLOUR_GROUPS = 6u;  // 18 values

layout(std430, set = 0, binding = TEXDEC_BINDING_LUT) readonly buffer SharedLut {
    uint lut[];
};
layout(std430, set = 0, binding = TEXDEC_BINDING_FOOTPRINT_LUT) readonly buffer FootprintLut {
    uint footprint_lut[];
};

// Copies of the small shared tables (trits, quints, weight unquantization: the first
// TEXDEC_ASTC_LUT_COLOUR_UNQ words of `lut`), read many times per block.
shared uint s_lut[TEXDEC_ASTC_LUT_COLOUR_UNQ];

// What step 1 leaves for each block of the tile.
const uint BLOCK_ERROR = 0u;     // every texel takes the error colour (or the block is outside the extent)
const uint BLOCK_CONSTANT = 1u;  // LDR void extent: its colour is endpoint pair 0, weight 0
const uint BLOCK_WEIGHTS = 2u;   // stored weights and endpoints follow
const uint BLOCK_CONSTANT_F16 = 3u;  // HDR void extent (HDR variant): endpoint pair 0 holds its FP16 output codes
shared uvec4 s_block[TEXDEC_ASTC_TILE_MAX_BLOCKS];  // the 128 bits
shared uint s_state[TEXDEC_ASTC_TILE_MAX_BLOCKS];   // TEXDEC_ASTC_STATE_* fields (interface.h)
shared uint s_mode[TEXDEC_ASTC_TILE_MAX_BLOCKS];    // the footprint table's block mode word
shared uint s_colour[TEXDEC_ASTC_TILE_MAX_BLOCKS];  // TEXDEC_ASTC_COLOUR_* fields (interface.h)
// Per-value arrays are value-major, [value * TILE_STRIDE + block]: the invocations of step 2 that
// decode the same value of consecutive blocks write consecutive words, and TILE_STRIDE is odd so
// that the texels of step 4, which read different values of a few blocks, spread over the banks.
const uint TILE_STRIDE = TILE_BLOCKS | 1u;
// Unquantized stored weights (0..64), in stream order (the two planes alternate in dual-plane
// mode, "Weight Decoding").
shared uint s_weights[TEXDEC_ASTC_TILE_MAX_WEIGHTS];
// Unquantized colour values (0..255), at most 18 per block.
shared uint s_colour_values[18 * (TEXDEC_ASTC_TILE_MAX_BLOCKS + 1)];
// Endpoints of partition p of block i at [4 * i + p]: UNORM16 C0.rg, C0.ba, C1.rg, C1.ba (16 bits each;
// an HDR channel holds its 12-bit value << 4, an HDR void extent its FP16 codes).
shared uvec4 s_endpoints[4 * TEXDEC_ASTC_TILE_MAX_BLOCKS];

// ---- bits ---------------------------------------------------------------------------------------

// Bits [offset, offset + count) of an integer sequence that starts at bit `start` of `b` and is
// `length` bits long. "If there are insufficient bits in the stream to fill the final block, then
// unused (higher-order) bits are assumed to be 0": bits past the end read as 0.
uint stream_bits(uvec4 b, uint start, uint length, uint offset, uint count) {
    if (offset >= length) return 0u;
    return texdec_bits128(b, start + offset, min(count, length - offset));
}

// ---- "Integer Sequence Encoding" ----------------------------------------------------------------

struct IseRange {
    uint bits;  // n
    bool trits;
    bool quints;
};

// Range r of the ISE range table, from constants (interface.h, TEXDEC_ASTC_ISE_*), not memory.
IseRange ise_range(uint range) {
    uint word = range < 8u ? TEXDEC_ASTC_ISE_BITS_0_7 : range < 16u ? TEXDEC_ASTC_ISE_BITS_8_15 : TEXDEC_ASTC_ISE_BITS_16_20;
    return IseRange(bitfieldExtract(word, int(4u * (range & 7u)), 4), ((TEXDEC_ASTC_ISE_TRIT_RANGES >> range) & 1u) != 0u,
                    ((TEXDEC_ASTC_ISE_QUINT_RANGES >> range) & 1u) != 0u);
}

// "Data Size Determination": bits used by `count` values.
uint ise_length(IseRange r, uint count) {
    return (count * 8u * uint(r.trits) + 4u) / 5u + (count * 7u * uint(r.quints) + 2u) / 3u + count * r.bits;
}

// Values decoded together: a trit block holds 5, a quint block 3; plain bits are taken 4 at a time.
uint ise_group_size(IseRange r) {
    return r.trits ? 5u : r.quints ? 3u : 4u;
}

// Bits [offset, offset + 64) of a sequence that starts at bit `start` of `b` and is `length`
// bits long, as (low word, high word). "If there are insufficient bits in the stream to fill the
// final block, then unused (higher-order) bits are assumed to be 0".
uvec2 stream_bits64(uvec4 b, uint start, uint length, uint offset) {
    return uvec2(stream_bits(b, start, length, offset, 32u), stream_bits(b, start, length, offset + 32u, 32u));
}

// Bits [p, p + w) of a 64-bit value (p < 64, w <= 8).
uint bits64(uvec2 v, uint p, uint w) {
    uint low = p >= 32u ? v.y >> (p - 32u) : (v.x >> p) | ((v.y << 1u) << (31u - p));
    return bitfieldExtract(low, 0, int(w));
}

// Group `group` of a sequence of range `r` stored from bit `start` of `b`, `length` bits long:
// values group * ise_group_size(r) + i for i < ise_group_size(r), in `values`. A group is at
// most 8 + 5 * 6 = 38 bits: it is read once, then split.
//
// "ASTC trit-based packing": 5 values in 8 + 5n bits, value j's n bits m_j at j n + O_j with
// O = (0, 2, 4, 5, 7), each followed by the O_{j+1} - O_j bits of T that go to T bit O_j (O_5 = 8).
// "ASTC quint-based packing" is the same with 3 values, O = (0, 3, 5), O_3 = O_4 = O_5 = 7. Plain bits
// are the same with O = 0. One branch-free path serves all three, so the blocks of a warp, which
// mix the three kinds, do not diverge.
void ise_group(uvec4 b, uint start, uint length, IseRange r, uint group, out uint values[5]) {
    uint n = r.bits;
    // O_0..O_5 as nibbles; digit bits and table offset of the T / Q decoding tables.
    uint offsets = r.trits ? 0x875420u : r.quints ? 0x777530u : 0u;
    uint group_bits = r.trits ? 8u + 5u * n : r.quints ? 7u + 3u * n : 4u * n;
    uvec2 g = stream_bits64(b, start, length, group * group_bits);
    uint packed = 0u;
    for (uint j = 0u; j < 5u; ++j) {
        uint o = bitfieldExtract(offsets, int(4u * j), 4), next = bitfieldExtract(offsets, int(4u * j + 4u), 4);
        packed |= bits64(g, (j + 1u) * n + o, next - o) << o;
    }
    uint digits = r.trits ? s_lut[TEXDEC_ASTC_LUT_TRITS + packed] : r.quints ? s_lut[TEXDEC_ASTC_LUT_QUINTS + packed] : 0u;
    uint digit_bits = r.trits ? 2u : r.quints ? 3u : 0u;
    for (uint j = 0u; j < 5u; ++j) {
        uint o = bitfieldExtract(offsets, int(4u * j), 4);
        values[j] = (bitfieldExtract(digits, int(digit_bits * j), int(digit_bits)) << n) | bits64(g, j * n + o, n);
    }
}

// ---- output codes ---------------------------------------------------------------------------------

const uint ERROR_ILLEGAL_BLOCK = 1u;   // illegal encoding, HDR void extent in LDR
const uint ERROR_HDR_ENDPOINTS = 2u;   // texel of a partition with an HDR endpoint mode

uvec4 error_codes(uint error) {
    if (!STORE_IS_HALF) return uvec4(255u, 0u, 255u, 255u);
    // NaN only in the linear modes; sRGB operation mode has no NaN error colour ("ASTC error colors").
    if (error == ERROR_ILLEGAL_BLOCK && !IS_SRGB) return uvec4(0xFFFFu);
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

// decode_float16 of any UNORM16 result: 65535 is 1.0 exactly.
uint half_from_unorm16(uint c) {
    return c == 65535u ? TEXDEC_HALF_ONE : half_from_unorm16_rtz(c);
}

// The output codes of the interpolated UNORM16 values ("Weight Application", LDR endpoint modes).
uvec4 unorm16_codes(uvec4 c) {
    uvec4 top = c >> 8u;  // decode_unorm8, and the sRGB bytes
    if (!STORE_IS_HALF) return top;
    uvec4 codes;
    for (int i = 0; i < 4; ++i) {
        if (IS_SRGB) codes[i] = texdec_half_from_ratio(top[i], 255u);
        else codes[i] = half_from_unorm16(c[i]);
    }
    return codes;
}

// "Weight Application", HDR endpoint modes: the FP16 bits C_f of an interpolated 16-bit value C
// (E = C >> 11, M = C & 0x7FF, a piecewise-linear mantissa); +Inf and NaN become 0x7BFF.
uint half_from_hdr16(uint c) {
    uint m = c & 0x7FFu;
    uint mt = m < 512u ? 3u * m : m >= 1536u ? 5u * m - 2048u : 4u * m - 512u;
    return min(((c >> 11u) << 10u) + (mt >> 3u), 0x7BFFu);
}

// HDR variant: the FP16 codes of an interpolated value whose channels are HDR where `hdr` is set
// and UNORM16 (decode_float16 of the LDR endpoint modes, "Weight Application") elsewhere.
uvec4 hdr_variant_codes(uvec4 c, bvec4 hdr) {
    uvec4 codes;
    for (int i = 0; i < 4; ++i)
        codes[i] = hdr[i] ? half_from_hdr16(c[i]) : half_from_unorm16(c[i]);
    return codes;
}

// ---- step 1: block-level state ---------------------------------------------------------------------

const uint HDR_ENDPOINT_MODES = 0xC88Cu;  // bit m set for modes 2, 3, 7, 11, 14, 15

// Number of values of an endpoint mode: 2 * (class + 1) ("ASTC color endpoint modes").
uint cem_value_count(uint cem) {
    return 2u * ((cem >> 2u) + 1u);
}

// "Void-Extent Blocks": BLOCK_CONSTANT with the colour as both endpoints, BLOCK_CONSTANT_F16
// (HDR variant), or BLOCK_ERROR.
uint setup_void_extent(uint tile_block, uvec4 b) {
    bool legal;
    if (IS_3D) {  // six 9-bit coordinates from bit 10; no reserved bits
        uint min_s = texdec_bits128(b, 10u, 9u), max_s = texdec_bits128(b, 19u, 9u);
        uint min_t = texdec_bits128(b, 28u, 9u), max_t = texdec_bits128(b, 37u, 9u);
        uint min_r = texdec_bits128(b, 46u, 9u), max_r = texdec_bits128(b, 55u, 9u);
        bool all_ones = (min_s & max_s & min_t & max_t & min_r & max_r) == 0x1FFu;
        legal = all_ones || (min_s < max_s && min_t < max_t && min_r < max_r);
    } else {  // "Bits 10 and 11 are reserved and must be 1", then four 13-bit coordinates
        uint min_s = texdec_bits128(b, 12u, 13u), max_s = texdec_bits128(b, 25u, 13u);
        uint min_t = texdec_bits128(b, 38u, 13u), max_t = texdec_bits128(b, 51u, 13u);
        bool all_ones = (min_s & max_s & min_t & max_t) == 0x1FFFu;
        legal = texdec_bits128(b, 10u, 2u) == 3u && (all_ones || (min_s < max_s && min_t < max_t));
    }
    if (!legal) return BLOCK_ERROR;
    // Bit 9: the colour is FP16 (HDR), which an LDR operation mode decodes as the error colour.
    if (texdec_bits128(b, 9u, 1u) != 0u) {
        if (!IS_HDR) return BLOCK_ERROR;
        // The FP16 values are the output ("directly provide the HDR values of C_f"). Infinity and
        // NaN are undefined there; like astcenc 4.2 (measured), a signalling NaN is made quiet
        // (bit 9 of the half set) and every other value is kept bit for bit.
        uvec4 h = uvec4(b.z & 0xFFFFu, b.z >> 16u, b.w & 0xFFFFu, b.w >> 16u);
        h |= mix(uvec4(0u), uvec4(0x200u), greaterThan(h & 0x7FFFu, uvec4(0x7C00u)));
        s_endpoints[4u * tile_block] = uvec4(h.x | (h.y << 16u), h.z | (h.w << 16u), 0u, 0u);
        return BLOCK_CONSTANT_F16;
    }
    // LDR: UNORM16 R | G << 16, B | A << 16 in words 2 and 3. With weight 0 the interpolation
    // gives back C0 exactly: (64 C + 32) >> 6 = C.
    s_endpoints[4u * tile_block] = uvec4(b.z, b.w, b.z, b.w);
    return BLOCK_CONSTANT;
}

// Block `tile_block` of the tile (column, row, slice) relative to the chunk; false when it lies
// wholly outside the extent.
bool tile_block_coords(uint tile_block, out uvec3 block) {
    block = uvec3(texdec_group.x * TILE_BX + tile_block % TILE_BX, texdec_group.y * TILE_BY + tile_block / TILE_BX,
                  texdec_group.z);
    return block.x * BLOCK_W < pc.width && block.y * BLOCK_H < pc.height && block.z * BLOCK_D < pc.depth + pc.dst_z_skip;
}

// Step 0: the tile's blocks into s_block, one word per invocation (coalesced), and the small
// tables into s_lut.
void load_tile(uint id) {
    for (uint word = id; word < TILE_BLOCKS * 4u; word += GROUP_SIZE) {
        uvec3 block;
        uint tile_block = word >> 2u;
        bool inside = tile_block_coords(tile_block, block);
        s_block[tile_block][word & 3u] = inside ? src_words[texdec_src_block_word(block, 4u) + (word & 3u)] : 0u;
    }
    for (uint i = id; i < TEXDEC_ASTC_LUT_COLOUR_UNQ; i += GROUP_SIZE) s_lut[i] = lut[i];
}

// Step 1: the state of block `tile_block` into s_state and friends.
void setup_block(uint tile_block) {
    uvec3 block;
    s_state[tile_block] = BLOCK_ERROR;
    if (!tile_block_coords(tile_block, block)) return;
    uvec4 b = s_block[tile_block];
    if ((b.x & 0x1FFu) == 0x1FCu) {
        s_state[tile_block] = setup_void_extent(tile_block, b);
        return;
    }

    // "Block Mode", from the footprint's table (reserved and illegal modes are TEXDEC_ASTC_MODE_ERROR).
    uint mode = footprint_lut[TEXDEC_ASTC_LUT_MODES + (b.x & 0x7FFu)];
    if (TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_KIND) != TEXDEC_ASTC_MODE_WEIGHTS) return;
    bool dual_plane = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_DUAL_PLANE) != 0u;
    uint weight_bits = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_WEIGHT_BITS);
    uint partitions = texdec_bits128(b, 11u, 2u) + 1u;
    // "Dual-weight mode is enabled for a block with 4 partitions" is illegal.
    if (dual_plane && partitions == 4u) return;

    // "Color Endpoint Mode": one 4-bit mode per partition, packed in `cems`.
    uint weights_start = 128u - weight_bits;  // the weight stream grows down from bit 127
    uint colour_start = 17u, extra_cem_bits = 0u, cems;
    if (partitions == 1u) {
        cems = texdec_bits128(b, 13u, 4u);
    } else {
        colour_start = 29u;
        uint selector = texdec_bits128(b, 23u, 2u);
        if (selector == 0u) {
            cems = texdec_bits128(b, 25u, 4u) * 0x1111u;  // one mode shared by every partition
        } else {
            // Bits 23..28 and the extra bits just below the weights: selector, class bits C_i,
            // then the 2-bit M_i fields ("ASTC multi-partition color endpoint mode layout").
            extra_cem_bits = 3u * partitions - 4u;
            uint field = texdec_bits128(b, 23u, 6u) | (texdec_bits128(b, weights_start - extra_cem_bits, extra_cem_bits) << 6u);
            cems = 0u;
            for (uint i = 0u; i < partitions; ++i) {
                uint cls = selector - 1u + bitfieldExtract(field, int(2u + i), 1);
                uint low = bitfieldExtract(field, int(2u + partitions + 2u * i), 2);
                cems |= ((cls << 2u) | low) << (4u * i);
            }
        }
    }
    uint ccs_bits = dual_plane ? 2u : 0u;

    // "Data Size Determination": colour values, and the largest range that fits.
    uint value_count = 0u, hdr_partitions = 0u, hdr_alpha_partitions = 0u;
    for (uint i = 0u; i < partitions; ++i) {
        uint cem = (cems >> (4u * i)) & 0xFu;
        value_count += cem_value_count(cem);
        // LDR variant: "Decoding from a HDR endpoint results in the error color" (LDR and sRGB
        // operation modes), for the texels of that partition only ("Illegal Encodings").
        // HDR variant: the partition's RGB are HDR, and so is its alpha except in mode 14
        // ("HDR Endpoint Mode 14": LDR alpha).
        uint hdr = (HDR_ENDPOINT_MODES >> cem) & 1u;
        hdr_partitions |= hdr << i;
        if (IS_HDR) hdr_alpha_partitions |= (cem != 14u ? hdr : 0u) << i;
    }
    if (value_count > 18u) return;
    int remaining = int(weights_start) - int(extra_cem_bits + ccs_bits) - int(colour_start);
    if (remaining < 0) return;
    uint colour_range = lut[TEXDEC_ASTC_LUT_COLOUR_RANGE + (value_count / 2u - 1u) * 128u + uint(remaining)];
    if (colour_range == 0xFFu) return;  // below 0..5: illegal

    uint ccs = dual_plane ? texdec_bits128(b, weights_start - extra_cem_bits - 2u, 2u) : 0u;
    uint seed = partitions > 1u ? texdec_bits128(b, 13u, 10u) : 0u;
    s_mode[tile_block] = mode;
    s_colour[tile_block] = TEXDEC_FIELD_PUT(cems, TEXDEC_ASTC_COLOUR_CEMS) | TEXDEC_FIELD_PUT(value_count, TEXDEC_ASTC_COLOUR_VALUE_COUNT) |
                           TEXDEC_FIELD_PUT(colour_range, TEXDEC_ASTC_COLOUR_RANGE) | TEXDEC_FIELD_PUT(colour_start, TEXDEC_ASTC_COLOUR_START);
    uint state = TEXDEC_FIELD_PUT(BLOCK_WEIGHTS, TEXDEC_ASTC_STATE_KIND) | TEXDEC_FIELD_PUT(partitions - 1u, TEXDEC_ASTC_STATE_PARTITIONS) |
                 TEXDEC_FIELD_PUT(seed, TEXDEC_ASTC_STATE_SEED) | TEXDEC_FIELD_PUT(ccs, TEXDEC_ASTC_STATE_CCS) |
                 TEXDEC_FIELD_PUT(hdr_partitions, TEXDEC_ASTC_STATE_HDR);
    if (IS_HDR) state |= TEXDEC_FIELD_PUT(hdr_alpha_partitions, TEXDEC_ASTC_STATE_HDR_ALPHA);
    s_state[tile_block] = state;
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

// ---- "HDR Endpoint Decoding" (HDR variant) -------------------------------------------------------
// 12-bit values, 0..0xFFF (pseudo-logarithmic); the spec's code, with its names.

// "HDR Endpoint Mode 11": the RGB of e0 and e1 from v[0..5] (also the RGB of modes 14 and 15).
void hdr_rgb_endpoints(int v[8], out ivec3 e0, out ivec3 e1) {
    int majcomp = ((v[4] & 0x80) >> 7) | ((v[5] & 0x80) >> 6);
    if (majcomp == 3) {  // "the RGB values are specified directly"
        e0 = ivec3(v[0] << 4, v[2] << 4, (v[4] & 0x7F) << 5);
        e1 = ivec3(v[1] << 4, v[3] << 4, (v[5] & 0x7F) << 5);
        return;
    }
    int mode = ((v[1] & 0x80) >> 7) | ((v[2] & 0x80) >> 6) | ((v[3] & 0x80) >> 5);
    int va = v[0] | ((v[1] & 0x40) << 2);
    int vb0 = v[2] & 0x3F, vb1 = v[3] & 0x3F;
    int vc = v[1] & 0x3F;
    // signextend(vd, dbitstab[mode]) with dbitstab = {7, 6, 7, 6, 5, 6, 5, 6}
    int dbits = mode == 4 || mode == 6 ? 5 : (mode & 1) != 0 ? 6 : 7;
    int vd0 = bitfieldExtract(v[4] & 0x7F, 0, dbits), vd1 = bitfieldExtract(v[5] & 0x7F, 0, dbits);
    int x0 = (v[2] >> 6) & 1, x1 = (v[3] >> 6) & 1, x2 = (v[4] >> 6) & 1;
    int x3 = (v[5] >> 6) & 1, x4 = (v[4] >> 5) & 1, x5 = (v[5] >> 5) & 1;
    int ohm = 1 << mode;
    if ((ohm & 0xA4) != 0) va |= x0 << 9;
    if ((ohm & 0x08) != 0) va |= x2 << 9;
    if ((ohm & 0x50) != 0) va |= x4 << 9;
    if ((ohm & 0x50) != 0) va |= x5 << 10;
    if ((ohm & 0xA0) != 0) va |= x1 << 10;
    if ((ohm & 0xC0) != 0) va |= x2 << 11;
    if ((ohm & 0x04) != 0) vc |= x1 << 6;
    if ((ohm & 0xE8) != 0) vc |= x3 << 6;
    if ((ohm & 0x20) != 0) vc |= x2 << 7;
    if ((ohm & 0x5B) != 0) vb0 |= x0 << 6;
    if ((ohm & 0x5B) != 0) vb1 |= x1 << 6;
    if ((ohm & 0x12) != 0) vb0 |= x2 << 7;
    if ((ohm & 0x12) != 0) vb1 |= x3 << 7;
    // The spec writes "(modeval >> 1) ^ 3"; mode 11 has no modeval: `mode` is meant (a gets 9,
    // 9, 10, 10, 11, 11, 12, 12 bits, and this puts its top bit at bit 11).
    int shamt = (mode >> 1) ^ 3;
    va <<= shamt, vb0 <<= shamt, vb1 <<= shamt, vc <<= shamt, vd0 <<= shamt, vd1 <<= shamt;
    e1 = clamp(ivec3(va, va - vb0, va - vb1), 0, 0xFFF);
    e0 = clamp(ivec3(va - vc, va - vb0 - vc - vd0, va - vb1 - vc - vd1), 0, 0xFFF);
    if (majcomp == 1) {
        e0 = e0.grb, e1 = e1.grb;
    } else if (majcomp == 2) {
        e0 = e0.bgr, e1 = e1.bgr;
    }
}

// "HDR Endpoint Mode 7": base RGB and a scale.
void hdr_rgbo_endpoints(int v[8], out ivec3 e0, out ivec3 e1) {
    int modeval = ((v[0] & 0xC0) >> 6) | ((v[1] & 0x80) >> 5) | ((v[2] & 0x80) >> 4);
    int majcomp, mode;
    if ((modeval & 0xC) != 0xC) {
        majcomp = modeval >> 2, mode = modeval & 3;
    } else if (modeval != 0xF) {
        majcomp = modeval & 3, mode = 4;
    } else {
        majcomp = 0, mode = 5;
    }
    int red = v[0] & 0x3F, green = v[1] & 0x1F, blue = v[2] & 0x1F, scale = v[3] & 0x1F;
    int x0 = (v[1] >> 6) & 1, x1 = (v[1] >> 5) & 1, x2 = (v[2] >> 6) & 1, x3 = (v[2] >> 5) & 1;
    int x4 = (v[3] >> 7) & 1, x5 = (v[3] >> 6) & 1, x6 = (v[3] >> 5) & 1;
    int ohm = 1 << mode;
    if ((ohm & 0x30) != 0) green |= x0 << 6;
    if ((ohm & 0x3A) != 0) green |= x1 << 5;
    if ((ohm & 0x30) != 0) blue |= x2 << 6;
    if ((ohm & 0x3A) != 0) blue |= x3 << 5;
    if ((ohm & 0x3D) != 0) scale |= x6 << 5;
    if ((ohm & 0x2D) != 0) scale |= x5 << 6;
    if ((ohm & 0x04) != 0) scale |= x4 << 7;
    if ((ohm & 0x3B) != 0) red |= x4 << 6;
    if ((ohm & 0x04) != 0) red |= x3 << 6;
    if ((ohm & 0x10) != 0) red |= x5 << 7;
    if ((ohm & 0x0F) != 0) red |= x2 << 7;
    if ((ohm & 0x05) != 0) red |= x1 << 8;
    if ((ohm & 0x0A) != 0) red |= x0 << 8;
    if ((ohm & 0x05) != 0) red |= x0 << 9;
    if ((ohm & 0x02) != 0) red |= x6 << 9;
    if ((ohm & 0x01) != 0) red |= x3 << 10;
    if ((ohm & 0x02) != 0) red |= x5 << 10;
    int shamt = max(mode, 1);  // shamts = {1, 1, 2, 3, 4, 5}
    ivec3 c = ivec3(red, green, blue) << shamt;
    scale <<= shamt;
    if (mode != 5) c.gb = c.r - c.gb;  // minor components are differences
    if (majcomp == 1) {
        c = c.grb;
    } else if (majcomp == 2) {
        c = c.bgr;
    }
    e1 = clamp(c, 0, 0xFFF);
    e0 = clamp(c - scale, 0, 0xFFF);
}

// Endpoints of an HDR endpoint mode (2, 3, 7, 11, 14, 15) from its unquantized values v: RGB
// (and alpha, except mode 14's 8-bit LDR alpha) as 12-bit values.
void hdr_endpoints(uint cem, int v[8], out ivec4 e0, out ivec4 e1) {
    const int one = 0x780;  // "0x780 is 1.0f"
    switch (cem) {
    case 2u: {  // "HDR Endpoint Mode 2": luminance, large range
        int y0 = v[1] >= v[0] ? v[0] << 4 : (v[1] << 4) + 8;
        int y1 = v[1] >= v[0] ? v[1] << 4 : (v[0] << 4) - 8;
        e0 = ivec4(ivec3(y0), one);
        e1 = ivec4(ivec3(y1), one);
        break;
    }
    case 3u: {  // "HDR Endpoint Mode 3": luminance, small range; bit 7 of v0 is the mode bit M
        bool m = (v[0] & 0x80) != 0;
        int y0 = m ? ((v[1] & 0xE0) << 4) | ((v[0] & 0x7F) << 2) : ((v[1] & 0xF0) << 4) | ((v[0] & 0x7F) << 1);
        int d = m ? (v[1] & 0x1F) << 2 : (v[1] & 0x0F) << 1;
        e0 = ivec4(ivec3(y0), one);
        e1 = ivec4(ivec3(min(y0 + d, 0xFFF)), one);
        break;
    }
    case 7u: {
        ivec3 c0, c1;
        hdr_rgbo_endpoints(v, c0, c1);
        e0 = ivec4(c0, one);
        e1 = ivec4(c1, one);
        break;
    }
    default: {  // 11, 14, 15
        ivec3 c0, c1;
        hdr_rgb_endpoints(v, c0, c1);
        int a0 = one, a1 = one;
        if (cem == 14u) {  // "HDR Endpoint Mode 14": 8-bit LDR alpha, interpolated as in the LDR modes
            a0 = v[6], a1 = v[7];
        } else if (cem == 15u) {  // "HDR Endpoint Mode 15": HDR alpha, a mode M and two values
            int mode = ((v[6] >> 7) & 1) | ((v[7] >> 6) & 2);
            int v6 = v[6] & 0x7F, v7 = v[7] & 0x7F;
            if (mode == 3) {
                a0 = v6 << 5, a1 = v7 << 5;
            } else {
                // Transfer bits from v7 to v6 and sign-extend v7, then add it as a delta.
                v6 |= (v7 << (mode + 1)) & 0x780;
                v7 &= 0x3F >> mode;
                v7 ^= 0x20 >> mode;
                v7 -= 0x20 >> mode;
                v6 <<= 4 - mode;
                v7 <<= 4 - mode;
                a0 = v6, a1 = clamp(v7 + v6, 0, 0xFFF);
            }
        }
        e0 = ivec4(c0, a0);
        e1 = ivec4(c1, a1);
        break;
    }
    }
}

// ---- steps 2 and 3: stored weights, colour values, endpoints -----------------------------------

// Weight grid of a block mode word: w, h, d.
uvec3 grid_size(uint mode) {
    return uvec3(TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_GRID_W), TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_GRID_H),
                 TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_GRID_D));
}

bool is_dual_plane(uint mode) {
    return TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_DUAL_PLANE) != 0u;
}

// Group `group` (see ise_group) of the stored weights of a tile block, unquantized
// ("Weight Unquantization"). Nothing for a group past the block's last weight.
void decode_weight_group(uint tile_block, uint group) {
    if (TEXDEC_FIELD(s_state[tile_block], TEXDEC_ASTC_STATE_KIND) != BLOCK_WEIGHTS) return;
    uint mode = s_mode[tile_block];
    uvec3 grid = grid_size(mode);
    uint count = grid.x * grid.y * grid.z * (is_dual_plane(mode) ? 2u : 1u);
    uint range = TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_WEIGHT_RANGE);
    IseRange r = ise_range(range);
    uint first = group * ise_group_size(r);
    if (first >= count) return;
    // "Bit n in the stream is thus bit 127-n in the block": read the reversed block.
    uvec4 b = s_block[tile_block];
    uvec4 reversed = uvec4(bitfieldReverse(b.w), bitfieldReverse(b.z), bitfieldReverse(b.y), bitfieldReverse(b.x));
    uint values[5];
    ise_group(reversed, 0u, TEXDEC_FIELD(mode, TEXDEC_ASTC_MODE_WEIGHT_BITS), r, group, values);
    uint size = ise_group_size(r);
    for (uint i = 0u; i < 5u; ++i)  // a constant trip count keeps values[] in registers
        if (i < size && first + i < count) s_weights[(first + i) * TILE_STRIDE + tile_block] = s_lut[TEXDEC_ASTC_LUT_WEIGHT_UNQ + range * 32u + values[i]];
}

// Group `group` of the colour values of a tile block, unquantized ("Endpoint Unquantization").
void decode_colour_group(uint tile_block, uint group) {
    if (TEXDEC_FIELD(s_state[tile_block], TEXDEC_ASTC_STATE_KIND) != BLOCK_WEIGHTS) return;
    uint colour = s_colour[tile_block];
    uint value_count = TEXDEC_FIELD(colour, TEXDEC_ASTC_COLOUR_VALUE_COUNT), colour_range = TEXDEC_FIELD(colour, TEXDEC_ASTC_COLOUR_RANGE);
    IseRange r = ise_range(colour_range);
    uint first = group * ise_group_size(r);
    if (first >= value_count) return;
    uint values[5];
    ise_group(s_block[tile_block], TEXDEC_FIELD(colour, TEXDEC_ASTC_COLOUR_START), ise_length(r, value_count), r, group, values);
    uint size = ise_group_size(r);
    for (uint i = 0u; i < 5u; ++i)
        if (i < size && first + i < value_count) s_colour_values[(first + i) * TILE_STRIDE + tile_block] = lut[TEXDEC_ASTC_LUT_COLOUR_UNQ + colour_range * 256u + values[i]];
}

// The endpoints of one partition of a tile block ("LDR Endpoint Decoding", "HDR Endpoint
// Decoding"), expanded to 16 bits for "Weight Application": LDR channels to UNORM16, HDR channels
// shifted left by 4.
void decode_endpoints(uint tile_block, uint part) {
    uint state = s_state[tile_block];
    if (TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_KIND) != BLOCK_WEIGHTS || part > TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_PARTITIONS)) return;
    bool hdr = ((TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_HDR) >> part) & 1u) != 0u;
    if (!IS_HDR && hdr) return;  // LDR variant: its texels take the error colour
    uint cems = TEXDEC_FIELD(s_colour[tile_block], TEXDEC_ASTC_COLOUR_CEMS);
    uint first_value = 0u;
    for (uint i = 0u; i < part; ++i) first_value += cem_value_count((cems >> (4u * i)) & 0xFu);
    uint cem = (cems >> (4u * part)) & 0xFu;
    uint count = cem_value_count(cem);
    int v[8];
    for (uint i = 0u; i < 8u; ++i)
        v[i] = i < count ? int(s_colour_values[(first_value + i) * TILE_STRIDE + tile_block]) : 0;
    ivec4 e0, e1;
    uvec4 c0, c1;
    if (IS_HDR && hdr) {
        hdr_endpoints(cem, v, e0, e1);
        uvec4 scale = uvec4(16u, 16u, 16u, cem == 14u ? 257u : 16u);
        c0 = uvec4(e0) * scale;
        c1 = uvec4(e1) * scale;
    } else {
        ldr_endpoints(cem, v, e0, e1);
        c0 = IS_SRGB ? (uvec4(e0) << 8u) | 0x80u : uvec4(e0) * 257u;
        c1 = IS_SRGB ? (uvec4(e1) << 8u) | 0x80u : uvec4(e1) * 257u;
    }
    s_endpoints[4u * tile_block + part] = uvec4(c0.r | (c0.g << 16u), c0.b | (c0.a << 16u),
                                                c1.r | (c1.g << 16u), c1.b | (c1.a << 16u));
}

// ---- step 4: texels ----------------------------------------------------------------------------------

// Unquantized stored weight `index` of `plane` of a tile block. The infill reads corners whose
// factor is 0, which may lie past the grid: the index is clamped to stay inside the array.
uint stored_weight(uint tile_block, bool dual_plane, uint index, uint plane) {
    uint i = min(dual_plane ? 2u * index + plane : index, MAX_WEIGHTS - 1u);
    return s_weights[i * TILE_STRIDE + tile_block];
}

// D_s of "Weight Infill" for a block dimension (>= 2 for every ASTC footprint).
uint infill_scale(uint block_dim) {
    return (1024u + block_dim / 2u) / max(block_dim - 1u, 1u);
}

// "Weight Infill": the effective weight of texel `pos` for each plane (.y only in dual-plane mode).
uvec2 texel_weights(uint tile_block, uint mode, uvec3 pos) {
    uvec3 grid = grid_size(mode);
    bool dual_plane = is_dual_plane(mode);
    uvec3 c = uvec3(infill_scale(BLOCK_W), infill_scale(BLOCK_H), infill_scale(BLOCK_D)) * pos;
    uvec3 gpos = (c * (grid - 1u) + 32u) >> 6u;
    uvec3 j = gpos >> 4u;
    uvec3 f = gpos & 15u;
    uvec2 result = uvec2(0u);
    uint planes = dual_plane ? 2u : 1u;
    if (!IS_3D) {
        // Bilinear (every corner is read: one that lies past the grid has factor 0).
        uint v0 = j.x + j.y * grid.x;
        uint w11 = (f.x * f.y + 8u) >> 4u;
        uint w10 = f.y - w11;
        uint w01 = f.x - w11;
        uint w00 = 16u - f.x - f.y + w11;
        for (uint p = 0u; p < planes; ++p) {
            uint sum = stored_weight(tile_block, dual_plane, v0, p) * w00;
            sum += stored_weight(tile_block, dual_plane, v0 + 1u, p) * w01;
            sum += stored_weight(tile_block, dual_plane, v0 + grid.x, p) * w10;
            sum += stored_weight(tile_block, dual_plane, v0 + grid.x + 1u, p) * w11;
            result[p] = (sum + 8u) >> 4u;
        }
    } else {
        // Simplex, "ASTC simplex interpolation parameters".
        uint row = grid.x, slice = grid.x * grid.y;
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
            uint sum = stored_weight(tile_block, dual_plane, v0, p) * w0;
            sum += stored_weight(tile_block, dual_plane, v0 + s1, p) * w1;
            sum += stored_weight(tile_block, dual_plane, v0 + s1 + s2, p) * w2;
            sum += stored_weight(tile_block, dual_plane, v0 + slice + row + 1u, p) * w3;
            result[p] = (sum + 8u) >> 4u;
        }
    }
    return result;
}

// The output codes of texel `pos` (within its block) of a tile block.
uvec4 decode_texel(uint tile_block, uvec3 pos) {
    uint state = s_state[tile_block];
    uint kind = TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_KIND);
    if (kind == BLOCK_ERROR) return error_codes(ERROR_ILLEGAL_BLOCK);
    if (IS_HDR && kind == BLOCK_CONSTANT_F16) {
        uvec4 e = s_endpoints[4u * tile_block];
        return uvec4(e.x & 0xFFFFu, e.x >> 16u, e.y & 0xFFFFu, e.y >> 16u);
    }

    // "Partition Pattern Generation", from the footprint's table.
    uint part = 0u;  // ("partition" is a reserved word in GLSL)
    uint partitions = TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_PARTITIONS) + 1u;
    if (partitions > 1u) {
        uint seed = TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_SEED);
        uint texel = pos.x + BLOCK_W * (pos.y + BLOCK_H * pos.z);
        uint words_per_seed = (BLOCK_W * BLOCK_H * BLOCK_D + 15u) / 16u;
        uint word = footprint_lut[TEXDEC_ASTC_LUT_PARTITIONS + ((partitions - 2u) * 1024u + seed) * words_per_seed
                                  + texel / 16u];
        part = bitfieldExtract(word, int(2u * (texel % 16u)), 2);
    }
    if (!IS_HDR && ((TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_HDR) >> part) & 1u) != 0u) return error_codes(ERROR_HDR_ENDPOINTS);

    // Weights ("Weight Infill", "Dual-Plane Decoding"); a void extent keeps weight 0.
    uvec4 w = uvec4(0u);
    if (kind == BLOCK_WEIGHTS) {
        uint mode = s_mode[tile_block];
        uvec2 weights = texel_weights(tile_block, mode, pos);
        uint ccs = TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_CCS);
        w = is_dual_plane(mode) ? mix(uvec4(weights.x), uvec4(weights.y), equal(uvec4(0u, 1u, 2u, 3u), uvec4(ccs)))
                                : uvec4(weights.x);
    }

    // "Weight Application": interpolate the 16-bit endpoints (UNORM16, or HDR values << 4).
    uvec4 e = s_endpoints[4u * tile_block + part];
    uvec4 c0 = uvec4(e.x & 0xFFFFu, e.x >> 16u, e.y & 0xFFFFu, e.y >> 16u);
    uvec4 c1 = uvec4(e.z & 0xFFFFu, e.z >> 16u, e.w & 0xFFFFu, e.w >> 16u);
    uvec4 c = (c0 * (64u - w) + c1 * w + 32u) >> 6u;
    if (IS_HDR) {
        bool rgb = ((TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_HDR) >> part) & 1u) != 0u;
        bool alpha = ((TEXDEC_FIELD(state, TEXDEC_ASTC_STATE_HDR_ALPHA) >> part) & 1u) != 0u;
        return hdr_variant_codes(c, bvec4(rgb, rgb, rgb, alpha));
    }
    return unorm16_codes(c);
}

void main() {
    texdec_begin();  // pc and texdec_group (common/layout.glsl)
    uint id = gl_LocalInvocationIndex;
    load_tile(id);
    barrier();
    for (uint tile_block = id; tile_block < TILE_BLOCKS; tile_block += GROUP_SIZE) setup_block(tile_block);
    barrier();  // (a compute barrier() also makes the shared-memory writes visible)
    // Items are value-major (item = group * TILE_BLOCKS + block): a warp works on one group of
    // many blocks, and warps past every block's last group skip at once.
    for (uint item = id; item < TILE_BLOCKS * (WEIGHT_GROUPS + COLOUR_GROUPS); item += GROUP_SIZE) {
        uint group = item / TILE_BLOCKS, tile_block = item - group * TILE_BLOCKS;
        if (group < WEIGHT_GROUPS) decode_weight_group(tile_block, group);
        else decode_colour_group(tile_block, group - WEIGHT_GROUPS);
    }
    barrier();
    for (uint item = id; item < TILE_BLOCKS * 4u; item += GROUP_SIZE) {
        uint part = item / TILE_BLOCKS;
        decode_endpoints(item - part * TILE_BLOCKS, part);
    }
    barrier();

    // Consecutive invocations take consecutive texels of a row: the stores coalesce.
    uvec3 footprint = uvec3(BLOCK_W, BLOCK_H, BLOCK_D);
    uvec3 origin = texdec_group * uvec3(TILE_W, TILE_H, BLOCK_D);  // relative to the chunk
    for (uint t = id; t < TILE_TEXELS; t += GROUP_SIZE) {
        uvec3 local = uvec3(t % TILE_W, (t / TILE_W) % TILE_H, t / (TILE_W * TILE_H));
        uvec3 texel = origin + local;
        // A chunk cut inside a block slice writes texel slices [dst_z_skip, dst_z_skip + depth).
        if (texel.z < pc.dst_z_skip) continue;
        texel.z -= pc.dst_z_skip;
        if (texel.x >= pc.width || texel.y >= pc.height || texel.z >= pc.depth) continue;
        uvec3 block = local / footprint;  // block.z is 0: a tile is one block slice
        texdec_store_texel(texel, decode_texel(block.y * TILE_BX + block.x, local - block * footprint));
    }
}
