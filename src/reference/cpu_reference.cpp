// The CPU reference's driver: checks a texdec_host_job as texdec_decode does (same statuses in the
// same order), then walks the blocks, decoding each with its family's block function and copying
// the texels inside the extent into the job's layout. ASTC goes to decode_astc as a whole.
#include "reference/cpu_reference.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

#include "enum_bits.h"
#include "portable.h"
#include "printf_like.h"
#include "reference/block_decoders.h"

namespace texdec_reference {
namespace {

// Job fields are enums a C caller may fill with any 32-bit value: read the bits (as the library).
using texdec::enum_bits;
using texdec::enum_from_bits;

Result fail(texdec_status status, const char* format, ...) TEXDEC_PRINTF_LIKE(2, 3);
Result fail(texdec_status status, const char* format, ...) {
    char text[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return {status, text};
}

const char* output_name(uint32_t output) {
    switch (output) {
    case TEXDEC_OUTPUT_RGBA8: return "rgba8";
    case TEXDEC_OUTPUT_RGBA16F: return "rgba16f";
    case TEXDEC_OUTPUT_NATIVE: return "native";
    default: return nullptr;
    }
}

bool uses_bc_rounding(texdec_family family) {
    return family == TEXDEC_FAMILY_BC1_3 || family == TEXDEC_FAMILY_BC4_5;
}

// Format, output and rounding, as texdec_decode checks them (plan_job's order); fills info and
// the output's texel size on success.
Result check_format(uint32_t format_bits, uint32_t output_bits, uint32_t rounding_bits, texdec_format_info* info,
                    uint32_t* texel_bytes) {
    if (rounding_bits > TEXDEC_BC_ROUNDING_NVIDIA)
        return fail(TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "unknown BC rounding mode %u", rounding_bits);
    // Out-of-range values are refused before they become enums (an invalid enum value is UB).
    if (format_bits >= TEXDEC_FORMAT_COUNT)
        return fail(TEXDEC_ERROR_UNKNOWN_FORMAT, "the format value %u is not a texdec_format", format_bits);
    const auto format = enum_from_bits<texdec_format>(format_bits);
    if (texdec_format_get_info(format, info) != TEXDEC_SUCCESS)
        return fail(TEXDEC_ERROR_UNKNOWN_FORMAT, "the format value %u is not a texdec_format", format_bits);
    if (!(info->flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
        return fail(TEXDEC_ERROR_UNSUPPORTED_FORMAT, "format %s is not implemented in this version", info->name);
#if !TEXDEC_REFERENCE_ASTCENC  // the Windows cross-build: Debian has no mingw libastcenc
    if (info->family == TEXDEC_FAMILY_ASTC)
        return fail(TEXDEC_ERROR_UNSUPPORTED_FORMAT,
                    "the CPU reference of %s needs libastcenc, which this build has not", info->name);
#endif
    if (output_bits > TEXDEC_OUTPUT_NATIVE)
        return fail(TEXDEC_ERROR_UNSUPPORTED_OUTPUT, "output value %u is not a texdec_output", output_bits);
    VkFormat vk_format;
    const auto output = enum_from_bits<texdec_output>(output_bits);
    if (texdec_output_vk_format(format, output, &vk_format) != TEXDEC_SUCCESS ||
        texdec_output_texel_size(format, output, texel_bytes) != TEXDEC_SUCCESS) {
        if (const char* name = output_name(output_bits))
            return fail(TEXDEC_ERROR_UNSUPPORTED_OUTPUT, "%s has no %s output", info->name, name);
        return fail(TEXDEC_ERROR_UNSUPPORTED_OUTPUT, "output value %u is not a texdec_output", output_bits);
    }
    if (uses_bc_rounding(info->family) && rounding_bits == TEXDEC_BC_ROUNDING_NVIDIA)
        return fail(TEXDEC_ERROR_UNSUPPORTED_ROUNDING, "no CPU reference for --bc-rounding nvidia yet");
    return {TEXDEC_SUCCESS, {}};
}

// a * b + c, false if it overflows 64 bits.
bool mul_add(uint64_t a, uint64_t b, uint64_t c, uint64_t* out) { return texdec::portable::mul_add_fits(a, b, c, out); }

uint64_t div_round_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Everything texdec_decode checks (plan_job, plan_host_job, plan_destination), in its order.
Result plan(const texdec_host_job& job, detail::JobGeometry* g) {
    Result r = check_format(enum_bits(job.format), enum_bits(job.output), enum_bits(job.bc_rounding), &g->info,
                            &g->texel_bytes);
    if (r.status != TEXDEC_SUCCESS) return r;
    if (job.width == 0 || job.height == 0 || job.depth == 0)
        return fail(TEXDEC_ERROR_INVALID_EXTENT, "the extent %ux%ux%u is empty: width, height and depth must be at least 1",
                    job.width, job.height, job.depth);
    const uint32_t row_length = job.src_row_length ? job.src_row_length : job.width;
    const uint32_t image_height = job.src_image_height ? job.src_image_height : job.height;
    if (row_length < job.width || image_height < job.height)
        return fail(TEXDEC_ERROR_INVALID_LAYOUT, "source row length %u / image height %u is smaller than the extent %ux%u",
                    row_length, image_height, job.width, job.height);
    const texdec_format_info& f = g->info;
    g->blocks_x = div_round_up(job.width, f.block_width);
    g->blocks_y = div_round_up(job.height, f.block_height);
    g->blocks_z = div_round_up(job.depth, f.block_depth);
    g->src_row_bytes = div_round_up(row_length, f.block_width) * f.bytes_per_block;
    uint64_t src_needed = 0;
    if (!mul_add(g->src_row_bytes, div_round_up(image_height, f.block_height), 0, &g->src_slice_bytes) ||
        !mul_add(g->src_slice_bytes, g->blocks_z - 1, 0, &src_needed) ||
        !mul_add(g->src_row_bytes, g->blocks_y - 1, src_needed, &src_needed) ||
        !mul_add(g->blocks_x, f.bytes_per_block, src_needed, &src_needed))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the compressed size of the extent overflows 64 bits");
    if (!job.src || !job.dst) return fail(TEXDEC_ERROR_INVALID_ARGUMENT, "blocks and texels must not be NULL");
    if (job.src_size < src_needed)
        return fail(TEXDEC_ERROR_SOURCE_TOO_SMALL, "the extent needs %llu bytes of blocks, src_size is %llu",
                    (unsigned long long)src_needed, (unsigned long long)job.src_size);
    const uint64_t tight_row = uint64_t(job.width) * g->texel_bytes;
    g->row_pitch = job.dst_row_pitch ? job.dst_row_pitch : tight_row;
    if (g->row_pitch < tight_row)
        return fail(TEXDEC_ERROR_INVALID_LAYOUT, "row pitch %llu is smaller than width * texel size (%llu)",
                    (unsigned long long)g->row_pitch, (unsigned long long)tight_row);
    uint64_t tight_slice = 0;
    if (!mul_add(g->row_pitch, job.height, 0, &tight_slice))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "row pitch * height overflows 64 bits");
    g->slice_pitch = job.dst_slice_pitch ? job.dst_slice_pitch : tight_slice;
    if (g->slice_pitch < tight_slice)
        return fail(TEXDEC_ERROR_INVALID_LAYOUT, "slice pitch %llu is smaller than row pitch * height (%llu)",
                    (unsigned long long)g->slice_pitch, (unsigned long long)tight_slice);
    uint64_t dst_needed = 0;
    if (!mul_add(g->slice_pitch, job.depth - 1, 0, &dst_needed) ||
        !mul_add(g->row_pitch, job.height - 1, dst_needed, &dst_needed) || !mul_add(tight_row, 1, dst_needed, &dst_needed))
        return fail(TEXDEC_ERROR_SIZE_OVERFLOW, "the decoded size of the extent overflows 64 bits");
    if (job.dst_size < dst_needed)
        return fail(TEXDEC_ERROR_DESTINATION_TOO_SMALL, "the extent needs %llu bytes of texels, dst_size is %llu",
                    (unsigned long long)dst_needed, (unsigned long long)job.dst_size);
    return {TEXDEC_SUCCESS, {}};
}

using BlockFunction = void (*)(texdec_format, texdec_output, const uint8_t*, uint8_t*);

// The 4x4 families: every block decoded into a scratch tile, the part inside the extent copied.
Result decode_blocks(const texdec_host_job& job, const detail::JobGeometry& g) {
    const texdec_format format = g.info.format;
    const auto output = enum_from_bits<texdec_output>(enum_bits(job.output));
    const auto rounding = enum_from_bits<texdec_bc_rounding>(enum_bits(job.bc_rounding));
    BlockFunction block_function = nullptr;
    switch (g.info.family) {
    case TEXDEC_FAMILY_BC6H: block_function = detail::decode_bc6h_block; break;
    case TEXDEC_FAMILY_BC7: block_function = detail::decode_bc7_block; break;
    case TEXDEC_FAMILY_ETC2: block_function = detail::decode_etc2_block; break;
    case TEXDEC_FAMILY_EAC: block_function = detail::decode_eac_block; break;
    default: break;  // BC1-BC5 take the rounding too
    }
    const uint32_t bw = g.info.block_width, bh = g.info.block_height, tb = g.texel_bytes;
    std::vector<uint8_t> tile(size_t(bw) * bh * tb);
    const auto* src = static_cast<const uint8_t*>(job.src);
    auto* dst = static_cast<uint8_t*>(job.dst);
    for (uint64_t z = 0; z < g.blocks_z; ++z)  // block depth 1: one block slice per texel slice
        for (uint64_t by = 0; by < g.blocks_y; ++by)
            for (uint64_t bx = 0; bx < g.blocks_x; ++bx) {
                const uint8_t* block = src + z * g.src_slice_bytes + by * g.src_row_bytes + bx * g.info.bytes_per_block;
                if (block_function) block_function(format, output, block, tile.data());
                else detail::decode_bc1_5_block(format, output, rounding, block, tile.data());
                // Partial edge blocks: only the texels inside the extent.
                const uint64_t x0 = bx * bw, y0 = by * bh;
                const uint64_t columns = std::min<uint64_t>(bw, job.width - x0), rows = std::min<uint64_t>(bh, job.height - y0);
                for (uint64_t y = 0; y < rows; ++y)
                    std::memcpy(dst + z * g.slice_pitch + (y0 + y) * g.row_pitch + x0 * tb, &tile[y * bw * tb], columns * tb);
            }
    return {TEXDEC_SUCCESS, {}};
}

Result decode_checked(const texdec_host_job& job) {
    detail::JobGeometry g{};
    Result r = plan(job, &g);
    if (r.status != TEXDEC_SUCCESS) return r;
#if TEXDEC_REFERENCE_ASTCENC
    if (g.info.family == TEXDEC_FAMILY_ASTC) return detail::decode_astc(job, g);
#endif
    return decode_blocks(job, g);
}

}  // namespace

namespace detail {

std::vector<uint8_t> gather_blocks(const texdec_host_job& job, const JobGeometry& g, uint64_t slice, uint64_t first_row,
                                   uint64_t rows) {
    const uint64_t row_bytes = g.blocks_x * g.info.bytes_per_block;
    std::vector<uint8_t> out(row_bytes * rows);
    const auto* src = static_cast<const uint8_t*>(job.src) + slice * g.src_slice_bytes;
    for (uint64_t y = 0; y < rows; ++y) std::memcpy(&out[y * row_bytes], src + (first_row + y) * g.src_row_bytes, row_bytes);
    return out;
}

void scatter_texels(const texdec_host_job& job, const JobGeometry& g, uint64_t y0, uint64_t z0, uint32_t height,
                    uint32_t depth, const uint8_t* tight) {
    const uint64_t row_bytes = uint64_t(job.width) * g.texel_bytes;
    auto* dst = static_cast<uint8_t*>(job.dst);
    for (uint64_t z = 0; z < depth; ++z)
        for (uint64_t y = 0; y < height; ++y, tight += row_bytes)
            std::memcpy(dst + (z0 + z) * g.slice_pitch + (y0 + y) * g.row_pitch, tight, row_bytes);
}

}  // namespace detail

std::string unavailable_reason(texdec_format format, texdec_output output, texdec_bc_rounding rounding) {
    texdec_format_info info;
    uint32_t texel_bytes = 0;
    return check_format(enum_bits(format), enum_bits(output), enum_bits(rounding), &info, &texel_bytes).message;
}

Result decode(const texdec_host_job& job) {
    try {
        return decode_checked(job);
    } catch (const std::bad_alloc&) {
        return fail(TEXDEC_ERROR_OUT_OF_MEMORY, "the CPU reference ran out of host memory");
    } catch (const std::exception& e) {
        // libastcenc refused the job (the message names the call).
        return fail(TEXDEC_ERROR_UNSUPPORTED_FORMAT, "CPU reference: %s", e.what());
    }
}

}  // namespace texdec_reference
