// libtexdec_file, item 3 of issue 36: whole-texture jobs. The two layouts of texdec_file.h
// (packed blocks, decoded texels), their VkBufferImageCopy, the one-call decode of every level
// (texdec_file_decode: one texdec_decode per level) and the record path (texdec_file_record: one
// texdec_region per level, one texdec_record_regions call), plus the file's upload plan.
// Built only on texdec.h, the public queries of texdec_file.h and file_internal.h (file_bytes,
// report): nothing here knows a container.
#include <texdec/texdec.h>
#include <texdec/texdec_file.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>

#include "../printf_like.h"
#include "file_internal.h"
#include "portable.h"

namespace {

using texdec_file_internal::file_bytes;
using texdec_file_internal::report;

// A file has at most 32 levels (an edge below 2^32 texels); the record path keeps one region per
// level on the stack.
constexpr uint32_t kMaxLevels = 32;

constexpr uint64_t kLevelAlignment = 16;  // texdec_file.h: every level starts at a multiple of 16

TEXDEC_PRINTF_LIKE(3, 4) texdec_status fail(const texdec_file* file, texdec_status status, const char* format, ...) {
    char text[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    report(file, TEXDEC_MESSAGE_ERROR, text);
    return status;
}

bool mul_overflows(uint64_t a, uint64_t b, uint64_t* out) { return texdec::portable::mul_overflow(a, b, out); }
bool add_overflows(uint64_t a, uint64_t b, uint64_t* out) { return texdec::portable::add_overflow(a, b, out); }

// The facts every job needs: the file's info and format, and which levels a job names.
struct FileFacts {
    texdec_file_info info{};
    texdec_format_info format{};
    uint32_t surfaces = 0;  // layers x faces
    bool image_3d = false;  // regions and copies address depth slices of a 3D image, not layers
};

texdec_status file_facts(const texdec_file* file, const char* function, FileFacts* facts) {
    if (texdec_status s = texdec_file_get_info(file, &facts->info); s != TEXDEC_SUCCESS) return s;
    if (texdec_status s = texdec_format_get_info(facts->info.format, &facts->format); s != TEXDEC_SUCCESS)
        return fail(file, s, "%s: the file's format %u is not a texdec_format", function, unsigned(facts->info.format));
    if (facts->info.levels == 0 || facts->info.levels > kMaxLevels)
        return fail(file, TEXDEC_ERROR_MALFORMED_FILE, "%s: the file has %u mip levels (1 ... %u)", function,
                    unsigned(facts->info.levels), unsigned(kMaxLevels));
    uint64_t surfaces = 0;
    if (mul_overflows(facts->info.layers, facts->info.faces, &surfaces) || surfaces == 0 ||
        surfaces > std::numeric_limits<uint32_t>::max())
        return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: layers (%u) x faces (%u) does not fit 32 bits", function,
                    unsigned(facts->info.layers), unsigned(facts->info.faces));
    facts->surfaces = uint32_t(surfaces);
    // A volume, or a 3D footprint (its blocks span texel slices): a 3D image, whose levels are
    // one layer of depth slices (3D arrays are refused when the file is opened; a 3D footprint
    // with layers or faces by check_one_image).
    facts->image_3d =
        (facts->info.layout_flags & TEXDEC_FILE_VOLUME) != 0 || facts->info.depth > 1 || facts->format.block_depth > 1;
    return TEXDEC_SUCCESS;
}

// The copies, the regions and the plan put the file in one image. A 3D footprint makes that a 3D
// image, which has one layer (texdec_plan_upload's rule): a file of such blocks with layers or
// faces (a KTX 2 array or cube map of ASTC 3x3x3 ...) has no image to go to, only the host layout
// of texdec_file_decode.
texdec_status check_one_image(const texdec_file* file, const FileFacts& facts, const char* function) {
    if (!facts.image_3d || facts.surfaces == 1) return TEXDEC_SUCCESS;
    return fail(file, TEXDEC_ERROR_UNSUPPORTED_FILE,
                "%s: %u layers x %u faces of %s (a 3D footprint): its image would be 3D, and a 3D image has one "
                "layer; texdec_file_decode decodes every surface into host memory",
                function, unsigned(facts.info.layers), unsigned(facts.info.faces), facts.format.name);
}

// base_level / level_count (0: to the last level) against the file's levels.
texdec_status level_range(const texdec_file* file, const FileFacts& facts, const char* function, uint32_t base_level,
                          uint32_t level_count, uint32_t* count) {
    const uint32_t levels = facts.info.levels;
    if (base_level >= levels)
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: base_level %u is past the file's %u mip levels", function,
                    unsigned(base_level), unsigned(levels));
    if (level_count > levels - base_level)
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT,
                    "%s: base_level %u + level_count %u is past the file's %u mip levels", function,
                    unsigned(base_level), unsigned(level_count), unsigned(levels));
    *count = level_count ? level_count : levels - base_level;
    return TEXDEC_SUCCESS;
}

