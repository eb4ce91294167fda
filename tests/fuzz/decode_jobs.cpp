// Random texdec_decode jobs and their checks: see decode_jobs.h. The model below is written from
// texdec.h's text (the host job's fields, the size rules, "source layouts"), not from src/.
#include "decode_jobs.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

namespace texdec_fuzz {
namespace {

// ---- 64-bit sizes that remember an overflow ---------------------------------------------------

struct Size {
    uint64_t v = 0;
    bool over = false;  // the true value does not fit 64 bits (v is then meaningless)
};

Size mul(Size a, Size b) {
    Size r;
    r.over = a.over || b.over || (a.v != 0 && b.v > UINT64_MAX / a.v);
    r.v = r.over ? 0 : a.v * b.v;
    return r;
}
Size add(Size a, Size b) {
    Size r;
    r.over = a.over || b.over || b.v > UINT64_MAX - a.v;
    r.v = r.over ? 0 : a.v + b.v;
    return r;
}
Size sz(uint64_t v) { return Size{v, false}; }

uint64_t div_up(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

uint32_t status_bits(texdec_status s) {
    uint32_t v;
    std::memcpy(&v, &s, sizeof v);
    return v;
}

template <class Enum>
void set_bits(Enum* field, uint32_t bits) {
    static_assert(sizeof(Enum) == sizeof(uint32_t));
    std::memcpy(field, &bits, sizeof bits);
}

// ---- reading the header -----------------------------------------------------------------------

// Header byte positions (decode_jobs.h: the header picks the job).
enum HeaderByte : size_t {
    kFormat = 0,         // format (a value outside the enum when >= 248)
    kFormatInvalid = 1,  // which invalid value
    kOutput = 2,
    kRounding = 3,
    kWidth = 4,  // class, value (2 bytes each: width, height, depth)
    kHeight = 6,
    kDepth = 8,
    kRowLength = 10,  // mode, value
    kImageHeight = 12,
    kRowPitch = 14,
    kSlicePitch = 16,
    kLayout = 18,       // layout mode, block height byte, block depth byte
    kLayerStride = 21,  // mode, value
    kSrcSize = 23,      // mode, value
    kDstSize = 25,      // mode, value
    kMisalign = 27,     // low 4 bits: src offset; high 3 bits: dst offset
    kFill = 28,
    kContext = 29,
    kWide = 30,  // high bits of medium extents (width, height)
};
static_assert(kWide + 2 <= kJobHeaderBytes);

constexpr uint32_t kHugeU32[] = {0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u, 0x7FFFFFFFu, 0x40000001u, 1u << 24,
                                 65537u,      65536u,      46341u,      16385u,      4097u,       2049u};
constexpr uint64_t kHugeU64[] = {UINT64_MAX,        UINT64_MAX - 7,          uint64_t(1) << 63,
                                 uint64_t(1) << 32, (uint64_t(1) << 32) + 4, uint64_t(1) << 48};

uint32_t pick_dim(uint8_t cls, uint8_t v, uint8_t wide, uint32_t small_max) {
    if (cls < 190) return 1 + v % small_max;
    if (cls < 230) return 1 + (uint32_t(wide) << 8 | v) % 700;
    if (cls < 240) return 0;
    return kHugeU32[v % std::size(kHugeU32)];
}

uint32_t pick_depth(uint8_t cls, uint8_t v) {
    if (cls < 150) return 1;
    if (cls < 215) return 1 + v % 6;
    if (cls < 232) return 1 + v % 40;
    if (cls < 242) return 0;
    return kHugeU32[v % std::size(kHugeU32)];
}

uint32_t sat_add32(uint32_t a, uint64_t b) { return uint32_t(std::min<uint64_t>(uint64_t(a) + b, UINT32_MAX)); }

// src_row_length / src_image_height for an extent side of `side` texels.
uint32_t pick_length(uint8_t mode, uint8_t v, uint32_t side) {
    if (mode < 150) return 0;
    if (mode < 215) return sat_add32(side, v % 13);
    if (mode < 235) return sat_add32(side, uint64_t(v) * 37);
    if (mode < 245) return side ? v % side : v;  // short of the extent (0: the extent's)
    return kHugeU32[v % std::size(kHugeU32)];
}

uint64_t sat_add64(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }
uint64_t short_of(uint64_t tight, uint8_t v) {
    return tight > 1 ? tight - 1 - std::min<uint64_t>(v % 8, tight - 2) : 0;
}

// A pitch for a row (slice) that needs `tight` bytes (UINT64_MAX when that overflows).
uint64_t pick_pitch(uint8_t mode, uint8_t v, uint64_t tight, uint8_t zero_below, uint32_t small, uint32_t step) {
    if (mode < zero_below) return 0;
    if (mode < 205) return sat_add64(tight, v % small);
    if (mode < 228) return sat_add64(tight, uint64_t(v) * step);
    if (mode < 240) return short_of(tight, v);
    return kHugeU64[v % std::size(kHugeU64)];
}

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%" PRIx64, v);
    return b;
}

const char* status_name(texdec_status s) {
    const uint32_t bits = status_bits(s);
    static const char* const names[] = {"SUCCESS",
                                        "INVALID_ARGUMENT",
                                        "UNKNOWN_FORMAT",
                                        "UNSUPPORTED_FORMAT",
                                        "UNSUPPORTED_OUTPUT",
                                        "UNSUPPORTED_ROUNDING",
                                        "INVALID_EXTENT",
                                        "SIZE_OVERFLOW",
                                        "SOURCE_TOO_SMALL",
                                        "DESTINATION_TOO_SMALL",
                                        "INVALID_LAYOUT",
                                        "NO_DEVICE",
                                        "MISSING_FEATURE",
                                        "VULKAN",
                                        "OUT_OF_MEMORY",
                                        "TIMEOUT",
                                        "DEVICE_LOST",
                                        "INVALID_DESTINATION",
                                        "NOT_READY",
                                        "WRONG_BACKEND"};
    return bits < std::size(names) ? names[bits] : "(not a texdec_status)";
}

uint32_t bit(texdec_status s) { return 1u << status_bits(s); }

// A heap block of exactly `size` bytes (never a null pointer, even for 0 bytes: texdec refuses a
// NULL src or dst), all `fill`.
struct ExactBytes {
    ExactBytes() = default;
    ExactBytes(size_t n, uint8_t fill) : bytes(new uint8_t[n]), size(n) { std::memset(bytes.get(), fill, n); }
    uint8_t* data() const { return bytes.get(); }
    std::unique_ptr<uint8_t[]> bytes;
    size_t size = 0;
};

}  // namespace

// ---- the model of one job ----------------------------------------------------------------------

struct DecodeCase::Model {
    struct Problem {
        uint32_t statuses;  // bit per texdec_status that may report it
        std::string what;
    };
    std::vector<Problem> problems;