struct LevelExtent {
    uint32_t width, height, depth;
};

texdec_status level_extent(const texdec_file* file, uint32_t level, LevelExtent* extent) {
    texdec_file_surface surface{};
    if (texdec_status s = texdec_file_get_surface(file, level, 0, 0, &surface); s != TEXDEC_SUCCESS) return s;
    *extent = {surface.width, surface.height, surface.depth};
    return TEXDEC_SUCCESS;
}

// One level's numbers in a layout, with the offset not yet placed.
texdec_status level_numbers(const texdec_file* file, const FileFacts& facts, texdec_file_data data,
                            texdec_output output, const LevelExtent& e, const char* function,
                            texdec_file_level_layout* out) {
    uint64_t row = 0, rows = 0, slices = 0;
    if (data == TEXDEC_FILE_DATA_BLOCKS) {
        const texdec_format_info& f = facts.format;
        // Blocks x fastest, then y, then z (KTX 2 "Level Index"; the packed layout of texdec_file.h).
        const uint64_t bx = (uint64_t(e.width) + f.block_width - 1) / f.block_width;
        rows = (uint64_t(e.height) + f.block_height - 1) / f.block_height;
        slices = (uint64_t(e.depth) + f.block_depth - 1) / f.block_depth;
        row = bx * f.bytes_per_block;  // < 2^32 * 16: no overflow
    } else if (data == TEXDEC_FILE_DATA_TEXELS) {
        uint32_t texel = 0;
        if (texdec_status s = texdec_output_texel_size(facts.info.format, output, &texel); s != TEXDEC_SUCCESS) {
            const char* name = texdec_output_name(output);
            if (name) return fail(file, s, "%s: output %s is not offered for the file's format", function, name);
            return fail(file, s, "%s: output %u is not a texdec_output", function, unsigned(output));
        }
        row = uint64_t(e.width) * texel;
        rows = e.height;
        slices = e.depth;
    } else {
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: data %u is not a texdec_file_data", function,
                    unsigned(data));
    }
    texdec_file_level_layout l{};
    l.row_pitch = row;
    if (mul_overflows(row, rows, &l.slice_pitch) || mul_overflows(l.slice_pitch, slices, &l.surface_pitch) ||
        mul_overflows(l.surface_pitch, facts.surfaces, &l.size))
        return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: a level of %ux%ux%u x %u surfaces does not fit 64 bits",
                    function, unsigned(e.width), unsigned(e.height), unsigned(e.depth), unsigned(facts.surfaces));
    *out = l;
    return TEXDEC_SUCCESS;
}

// Every level of a layout of `count` levels from base_level: offsets (each a multiple of 16) and
// total_size (the end of the last level).
struct Layout {
    texdec_file_level_layout levels[kMaxLevels];
    LevelExtent extents[kMaxLevels];
    uint32_t count = 0;
    uint64_t total_size = 0;
};

texdec_status make_layout(const texdec_file* file, const FileFacts& facts, texdec_file_data data, texdec_output output,
                          uint32_t base_level, uint32_t count, const char* function, Layout* layout) {
    uint64_t offset = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (texdec_status s = level_extent(file, base_level + i, &layout->extents[i]); s != TEXDEC_SUCCESS) return s;
        texdec_file_level_layout& l = layout->levels[i];
        if (texdec_status s = level_numbers(file, facts, data, output, layout->extents[i], function, &l);
            s != TEXDEC_SUCCESS)
            return s;
        if (i > 0) {
            uint64_t aligned = 0;
            if (add_overflows(offset, kLevelAlignment - 1, &aligned))
                return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: the layout does not fit 64 bits", function);
            offset = aligned & ~(kLevelAlignment - 1);
        }
        l.offset = offset;
        if (add_overflows(offset, l.size, &offset))
            return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: the layout does not fit 64 bits", function);
    }
    layout->count = count;
    layout->total_size = offset;
    for (uint32_t i = 0; i < count; ++i) layout->levels[i].total_size = offset;
    return TEXDEC_SUCCESS;
}