    bool format_ok = false;  // a texdec_format this build decodes
    texdec_format_info info{};
    bool output_ok = false;
    uint32_t texel = 0;  // bytes per output texel (model)
    bool extent_ok = false;
    bool lengths_ok = false;
    bool chain_ok = true;   // no chain, or a texdec_source_layout_info with next NULL
    bool layout_ok = true;  // its fields follow the rules
    bool block_linear = false;
    uint32_t gob_h = 1, gob_d = 1;  // GOBs per block (block-linear)
    uint64_t layer_stride = 0;

    uint64_t blocks_x = 0, blocks_y = 0, blocks_z = 0;
    uint64_t row_blocks = 0, rows = 0;  // the source surface's row length and image height, in blocks
    // Linear: bytes per source row / slice. Block-linear: bytes per row of GOB blocks and per group
    // of gob_d block slices (the surface, or the layer stride).
    Size row_bytes, slice_bytes, surface_bytes;

    bool src_known = false;  // src_needed computed (everything it depends on is valid)
    Size src_needed;
    bool dst_known = false;
    Size dst_needed;
    uint64_t row_pitch = 0, slice_pitch = 0;  // effective (0 replaced), when dst_known
    uint64_t texels = 0;                      // width * height * depth, saturated
    // A GPU context may refuse the job with SIZE_OVERFLOW (texdec.h: "one block row needs more
    // than maxStorageBufferRange"): a block row of the source (block-linear: two rows of GOB
    // blocks, which a block row may straddle) or of the staged texels (tight rows, whole words)
    // is over the smallest maxStorageBufferRange Vulkan allows (2^27 bytes, lavapipe's), less slack
    // for the binding's alignment.
    bool gpu_range_refusal = false;

    void add(uint32_t statuses, std::string what) { problems.push_back({statuses, std::move(what)}); }

    // Byte offset of block (x, y, z) from the source's start (texdec.h "source layouts").
    uint64_t block_offset(uint64_t x, uint64_t y, uint64_t z) const {
        const uint64_t bpb = info.bytes_per_block;
        if (!block_linear) return z * slice_bytes.v + y * row_bytes.v + x * bpb;
        const uint64_t xb = x * bpb;              // byte within the surface's row
        const uint64_t gx = xb % 64, gy = y % 8;  // byte within its GOB
        const uint64_t gob = (gx / 32) * 256 + (gy / 2) * 64 + ((gx % 32) / 16) * 32 + (gy % 2) * 16 + gx % 16;
        const uint64_t gob_block = uint64_t(512) * gob_h * gob_d;
        return (z / gob_d) * slice_bytes.v + (y / (8 * gob_h)) * row_bytes.v + (xb / 64) * gob_block +
               (z % gob_d) * 512 * gob_h + ((y / 8) % gob_h) * 512 + gob;
    }
};

struct DecodeCase::Impl {
    uint8_t h[kJobHeaderBytes] = {};
    std::span<const uint8_t> blocks;
    JobLimits limits;

    uint32_t format_bits = 0, output_bits = 0, rounding_bits = 0;
    uint32_t width = 0, height = 0, depth = 0;
    uint32_t row_length = 0, image_height = 0;
    uint64_t row_pitch = 0, slice_pitch = 0;
    // The chain: none, or layout[0] (its type and next as the header says; next -> layout[1]).
    bool has_chain = false;
    uint32_t chain_type = TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO;
    bool chain_next = false;
    uint32_t layout_bits = 0, block_height = 0, block_depth = 0;
    uint64_t layer_stride = 0;
    size_t src_size = 0, dst_size = 0;
    size_t src_misalign = 0, dst_misalign = 0;
    uint8_t fill = 0;

    Model model;
    ExactBytes src;  // src_misalign bytes, then src_size bytes

    void read(std::span<const uint8_t> input);
    void plan();
    void choose_sizes();
    void fill_source();
    texdec_host_job job(const texdec_source_layout_info* chain, uint8_t* dst) const;
    void make_chain(texdec_source_layout_info chain[2]) const;
};

void DecodeCase::Impl::read(std::span<const uint8_t> input) {
    std::memcpy(h, input.data(), std::min(input.size(), kJobHeaderBytes));
    blocks = input.size() > kJobHeaderBytes ? input.subspan(kJobHeaderBytes) : std::span<const uint8_t>();

    if (h[kFormat] < 248) {
        format_bits = 1 + h[kFormat] % (TEXDEC_FORMAT_COUNT - 1);
    } else {
        const uint32_t invalid[] = {0,
                                    uint32_t(TEXDEC_FORMAT_COUNT),
                                    TEXDEC_FORMAT_COUNT + uint32_t(h[kFormatInvalid]),
                                    0x7FFFFFFFu,
                                    0x80000000u,
                                    0xFFFFFFFFu};
        format_bits = invalid[h[kFormatInvalid] % std::size(invalid)];
    }
    const uint32_t bad_enum[] = {3, 0x7FFFFFFFu, 0xFFFFFFFFu,
                                 4u + h[kOutput]};  // outside the output, rounding, layout enums
    output_bits = h[kOutput] < 240 ? h[kOutput] % 3 : bad_enum[h[kOutput] % 4];
    rounding_bits = h[kRounding] < 245 ? h[kRounding] % 3 : bad_enum[h[kRounding] % 3];

    width = pick_dim(h[kWidth], h[kWidth + 1], h[kWide], 40);
    height = pick_dim(h[kHeight], h[kHeight + 1], h[kWide + 1], 40);
    depth = pick_depth(h[kDepth], h[kDepth + 1]);
    row_length = pick_length(h[kRowLength], h[kRowLength + 1], width);
    image_height = pick_length(h[kImageHeight], h[kImageHeight + 1], height);

    const uint8_t mode = h[kLayout], bh = h[kLayout + 1], bd = h[kLayout + 2];
    has_chain = mode >= 170;
    if (mode < 170) {
    } else if (mode < 235) {  // block-linear, valid numbers (the layer stride is chosen in plan())
        layout_bits = TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR;
        block_height = 1u << (bh % 6);
        block_depth = bd >= 128 ? 1u << (bd % 6) : 1;
    } else if (mode < 243) {  // linear: valid with every field 0
        layout_bits = TEXDEC_SOURCE_LAYOUT_LINEAR;
        if (bh >= 200) block_height = bh % 3;
        if (bd >= 200) block_depth = bd % 3;
    } else if (mode < 250) {  // block-linear with a number outside the rules, or an unknown layout
        const uint32_t bad[] = {0, 3, 6, 64, 0xFFFFFFFFu, 48};
        layout_bits = bd % 4 == 3 ? (bh % 3 ? bad_enum[bh % 3] : 2u) : uint32_t(TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR);
        block_height = bd % 4 == 0 ? bad[bh % std::size(bad)] : 1u << (bh % 6);
        block_depth = bd % 4 == 1 ? bad[bh % std::size(bad)] : 1;
    } else if (mode < 253) {  // another structure type
        layout_bits = TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR;
        block_height = block_depth = 1;
        const uint32_t types[] = {TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, 0u,
                                  1000000000u};
        chain_type = types[bh % 4];
    } else {  // a valid layout with something chained after it
        layout_bits = TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR;
        block_height = block_depth = 1;
        chain_next = true;
    }
    src_misalign = h[kMisalign] & 15;
    dst_misalign = (h[kMisalign] >> 4) & 7;
    fill = h[kFill];
}

// The model: what each field allows, the sizes the job needs, its problems.
void DecodeCase::Impl::plan() {
    Model& m = model;
    m.texels = mul(mul(sz(width), sz(height)), sz(depth)).over ? UINT64_MAX : uint64_t(width) * height * depth;

    // The chain comes first: a structure texdec does not take there is refused, whatever the job.
    if (has_chain && chain_type != TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO) {
        m.chain_ok = false;
        m.add(bit(TEXDEC_ERROR_INVALID_ARGUMENT), "next is not a texdec_source_layout_info");
    } else if (has_chain && chain_next) {
        m.chain_ok = false;
        m.add(bit(TEXDEC_ERROR_INVALID_ARGUMENT), "texdec_source_layout_info::next is not NULL");
    }
    if (rounding_bits > TEXDEC_BC_ROUNDING_NVIDIA) m.add(bit(TEXDEC_ERROR_UNSUPPORTED_ROUNDING), "unknown BC rounding");

    // (Values above 0x7FFFFFFF reach texdec only inside the job: a C++ caller cannot pass them as
    // a texdec_format argument without undefined behaviour.)
    texdec_format format;
    set_bits(&format, format_bits);
    if (format_bits == 0 || format_bits > 0x7FFFFFFFu || texdec_format_get_info(format, &m.info) != TEXDEC_SUCCESS) {
        m.add(bit(TEXDEC_ERROR_UNKNOWN_FORMAT), "not a texdec_format");
    } else if (!(m.info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED)) {
        m.add(bit(TEXDEC_ERROR_UNSUPPORTED_FORMAT), "format not implemented");
    } else {
        m.format_ok = true;
    }
    if (m.format_ok) {
        // texdec.h "Output types": RGBA8 4 bytes (not for SNORM or float data), RGBA16F 8, NATIVE
        // R8/RG8 for BC4/5, R16/RG16 for EAC, RGBA16F for float data, else RGBA8.
        const bool is_float = m.info.flags & TEXDEC_FORMAT_FLAG_HDR;
        const bool is_signed = m.info.flags & TEXDEC_FORMAT_FLAG_SIGNED;
        if (output_bits == TEXDEC_OUTPUT_RGBA8 && !is_signed && !is_float) m.texel = 4;
        if (output_bits == TEXDEC_OUTPUT_RGBA16F) m.texel = 8;
        if (output_bits == TEXDEC_OUTPUT_NATIVE)
            m.texel = is_float                               ? 8
                      : m.info.family == TEXDEC_FAMILY_BC4_5 ? m.info.channels
                      : m.info.family == TEXDEC_FAMILY_EAC   ? 2 * m.info.channels
                                                             : 4;
        m.output_ok = m.texel != 0;
        if (!m.output_ok) m.add(bit(TEXDEC_ERROR_UNSUPPORTED_OUTPUT), "output not offered for the format");
    }
    m.extent_ok = width && height && depth;
    if (!m.extent_ok) m.add(bit(TEXDEC_ERROR_INVALID_EXTENT), "zero extent");
    const uint32_t rl = row_length ? row_length : width, ih = image_height ? image_height : height;
    m.lengths_ok = rl >= width && ih >= height;
    if (!m.lengths_ok) m.add(bit(TEXDEC_ERROR_INVALID_LAYOUT), "src_row_length / src_image_height short of the extent");

    // The layout's rules (texdec_source_layout_info).
    const bool is_3d_format = m.format_ok && m.info.block_depth > 1;
    auto gob_count = [](uint32_t v) { return v && v <= 32 && (v & (v - 1)) == 0; };
    if (has_chain && m.chain_ok) {
        auto bad = [&](const char* what) {
            m.layout_ok = false;
            m.add(bit(TEXDEC_ERROR_INVALID_LAYOUT), what);
        };
        if (layout_bits == TEXDEC_SOURCE_LAYOUT_LINEAR) {
            if (block_height || block_depth) bad("LINEAR with a block height or depth");
        } else if (layout_bits != TEXDEC_SOURCE_LAYOUT_BLOCK_LINEAR) {
            bad("unknown layout value");
        } else {
            m.block_linear = true;
            if (!gob_count(block_height)) bad("block_height not 1-32 (a power of two)");
            if (!gob_count(block_depth)) bad("block_depth not 1-32 (a power of two)");
        }
        if (m.layout_ok && m.block_linear) m.gob_h = block_height, m.gob_d = block_depth;
    }

    // The source's surface, in blocks, and the layer stride (it depends on the surface's size).
    if (m.format_ok) {
        m.blocks_x = div_up(width, m.info.block_width);
        m.blocks_y = div_up(height, m.info.block_height);
        m.blocks_z = div_up(depth, m.info.block_depth);
        m.row_blocks = div_up(rl, m.info.block_width);
        m.rows = div_up(ih, m.info.block_height);
        if (!m.block_linear) {
            m.row_bytes = sz(m.row_blocks * m.info.bytes_per_block);
            m.slice_bytes = mul(m.row_bytes, sz(m.rows));
        } else {
            m.row_bytes =
                mul(sz(div_up(m.row_blocks * m.info.bytes_per_block, 64)), sz(uint64_t(512) * m.gob_h * m.gob_d));
            m.surface_bytes = mul(m.row_bytes, sz(div_up(m.rows, uint64_t(8) * m.gob_h)));
            m.slice_bytes = m.surface_bytes;
        }
    }
    if (has_chain && m.chain_ok && layout_bits == TEXDEC_SOURCE_LAYOUT_LINEAR) {
        if (h[kLayerStride] >= 245) layer_stride = 4 + uint64_t(h[kLayerStride + 1]) * 4;
    } else if (has_chain && m.chain_ok && h[kLayerStride] >= 160) {
        const uint8_t mode = h[kLayerStride], v = h[kLayerStride + 1];
        const uint64_t surface =
            m.block_linear && m.format_ok && !m.surface_bytes.over ? m.surface_bytes.v : uint64_t(v) * 512;
        if (mode < 220) layer_stride = surface + 4 * (v % 8);
        else if (mode < 235) layer_stride = sat_add64(surface, uint64_t(v) * 512);
        else if (mode < 245)
            layer_stride = v % 2 ? surface + 1 + v % 3 : surface - std::min<uint64_t>(surface, 4 * (1 + v % 4));
        else layer_stride = kHugeU64[v % std::size(kHugeU64)] & ~uint64_t(3);
    }
    if (layer_stride && has_chain && m.chain_ok) {
        auto bad = [&](const char* what) {
            m.layout_ok = false;
            m.add(bit(TEXDEC_ERROR_INVALID_LAYOUT), what);
        };
        if (layout_bits == TEXDEC_SOURCE_LAYOUT_LINEAR) bad("LINEAR with a layer stride");
        if (m.block_linear) {
            if (layer_stride % 4) bad("layer_stride not a multiple of 4");
            if (block_depth != 1) bad("layer_stride with block_depth above 1");
            if (is_3d_format) bad("layer_stride with a 3D block footprint");
        }
        // Smaller than one layer's surface: checked once the surface's size is known.
        if (m.block_linear && m.layout_ok && m.format_ok && m.extent_ok && m.lengths_ok && !m.surface_bytes.over &&
            layer_stride < m.surface_bytes.v)
            bad("layer_stride smaller than one layer's surface");
        if (m.layout_ok) m.slice_bytes = sz(layer_stride), m.layer_stride = layer_stride;
    }

    // The source bytes the job needs: to the end of its last block (the farthest in both layouts).
    if (m.format_ok && m.output_ok && m.extent_ok && m.lengths_ok && m.chain_ok && m.layout_ok) {
        m.src_known = true;
        const uint64_t bpb = m.info.bytes_per_block;
        if (!m.block_linear) {
            m.src_needed = add(add(mul(m.slice_bytes, sz(m.blocks_z - 1)), mul(m.row_bytes, sz(m.blocks_y - 1))),
                               sz(m.blocks_x * bpb));
            if (m.slice_bytes.over || m.src_needed.over) {
                m.src_known = false;
                m.add(bit(TEXDEC_ERROR_SIZE_OVERFLOW), "source size overflows");
            }
        } else if (m.row_bytes.over || m.surface_bytes.over) {
            m.src_known = false;
            m.add(bit(TEXDEC_ERROR_SIZE_OVERFLOW), "block-linear surface size overflows");
        } else {
            const uint64_t x = m.blocks_x - 1, y = m.blocks_y - 1, z = m.blocks_z - 1;
            const uint64_t xb = x * bpb;
            // The model's address in overflow-checked steps (block_offset without the checks).
            Size a = add(mul(sz(z / m.gob_d), m.slice_bytes), mul(sz(y / (8 * m.gob_h)), m.row_bytes));
            a = add(a, sz((xb / 64) * 512 * m.gob_h * m.gob_d + (z % m.gob_d) * 512 * m.gob_h +
                          ((y / 8) % m.gob_h) * 512 + 511));
            m.src_needed = add(a, sz(bpb));
            // texdec may refuse a size this close to 2^64 as an overflow: either answer is right.
            if (m.src_needed.over || m.src_needed.v > (uint64_t(1) << 62)) {
                m.src_known = false;
                m.add(bit(TEXDEC_ERROR_SIZE_OVERFLOW) | bit(TEXDEC_ERROR_SOURCE_TOO_SMALL), "source size near 2^64");
            } else {
                m.src_needed = sz(m.block_offset(x, y, z) + bpb);
            }
        }
    }

    if (m.src_known) {
        constexpr uint64_t kMinMaxStorageBufferRange = uint64_t(1) << 27;
        const Size source_row = m.block_linear ? mul(m.row_bytes, sz(2)) : m.row_bytes;
        const Size staged_row = mul(sz((uint64_t(width) * m.texel + 3) / 4 * 4), sz(m.info.block_height));
        m.gpu_range_refusal = source_row.over || staged_row.over || source_row.v > kMinMaxStorageBufferRange - 64 ||
                              staged_row.v > kMinMaxStorageBufferRange - 64;
    }

    // The destination: pitches (0 = tight), then the bytes from the first texel to the end of the last.
    if (m.format_ok && m.output_ok && m.extent_ok) {
        const uint64_t tight_row = uint64_t(width) * m.texel;
        const uint8_t* p = &h[kRowPitch];
        row_pitch = pick_pitch(p[0], p[1], tight_row, 128, 17, 16);
        const uint64_t rp = row_pitch ? row_pitch : tight_row;
        const Size tight_slice = mul(sz(rp), sz(height));
        const uint8_t* s = &h[kSlicePitch];
        slice_pitch = pick_pitch(s[0], s[1], tight_slice.over ? UINT64_MAX : tight_slice.v, 140, 33, 64);
        const uint64_t sp = slice_pitch ? slice_pitch : tight_slice.v;
        if (rp < tight_row) {
            m.add(bit(TEXDEC_ERROR_INVALID_LAYOUT), "row pitch short of a row");
        } else if (tight_slice.over) {
            m.add(bit(TEXDEC_ERROR_SIZE_OVERFLOW), "row pitch * height overflows");
        } else if (sp < tight_slice.v) {
            m.add(bit(TEXDEC_ERROR_INVALID_LAYOUT), "slice pitch short of a slice");
        } else {
            m.dst_needed = add(add(mul(sz(sp), sz(depth - 1)), mul(sz(rp), sz(height - 1))), sz(tight_row));
            if (m.dst_needed.over) {
                m.add(bit(TEXDEC_ERROR_SIZE_OVERFLOW), "destination size overflows");
            } else {
                m.dst_known = true;
                m.row_pitch = rp, m.slice_pitch = sp;
            }
        }
    } else {
        row_pitch = h[kRowPitch] < 200 ? 0 : kHugeU64[h[kRowPitch + 1] % std::size(kHugeU64)] >> (h[kRowPitch] % 40);
        slice_pitch =
            h[kSlicePitch] < 200 ? 0 : kHugeU64[h[kSlicePitch + 1] % std::size(kHugeU64)] >> (h[kSlicePitch] % 40);
    }
}

void DecodeCase::Impl::choose_sizes() {
    Model& m = model;
    const uint8_t sm = h[kSrcSize], sv = h[kSrcSize + 1];
    const uint64_t bpb = m.format_ok ? m.info.bytes_per_block : 16;
    if (m.src_known && m.src_needed.v <= limits.max_src_bytes) {
        const uint64_t need = m.src_needed.v;
        if (sm < 170) src_size = need;
        else if (sm < 205) src_size = need + 1 + sv % 64;
        else if (sm < 240) src_size = need - std::min<uint64_t>(need, 1 + sv % bpb);
        else if (sm < 248) src_size = 0;
        else src_size = need / 2;
    } else {
        src_size = size_t(sv) * 16;
    }
    const uint8_t dm = h[kDstSize], dv = h[kDstSize + 1];
    if (m.dst_known && m.dst_needed.v <= limits.max_dst_bytes && m.texels <= limits.max_texels) {
        const uint64_t need = m.dst_needed.v;
        if (dm < 180) dst_size = need;
        else if (dm < 210) dst_size = need + 1 + dv % 64;
        else if (dm < 245) dst_size = need - std::min<uint64_t>(need, 1 + dv % 16);
        else dst_size = 0;
    } else if (m.dst_known) {  // too big to decode here: short of it, so the job must be refused
        dst_size = size_t(std::min<uint64_t>(m.dst_needed.v - 1, uint64_t(dv) * 64));
    } else {
        dst_size = size_t(dv) * 64;
    }
    if (m.src_known && src_size < m.src_needed.v) m.add(bit(TEXDEC_ERROR_SOURCE_TOO_SMALL), "src_size short");
    if (m.dst_known && dst_size < m.dst_needed.v) m.add(bit(TEXDEC_ERROR_DESTINATION_TOO_SMALL), "dst_size short");
}

// The blocks in place: block i of the job takes the input's blocks from byte i * block bytes (wrapping).
void DecodeCase::Impl::fill_source() {
    const Model& m = model;
    src = ExactBytes(src_misalign + src_size, uint8_t(fill ^ 0x5A));
    uint8_t* s = src.data() + src_misalign;
    if (!m.src_known || m.src_needed.v > src_size + 64 || m.texels > limits.max_texels) return;
    const uint64_t bpb = m.info.bytes_per_block;
    uint64_t random_state = uint64_t(h[0]) << 8 | h[1];
    uint64_t i = 0;
    for (uint64_t z = 0; z < m.blocks_z; ++z)
        for (uint64_t y = 0; y < m.blocks_y; ++y)
            for (uint64_t x = 0; x < m.blocks_x; ++x, ++i) {
                const uint64_t at = m.block_offset(x, y, z);
                for (uint64_t b = 0; b < bpb && at + b < src_size; ++b) {
                    s[at + b] = blocks.empty() ? uint8_t(splitmix(random_state))
                                               : blocks[size_t((i * bpb + b) % blocks.size())];
                }
            }
}

void DecodeCase::Impl::make_chain(texdec_source_layout_info chain[2]) const {
    chain[0] = texdec_source_layout_info{};
    chain[1] = texdec_source_layout_info{};
    set_bits(&chain[0].type, chain_type);
    set_bits(&chain[0].layout, layout_bits);
    chain[0].block_height = block_height;
    chain[0].block_depth = block_depth;
    chain[0].layer_stride = layer_stride;
    chain[1].type = TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO;
    chain[1].layout = TEXDEC_SOURCE_LAYOUT_LINEAR;
    if (chain_next) chain[0].next = &chain[1];
}

texdec_host_job DecodeCase::Impl::job(const texdec_source_layout_info* chain, uint8_t* dst) const {
    texdec_host_job j{};
    j.next = has_chain ? chain : nullptr;
    set_bits(&j.format, format_bits);
    set_bits(&j.output, output_bits);
    set_bits(&j.bc_rounding, rounding_bits);
    j.width = width, j.height = height, j.depth = depth;
    j.src = src.data() + src_misalign;
    j.src_size = src_size;
    j.src_row_length = row_length;
    j.src_image_height = image_height;
    j.dst = dst;
    j.dst_size = dst_size;
    j.dst_row_pitch = size_t(row_pitch);
    j.dst_slice_pitch = size_t(slice_pitch);
    return j;
}

// ---- DecodeCase ---------------------------------------------------------------------------------

DecodeCase::DecodeCase(std::span<const uint8_t> input, const JobLimits& limits) : impl_(new Impl) {
    impl_->limits = limits;
    impl_->read(input);
    impl_->plan();
    impl_->choose_sizes();
    impl_->fill_source();
}

DecodeCase::~DecodeCase() { delete impl_; }

uint32_t DecodeCase::cpu_context_choice() const { return impl_->h[kContext] % 3; }

bool DecodeCase::expects_success() const { return impl_->model.problems.empty(); }

bool DecodeCase::gpu_may_refuse_row() const { return impl_->model.problems.empty() && impl_->model.gpu_range_refusal; }

std::string DecodeCase::describe() const {
    const Impl& c = *impl_;
    const Model& m = c.model;
    std::string s = m.format_ok ? m.info.name : "format " + hex(c.format_bits);
    s += " output " + std::to_string(c.output_bits) + " rounding " + std::to_string(c.rounding_bits);
    s += " " + std::to_string(c.width) + "x" + std::to_string(c.height) + "x" + std::to_string(c.depth);
    s += " src_row_length " + std::to_string(c.row_length) + " src_image_height " + std::to_string(c.image_height);
    if (c.has_chain) {
        s += " layout{type " + hex(c.chain_type) + (c.chain_next ? " next" : "") + " layout " +
             std::to_string(c.layout_bits) + " block " + std::to_string(c.block_height) + "x" +
             std::to_string(c.block_depth) + " layer_stride " + std::to_string(c.layer_stride) + "}";
    }
    s += " src_size " + std::to_string(c.src_size);
    if (m.src_known) s += " (needs " + std::to_string(m.src_needed.v) + ")";
    s += " src+" + std::to_string(c.src_misalign);
    s += " dst_row_pitch " + std::to_string(c.row_pitch) + " dst_slice_pitch " + std::to_string(c.slice_pitch);
    s += " dst_size " + std::to_string(c.dst_size);
    if (m.dst_known) s += " (needs " + std::to_string(m.dst_needed.v) + ")";
    s += " dst+" + std::to_string(c.dst_misalign);
    return s;
}

std::string DecodeCase::expectation() const {
    if (impl_->model.problems.empty()) return "SUCCESS";
    std::string s;
    for (const Model::Problem& p : impl_->model.problems) {
        if (!s.empty()) s += "; ";
        s += p.what + " (";
        bool first = true;
        for (uint32_t b = 0; b < 32; ++b)
            if (p.statuses & (1u << b)) {
                texdec_status st;
                set_bits(&st, b);
                s += (first ? "" : " or ") + std::string(status_name(st));
                first = false;
            }
        s += ")";
    }
    return s;
}

DecodeOutcome DecodeCase::run(texdec_context* context) {
    Impl& c = *impl_;
    ExactBytes dst(c.dst_misalign + c.dst_size, c.fill);
    texdec_source_layout_info chain[2];
    c.make_chain(chain);
    const texdec_host_job job = c.job(chain, dst.data() + c.dst_misalign);
    DecodeOutcome out;
    out.status = texdec_decode(context, &job);
    out.dst.assign(dst.data() + c.dst_misalign, dst.data() + dst.size);
    return out;
}

std::string DecodeCase::run_and_check(texdec_context* context, const TakeErrors& take_errors, DecodeOutcome* outcome) {
    Impl& c = *impl_;
    const Model& m = c.model;
    auto broke = [&](const std::string& what) { return what + "; job: " + describe() + "; model: " + expectation(); };
    const bool cpu = texdec_context_backend(context) == TEXDEC_BACKEND_CPU;

    // The destination: exactly dst_size bytes after the offset's, all `fill`.
    ExactBytes dst_block(c.dst_misalign + c.dst_size, c.fill);
    uint8_t* dst = dst_block.data() + c.dst_misalign;
    texdec_source_layout_info chain[2];
    c.make_chain(chain);
    const texdec_host_job job = c.job(chain, dst);

    take_errors();
    uint64_t host_bytes = 1, device_bytes = 1;
    const texdec_status scratch = texdec_decode_scratch_size(context, &job, &host_bytes, &device_bytes);
    const std::string scratch_errors = take_errors();
    const texdec_status status = texdec_decode(context, &job);
    const std::string errors = take_errors();
    if (outcome) {
        outcome->status = status;
        outcome->dst.assign(dst, dst + c.dst_size);
    }

    if (status_bits(status) > TEXDEC_ERROR_WRONG_BACKEND)
        return broke("texdec_decode returned " + std::to_string(status_bits(status)) + ", not a texdec_status");
    const char* name = texdec_status_string(status);
    if (!name || !*name || std::strcmp(name, "unknown status") == 0)
        return broke(std::string("texdec_status_string(") + status_name(status) + ") is '" + (name ? name : "NULL") +
                     "'");
    if (status != TEXDEC_SUCCESS && errors.empty())
        return broke(std::string("texdec_decode refused the job (") + status_name(status) +
                     ") without an ERROR message");
    if (status == TEXDEC_SUCCESS && !errors.empty())
        return broke("texdec_decode succeeded but reported an ERROR: " + errors);
    if (scratch != status)
        return broke(std::string("texdec_decode_scratch_size says ") + status_name(scratch) + ", texdec_decode " +
                     status_name(status));
    if (scratch != TEXDEC_SUCCESS && scratch_errors.empty())
        return broke(std::string("texdec_decode_scratch_size refused the job (") + status_name(scratch) +
                     ") without an ERROR message");
    if (cpu && scratch == TEXDEC_SUCCESS && (host_bytes || device_bytes))
        return broke("texdec_decode_scratch_size on a CPU context answers " + std::to_string(host_bytes) + " and " +
                     std::to_string(device_bytes) + " bytes, not 0 and 0");

    // The model's verdict.
    uint32_t allowed = 0;
    for (const Model::Problem& p : m.problems) allowed |= p.statuses;
    if (m.problems.empty() && status != TEXDEC_SUCCESS &&
        !(status == TEXDEC_ERROR_SIZE_OVERFLOW && !cpu && m.gpu_range_refusal))
        return broke(std::string("a valid job was refused: ") + status_name(status) + " (" + errors + ")");
    if (!m.problems.empty() && status == TEXDEC_SUCCESS) return broke("an invalid job was decoded");
    if (!m.problems.empty() && !(allowed & bit(status)))
        return broke(std::string("refused with ") + status_name(status) + " (" + errors +
                     "), not a status of its problems");

    for (size_t i = 0; i < c.dst_misalign; ++i)
        if (dst_block.data()[i] != c.fill)
            return broke("wrote " + std::to_string(c.dst_misalign - i) + " bytes before dst");
    if (status != TEXDEC_SUCCESS) return "";

    // A decoded job: the bytes outside the texels are untouched.
    const uint64_t row_bytes = uint64_t(c.width) * m.texel;
    uint64_t pos = 0;
    auto untouched_until = [&](uint64_t end, const char* where) -> std::string {
        for (; pos < end; ++pos)
            if (dst[pos] != c.fill) return broke("wrote dst byte " + std::to_string(pos) + " (" + where + ")");
        return "";
    };
    for (uint64_t z = 0; z < c.depth; ++z)
        for (uint64_t y = 0; y < c.height; ++y) {
            const uint64_t start = z * m.slice_pitch + y * m.row_pitch;
            if (std::string e = untouched_until(start, "padding between rows"); !e.empty()) return e;
            pos = start + row_bytes;
        }
    if (std::string e = untouched_until(c.dst_size, "past the last texel"); !e.empty()) return e;

    // The sizes texdec answers for the extent, against the model's.
    const uint64_t blocks = m.blocks_x * m.blocks_y * m.blocks_z;
    uint64_t decoded = 0, encoded = 0;
    uint32_t texel = 0;
    if (texdec_output_texel_size(job.format, job.output, &texel) != TEXDEC_SUCCESS || texel != m.texel)
        return broke("texdec_output_texel_size says " + std::to_string(texel) + ", the model " +
                     std::to_string(m.texel));
    if (texdec_decoded_size(job.format, job.output, c.width, c.height, c.depth, &decoded) != TEXDEC_SUCCESS ||
        decoded != m.texels * m.texel)
        return broke("texdec_decoded_size says " + std::to_string(decoded) + ", the model " +
                     std::to_string(m.texels * m.texel));
    if (texdec_encoded_size(job.format, c.width, c.height, c.depth, &encoded) != TEXDEC_SUCCESS ||
        encoded != blocks * m.info.bytes_per_block)
        return broke("texdec_encoded_size says " + std::to_string(encoded) + ", the model " +
                     std::to_string(blocks * m.info.bytes_per_block));

    // The same blocks, gathered into a tight linear source, decoded tightly into exactly
    // texdec_decoded_size bytes from the opposite fill: every texel must match.
    const uint64_t bpb = m.info.bytes_per_block;
    ExactBytes tight_src(size_t(encoded), 0);
    const uint8_t* s = c.src.data() + c.src_misalign;
    uint64_t i = 0;
    for (uint64_t z = 0; z < m.blocks_z; ++z)
        for (uint64_t y = 0; y < m.blocks_y; ++y)
            for (uint64_t x = 0; x < m.blocks_x; ++x, ++i)
                std::memcpy(tight_src.data() + i * bpb, s + m.block_offset(x, y, z), size_t(bpb));
    std::vector<uint8_t> tight(size_t(decoded), uint8_t(~c.fill));
    texdec_host_job t = job;
    t.next = nullptr;
    t.src = tight_src.data();
    t.src_size = tight_src.size;
    t.src_row_length = t.src_image_height = 0;
    t.dst = tight.data();
    t.dst_size = tight.size();
    t.dst_row_pitch = t.dst_slice_pitch = 0;
    // One byte less of either is refused (texdec_decoded_size and texdec_encoded_size are exact).
    t.dst_size = tight.size() - 1;
    if (const texdec_status short_dst = texdec_decode(context, &t); short_dst != TEXDEC_ERROR_DESTINATION_TOO_SMALL)
        return broke(std::string("the tight twin with texdec_decoded_size - 1 bytes of destination gave ") +
                     status_name(short_dst));
    t.dst_size = tight.size();
    t.src_size = tight_src.size - 1;
    if (const texdec_status short_src = texdec_decode(context, &t); short_src != TEXDEC_ERROR_SOURCE_TOO_SMALL)
        return broke(std::string("the tight twin with texdec_encoded_size - 1 bytes of source gave ") +
                     status_name(short_src));
    t.src_size = tight_src.size;
    take_errors();
    const texdec_status ts = texdec_decode(context, &t);
    const std::string tight_errors = take_errors();
    if (ts != TEXDEC_SUCCESS)
        return broke(std::string("the tight twin of a decoded job was refused: ") + status_name(ts) + " (" +
                     tight_errors + ")");
    for (uint64_t z = 0; z < c.depth; ++z)
        for (uint64_t y = 0; y < c.height; ++y) {
            const uint8_t* got = dst + z * m.slice_pitch + y * m.row_pitch;
            const uint8_t* want = tight.data() + (z * c.height + y) * row_bytes;
            if (std::memcmp(got, want, size_t(row_bytes)) != 0) {
                uint64_t x = 0;
                while (got[x] == want[x]) ++x;
                return broke("texel (" + std::to_string(x / m.texel) + ", " + std::to_string(y) + ", " +
                             std::to_string(z) + ") byte " + std::to_string(x % m.texel) + " is " +
                             std::to_string(got[x]) + "; the tight linear decode of the same blocks gives " +
                             std::to_string(want[x]));
            }
        }
    return "";
}

// ---- inputs -----------------------------------------------------------------------------------

std::vector<uint8_t> pseudo_random_bytes(uint64_t seed, size_t size) {
    std::vector<uint8_t> out(size);
    uint64_t state = seed;
    for (size_t i = 0; i < size; i += 8) {
        const uint64_t v = splitmix(state);
        for (size_t b = 0; b < 8 && i + b < size; ++b) out[i + b] = uint8_t(v >> (8 * b));
    }
    return out;
}

std::vector<uint8_t> pseudo_random_job_input(uint64_t seed) {
    uint64_t state = seed ^ 0x5EED5EED5EEDull;
    const size_t blocks = size_t(splitmix(state) % 4097);
    std::vector<uint8_t> in = pseudo_random_bytes(seed, kJobHeaderBytes + blocks);
    // Every field is sometimes invalid, so most wholly random jobs have a problem somewhere: every
    // other job keeps each mode byte in its valid range (a format, output and rounding of the
    // enums, no zero or huge extent, lengths and pitches at least the extent's, a valid layout or
    // none, enough source and destination), so that about half the jobs decode.
    if (seed % 2 == 0) {
        const std::pair<size_t, uint8_t> valid_below[] = {
            {kFormat, 248}, {kOutput, 240},      {kRounding, 245},    {kWidth, 230},    {kHeight, 230},
            {kDepth, 232},  {kRowLength, 235},   {kImageHeight, 235}, {kRowPitch, 228}, {kSlicePitch, 228},
            {kLayout, 235}, {kLayerStride, 235}, {kSrcSize, 205},     {kDstSize, 210}};
        for (const auto& [at, below] : valid_below) in[at] = uint8_t(in[at] % below);
    }
    return in;
}

std::vector<std::vector<uint8_t>> decode_seed_inputs() {
    std::vector<std::vector<uint8_t>> out;
    const std::vector<uint8_t> blocks = pseudo_random_bytes(35, 1024);
    auto seed = [&](uint32_t format, uint8_t output, uint8_t w, uint8_t hgt, uint8_t layout) {
        std::vector<uint8_t> in(kJobHeaderBytes, 0);
        in[kFormat] = uint8_t(format - 1);  // 1 + byte % (COUNT - 1)
        in[kOutput] = output;
        in[kWidth + 1] = uint8_t(w - 1), in[kHeight + 1] = uint8_t(hgt - 1);  // class 0: 1 + v % 40
        in[kLayout] = layout;                                                 // >= 170: block-linear
        in[kLayout + 1] = 1;                                                  // block height 2
        in[kFill] = 0xCD;
        in.insert(in.end(), blocks.begin(), blocks.end());
        out.push_back(std::move(in));
    };
    for (uint32_t f = 1; f < TEXDEC_FORMAT_COUNT; ++f) {
        texdec_format_info info{};
        texdec_format format;
        set_bits(&format, f);
        if (texdec_format_get_info(format, &info) != TEXDEC_SUCCESS) continue;
        const bool rgba8 = !(info.flags & (TEXDEC_FORMAT_FLAG_SIGNED | TEXDEC_FORMAT_FLAG_HDR));
        seed(f, rgba8 ? 0 : 2, 13, 9, 0);  // linear, partial blocks at the edges
        seed(f, 1, 20, 17, 200);           // block-linear, RGBA16F
    }
    return out;
}

}  // namespace texdec_fuzz