// Whether level `level`'s surfaces lie in the file's bytes in the packed order (layer by layer,
// face by face, each right after the one before), so that texdec_decode reads them in place.
// Supercompressed levels never do.
texdec_status level_in_place(const texdec_file* file, const FileFacts& facts, uint32_t level,
                             const texdec_file_level_layout& blocks, const uint8_t** where) {
    *where = nullptr;
    if (facts.info.supercompression != TEXDEC_FILE_SUPERCOMPRESSION_NONE) return TEXDEC_SUCCESS;
    const std::span<const uint8_t> bytes = file_bytes(file);
    uint64_t first = 0;
    uint32_t index = 0;
    for (uint32_t layer = 0; layer < facts.info.layers; ++layer) {
        for (uint32_t face = 0; face < facts.info.faces; ++face, ++index) {
            texdec_file_surface s{};
            if (texdec_status st = texdec_file_get_surface(file, level, layer, face, &s); st != TEXDEC_SUCCESS)
                return st;
            if (index == 0) first = s.offset;
            // index * surface_pitch <= the level's size, which fits 64 bits.
            if (s.size != blocks.surface_pitch || s.offset - first != uint64_t(index) * blocks.surface_pitch ||
                s.offset < first)
                return TEXDEC_SUCCESS;
        }
    }
    if (first > bytes.size() || blocks.size > bytes.size() - first) return TEXDEC_SUCCESS;
    *where = bytes.data() + first;
    return TEXDEC_SUCCESS;
}

// What texdec_file_decode does for each level of a job.
struct DecodePlan {
    FileFacts facts;
    uint32_t count = 0;
    Layout texels, blocks;
    const uint8_t* in_place[kMaxLevels] = {};
    uint64_t scratch = 0;  // the largest level that is gathered or inflated
};

texdec_status plan_decode(const texdec_file* file, const texdec_file_decode_job* job, const char* function,
                          DecodePlan* plan) {
    if (job->next) return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: job->next is not NULL", function);
    if (texdec_status s = file_facts(file, function, &plan->facts); s != TEXDEC_SUCCESS) return s;
    if (texdec_status s = level_range(file, plan->facts, function, job->base_level, job->level_count, &plan->count);
        s != TEXDEC_SUCCESS)
        return s;
    if (texdec_status s = make_layout(file, plan->facts, TEXDEC_FILE_DATA_TEXELS, job->output, job->base_level,
                                      plan->count, function, &plan->texels);
        s != TEXDEC_SUCCESS)
        return s;
    if (texdec_status s = make_layout(file, plan->facts, TEXDEC_FILE_DATA_BLOCKS, TEXDEC_OUTPUT_NATIVE, job->base_level,
                                      plan->count, function, &plan->blocks);
        s != TEXDEC_SUCCESS)
        return s;
    for (uint32_t i = 0; i < plan->count; ++i) {
        const uint32_t level = job->base_level + i;
        if (texdec_status s = level_in_place(file, plan->facts, level, plan->blocks.levels[i], &plan->in_place[i]);
            s != TEXDEC_SUCCESS)
            return s;
        // The packed layout's level size is texdec_file_level_size's (the same per-level sums).
        if (!plan->in_place[i]) plan->scratch = std::max(plan->scratch, plan->blocks.levels[i].size);
    }
    return TEXDEC_SUCCESS;
}

// The texdec_decode jobs of level i: one job of every surface (layers and faces as the depth
// slices of one job, or the depth of a 3D level), or one per surface where a level has both
// depth and surfaces, or a 3D footprint has surfaces (its block slices span texel slices).
uint32_t jobs_per_level(const DecodePlan& plan, uint32_t i) {
    const bool split =
        plan.facts.surfaces > 1 && (plan.texels.extents[i].depth > 1 || plan.facts.format.block_depth > 1);
    return split ? plan.facts.surfaces : 1;
}

texdec_host_job level_job(const DecodePlan& plan, const texdec_file_decode_job& job, uint32_t i, uint32_t part,
                          const uint8_t* src, uint8_t* dst) {
    const texdec_file_level_layout& t = plan.texels.levels[i];
    const texdec_file_level_layout& b = plan.blocks.levels[i];
    const LevelExtent& e = plan.texels.extents[i];
    const uint32_t parts = jobs_per_level(plan, i);
    texdec_host_job h{};
    h.format = plan.facts.info.format;
    h.output = job.output;
    h.bc_rounding = job.bc_rounding;
    h.width = e.width;
    h.height = e.height;
    // Layers and faces follow each other like 2D depth slices in both layouts: a source slice is
    // one surface's blocks (src_image_height 0: the extent's), a destination slice one surface's
    // texels.
    h.depth = parts == 1 ? e.depth * plan.facts.surfaces : e.depth;
    const uint64_t src_offset = uint64_t(part) * b.surface_pitch;
    const uint64_t dst_offset = uint64_t(part) * t.surface_pitch;
    h.src = src ? src + src_offset : nullptr;
    h.src_size = size_t(parts == 1 ? b.size : b.surface_pitch);
    h.dst = dst ? dst + t.offset + dst_offset : nullptr;
    h.dst_size = size_t(parts == 1 ? t.size : t.surface_pitch);
    h.dst_row_pitch = size_t(t.row_pitch);
    h.dst_slice_pitch = size_t(t.slice_pitch);
    h.timeout_ns = job.timeout_ns;
    return h;
}

texdec_status check_fits_size_t(const texdec_file* file, uint64_t bytes, const char* function, const char* what) {
    if (bytes > std::numeric_limits<size_t>::max())
        return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: %s (%" PRIu64 " bytes) does not fit size_t", function, what,
                    bytes);
    return TEXDEC_SUCCESS;
}

texdec_status make_regions(const texdec_file* file, const texdec_file_record_job* job, const char* function,
                           uint32_t* count, texdec_region* regions) {
    FileFacts facts;
    if (texdec_status s = file_facts(file, function, &facts); s != TEXDEC_SUCCESS) return s;
    if (texdec_status s = check_one_image(file, facts, function); s != TEXDEC_SUCCESS) return s;
    uint32_t levels = 0;
    if (texdec_status s = level_range(file, facts, function, job->base_level, job->level_count, &levels);
        s != TEXDEC_SUCCESS)
        return s;
    if (!regions) {
        *count = levels;
        return TEXDEC_SUCCESS;
    }
    if (*count < levels)
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: *count is %u, but the job has %u mip levels", function,
                    unsigned(*count), unsigned(levels));
    if (job->src_offset % kLevelAlignment)
        return fail(file, TEXDEC_ERROR_INVALID_LAYOUT, "%s: src_offset %" PRIu64 " is not a multiple of 16", function,
                    uint64_t(job->src_offset));
    if (job->image_base_level > std::numeric_limits<uint32_t>::max() - (levels - 1))
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: image_base_level %u + %u mip levels does not fit 32 bits",
                    function, unsigned(job->image_base_level), unsigned(levels));
    Layout layout;
    if (texdec_status s = make_layout(file, facts, TEXDEC_FILE_DATA_BLOCKS, TEXDEC_OUTPUT_NATIVE, job->base_level,
                                      levels, function, &layout);
        s != TEXDEC_SUCCESS)
        return s;
    uint64_t end = 0;
    if (add_overflows(job->src_offset, layout.total_size, &end))
        return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: src_offset %" PRIu64 " + %" PRIu64 " bytes wraps 64 bits",
                    function, uint64_t(job->src_offset), layout.total_size);
    for (uint32_t i = 0; i < levels; ++i) {
        const LevelExtent& e = layout.extents[i];
        texdec_region r{};
        r.src_offset = job->src_offset + layout.levels[i].offset;
        r.mip_level = job->image_base_level + i;
        r.base_array_layer = 0;
        r.layer_count = facts.image_3d ? 1 : facts.surfaces;
        r.offset = {0, 0, 0};
        r.extent = {e.width, e.height, facts.image_3d ? e.depth : 1};
        regions[i] = r;
    }
    *count = levels;
    return TEXDEC_SUCCESS;
}

}  // namespace

extern "C" TEXDEC_FILE_API texdec_status texdec_file_get_layout(const texdec_file* file, texdec_file_data data,
                                                                texdec_output output, uint32_t base_level,
                                                                uint32_t level_count, uint32_t level,
                                                                texdec_file_level_layout* layout) {
    constexpr const char* kFunction = "texdec_file_get_layout";
    if (!file || !layout) {
        if (file) report(file, TEXDEC_MESSAGE_ERROR, "texdec_file_get_layout: layout is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    FileFacts facts;
    if (texdec_status s = file_facts(file, kFunction, &facts); s != TEXDEC_SUCCESS) return s;
    uint32_t count = 0;
    if (texdec_status s = level_range(file, facts, kFunction, base_level, level_count, &count); s != TEXDEC_SUCCESS)
        return s;
    if (level < base_level || level - base_level >= count)
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: level %u is outside levels %u ... %u", kFunction,
                    unsigned(level), unsigned(base_level), unsigned(base_level + count - 1));
    Layout l;
    if (texdec_status s = make_layout(file, facts, data, output, base_level, count, kFunction, &l); s != TEXDEC_SUCCESS)
        return s;
    *layout = l.levels[level - base_level];
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_FILE_API texdec_status texdec_file_buffer_copies(const texdec_file* file, texdec_file_data data,
                                                                   texdec_output output, uint32_t base_level,
                                                                   uint32_t level_count, VkBool32 image_base_level_zero,
                                                                   VkDeviceSize buffer_offset, uint32_t* count,
                                                                   VkBufferImageCopy* copies) {
    constexpr const char* kFunction = "texdec_file_buffer_copies";
    if (!file || !count) {
        if (file) report(file, TEXDEC_MESSAGE_ERROR, "texdec_file_buffer_copies: count is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    FileFacts facts;
    if (texdec_status s = file_facts(file, kFunction, &facts); s != TEXDEC_SUCCESS) return s;
    if (texdec_status s = check_one_image(file, facts, kFunction); s != TEXDEC_SUCCESS) return s;
    uint32_t levels = 0;
    if (texdec_status s = level_range(file, facts, kFunction, base_level, level_count, &levels); s != TEXDEC_SUCCESS)
        return s;
    Layout layout;
    if (texdec_status s = make_layout(file, facts, data, output, base_level, levels, kFunction, &layout);
        s != TEXDEC_SUCCESS)
        return s;
    if (!copies) {
        *count = levels;
        return TEXDEC_SUCCESS;
    }
    if (*count < levels)
        return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: *count is %u, but the layout has %u mip levels",
                    kFunction, unsigned(*count), unsigned(levels));
    // vkCmdCopyBufferToImage wants bufferOffset a multiple of the texel block size (8 or 16 bytes
    // for the compressed formats, up to 8 for texels): every level's offset is a multiple of 16.
    if (buffer_offset % kLevelAlignment)
        return fail(file, TEXDEC_ERROR_INVALID_LAYOUT, "%s: buffer_offset %" PRIu64 " is not a multiple of 16",
                    kFunction, uint64_t(buffer_offset));
    uint64_t end = 0;
    if (add_overflows(buffer_offset, layout.total_size, &end))
        return fail(file, TEXDEC_ERROR_SIZE_OVERFLOW, "%s: buffer_offset %" PRIu64 " + %" PRIu64 " bytes wraps 64 bits",
                    kFunction, uint64_t(buffer_offset), layout.total_size);
    for (uint32_t i = 0; i < levels; ++i) {
        const LevelExtent& e = layout.extents[i];
        VkBufferImageCopy c{};
        c.bufferOffset = buffer_offset + layout.levels[i].offset;
        c.bufferRowLength = 0;  // tightly packed: the layouts' rows and slices are the extent's
        c.bufferImageHeight = 0;
        c.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        c.imageSubresource.mipLevel = image_base_level_zero ? i : base_level + i;
        c.imageSubresource.baseArrayLayer = 0;
        c.imageSubresource.layerCount = facts.image_3d ? 1 : facts.surfaces;
        c.imageOffset = {0, 0, 0};
        c.imageExtent = {e.width, e.height, facts.image_3d ? e.depth : 1};
        copies[i] = c;
    }
    *count = levels;
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_FILE_API texdec_status texdec_file_decode_scratch_size(const texdec_file* file,
                                                                         const texdec_file_decode_job* job,
                                                                         uint64_t* bytes) {
    if (!file || !job || !bytes) {
        if (file)
            report(file, TEXDEC_MESSAGE_ERROR,
                   !job ? "texdec_file_decode_scratch_size: job is NULL"
                        : "texdec_file_decode_scratch_size: bytes is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    std::unique_ptr<DecodePlan> plan(new (std::nothrow) DecodePlan);
    if (!plan) return TEXDEC_ERROR_OUT_OF_MEMORY;
    if (texdec_status s = plan_decode(file, job, "texdec_file_decode_scratch_size", plan.get()); s != TEXDEC_SUCCESS)
        return s;
    *bytes = plan->scratch;
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_FILE_API texdec_status texdec_file_decode(texdec_context* context, const texdec_file* file,
                                                            const texdec_file_decode_job* job) {
    constexpr const char* kFunction = "texdec_file_decode";
    if (!context || !file || !job) {
        if (file)
            report(file, TEXDEC_MESSAGE_ERROR,
                   !context ? "texdec_file_decode: context is NULL" : "texdec_file_decode: job is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    std::unique_ptr<DecodePlan> plan(new (std::nothrow) DecodePlan);
    if (!plan) return TEXDEC_ERROR_OUT_OF_MEMORY;
    if (texdec_status s = plan_decode(file, job, kFunction, plan.get()); s != TEXDEC_SUCCESS) return s;
    const uint64_t needed = plan->texels.total_size;
    if (!job->dst) return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT, "%s: job->dst is NULL", kFunction);
    if (job->dst_size < needed)
        return fail(file, TEXDEC_ERROR_DESTINATION_TOO_SMALL,
                    "%s: dst_size is %zu, but mip levels %u ... %u as %s need %" PRIu64
                    " bytes (texdec_file_get_layout's total_size)",
                    kFunction, job->dst_size, unsigned(job->base_level), unsigned(job->base_level + plan->count - 1),
                    texdec_output_name(job->output), needed);
    // Every size a host job holds fits size_t: the texels fit dst_size, and the blocks are checked.
    if (texdec_status s = check_fits_size_t(file, plan->blocks.total_size, kFunction, "the blocks of the levels");
        s != TEXDEC_SUCCESS)
        return s;
    uint8_t* scratch = static_cast<uint8_t*>(job->scratch);
    std::unique_ptr<uint8_t[]> owned;
    if (plan->scratch > 0) {
        if (scratch && job->scratch_size < plan->scratch)
            return fail(file, TEXDEC_ERROR_INVALID_ARGUMENT,
                        "%s: scratch_size is %zu, but texdec_file_decode_scratch_size is %" PRIu64, kFunction,
                        job->scratch_size, plan->scratch);
        if (!scratch) {
            owned.reset(new (std::nothrow) uint8_t[size_t(plan->scratch)]);
            if (!owned)
                return fail(file, TEXDEC_ERROR_OUT_OF_MEMORY, "%s: no memory for %" PRIu64 " bytes of scratch",
                            kFunction, plan->scratch);
            scratch = owned.get();
        }
    }
    uint8_t* dst = static_cast<uint8_t*>(job->dst);
    // Every job checked before the first decode (texdec_decode's statuses: the output, the
    // rounding, the sizes), through the context, which reports its own message.
    for (uint32_t i = 0; i < plan->count; ++i) {
        const uint8_t* src = plan->in_place[i] ? plan->in_place[i] : scratch;
        for (uint32_t part = 0; part < jobs_per_level(*plan, i); ++part) {
            const texdec_host_job h = level_job(*plan, *job, i, part, src, dst);
            uint64_t host = 0, device = 0;
            if (texdec_status s = texdec_decode_scratch_size(context, &h, &host, &device); s != TEXDEC_SUCCESS)
                return s;
        }
    }
    for (uint32_t i = 0; i < plan->count; ++i) {
        const uint32_t level = job->base_level + i;
        const uint8_t* src = plan->in_place[i];
        if (!src) {
            // Gathers the surfaces into the packed order, or inflates a supercompressed level.
            if (texdec_status s = texdec_file_read_level(file, level, scratch, size_t(plan->blocks.levels[i].size));
                s != TEXDEC_SUCCESS)
                return s;
            src = scratch;
        }
        for (uint32_t part = 0; part < jobs_per_level(*plan, i); ++part) {
            const texdec_host_job h = level_job(*plan, *job, i, part, src, dst);
            if (texdec_status s = texdec_decode(context, &h); s != TEXDEC_SUCCESS) return s;
        }
    }
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_FILE_API texdec_status texdec_file_make_regions(const texdec_file* file,
                                                                  const texdec_file_record_job* job, uint32_t* count,
                                                                  texdec_region* regions) {
    if (!file || !job || !count) {
        if (file)
            report(file, TEXDEC_MESSAGE_ERROR,
                   !job ? "texdec_file_make_regions: job is NULL" : "texdec_file_make_regions: count is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    return make_regions(file, job, "texdec_file_make_regions", count, regions);
}

extern "C" TEXDEC_FILE_API texdec_status texdec_file_record(texdec_context* context, VkCommandBuffer cmd,
                                                            const texdec_file* file,
                                                            const texdec_file_record_job* job) {
    texdec_regions_job regions_job{};
    // A CPU context answers WRONG_BACKEND whatever the other arguments (texdec_record_regions'
    // rule; it reports the message through the context).
    if (!context || texdec_context_backend(context) != TEXDEC_BACKEND_GPU)
        return texdec_record_regions(context, cmd, &regions_job);
    if (!file || !job) {
        if (file) report(file, TEXDEC_MESSAGE_ERROR, "texdec_file_record: job is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    texdec_region regions[kMaxLevels];
    uint32_t count = kMaxLevels;
    if (texdec_status s = make_regions(file, job, "texdec_file_record", &count, regions); s != TEXDEC_SUCCESS) return s;
    texdec_file_info info{};
    if (texdec_status s = texdec_file_get_info(file, &info); s != TEXDEC_SUCCESS) return s;
    regions_job.next = job->next;
    regions_job.format = info.format;
    regions_job.output = job->output;
    regions_job.bc_rounding = job->bc_rounding;
    regions_job.flags = job->flags;
    regions_job.src_buffer = job->src_buffer;
    regions_job.src_size = job->src_size;
    regions_job.dst_image = job->dst_image;
    regions_job.region_count = count;
    regions_job.regions = regions;
    regions_job.barriers = job->barriers;
    return texdec_record_regions(context, cmd, &regions_job);
}

extern "C" TEXDEC_FILE_API texdec_status texdec_file_plan_upload(const texdec_file* file,
                                                                 const texdec_upload_plan_info* info,
                                                                 texdec_upload_plan* plan) {
    constexpr const char* kFunction = "texdec_file_plan_upload";
    if (!file || !info || !plan) {
        if (file)
            report(file, TEXDEC_MESSAGE_ERROR,
                   !info ? "texdec_file_plan_upload: info is NULL" : "texdec_file_plan_upload: plan is NULL");
        return TEXDEC_ERROR_INVALID_ARGUMENT;
    }
    FileFacts facts;
    if (texdec_status s = file_facts(file, kFunction, &facts); s != TEXDEC_SUCCESS) return s;
    if (texdec_status s = check_one_image(file, facts, kFunction); s != TEXDEC_SUCCESS) return s;
    // The image a loader creates for the whole file: level 0's extent, every level, the layers x
    // faces as array layers (a 3D image: one layer), CUBE_COMPATIBLE for a cube map so that it can
    // be viewed as one.
    texdec_upload_plan_info whole = *info;
    whole.format = facts.info.format;
    whole.extent = {facts.info.width, facts.info.height, facts.image_3d ? facts.info.depth : 1};
    whole.mip_levels = facts.info.levels;
    whole.array_layers = facts.image_3d ? 1 : facts.surfaces;
    if (facts.info.layout_flags & TEXDEC_FILE_CUBE) whole.image_flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    return texdec_plan_upload(&whole, plan);
}
