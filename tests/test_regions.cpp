// The copy-shaped record API (texdec_record_regions, texdec_image_target, texdec_record_barriers)
// on a device of the test's own (validation + synchronization validation; any message fails).
//
// Reference: the one-call path, texdec_decode of the same blocks (row length / image height of
// the region, depth = slices x layers), which the oracle tests prove elsewhere; tolerance 0,
// texel for texel. Every texel of every mip / layer / slice of the destination is compared: texels
// inside a region with the reference, all others with a canary written before the decode. The one
// documented difference: an image store of a half NaN keeps NaN but not the bit pattern (texdec.h,
// "Storage-image destinations of the -unorm formats get a NaN where the buffer output has
// 0xFFFF"), so a NaN expected in an RGBA16F image matches any NaN.
//
//   regions: whole mip chain of a 2D array in one call      37x23 ASTC 6x6 sRGB, 4 layers, 6 mips;
//       one region per mip over layers 0-2 (odd source offsets, row length / image height past the
//       extent) + a partial region on layer 3; library barriers; image, then the same regions
//       into a buffer: both equal the reference and each other;
//   regions: partial regions at non-aligned offsets          x = 3, 13x7 etc.; image without
//       library barriers (NULL: the caller's); buffers with 1-, 2- and 4-byte texels, padded rows
//       and image heights, neighbouring regions sharing words;
//   regions: 3D image targets with mips and offset.z         ASTC 4x4x4, BC1 and BC7 (2D blocks
//       slice by slice) into 3D images; same regions into buffers;
//   regions: several chunks give the bytes of one chunk      context and job max_texels_per_dispatch;
//   regions: formats into images                              BC1 BC3 BC4 BC5 BC6H BC7-sRGB ETC2 EAC
//       R11 / RG11 ASTC 6x6 sRGB ASTC 4x4 sfloat, each into its texdec_output_vk_format image;
//   regions: A8B8G8R8 and B8G8R8A8 targets are exact against the oracles   the emulators' image
//       formats (sRGB and UNORM, with and without a VkImageFormatListCreateInfo, 2 layers, 3 mips)
//       against libastcenc (ASTC 8x8 sRGB, 6x6) and lavapipe's native BC7 decode, not the one-call
//       path; bytes R/B-swapped for B8G8R8A8; canary outside the regions;
//   regions: image targets refuse what they cannot write, naming the formats   format list
//       without the view format, unknown chained structures, missing MUTABLE_FORMAT, formats and
//       outputs a target does not take: status and a message with the VK_FORMAT_ names;
//   regions: bad input is refused and records nothing          target creation and record checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <texdec/texdec.hpp>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "oracles/astcenc_oracle.h"
#include "oracles/lavapipe_native.h"
#include "support/astc_block_builder.h"
#include "support/bc_formats.h"
#include "support/compare.h"  // canary_byte, fill_canary
#include "support/format_info.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
uint32_t align_up(uint32_t a, uint32_t b) { return div_up(a, b) * b; }
size_t align_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

VkFormat output_vk_format(texdec_format f, texdec_output o) {
    VkFormat vk = VK_FORMAT_UNDEFINED;
    REQUIRE(texdec_output_vk_format(f, o, &vk) == TEXDEC_SUCCESS);
    return vk;
}

bool is_half_output(VkFormat f) { return f == VK_FORMAT_R16G16B16A16_SFLOAT; }
// Image formats texdec.h says are written through an R8G8B8A8_UNORM view of a MUTABLE_FORMAT image.
bool written_through_unorm_view(VkFormat f) {
    return f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_A8B8G8R8_UNORM_PACK32 || f == VK_FORMAT_A8B8G8R8_SRGB_PACK32 ||
           f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_B8G8R8A8_SRGB;
}
// ---- source blocks ----------------------------------------------------------------------------

// Blocks for any format: uniformly random bits (every bit pattern is defined for BC, ETC2 and EAC);
// ASTC mostly legal blocks from the block builder (random bits are nearly all error blocks), some
// void extents and some random bits.
void fill_blocks(const texdec_format_info& fi, uint8_t* out, size_t bytes, SplitMix64& rng) {
    if (fi.family != TEXDEC_FAMILY_ASTC) {
        for (size_t i = 0; i < bytes; i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(out + i, &v, std::min<size_t>(8, bytes - i));
        }
        return;
    }
    const bool is3d = fi.block_depth > 1;
    static thread_local std::vector<uint32_t> modes;
    static thread_local uint32_t modes_key = 0;
    const uint32_t key = fi.block_width | fi.block_height << 8 | fi.block_depth << 16;
    if (modes_key != key) {
        modes = is3d ? astc_legal_block_modes_3d(fi.block_width, fi.block_height, fi.block_depth)
                     : astc_legal_block_modes_2d(fi.block_width, fi.block_height);
        modes_key = key;
    }
    for (size_t i = 0; i < bytes; i += 16) {
        AstcBlock b{};
        const unsigned r = unsigned(rng.next() % 8);
        if (r < 5) {
            const auto spec = is3d ? astc_random_legal_spec_3d(modes, fi.block_width, fi.block_height, fi.block_depth, {}, rng)
                                   : astc_random_legal_spec(modes, fi.block_width, fi.block_height, {}, rng);
            REQUIRE(spec);
            b = is3d ? astc_build_random_block_3d(*spec, fi.block_width, fi.block_height, fi.block_depth, rng)
                     : astc_build_random_block(*spec, fi.block_width, fi.block_height, rng);
        } else if (r == 5 && !is3d) {
            AstcVoidExtent v;
            for (auto& c : v.rgba) c = uint16_t(rng.next());
            b = astc_build_void_extent(v);
        } else if (r == 5) {
            AstcVoidExtent3d v;
            for (auto& c : v.rgba) c = uint16_t(rng.next());
            b = astc_build_void_extent_3d(v);
        } else {
            const uint64_t lo = rng.next(), hi = rng.next();
            std::memcpy(b.data(), &lo, 8);
            std::memcpy(b.data() + 8, &hi, 8);
        }
        std::memcpy(out + i, b.data(), std::min<size_t>(16, bytes - i));
    }
}

uint32_t region_layers(const texdec_region& r) { return r.layer_count ? r.layer_count : 1; }

// Bytes of source a region reads from its src_offset, as vkCmdCopyBufferToImage addresses a
// compressed image: block rows of src_row_length texels, block slices of src_image_height rows
// (3D depth, then layers); the last row ends at the extent's last block.
uint64_t region_source_bytes(const texdec_format_info& fi, const texdec_region& r) {
    const uint32_t row_length = r.src_row_length ? r.src_row_length : r.extent.width;
    const uint32_t image_height = r.src_image_height ? r.src_image_height : r.extent.height;
    const uint64_t per_row = div_up(row_length, fi.block_width);
    const uint64_t rows_per_slice = div_up(image_height, fi.block_height);
    const uint64_t slices = uint64_t(div_up(r.extent.depth, fi.block_depth)) * region_layers(r);
    return ((slices - 1) * rows_per_slice * per_row + (div_up(r.extent.height, fi.block_height) - 1) * per_row +
            div_up(r.extent.width, fi.block_width)) *
           fi.bytes_per_block;
}

// One source buffer holding every region's blocks at odd (4- but not 8-aligned) offsets with
// random bytes between them, uploaded by a vkCmdCopyBuffer the decode must be ordered after.
struct Source {
    std::vector<uint8_t> bytes;
    HostBuffer staging, buffer;
};

Source make_source(VulkanTestDevice& dev, texdec_format format, std::vector<texdec_region>& regions, uint64_t seed) {
    const texdec_format_info fi = format_info(format);
    size_t cursor = 12;
    for (auto& r : regions) {
        r.src_offset = cursor;
        cursor = align_up(cursor + size_t(region_source_bytes(fi, r)), size_t(4)) + 20;
    }
    Source s;
    s.bytes.resize(align_up(cursor + 256, size_t(16)));  // junk after the last region too
    SplitMix64 rng(seed);
    fill_blocks(fi, s.bytes.data(), s.bytes.size(), rng);
    s.staging = dev.create_buffer(s.bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(s.staging.mapped, s.bytes.data(), s.bytes.size());
    s.buffer = dev.create_buffer(s.bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(s.buffer.mapped, 0, s.bytes.size());
    return s;
}

void destroy(VulkanTestDevice& dev, Source& s) {
    dev.destroy(s.staging);
    dev.destroy(s.buffer);
}

void record_upload(VkCommandBuffer cmd, const Source& s) {
    const VkBufferCopy copy{0, 0, s.bytes.size()};
    vkCmdCopyBuffer(cmd, s.staging.buffer, s.buffer.buffer, 1, &copy);
}

// The one-call decode of a region's blocks: extent.width x extent.height x (depth x layers),
// tightly packed (slice s = layer * depth + z).
std::vector<uint8_t> reference(texdec_context* ctx, MessageLog& ctx_log, texdec_format format, texdec_output output,
                               const Source& s, const texdec_region& r) {
    texdec_host_job job = JobBuilder(format, output, r.extent.width, r.extent.height, r.extent.depth * region_layers(r))
                              .blocks(s.bytes.data() + r.src_offset, s.bytes.size() - r.src_offset)
                              .source_rows(r.src_row_length, r.src_image_height);
    uint64_t size = 0;
    REQUIRE(texdec_decoded_size(format, output, job.width, job.height, job.depth, &size) == TEXDEC_SUCCESS);
    std::vector<uint8_t> texels(size);
    job.dst = texels.data();
    job.dst_size = texels.size();
    const texdec_status status = texdec_decode(ctx, &job);
    INFO("texdec_decode (reference): " << texdec_status_string(status) << " " << [&] {
        std::string all;
        for (auto& e : ctx_log.take_errors()) all += e + "; ";
        return all;
    }());
    REQUIRE(status == TEXDEC_SUCCESS);
    return texels;
}

struct Mismatches {
    size_t texels = 0, count = 0, nan_matches = 0;
    std::string first;
    void add(const std::string& where, const uint8_t* got, const uint8_t* want, uint32_t n) {
        if (count++ == 0) first = where + ": got " + hex_bytes(got, n) + ", expected " + hex_bytes(want, n);
    }
};

bool texel_equal(const uint8_t* got, const uint8_t* want, uint32_t n, bool half_nan, bool& was_nan) {
    if (std::memcmp(got, want, n) == 0) return true;
    if (!half_nan) return false;
    for (uint32_t c = 0; c + 2 <= n; c += 2) {
        uint16_t g, w;
        std::memcpy(&g, got + c, 2);
        std::memcpy(&w, want + c, 2);
        if (g != w && !(is_half_nan(w) && is_half_nan(g))) return false;
    }
    was_nan = true;
    return true;
}

// ---- image destinations -----------------------------------------------------------------------

struct ImageSpec {
    VkImageType type = VK_IMAGE_TYPE_2D;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkExtent3D extent{1, 1, 1};
    uint32_t mips = 1, layers = 1;
    bool extended_usage = true;          // formats written through a view: EXTENDED_USAGE too
    std::vector<VkFormat> view_formats;  // non-empty: a VkImageFormatListCreateInfo, to the image and the target
};

// A 2D (array) image of `format`, w x h texels.
ImageSpec image_2d(VkFormat format, uint32_t w, uint32_t h, uint32_t mips = 1, uint32_t layers = 1) {
    ImageSpec s;
    s.format = format;
    s.extent = {w, h, 1};
    s.mips = mips;
    s.layers = layers;
    return s;
}

VkExtent3D mip_extent(const ImageSpec& s, uint32_t m) {
    return {std::max(1u, s.extent.width >> m), std::max(1u, s.extent.height >> m),
            s.type == VK_IMAGE_TYPE_3D ? std::max(1u, s.extent.depth >> m) : 1u};
}
// Slices of one mip as read back: layers (2D) or depth slices (3D).
uint32_t mip_slices(const ImageSpec& s, uint32_t m) { return s.type == VK_IMAGE_TYPE_3D ? mip_extent(s, m).depth : s.layers; }

VkImageCreateInfo image_create_info(const ImageSpec& s) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    // sRGB, A8B8G8R8 and B8G8R8A8 images: texdec writes them through an R8G8B8A8_UNORM view;
    // EXTENDED_USAGE where STORAGE is not valid on the image's own format (sRGB).
    if (written_through_unorm_view(s.format))
        ici.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | (s.extended_usage ? VK_IMAGE_CREATE_EXTENDED_USAGE_BIT : 0);
    ici.imageType = s.type;
    ici.format = s.format;
    ici.extent = s.extent;
    ici.mipLevels = s.mips;
    ici.arrayLayers = s.layers;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    return ici;
}

// Per mip, the bytes of every slice as vkCmdCopyImageToBuffer writes them tightly.
struct MipBytes {
    std::vector<size_t> offset;  // into one host buffer, 16-aligned
    size_t total = 0;
};

MipBytes mip_bytes(const ImageSpec& s, uint32_t texel) {
    MipBytes mb;
    for (uint32_t m = 0; m < s.mips; ++m) {
        const VkExtent3D e = mip_extent(s, m);
        mb.offset.push_back(mb.total);
        mb.total = align_up(mb.total + size_t(e.width) * e.height * mip_slices(s, m) * texel, size_t(16));
    }
    return mb;
}

std::vector<VkBufferImageCopy> whole_mips(const ImageSpec& s, const MipBytes& mb) {
    std::vector<VkBufferImageCopy> copies;
    for (uint32_t m = 0; m < s.mips; ++m) {
        VkBufferImageCopy c{};
        c.bufferOffset = mb.offset[m];
        c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, s.type == VK_IMAGE_TYPE_3D ? 1u : s.layers};
        c.imageExtent = mip_extent(s, m);
        copies.push_back(c);
    }
    return copies;
}

VkImageMemoryBarrier image_barrier(VkImage image, uint32_t mip, uint32_t layer, uint32_t layers, VkImageLayout from,
                                   VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, layer, layers};
    b.oldLayout = from;
    b.newLayout = to;
    b.srcAccessMask = src;
    b.dstAccessMask = dst;
    return b;
}

enum class ImageBarriers {
    library_undefined,  // texdec_record_barriers, old_layout UNDEFINED (regions cover every texel)
    // The host wrote the blocks through the mapping (no GPU upload): texdec_record_barriers with
    // src_stage_mask 0, old_layout UNDEFINED. The layout transition must still be recorded.
    library_host_written,
    library_canary,     // canary copied in first; texdec_record_barriers, old_layout TRANSFER_DST_OPTIMAL
    caller_canary,      // canary; barriers NULL: the image in GENERAL and every barrier the test's own
};

// Layer range of each mip that texdec's barriers move (texdec.h: "layers from the lowest to the
// highest written in that level"); {UINT32_MAX, 0} where no region writes the mip.
// The layers texdec_record_regions' barriers move in each mip level: every layer of a level a
// region writes (texdec's storage view of a level spans them all); {UINT32_MAX, 0}: none.
std::vector<std::pair<uint32_t, uint32_t>> written_layers(const ImageSpec& s, const std::vector<texdec_region>& regions) {
    std::vector<std::pair<uint32_t, uint32_t>> range(s.mips, {UINT32_MAX, 0});
    const uint32_t last_layer = s.type == VK_IMAGE_TYPE_3D ? 0 : s.layers - 1;
    for (const auto& r : regions) range[r.mip_level] = {0, last_layer};
    return range;
}

struct ImageResult {
    std::vector<uint8_t> bytes;  // read back, laid out as mip_bytes()
    MipBytes layout;
};

// Decodes the regions into a new image with the given barrier style and reads every mip back.
// The library's error messages since the last call, joined (for INFO).
std::string take_errors(ExternalSetup& setup) {
    std::string all;
    for (auto& e : setup.context_log.take_errors()) all += e + "; ";
    return all;
}

// texdec_record_regions, REQUIREd to succeed; on failure the library's messages are shown.
void record_or_fail(ExternalSetup& setup, texdec_context* ctx, VkCommandBuffer cmd, const texdec_regions_job& job) {
    const texdec_status st = texdec_record_regions(ctx, cmd, &job);
    INFO("texdec_record_regions: " << texdec_status_string(st) << " " << take_errors(setup));
    REQUIRE(st == TEXDEC_SUCCESS);
}

// Batched record calls (texdec.h "many small regions"): a canary-filled scratch buffer of
// texdec_regions_scratch_size bytes (at `offset`) chained on the job; afterwards, how many of its
// 64-byte table entries the call wrote (differ from the canary): 0 means nothing was batched.
struct Scratch {
    bool on = false;
    VkDeviceSize offset = 0;
    HostBuffer buffer;
    texdec_regions_scratch_info info{};
    size_t entries_written = 0;

    void chain(VulkanTestDevice& dev, texdec_context* ctx, texdec_regions_job& job) {
        if (!on) return;
        VkDeviceSize bytes = 0;
        REQUIRE(texdec_regions_scratch_size(ctx, &job, &bytes) == TEXDEC_SUCCESS);
        REQUIRE(bytes == VkDeviceSize(job.region_count) * TEXDEC_REGIONS_SCRATCH_BYTES_PER_REGION);
        buffer =
            dev.create_buffer(offset + bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        fill_canary(buffer.mapped, size_t(offset + bytes));
        info = texdec::regions_scratch(buffer.buffer, offset, bytes);
        job.next = &info;
    }
    // After the submit: counts the entries written, frees the buffer.
    void finish(VulkanTestDevice& dev) {
        if (!on) return;
        std::vector<uint8_t> canary(size_t(info.offset + info.size));
        fill_canary(canary.data(), canary.size());
        entries_written = 0;
        for (VkDeviceSize e = info.offset; e + 64 <= info.offset + info.size; e += 64)
            entries_written += std::memcmp(buffer.mapped + e, canary.data() + e, 64) != 0;
        CHECK(std::memcmp(buffer.mapped, canary.data(), size_t(info.offset)) == 0);  // nothing before offset
        dev.destroy(buffer);
    }
};

ImageResult decode_into_image(ExternalSetup& setup, texdec_context* ctx, texdec_format format, texdec_output output,
                              const ImageSpec& spec, const Source& src, const std::vector<texdec_region>& regions,
                              ImageBarriers style, uint32_t job_max_texels = 0, Scratch* scratch = nullptr) {
    VulkanTestDevice& dev = *setup.device;
    const uint32_t texel = texel_size(format, output);
    VkImageCreateInfo ici = image_create_info(spec);
    // The format list the image is created with goes to texdec too (texdec.h).
    VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
    list.viewFormatCount = uint32_t(spec.view_formats.size());
    list.pViewFormats = spec.view_formats.data();
    if (!spec.view_formats.empty()) {
        REQUIRE(dev.has_image_format_list());
        ici.pNext = &list;
    }
    TestImage image = dev.create_image(ici);
    texdec_image_target* target = nullptr;
    texdec_image_target_create_info ti = target_create_info(ici, image.image);
    ti.next = ici.pNext;
    {
        const texdec_status st = texdec_image_target_create(ctx, &ti, &target);
        INFO("texdec_image_target_create: " << texdec_status_string(st) << " " << take_errors(setup));
        REQUIRE(st == TEXDEC_SUCCESS);
        REQUIRE(target != nullptr);
    }
    ImageResult result;
    result.layout = mip_bytes(spec, texel);
    HostBuffer canary = dev.create_buffer(result.layout.total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    fill_canary(canary.mapped, result.layout.total);
    HostBuffer readback = dev.create_buffer(result.layout.total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(readback.mapped, 0, result.layout.total);
    const std::vector<VkBufferImageCopy> copies = whole_mips(spec, result.layout);
    const uint32_t layers = spec.type == VK_IMAGE_TYPE_3D ? 1 : spec.layers;
    // What layout each (mip, layer) is in as the commands execute, to move it to TRANSFER_SRC.
    std::vector<VkImageLayout> layout(size_t(spec.mips) * layers, VK_IMAGE_LAYOUT_UNDEFINED);

    VkCommandBuffer cmd = dev.begin_commands();
    const bool host_written = style == ImageBarriers::library_host_written;
    if (host_written) std::memcpy(src.buffer.mapped, src.bytes.data(), src.bytes.size());  // before the submit
    else record_upload(cmd, src);
    if (style != ImageBarriers::library_undefined && !host_written) {
        const VkImageMemoryBarrier to_dst = image_barrier(image.image, 0, 0, layers, VK_IMAGE_LAYOUT_UNDEFINED,
                                                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
        VkImageMemoryBarrier all = to_dst;
        all.subresourceRange.levelCount = spec.mips;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &all);
        vkCmdCopyBufferToImage(cmd, canary.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(copies.size()),
                               copies.data());
        std::fill(layout.begin(), layout.end(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    }
    if (style == ImageBarriers::caller_canary) {
        // The caller's side of "barriers NULL": the image in GENERAL, the source upload and the
        // canary writes ordered before the decode.
        VkImageMemoryBarrier to_general = image_barrier(image.image, 0, 0, layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                                        VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                                                        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT);
        to_general.subresourceRange.levelCount = spec.mips;
        VkMemoryBarrier upload{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        upload.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        upload.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &upload, 0, nullptr,
                             1, &to_general);
        std::fill(layout.begin(), layout.end(), VK_IMAGE_LAYOUT_GENERAL);
    }

    texdec_record_barriers barriers{};
    barriers.src_stage_mask = host_written ? 0 : VK_PIPELINE_STAGE_TRANSFER_BIT;
    barriers.src_access_mask = host_written ? 0 : VK_ACCESS_TRANSFER_WRITE_BIT;
    barriers.old_layout = style == ImageBarriers::library_canary ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
    barriers.dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    barriers.dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT;
    barriers.new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    texdec_regions_job job =
        RegionsJobBuilder(format, output, src.buffer.buffer, src.bytes.size(), regions.data(), uint32_t(regions.size()))
            .into_image(target)
            .barriers(style == ImageBarriers::caller_canary ? nullptr : &barriers)
            .max_texels_per_dispatch(job_max_texels);
    if (scratch) scratch->chain(dev, ctx, job);
    record_or_fail(setup, ctx, cmd, job);
    if (style == ImageBarriers::caller_canary) {
        VkImageMemoryBarrier to_src = image_barrier(image.image, 0, 0, layers, VK_IMAGE_LAYOUT_GENERAL,
                                                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                                                    VK_ACCESS_TRANSFER_READ_BIT);
        to_src.subresourceRange.levelCount = spec.mips;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                             &to_src);
    } else {
        const auto written = written_layers(spec, regions);
        for (uint32_t m = 0; m < spec.mips; ++m)
            for (uint32_t l = written[m].first; l <= written[m].second && l < layers; ++l)
                layout[size_t(m) * layers + l] = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        // Subresources no region wrote keep the canary copy's layout: the test moves them.
        std::vector<VkImageMemoryBarrier> rest;
        for (uint32_t m = 0; m < spec.mips; ++m)
            for (uint32_t l = 0; l < layers; ++l)
                if (layout[size_t(m) * layers + l] != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
                    rest.push_back(image_barrier(image.image, m, l, 1, layout[size_t(m) * layers + l],
                                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                                                 VK_ACCESS_TRANSFER_READ_BIT));
        if (!rest.empty())
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                                 uint32_t(rest.size()), rest.data());
    }
    vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, uint32_t(copies.size()),
                           copies.data());
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "texdec_record_regions into an image, submitted");
    if (scratch) scratch->finish(dev);
    result.bytes.assign(readback.mapped, readback.mapped + result.layout.total);
    texdec_image_target_destroy(ctx, target);
    dev.destroy(image);
    dev.destroy(canary);
    dev.destroy(readback);
    return result;
}

// Calls visit(l, x, y, z, slice, at) for every texel of region r: layer l and texel (x, y, z) of
// the region, its slice (3D: depth slice, else array layer) and its byte offset `at` in the
// image's readback (mip levels one after another as mip_bytes lays them out, tight rows).
template <class Visit>
void for_each_region_texel(const ImageSpec& spec, uint32_t texel, const MipBytes& mb, const texdec_region& r,
                           Visit visit) {
    const VkExtent3D e = mip_extent(spec, r.mip_level);
    for (uint32_t l = 0; l < region_layers(r); ++l)
        for (uint32_t z = 0; z < r.extent.depth; ++z)
            for (uint32_t y = 0; y < r.extent.height; ++y)
                for (uint32_t x = 0; x < r.extent.width; ++x) {
                    const size_t slice =
                        spec.type == VK_IMAGE_TYPE_3D ? size_t(r.offset.z) + z : size_t(r.base_array_layer) + l;
                    const size_t at =
                        mb.offset[r.mip_level] +
                        ((slice * e.height + size_t(r.offset.y) + y) * e.width + size_t(r.offset.x) + x) * texel;
                    visit(l, x, y, z, slice, at);
                }
}

// The image the test expects: the canary of decode_into_image, the reference texels in every region.
std::vector<uint8_t> expected_image(const ImageSpec& spec, uint32_t texel, const std::vector<texdec_region>& regions,
                                    const std::vector<std::vector<uint8_t>>& refs, const MipBytes& mb) {
    std::vector<uint8_t> out(mb.total);
    fill_canary(out.data(), out.size());
    for (size_t i = 0; i < regions.size(); ++i) {
        const texdec_region& r = regions[i];
        for_each_region_texel(
            spec, texel, mb, r, [&](uint32_t l, uint32_t x, uint32_t y, uint32_t z, size_t, size_t dst) {
                const size_t src =
                    (((size_t(l) * r.extent.depth + z) * r.extent.height + y) * r.extent.width + x) * texel;
                std::memcpy(out.data() + dst, refs[i].data() + src, texel);
            });
    }
    return out;
}

// Every texel of every mip and slice; NaN rule for RGBA16F images (see the top of the file).
Mismatches compare_images(const ImageSpec& spec, uint32_t texel, const MipBytes& mb, const std::vector<uint8_t>& got,
                          const std::vector<uint8_t>& want, bool half_nan) {
    Mismatches m;
    for (uint32_t mip = 0; mip < spec.mips; ++mip) {
        const VkExtent3D e = mip_extent(spec, mip);
        for (uint32_t s = 0; s < mip_slices(spec, mip); ++s)
            for (uint32_t y = 0; y < e.height; ++y)
                for (uint32_t x = 0; x < e.width; ++x) {
                    const size_t at = mb.offset[mip] + ((size_t(s) * e.height + y) * e.width + x) * texel;
                    bool nan = false;
                    ++m.texels;
                    if (texel_equal(got.data() + at, want.data() + at, texel, half_nan, nan)) {
                        m.nan_matches += nan;
                        continue;
                    }
                    std::ostringstream where;
                    where << "mip " << mip << (spec.type == VK_IMAGE_TYPE_3D ? " z " : " layer ") << s << " (" << x << ", " << y << ")";
                    m.add(where.str(), got.data() + at, want.data() + at, texel);
                }
    }
    return m;
}

#define CHECK_NO_MISMATCHES(m, what)                                                                          \
    do {                                                                                                      \
        const Mismatches& m_ = (m);                                                                           \
        INFO(what << ": " << m_.texels << " texels compared, " << m_.count << " differ, " << m_.nan_matches \
                  << " matched as NaN; first: " << m_.first);                                                 \
        CHECK(m_.texels > 0);                                                                                 \
        CHECK(m_.count == 0);                                                                                 \
    } while (0)

// ---- buffer destinations ----------------------------------------------------------------------

// Gives each region a place in one destination buffer: offsets and pitches at the smallest
// alignment texdec.h allows for the texel size, padded rows (`pad_texels`) and two padding rows
// per slice; `gap` bytes between regions (neighbouring regions may share a 4-byte word).
size_t assign_buffer_layout(std::vector<texdec_region>& regions, uint32_t texel, uint32_t pad_texels, size_t gap) {
    const size_t align = texel >= 4 ? 4 : texel;
    size_t cursor = align_up(size_t(5), align);
    for (auto& r : regions) {
        r.dst_offset = cursor;
        r.dst_row_pitch = align_up(size_t(r.extent.width + pad_texels) * texel, align);
        r.dst_slice_pitch = (r.extent.height + 2) * r.dst_row_pitch;
        const size_t slices = size_t(r.extent.depth) * region_layers(r);
        const size_t end = cursor + (slices - 1) * r.dst_slice_pitch + (r.extent.height - 1) * r.dst_row_pitch +
                           size_t(r.extent.width) * texel;
        cursor = align_up(end + gap, align);
    }
    return align_up(cursor + 32, size_t(4));
}

std::vector<uint8_t> expected_buffer(size_t size, uint32_t texel, const std::vector<texdec_region>& regions,
                                     const std::vector<std::vector<uint8_t>>& refs) {
    std::vector<uint8_t> out(size);
    fill_canary(out.data(), size);
    for (size_t i = 0; i < regions.size(); ++i) {
        const texdec_region& r = regions[i];
        const uint32_t slices = r.extent.depth * region_layers(r);
        for (uint32_t s = 0; s < slices; ++s)
            for (uint32_t y = 0; y < r.extent.height; ++y)
                std::memcpy(out.data() + r.dst_offset + size_t(s) * r.dst_slice_pitch + y * r.dst_row_pitch,
                            refs[i].data() + (size_t(s) * r.extent.height + y) * r.extent.width * texel, size_t(r.extent.width) * texel);
    }
    return out;
}

Mismatches compare_buffers(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
    Mismatches m;
    m.texels = got.size();
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i]) m.add("byte " + std::to_string(i), &got[i], &want[i], 1);
    return m;
}

// Decodes the regions (dst_* fields set) into a canary-filled buffer and reads it back.
std::vector<uint8_t> decode_into_buffer(ExternalSetup& setup, texdec_context* ctx, texdec_format format,
                                        texdec_output output, size_t size, const Source& src,
                                        const std::vector<texdec_region>& regions, bool library_barriers,
                                        uint32_t job_max_texels = 0, Scratch* scratch = nullptr) {
    VulkanTestDevice& dev = *setup.device;
    HostBuffer dst = dev.create_buffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    fill_canary(dst.mapped, size);
    HostBuffer readback = dev.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(readback.mapped, 0, size);
    VkCommandBuffer cmd = dev.begin_commands();
    record_upload(cmd, src);
    texdec_record_barriers barriers{};
    barriers.src_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    barriers.src_access_mask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barriers.old_layout = VK_IMAGE_LAYOUT_GENERAL;  // no image: unused
    barriers.dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    barriers.dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT;
    barriers.new_layout = VK_IMAGE_LAYOUT_GENERAL;
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    if (!library_barriers) {
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    }
    texdec_regions_job job =
        RegionsJobBuilder(format, output, src.buffer.buffer, src.bytes.size(), regions.data(), uint32_t(regions.size()))
            .into_buffer(dst.buffer, size)
            .barriers(library_barriers ? &barriers : nullptr)
            .max_texels_per_dispatch(job_max_texels);
    if (scratch) scratch->chain(dev, ctx, job);
    record_or_fail(setup, ctx, cmd, job);
    if (!library_barriers) {
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    }
    const VkBufferCopy copy{0, 0, size};
    vkCmdCopyBuffer(cmd, dst.buffer, readback.buffer, 1, &copy);
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "texdec_record_regions into a buffer, submitted");
    if (scratch) scratch->finish(dev);
    std::vector<uint8_t> out(readback.mapped, readback.mapped + size);
    dev.destroy(dst);
    dev.destroy(readback);
    return out;
}

// The image's texels inside the regions against the buffer's: "the same regions into a VkBuffer
// and into a VkImage give the same texels" (not only both against the reference).
Mismatches compare_image_with_buffer(const ImageSpec& spec, uint32_t texel, const MipBytes& mb, const std::vector<uint8_t>& image,
                                     const std::vector<uint8_t>& buffer, const std::vector<texdec_region>& regions, bool half_nan) {
    Mismatches m;
    for (const texdec_region& r : regions)
        for_each_region_texel(spec, texel, mb, r,
                              [&](uint32_t l, uint32_t x, uint32_t y, uint32_t z, size_t slice, size_t i) {
                                  const size_t b = r.dst_offset + (size_t(l) * r.extent.depth + z) * r.dst_slice_pitch +
                                                   y * r.dst_row_pitch + size_t(x) * texel;
                                  bool nan = false;
                                  ++m.texels;
                                  if (texel_equal(image.data() + i, buffer.data() + b, texel, half_nan, nan)) {
                                      m.nan_matches += nan;
                                      return;
                                  }
                                  std::ostringstream where;
                                  where << "mip " << r.mip_level << " slice " << slice << " (" << r.offset.x + int(x)
                                        << ", " << r.offset.y + int(y) << ") image vs buffer";
                                  m.add(where.str(), image.data() + i, buffer.data() + b, texel);
                              });
    return m;
}

std::vector<std::vector<uint8_t>> references(ExternalSetup& setup, texdec_format format, texdec_output output, const Source& src,
                                             const std::vector<texdec_region>& regions) {
    std::vector<std::vector<uint8_t>> refs;
    for (const auto& r : regions) refs.push_back(reference(setup.ctx, setup.context_log, format, output, src, r));
    return refs;
}

texdec_region region_2d(uint32_t mip, uint32_t layer, uint32_t layers, int32_t x, int32_t y, uint32_t w, uint32_t h,
                        uint32_t row_length = 0, uint32_t image_height = 0) {
    texdec_region r{};
    r.mip_level = mip;
    r.base_array_layer = layer;
    r.layer_count = layers;
    r.offset = {x, y, 0};
    r.extent = {w, h, 1};
    r.src_row_length = row_length;
    r.src_image_height = image_height;
    return r;
}

texdec_region region_3d(uint32_t mip, int32_t x, int32_t y, int32_t z, uint32_t w, uint32_t h, uint32_t d) {
    texdec_region r{};
    r.mip_level = mip;
    r.layer_count = 1;
    r.offset = {x, y, z};
    r.extent = {w, h, d};
    return r;
}

// Image + buffer run of one set of regions, each against the reference, and against each other.
void check_image_and_buffer(ExternalSetup& setup, texdec_format format, texdec_output output, const ImageSpec& spec,
                            std::vector<texdec_region> regions, ImageBarriers style, uint64_t seed, bool with_buffer = true) {
    const texdec_format_info fi = format_info(format);
    INFO(fi.name << " output " << output << ": " << regions.size() << " regions into a " << (spec.type == VK_IMAGE_TYPE_3D ? "3D" : "2D")
                 << " image " << spec.extent.width << "x" << spec.extent.height << "x" << spec.extent.depth << ", " << spec.mips
                 << " mips, " << spec.layers << " layers");
    const uint32_t texel = texel_size(format, output);
    const bool half_nan = is_half_output(spec.format);
    Source src = make_source(*setup.device, format, regions, seed);
    const auto refs = references(setup, format, output, src, regions);
    const ImageResult img = decode_into_image(setup, setup.ctx, format, output, spec, src, regions, style);
    CHECK_NO_MISMATCHES(compare_images(spec, texel, img.layout, img.bytes, expected_image(spec, texel, regions, refs, img.layout), half_nan),
                        "image vs one-call reference (canary outside the regions)");
    if (with_buffer) {
        const size_t size = assign_buffer_layout(regions, texel, 3, 8);
        const auto buf = decode_into_buffer(setup, setup.ctx, format, output, size, src, regions, true);
        CHECK_NO_MISMATCHES(compare_buffers(buf, expected_buffer(size, texel, regions, refs)), "buffer vs one-call reference");
        CHECK_NO_MISMATCHES(compare_image_with_buffer(spec, texel, img.layout, img.bytes, buf, regions, half_nan), "image vs buffer");
    }
    destroy(*setup.device, src);
}

// A format and the output to decode it to (into an image: of output_vk_format(format, output)).
struct FormatOutput {
    texdec_format format;
    texdec_output output;
};

// Whether the device can write storage images of `image_format`: RGBA8 and RGBA16F always, the
// NATIVE formats (R8, RG16F, ...) only with shaderStorageImageExtendedFormats. WARNs "NOT TESTED"
// for `format` when it cannot.
bool stores_image_format(ExternalSetup& setup, texdec_format format, VkFormat image_format) {
    if (image_format == VK_FORMAT_R8G8B8A8_UNORM || image_format == VK_FORMAT_R8G8B8A8_SRGB ||
        image_format == VK_FORMAT_R16G16B16A16_SFLOAT)
        return true;
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(setup.device->physical_device(), &features);
    if (features.shaderStorageImageExtendedFormats) return true;
    WARN("NOT TESTED: " << format_info(format).name
                        << " NATIVE into an image: the device lacks shaderStorageImageExtendedFormats");
    return false;
}

// ---- emulator image formats: independent oracles --------------------------------------------

// RGBA8 of w x h texels of tightly packed blocks, from a decoder that is not texdec (tests/README.md,
// "Oracles"): libastcenc's decode_unorm8 for ASTC, lavapipe's native BC7 decode (bit-exact for BC7,
// docs/EXACTNESS.md) for BC7. sRGB formats give their encoded bytes, as texdec's RGBA8 does.
std::vector<uint8_t> oracle_rgba8(VulkanTestDevice& dev, texdec_format format, const uint8_t* blocks, size_t size, uint32_t w,
                                  uint32_t h) {
    const texdec_format_info fi = format_info(format);
    if (fi.family == TEXDEC_FAMILY_ASTC) {
        const AstcProfile profile = (fi.flags & TEXDEC_FORMAT_FLAG_SRGB) ? AstcProfile::ldr_srgb : AstcProfile::ldr;
        return astcenc_decode_unorm8(profile, {fi.block_width, fi.block_height, 1}, w, h, 1, blocks, size);
    }
    REQUIRE((format == TEXDEC_FORMAT_BC7_UNORM || format == TEXDEC_FORMAT_BC7_SRGB));
    const std::vector<float> native = native_decode(dev, bc7_formats()[format == TEXDEC_FORMAT_BC7_SRGB ? 1 : 0], blocks, w, h);
    check_no_validation_messages(dev.log(), "lavapipe native BC7 decode (oracle)");
    std::vector<uint8_t> out(native.size());
    for (size_t i = 0; i < native.size(); ++i) {
        const float v = native[i] * 255.0f;
        const long n = std::lround(v);
        REQUIRE(std::fabs(v - float(n)) < 1e-3f);  // the device returns n / 255
        out[i] = uint8_t(n);
    }
    return out;
}

// The oracle's texels of each region (laid out as reference(): slice = layer), with R and B swapped
// when the image is B8G8R8A8 (its bytes are B, G, R, A). Regions with tight sources, 2D.
std::vector<std::vector<uint8_t>> oracle_references(VulkanTestDevice& dev, texdec_format format, const Source& s,
                                                    const std::vector<texdec_region>& regions, bool bgra) {
    const texdec_format_info fi = format_info(format);
    std::vector<std::vector<uint8_t>> refs;
    for (const texdec_region& r : regions) {
        REQUIRE((r.src_row_length == 0 && r.src_image_height == 0 && r.extent.depth == 1));
        const size_t layer_bytes =
            size_t(div_up(r.extent.width, fi.block_width)) * div_up(r.extent.height, fi.block_height) * fi.bytes_per_block;
        std::vector<uint8_t> texels;
        for (uint32_t l = 0; l < region_layers(r); ++l) {
            const auto layer = oracle_rgba8(dev, format, s.bytes.data() + r.src_offset + l * layer_bytes, layer_bytes,
                                            r.extent.width, r.extent.height);
            REQUIRE(layer.size() == size_t(r.extent.width) * r.extent.height * 4);
            texels.insert(texels.end(), layer.begin(), layer.end());
        }
        if (bgra)
            for (size_t i = 0; i < texels.size(); i += 4) std::swap(texels[i], texels[i + 2]);
        refs.push_back(std::move(texels));
    }
    return refs;
}

}  // namespace

TEST_CASE("regions: whole mip chain of a 2D array in one call", "[regions][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    // 37x23 down to 1x1: every mip edge is partial for a 6x6 footprint. Layers 0-2 get one region
    // per mip; layer 3 only a partial region of mip 0, so every other texel of layer 3 keeps the
    // canary (texdec's barriers move every layer of a written level; the canary survives because
    // the old layout given is the real one, not UNDEFINED).
    ImageSpec spec = image_2d(VK_FORMAT_R8G8B8A8_SRGB, 37, 23, 6, 4);
    std::vector<texdec_region> regions;
    for (uint32_t m = 0; m < spec.mips; ++m) {
        const VkExtent3D e = mip_extent(spec, m);
        regions.push_back(region_2d(m, 0, 3, 0, 0, e.width, e.height, align_up(e.width, 6u) + 6, align_up(e.height, 6u) + 6));
    }
    regions.push_back(region_2d(0, 3, 1, 5, 3, 13, 7, 18));
    check_image_and_buffer(setup, TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, spec, regions, ImageBarriers::library_canary,
                           test_seed() + 1);
    setup.close();
}

TEST_CASE("regions: partial regions at non-aligned offsets", "[regions][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    // Sub-rectangles at offsets that are not block multiples with partial extents, two layers; the
    // rest of the image keeps the canary.
    const std::vector<texdec_region> regions = {
        region_2d(0, 0, 1, 3, 0, 13, 7),         // x = 3
        region_2d(0, 0, 2, 17, 9, 5, 5, 12, 8),  // both layers, row length / image height past the extent
        region_2d(0, 1, 1, 1, 21, 37, 9, 44),    // to the bottom edge
        region_2d(0, 0, 1, 39, 29, 1, 1),        // the last texel
        region_2d(1, 1, 1, 2, 1, 7, 5),          // mip 1 (20x15)
    };
    ImageSpec spec = image_2d(VK_FORMAT_R8G8B8A8_UNORM, 40, 30, 2, 2);
    SECTION("BC7 into an image without library barriers") {
        // barriers NULL: the caller moves the image to GENERAL and synchronizes (texdec.h).
        check_image_and_buffer(setup, TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, spec, regions, ImageBarriers::caller_canary,
                               test_seed() + 2);
    }
    SECTION("ETC2 into an image with library barriers") {
        check_image_and_buffer(setup, TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, TEXDEC_OUTPUT_RGBA8, spec, regions,
                               ImageBarriers::library_canary, test_seed() + 3);
    }
    // Buffers with 1- and 2-byte texels: offsets and pitches at the texel size (not 4), regions
    // packed so that neighbouring ones share 4-byte words, both with and without library barriers.
    SECTION("buffers with 1- 2- and 8-byte texels") {
    for (const auto& [format, output] : {std::pair{TEXDEC_FORMAT_BC4_UNORM, TEXDEC_OUTPUT_NATIVE},
                                         std::pair{TEXDEC_FORMAT_EAC_R11_UNORM, TEXDEC_OUTPUT_NATIVE},
                                         std::pair{TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA16F}})
        for (const bool library_barriers : {true, false}) {
            const texdec_format_info fi = format_info(format);
            INFO(fi.name << " output " << output << " into a buffer, " << (library_barriers ? "library" : "caller") << " barriers");
            std::vector<texdec_region> r = regions;
            const uint32_t texel = texel_size(format, output);
            const size_t size = assign_buffer_layout(r, texel, 1, 1);
            Source src = make_source(*setup.device, format, r, test_seed() + format + library_barriers);
            const auto refs = references(setup, format, output, src, r);
            const auto buf = decode_into_buffer(setup, setup.ctx, format, output, size, src, r, library_barriers);
            CHECK_NO_MISMATCHES(compare_buffers(buf, expected_buffer(size, texel, r, refs)), "buffer vs one-call reference");
            destroy(*setup.device, src);
        }
    }
    setup.close();
}

TEST_CASE("regions: 3D image targets with mips and offset.z", "[regions][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    ImageSpec spec;
    spec.type = VK_IMAGE_TYPE_3D;
    spec.extent = {19, 13, 9};
    spec.mips = 3;  // 19x13x9, 9x6x4, 4x3x2
    const std::vector<texdec_region> regions = {
        region_3d(0, 0, 0, 2, 19, 13, 5),  // slices 2-6: slices 0, 1, 7, 8 keep the canary
        region_3d(0, 3, 5, 7, 9, 6, 2),    // slices 7-8, partial, odd offset
        region_3d(1, 0, 0, 0, 9, 6, 4),    // the whole mip
        region_3d(2, 1, 1, 1, 3, 2, 1),    // one slice of the last mip
    };
    for (const texdec_format format : {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_FORMAT_BC7_UNORM}) {
        std::vector<texdec_region> r = regions;
        if (format == TEXDEC_FORMAT_ASTC_4x4x4_UNORM)
            r[0].src_row_length = 24, r[0].src_image_height = 20;  // source rows and slices past the extent
        check_image_and_buffer(setup, format, TEXDEC_OUTPUT_RGBA8, spec, r, ImageBarriers::library_canary, test_seed() + 4 + format);
    }
    // A whole 3D image with old_layout UNDEFINED (every texel written).
    ImageSpec whole = spec;
    whole.format = VK_FORMAT_R16G16B16A16_SFLOAT;
    whole.mips = 2;
    check_image_and_buffer(setup, TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F, whole,
                           {region_3d(0, 0, 0, 0, 19, 13, 9), region_3d(1, 0, 0, 0, 9, 6, 4)}, ImageBarriers::library_undefined,
                           test_seed() + 5);
    setup.close();
}

TEST_CASE("regions: several chunks give the bytes of one chunk", "[regions][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    // A second context on the same device whose default dispatch size is 4096 texels.
    texdec_context* small_ctx = nullptr;
    {
        texdec_context_create_info info{};
        info.max_texels_per_dispatch = 4096;
        const texdec_external_device ext = setup.device->external_device();
        REQUIRE(texdec_context_create_external(&info, &ext, &small_ctx) == TEXDEC_SUCCESS);
    }
    struct Run {
        const char* what;
        texdec_context* ctx;
        uint32_t job_max;
    };
    const Run runs[] = {{"one chunk", setup.ctx, 0},
                        {"context max 4096 texels", small_ctx, 0},
                        {"job max 4096 texels", setup.ctx, 4096},
                        {"job max 100 texels (one block row per chunk)", small_ctx, 100}};

    struct Case {
        texdec_format format;
        texdec_output output;
        ImageSpec spec;
        std::vector<texdec_region> regions;
    };
    ImageSpec big2d = image_2d(VK_FORMAT_R8G8B8A8_UNORM, 203, 121, 2, 2);
    const std::vector<texdec_region> regions2d = {region_2d(0, 0, 2, 0, 0, 203, 121, 216),  // ~49,000 texels over 2 layers
                                                  region_2d(1, 0, 1, 3, 2, 97, 57),         // partial, odd offset
                                                  region_2d(1, 1, 1, 0, 0, 101, 60)};
    ImageSpec big3d;
    big3d.type = VK_IMAGE_TYPE_3D;
    big3d.extent = {45, 38, 14};
    const std::vector<Case> cases = {
        {TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_OUTPUT_RGBA8, big2d, regions2d},
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, big2d, regions2d},
        {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, TEXDEC_OUTPUT_RGBA8, big3d, {region_3d(0, 0, 0, 1, 45, 38, 13)}},  // chunks of slices
    };
    for (const Case& c : cases) {
        const texdec_format_info fi = format_info(c.format);
        const uint32_t texel = texel_size(c.format, c.output);
        std::vector<texdec_region> regions = c.regions;
        const size_t size = assign_buffer_layout(regions, texel, 2, 4);
        Source src = make_source(*setup.device, c.format, regions, test_seed() + 6 + c.format);
        const auto refs = references(setup, c.format, c.output, src, regions);
        const auto want_image = [&](const MipBytes& mb) { return expected_image(c.spec, texel, regions, refs, mb); };
        std::vector<uint8_t> first_image, first_buffer;
        for (const Run& run : runs) {
            INFO(fi.name << ": " << run.what);
            const ImageResult img = decode_into_image(setup, run.ctx, c.format, c.output, c.spec, src, regions,
                                                      ImageBarriers::library_canary, run.job_max);
            CHECK_NO_MISMATCHES(compare_images(c.spec, texel, img.layout, img.bytes, want_image(img.layout), false),
                                "image vs one-call reference");
            const auto buf = decode_into_buffer(setup, run.ctx, c.format, c.output, size, src, regions, true, run.job_max);
            CHECK_NO_MISMATCHES(compare_buffers(buf, expected_buffer(size, texel, regions, refs)), "buffer vs one-call reference");
            if (first_image.empty()) {
                first_image = img.bytes;
                first_buffer = buf;
            } else {
                CHECK(img.bytes == first_image);  // byte for byte, canaries included
                CHECK(buf == first_buffer);
            }
        }
        destroy(*setup.device, src);
    }
    check_no_validation_messages(setup.device->log(), "chunked decodes");
    texdec_context_destroy(small_ctx);
    setup.close();
}

TEST_CASE("regions: formats into images with library barriers", "[regions][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    const FormatOutput formats[] = {
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8}, {TEXDEC_FORMAT_BC3_UNORM, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC4_UNORM, TEXDEC_OUTPUT_NATIVE},     {TEXDEC_FORMAT_BC5_SNORM, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA16F},  {TEXDEC_FORMAT_BC6H_SFLOAT, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_BC7_SRGB, TEXDEC_OUTPUT_RGBA8},       {TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_EAC_R11_UNORM, TEXDEC_OUTPUT_NATIVE}, {TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8},  {TEXDEC_FORMAT_ASTC_4x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
    };
    for (const FormatOutput& f : formats) {
        ImageSpec spec = image_2d(output_vk_format(f.format, f.output), 29, 19, 2, 2);
        if (!stores_image_format(setup, f.format, spec.format)) continue;
        // Every texel written: old_layout UNDEFINED, as an application filling a new image would.
        check_image_and_buffer(setup, f.format, f.output, spec,
                               {region_2d(0, 0, 2, 0, 0, 29, 19, 32), region_2d(1, 0, 2, 0, 0, 14, 9)},
                               ImageBarriers::library_undefined, test_seed() + 7 + f.format, false);
    }
    setup.close();
}

// Src_stage_mask 0 is what a caller gives when the host wrote the blocks; before
// 1.0 it silently dropped the whole "before" barrier, layout transition included, and the
// validation layer reported InvalidImageLayout (old_layout UNDEFINED) on real GPUs.
TEST_CASE("regions: a zero source stage mask still transitions the image layout", "[regions][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    ImageSpec spec = image_2d(VK_FORMAT_R8G8B8A8_SRGB, 40, 24, 3, 2);
    // ASTC 8x8 sRGB, 2 layers, every texel of every mip written (as an emulator's texture cache).
    check_image_and_buffer(setup, TEXDEC_FORMAT_ASTC_8x8_SRGB, TEXDEC_OUTPUT_RGBA8, spec,
                           {region_2d(0, 0, 2, 0, 0, 40, 24), region_2d(1, 0, 2, 0, 0, 20, 12), region_2d(2, 0, 2, 0, 0, 10, 6)},
                           ImageBarriers::library_host_written, test_seed() + 20, false);
    setup.close();
}

TEST_CASE("regions: barrier queue family fields and flags", "[regions][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    std::vector<texdec_region> regions = {region_2d(0, 0, 1, 0, 0, 16, 8)};
    Source src = make_source(dev, TEXDEC_FORMAT_BC1_RGBA_UNORM, regions, test_seed() + 21);
    std::memcpy(src.buffer.mapped, src.bytes.data(), src.bytes.size());
    HostBuffer dst = dev.create_buffer(16 * 8 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    texdec_record_barriers barriers{};
    barriers.dst_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
    barriers.dst_access_mask = VK_ACCESS_HOST_READ_BIT;
    const texdec_regions_job job = RegionsJobBuilder(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8,
                                                     src.buffer.buffer, src.bytes.size(), regions.data())
                                       .into_buffer(dst.buffer, dst.size)
                                       .barriers(&barriers);
    VkCommandBuffer cmd = dev.begin_commands();
    // Unknown flag bits are refused, never ignored.
    barriers.flags = 1u << 5;
    CHECK(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(take_errors(setup).find("texdec_record_barriers.flags") != std::string::npos);
    // Acquire from and release to the context's own family: a barrier pair whose indices Vulkan
    // accepts on a one-family device (lavapipe); an ownership transfer between real families has
    // the same shape. The layer checks the indices it is given.
    barriers.flags = TEXDEC_BARRIER_ACQUIRE | TEXDEC_BARRIER_RELEASE;
    barriers.src_queue_family_index = dev.queue_family();
    barriers.dst_queue_family_index = dev.queue_family();
    REQUIRE(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "acquire/release barriers on the context's family");
    // The texels against the one-call path (itself tested against the oracles).
    const auto refs = references(setup, job.format, job.output, src, regions);
    CHECK(std::memcmp(dst.mapped, refs[0].data(), refs[0].size()) == 0);
    dev.destroy(dst);
    destroy(dev, src);
    setup.close();
}

TEST_CASE("regions: A8B8G8R8 and B8G8R8A8 targets are exact against the oracles", "[regions][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    // The formats emulators decode into, each from a format whose oracle is independent of texdec,
    // compared with tolerance 0 (R and B swapped for B8G8R8A8). 2 layers, 3 mips: mips 0 and 1
    // whole, mip 2 a partial region of layer 1 only, so the canary around it must survive too.
    struct Case {
        const char* oracle;
        texdec_format format;
        VkFormat image_format;
        const char* image_name;
        bool format_list;  // a VkImageFormatListCreateInfo {image format, R8G8B8A8_UNORM}, to the image and texdec
    };
    const Case cases[] = {
        {"libastcenc", TEXDEC_FORMAT_ASTC_8x8_SRGB, VK_FORMAT_A8B8G8R8_SRGB_PACK32, "A8B8G8R8_SRGB_PACK32", true},
        {"lavapipe native BC7", TEXDEC_FORMAT_BC7_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32, "A8B8G8R8_UNORM_PACK32", false},
        {"libastcenc", TEXDEC_FORMAT_ASTC_6x6_UNORM, VK_FORMAT_B8G8R8A8_UNORM, "B8G8R8A8_UNORM", true},
        {"lavapipe native BC7", TEXDEC_FORMAT_BC7_SRGB, VK_FORMAT_B8G8R8A8_SRGB, "B8G8R8A8_SRGB", false},
        // The UNORM/sRGB twin rule, as for R8G8B8A8: a UNORM format's RGBA8 into an sRGB image.
        {"lavapipe native BC7", TEXDEC_FORMAT_BC7_UNORM, VK_FORMAT_A8B8G8R8_SRGB_PACK32, "A8B8G8R8_SRGB_PACK32", true},
    };
    for (const Case& c : cases) {
        ImageSpec spec = image_2d(c.image_format, 37, 29, 3, 2);  // 37x29, 18x14, 9x7
        // EXTENDED_USAGE only where STORAGE is not valid on the image's own format (texdec.h).
        spec.extended_usage = !dev.format_supports(c.image_format, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
        if (c.format_list) spec.view_formats = {c.image_format, VK_FORMAT_R8G8B8A8_UNORM};
        const bool bgra = c.image_format == VK_FORMAT_B8G8R8A8_UNORM || c.image_format == VK_FORMAT_B8G8R8A8_SRGB;
        const std::vector<texdec_region> regions = {region_2d(0, 0, 2, 0, 0, 37, 29), region_2d(1, 0, 2, 0, 0, 18, 14),
                                                    region_2d(2, 1, 1, 1, 2, 7, 4)};
        INFO(format_info(c.format).name << " into " << c.image_name << (c.format_list ? " with a format list" : "")
                                        << (spec.extended_usage ? ", MUTABLE_FORMAT + EXTENDED_USAGE" : ", MUTABLE_FORMAT only")
                                        << "; oracle: " << c.oracle);
        std::vector<texdec_region> r = regions;
        Source src = make_source(dev, c.format, r, test_seed() + 9 + c.image_format);
        const auto refs = oracle_references(dev, c.format, src, r, bgra);
        const ImageResult img = decode_into_image(setup, setup.ctx, c.format, TEXDEC_OUTPUT_RGBA8, spec, src, r, ImageBarriers::library_canary);
        CHECK_NO_MISMATCHES(compare_images(spec, 4, img.layout, img.bytes, expected_image(spec, 4, r, refs, img.layout), false),
                            "image vs oracle (canary outside the regions)");
        destroy(dev, src);
    }
    setup.close();
}

TEST_CASE("regions: image targets refuse what they cannot write, naming the formats", "[regions][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    REQUIRE(dev.has_image_format_list());
    auto errors = [&] { return take_errors(setup); };
    auto contains_all = [](const std::string& message, const std::vector<std::string>& words) {
        for (const std::string& w : words)
            if (message.find(w) == std::string::npos) return false;
        return true;
    };
    // Valid Vulkan images throughout (the layer watches): an A8B8G8R8_SRGB image created with a
    // format list that lacks R8G8B8A8_UNORM (the app views it as R8G8B8A8_UINT, whose storage
    // support is mandatory, so STORAGE with EXTENDED_USAGE is valid), and a B8G8R8A8_UNORM one.
    const VkFormat srgb_list[] = {VK_FORMAT_A8B8G8R8_SRGB_PACK32, VK_FORMAT_R8G8B8A8_UINT};
    VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
    list.viewFormatCount = 2;
    list.pViewFormats = srgb_list;
    ImageSpec abgr_spec = image_2d(VK_FORMAT_A8B8G8R8_SRGB_PACK32, 16, 16);
    VkImageCreateInfo abgr_ici = image_create_info(abgr_spec);
    abgr_ici.pNext = &list;
    TestImage abgr = dev.create_image(abgr_ici);
    ImageSpec bgra_spec = image_2d(VK_FORMAT_B8G8R8A8_UNORM, 16, 16);
    const VkImageCreateInfo bgra_ici = image_create_info(bgra_spec);
    TestImage bgra = dev.create_image(bgra_ici);

    SECTION("texdec_image_target_create") {
        struct Bad {
            const char* what;
            texdec_image_target_create_info info;
            texdec_status expected;
            std::vector<std::string> words;  // the message names these
        };
        std::vector<Bad> bad;
        const texdec_image_target_create_info bgra_ok = target_create_info(bgra_ici, bgra.image);
        {
            texdec_image_target_create_info t = target_create_info(abgr_ici, abgr.image);
            t.next = &list;  // as the image was created
            bad.push_back({"format list without the view format", t, TEXDEC_ERROR_INVALID_DESTINATION,
                           {"VkImageFormatListCreateInfo", "VK_FORMAT_R8G8B8A8_UNORM", "VK_FORMAT_A8B8G8R8_SRGB_PACK32"}});
        }
        {
            texdec_image_target_create_info t = bgra_ok;
            t.flags = 0;  // described without MUTABLE_FORMAT
            bad.push_back({"B8G8R8A8 without MUTABLE_FORMAT", t, TEXDEC_ERROR_INVALID_DESTINATION,
                           {"MUTABLE_FORMAT", "VK_FORMAT_B8G8R8A8_UNORM", "VK_FORMAT_R8G8B8A8_UNORM"}});
        }
        VkImageViewUsageCreateInfo usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
        const std::string usage_type = std::to_string(int(VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO));
        {
            texdec_image_target_create_info t = bgra_ok;
            t.next = &usage;
            bad.push_back({"an unknown structure in next", t, TEXDEC_ERROR_INVALID_ARGUMENT, {usage_type, "VkImageFormatListCreateInfo"}});
        }
        VkImageFormatListCreateInfo list_then_usage = list;  // a good list, then an unknown structure
        list_then_usage.pNext = &usage;
        {
            texdec_image_target_create_info t = bgra_ok;
            t.next = &list_then_usage;
            bad.push_back({"an unknown structure after a format list", t, TEXDEC_ERROR_INVALID_ARGUMENT, {usage_type}});
        }
        {
            texdec_image_target_create_info t = bgra_ok;
            t.format = VK_FORMAT_ASTC_8x8_SRGB_BLOCK;  // a compressed format: named from texdec's format table
            bad.push_back({"a compressed image format", t, TEXDEC_ERROR_INVALID_DESTINATION, {"VK_FORMAT_ASTC_8x8_SRGB_BLOCK"}});
            t.format = VK_FORMAT_R8G8B8A8_UINT;  // same bytes as RGBA8, but not a colour texdec decodes to
            bad.push_back({"an integer image format", t, TEXDEC_ERROR_INVALID_DESTINATION, {"VK_FORMAT_R8G8B8A8_UINT"}});
        }
        for (const Bad& b : bad) {
            texdec_image_target* target = reinterpret_cast<texdec_image_target*>(uintptr_t(1));
            const texdec_status st = texdec_image_target_create(setup.ctx, &b.info, &target);
            const std::string message = errors();
            INFO(b.what << ": " << texdec_status_string(st) << ", message: " << message);
            CHECK(st == b.expected);
            CHECK(target == nullptr);
            CHECK(contains_all(message, b.words));
        }
        // The B8G8R8A8 image as it was created is accepted (the refusals are about what changed).
        texdec_image_target* target = nullptr;
        const texdec_status st = texdec_image_target_create(setup.ctx, &bgra_ok, &target);
        INFO(errors());
        CHECK(st == TEXDEC_SUCCESS);
        texdec_image_target_destroy(setup.ctx, target);
    }

    SECTION("texdec_record_regions: outputs the target cannot hold") {
        texdec_image_target* target = nullptr;
        const texdec_image_target_create_info ti = target_create_info(bgra_ici, bgra.image);
        REQUIRE(texdec_image_target_create(setup.ctx, &ti, &target) == TEXDEC_SUCCESS);
        std::vector<texdec_region> regions = {region_2d(0, 0, 1, 0, 0, 16, 16)};
        struct Bad {
            texdec_format format;
            texdec_output output;
            std::vector<std::string> words;
        };
        const Bad bad[] = {
            {TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA16F, {"VK_FORMAT_R16G16B16A16_SFLOAT", "VK_FORMAT_B8G8R8A8_UNORM"}},
            {TEXDEC_FORMAT_BC4_UNORM, TEXDEC_OUTPUT_NATIVE, {"VK_FORMAT_R8_UNORM", "VK_FORMAT_B8G8R8A8_UNORM"}},
            {TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_NATIVE, {"VK_FORMAT_R16G16_SNORM", "VK_FORMAT_B8G8R8A8_UNORM"}},
        };
        VkCommandBuffer cmd = dev.begin_commands();
        for (const Bad& b : bad) {
            Source src = make_source(dev, b.format, regions, test_seed() + 10);
            const texdec_regions_job job =
                RegionsJobBuilder(b.format, b.output, src.buffer.buffer, src.bytes.size(), regions.data())
                    .into_image(target);
            const texdec_status st = texdec_record_regions(setup.ctx, cmd, &job);
            const std::string message = errors();
            INFO(format_info(b.format).name << " output " << b.output << ": " << texdec_status_string(st) << ", message: " << message);
            CHECK(st == TEXDEC_ERROR_INVALID_DESTINATION);
            CHECK(contains_all(message, b.words));
            destroy(dev, src);
        }
        dev.submit_and_wait(cmd);  // nothing recorded: the layer has nothing to say
        check_no_validation_messages(dev.log(), "refused record calls into a B8G8R8A8 target, submitted");
        texdec_image_target_destroy(setup.ctx, target);
    }
    dev.destroy(abgr);
    dev.destroy(bgra);
    setup.close();
}

TEST_CASE("regions: bad input is refused and records nothing", "[regions][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    auto errors = [&] { return take_errors(setup); };

    SECTION("texdec_image_target_create") {
        ImageSpec spec = image_2d(VK_FORMAT_R8G8B8A8_UNORM, 16, 16);
        VkImageCreateInfo ici = image_create_info(spec);
        TestImage image = dev.create_image(ici);
        ImageSpec srgb_spec = spec;
        srgb_spec.format = VK_FORMAT_R8G8B8A8_SRGB;
        VkImageCreateInfo srgb_ici = image_create_info(srgb_spec);
        // An sRGB image without MUTABLE_FORMAT (and so without STORAGE, which sRGB cannot have).
        srgb_ici.flags = 0;
        srgb_ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
        TestImage srgb_image = dev.create_image(srgb_ici);

        struct Bad {
            const char* what;
            texdec_image_target_create_info info;
            const char* message_word;  // the message names what is missing
            texdec_status expected = TEXDEC_SUCCESS;  // SUCCESS: any failure
        };
        std::vector<Bad> bad;
        texdec_image_target_create_info ok = target_create_info(ici, image.image);
        {
            texdec_image_target_create_info t = ok;
            t.usage &= ~VK_IMAGE_USAGE_STORAGE_BIT;
            bad.push_back({"no STORAGE usage", t, "STORAGE"});
        }
        {
            texdec_image_target_create_info t = target_create_info(srgb_ici, srgb_image.image);
            t.usage |= VK_IMAGE_USAGE_STORAGE_BIT;  // described as a storage image, but not MUTABLE_FORMAT
            bad.push_back({"sRGB without MUTABLE_FORMAT", t, "MUTABLE_FORMAT"});
            // MUTABLE_FORMAT but no EXTENDED_USAGE: STORAGE is not valid on the sRGB format
            // (lavapipe and NVIDIA cannot store R8G8B8A8_SRGB).
            if (!dev.format_supports(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
                t.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
                bad.push_back({"sRGB without EXTENDED_USAGE", t, "EXTENDED_USAGE"});
            }
        }
        {
            texdec_image_target_create_info t = ok;
            t.image_type = VK_IMAGE_TYPE_3D;
            t.array_layers = 2;
            bad.push_back({"3D with 2 array layers", t, "layer"});
        }
        {
            texdec_image_target_create_info t = ok;
            t.mip_levels = 0;
            bad.push_back({"0 mip levels", t, "mip"});
        }
        {
            texdec_image_target_create_info t = ok;
            t.image = VK_NULL_HANDLE;
            bad.push_back({"no image", t, "image"});
        }
        // Values no image can have (issue 34: an extent past INT32_MAX overflowed the record
        // path's texel offsets; an unknown tiling was taken as OPTIMAL).
        {
            texdec_image_target_create_info t = ok;
            t.extent.width = 0x80000000u;
            bad.push_back({"width 2^31", t, "width", TEXDEC_ERROR_INVALID_ARGUMENT});
            t = ok;
            t.extent.height = dev.properties().limits.maxImageDimension2D + 1;
            bad.push_back({"height past maxImageDimension2D", t, "height", TEXDEC_ERROR_INVALID_ARGUMENT});
            t = ok;
            t.image_type = VK_IMAGE_TYPE_3D;
            t.extent.depth = dev.properties().limits.maxImageDimension3D + 1;
            bad.push_back({"depth past maxImageDimension3D", t, "depth", TEXDEC_ERROR_INVALID_ARGUMENT});
            t = ok;
            t.array_layers = dev.properties().limits.maxImageArrayLayers + 1;
            bad.push_back({"array_layers past maxImageArrayLayers", t, "array_layers", TEXDEC_ERROR_INVALID_ARGUMENT});
            t = ok;
            t.mip_levels = 6;  // 16 x 16 has 5
            bad.push_back({"more mip levels than the extent has", t, "mip_levels", TEXDEC_ERROR_INVALID_ARGUMENT});
            t = ok;
            store_raw_enum(t.tiling, 7);
            bad.push_back({"tiling 7 (no VkImageTiling)", t, "tiling", TEXDEC_ERROR_INVALID_ARGUMENT});
            t = ok;
            t.tiling = VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT;
            bad.push_back({"tiling DRM_FORMAT_MODIFIER_EXT", t, "DRM", TEXDEC_ERROR_INVALID_ARGUMENT});
        }
        std::vector<std::string> messages;
        for (const Bad& b : bad) {
            texdec_image_target* target = reinterpret_cast<texdec_image_target*>(uintptr_t(1));
            const texdec_status st = texdec_image_target_create(setup.ctx, &b.info, &target);
            const std::string message = errors();
            INFO(b.what << ": " << texdec_status_string(st) << ", message: " << message);
            CHECK(st != TEXDEC_SUCCESS);
            if (b.expected != TEXDEC_SUCCESS) CHECK(st == b.expected);
            CHECK(target == nullptr);
            CHECK(message.find(b.message_word) != std::string::npos);
            messages.push_back(message);
        }
        for (size_t i = 0; i < messages.size(); ++i)
            for (size_t j = i + 1; j < messages.size(); ++j) {
                INFO(bad[i].what << " and " << bad[j].what << " give the same message: " << messages[i]);
                CHECK(messages[i] != messages[j]);
            }
        // The same description with STORAGE is accepted (the refusals above are about what changed).
        texdec_image_target* target = nullptr;
        CHECK(texdec_image_target_create(setup.ctx, &ok, &target) == TEXDEC_SUCCESS);
        texdec_image_target_destroy(setup.ctx, target);
        CHECK(texdec_image_target_create(setup.ctx, nullptr, &target) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_image_target_create(setup.ctx, &ok, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        errors();
        dev.destroy(image);
        dev.destroy(srgb_image);
    }

    SECTION("texdec_record_regions") {
        // A valid job (image 16x16, 2 mips, 2 layers, BC1 RGBA8; buffer alternative), then each
        // field broken in turn. Every refused call is made into a command buffer that is then
        // submitted: the destinations must keep their canary and the layer say nothing.
        const texdec_format format = TEXDEC_FORMAT_BC1_RGBA_UNORM;
        ImageSpec spec = image_2d(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 2, 2);
        const VkImageCreateInfo ici = image_create_info(spec);
        TestImage image = dev.create_image(ici);
        texdec_image_target* target = nullptr;
        const texdec_image_target_create_info ti = target_create_info(ici, image.image);
        REQUIRE(texdec_image_target_create(setup.ctx, &ti, &target) == TEXDEC_SUCCESS);
        ImageSpec r16_spec = spec;
        r16_spec.format = VK_FORMAT_R16G16B16A16_SFLOAT;
        const VkImageCreateInfo r16_ici = image_create_info(r16_spec);
        TestImage half_image = dev.create_image(r16_ici);
        texdec_image_target* half_target = nullptr;
        const texdec_image_target_create_info half_ti = target_create_info(r16_ici, half_image.image);
        REQUIRE(texdec_image_target_create(setup.ctx, &half_ti, &half_target) == TEXDEC_SUCCESS);

        std::vector<texdec_region> regions = {region_2d(0, 0, 2, 0, 0, 16, 16), region_2d(1, 1, 1, 2, 2, 5, 5)};
        Source src = make_source(dev, format, regions, test_seed() + 8);
        const size_t needed = size_t(regions[1].src_offset + region_source_bytes(format_info(format), regions[1]));
        const size_t dst_size = assign_buffer_layout(regions, 4, 0, 0);
        HostBuffer dst = dev.create_buffer(dst_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        fill_canary(dst.mapped, dst_size);

        const texdec_record_barriers barriers{.src_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT,
                                              .src_access_mask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                              .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                                              .dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT,
                                              .dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT,
                                              .new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
        texdec_regions_job good = RegionsJobBuilder(format, TEXDEC_OUTPUT_RGBA8, src.buffer.buffer, needed,
                                                    regions.data(), uint32_t(regions.size()))
                                      .into_image(target)
                                      .barriers(&barriers);
        texdec_regions_job good_buffer = good;
        good_buffer.dst_image = nullptr;
        good_buffer.dst_buffer = dst.buffer;
        good_buffer.dst_size = dst_size;
        good_buffer.barriers = nullptr;

        struct Bad {
            std::string what;
            texdec_regions_job job;
            std::vector<texdec_region> regions;  // used when not empty
            texdec_status expected;              // as texdec.h's status list describes it
        };
        std::vector<Bad> bad;
        std::vector<std::shared_ptr<texdec_record_barriers>> kept_barriers;  // the bad jobs' barriers
        auto with_region = [&](const char* what, const texdec_regions_job& base, auto change, texdec_status expected) {
            std::vector<texdec_region> r = regions;
            change(r.back());  // the last region: a call that recorded as it went would have recorded the first
            bad.push_back({what, base, r, expected});
        };
        with_region("region past the mip level's width", good, [](texdec_region& r) { r.offset.x = 4; r.extent.width = 5; },
                    TEXDEC_ERROR_INVALID_DESTINATION);  // mip 1 is 8 wide: 4 + 5 > 8
        with_region("region with a negative offset", good, [](texdec_region& r) { r.offset.y = -1; }, TEXDEC_ERROR_INVALID_DESTINATION);
        // Destination errors get a source with room to spare, so that only the destination is wrong.
        texdec_regions_job roomy = good;
        roomy.src_size = src.bytes.size();
        with_region("region past the image's layers", roomy, [](texdec_region& r) { r.base_array_layer = 1; r.layer_count = 2; },
                    TEXDEC_ERROR_INVALID_DESTINATION);
        with_region("mip level = mip_levels", good, [](texdec_region& r) { r.mip_level = 2; r.offset = {0, 0, 0}; r.extent = {1, 1, 1}; },
                    TEXDEC_ERROR_INVALID_DESTINATION);
        with_region("zero extent", good, [](texdec_region& r) { r.extent.height = 0; }, TEXDEC_ERROR_INVALID_EXTENT);
        with_region("depth 2 into a 2D image", roomy, [](texdec_region& r) { r.extent.depth = 2; }, TEXDEC_ERROR_INVALID_DESTINATION);
        with_region("src_offset not a multiple of 4", good, [](texdec_region& r) { r.src_offset += 2; }, TEXDEC_ERROR_INVALID_LAYOUT);
        with_region("src_row_length below the extent", good, [](texdec_region& r) { r.src_row_length = 4; },
                    TEXDEC_ERROR_INVALID_LAYOUT);
        with_region("buffer region past dst_size", good_buffer, [&](texdec_region& r) { r.dst_offset = dst_size - 8; },
                    TEXDEC_ERROR_DESTINATION_TOO_SMALL);
        with_region("buffer row pitch below the width", good_buffer, [](texdec_region& r) { r.dst_row_pitch = 16; },
                    TEXDEC_ERROR_INVALID_LAYOUT);
        // Layer ranges are out of range whatever the source holds (issue 34: VK_REMAINING_ARRAY_LAYERS
        // was reported as SOURCE_TOO_SMALL), checked before any size.
        with_region(
            "layer_count 0xFFFFFFFF (VK_REMAINING_ARRAY_LAYERS)", good,
            [](texdec_region& r) { r.layer_count = 0xFFFFFFFF; }, TEXDEC_ERROR_INVALID_ARGUMENT);
        with_region(
            "buffer region with layer_count 0xFFFFFFFF", good_buffer,
            [](texdec_region& r) { r.layer_count = 0xFFFFFFFF; }, TEXDEC_ERROR_INVALID_ARGUMENT);
        with_region(
            "buffer region whose base_array_layer + layer_count wraps 32 bits", good_buffer,
            [](texdec_region& r) {
                r.base_array_layer = 0xFFFFFFF0u;
                r.layer_count = 0x20;
            },
            TEXDEC_ERROR_INVALID_ARGUMENT);
        with_region(
            "layers past the image's with a source too short for them", good,
            [](texdec_region& r) {
                r.base_array_layer = 1;
                r.layer_count = 1000;
            },
            TEXDEC_ERROR_INVALID_DESTINATION);
        // Barrier values (texdec.h: values outside an enum are refused): layouts that are no
        // VkImageLayout or not legal for this image, unknown stage / access bits, accesses their
        // stages cannot perform. The validation layer would report each if it were recorded.
        auto with_barriers = [&](const char* what, const texdec_regions_job& base, auto change) {
            auto b = std::make_shared<texdec_record_barriers>(barriers);
            change(*b);
            kept_barriers.push_back(b);
            texdec_regions_job j = base;
            j.barriers = b.get();
            bad.push_back({what, j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
        };
        with_barriers("old_layout 12345 (no VkImageLayout)", good,
                      [](texdec_record_barriers& b) { store_raw_enum(b.old_layout, 12345); });
        with_barriers("new_layout 0x7FFFFFFF (VK_IMAGE_LAYOUT_MAX_ENUM)", good,
                      [](texdec_record_barriers& b) { b.new_layout = VK_IMAGE_LAYOUT_MAX_ENUM; });
        with_barriers(
            "old_layout DEPTH_STENCIL_ATTACHMENT_OPTIMAL on a colour image", good,
            [](texdec_record_barriers& b) { b.old_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL; });
        with_barriers("new_layout PREINITIALIZED", good,
                      [](texdec_record_barriers& b) { b.new_layout = VK_IMAGE_LAYOUT_PREINITIALIZED; });
        with_barriers("new_layout COLOR_ATTACHMENT_OPTIMAL without COLOR_ATTACHMENT usage", good,
                      [](texdec_record_barriers& b) { b.new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL; });
        with_barriers("old_layout SHADER_READ_ONLY_OPTIMAL without SAMPLED usage", good,
                      [](texdec_record_barriers& b) { b.old_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL; });
        with_barriers("old_layout 12345 with a buffer destination", good_buffer,
                      [](texdec_record_barriers& b) { store_raw_enum(b.old_layout, 12345); });
        with_barriers("an unknown src_stage_mask bit", good,
                      [](texdec_record_barriers& b) { b.src_stage_mask |= 0x40000000u; });
        with_barriers("an unknown dst_stage_mask bit", good_buffer,
                      [](texdec_record_barriers& b) { b.dst_stage_mask |= 0x80000000u; });
        with_barriers("an unknown src_access_mask bit", good,
                      [](texdec_record_barriers& b) { b.src_access_mask |= 0x40000000u; });
        with_barriers("an unknown dst_access_mask bit", good_buffer,
                      [](texdec_record_barriers& b) { b.dst_access_mask |= 0x20000000u; });
        with_barriers("dst_access_mask COLOR_ATTACHMENT_WRITE with a TRANSFER stage", good,
                      [](texdec_record_barriers& b) { b.dst_access_mask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT; });
        with_barriers("src_access_mask SHADER_WRITE with TOP_OF_PIPE", good_buffer, [](texdec_record_barriers& b) {
            b.src_stage_mask = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
            b.src_access_mask = VK_ACCESS_SHADER_WRITE_BIT;
        });
        {
            texdec_regions_job j = good;
            j.src_size = needed - 1;  // the last region's last block does not fit
            bad.push_back({"source 1 byte short of the last block", j, {}, TEXDEC_ERROR_SOURCE_TOO_SMALL});
            // VK_WHOLE_SIZE is not a size (CHANGELOG 1.0.0): texdec cannot know the buffer's.
            j = good;
            j.src_size = VK_WHOLE_SIZE;
            bad.push_back({"src_size VK_WHOLE_SIZE", j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
            j = good_buffer;
            j.src_size = VK_WHOLE_SIZE;
            bad.push_back({"src_size VK_WHOLE_SIZE, buffer destination", j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
            j = good_buffer;
            j.dst_size = VK_WHOLE_SIZE;
            bad.push_back({"dst_size VK_WHOLE_SIZE", j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
        }
        {
            texdec_regions_job j = good;
            j.dst_buffer = dst.buffer;
            j.dst_size = dst_size;
            bad.push_back({"both destinations", j, {}, TEXDEC_ERROR_INVALID_DESTINATION});
            j = good;
            j.dst_image = nullptr;
            bad.push_back({"no destination", j, {}, TEXDEC_ERROR_INVALID_DESTINATION});
            j = good;
            j.region_count = 0;
            bad.push_back({"region_count 0", j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
            j = good;
            j.regions = nullptr;
            bad.push_back({"regions NULL", j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
            j = good;
            j.src_buffer = VK_NULL_HANDLE;
            bad.push_back({"no source buffer", j, {}, TEXDEC_ERROR_INVALID_ARGUMENT});
            j = good;
            j.output = TEXDEC_OUTPUT_RGBA16F;  // an RGBA8 image
            bad.push_back({"RGBA16F output into an RGBA8 image", j, {}, TEXDEC_ERROR_INVALID_DESTINATION});
            j = good;
            j.dst_image = half_target;  // RGBA8 output into an RGBA16F image
            bad.push_back({"RGBA8 output into an RGBA16F image", j, {}, TEXDEC_ERROR_INVALID_DESTINATION});
            j = good;
            j.format = TEXDEC_FORMAT_BC4_UNORM;
            j.output = TEXDEC_OUTPUT_NATIVE;  // R8 into an RGBA8 image
            bad.push_back({"BC4 NATIVE (R8) into an RGBA8 image", j, {}, TEXDEC_ERROR_INVALID_DESTINATION});
            j = good;
            j.format = TEXDEC_FORMAT_BC6H_UFLOAT;  // RGBA8 refused for BC6H
            bad.push_back({"BC6H with RGBA8 output", j, {}, TEXDEC_ERROR_UNSUPPORTED_OUTPUT});
            j = good;
            j.format = texdec_format(9999);
            bad.push_back({"unknown format", j, {}, TEXDEC_ERROR_UNKNOWN_FORMAT});
        }

        VkCommandBuffer cmd = dev.begin_commands();
        for (Bad& b : bad) {
            if (!b.regions.empty()) b.job.regions = b.regions.data();
            const texdec_status st = texdec_record_regions(setup.ctx, cmd, &b.job);
            const std::string message = errors();
            INFO(b.what << ": " << texdec_status_string(st) << " (expected " << texdec_status_string(b.expected)
                        << "), message: " << message);
            CHECK(st == b.expected);
            CHECK(!message.empty());
        }
        CHECK(texdec_record_regions(setup.ctx, cmd, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_record_regions(nullptr, cmd, &good) == TEXDEC_ERROR_INVALID_ARGUMENT);
        errors();
        // Nothing was recorded: the submitted command buffer leaves the destination buffer's canary
        // whole, and has no barrier or layout change the layer would report (the image is never used).
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "refused texdec_record_regions calls, submitted");
        size_t changed = 0;
        for (size_t i = 0; i < dst_size; ++i) changed += dst.mapped[i] != canary_byte(i);
        CHECK(changed == 0);

        // The boundaries are exact: the good jobs (source ending at the last block) are accepted.
        cmd = dev.begin_commands();
        CHECK(texdec_record_regions(setup.ctx, cmd, &good_buffer) == TEXDEC_SUCCESS);
        INFO(errors());
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "the good buffer job");
        cmd = dev.begin_commands();
        CHECK(texdec_record_regions(setup.ctx, cmd, &good) == TEXDEC_SUCCESS);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "the good image job");

        texdec_image_target_destroy(setup.ctx, target);
        texdec_image_target_destroy(setup.ctx, half_target);
        dev.destroy(image);
        dev.destroy(half_image);
        dev.destroy(dst);
        destroy(dev, src);
    }
    setup.close();
}

// ---- batched dispatches (texdec.h "many small regions") ----------------------------------------
//
//   regions: batched                                 many regions of many sizes (odd extents, partial
//       edge blocks, 1x1 up to 3 blocks a side) in cells of two mip levels (or, 3D, slices at odd
//       z), every family; batched (scratch) into an image and a buffer, each against the one-call
//       reference (texdec_decode, proven by the oracle tests) with the canary outside the regions,
//       and byte for byte against the same call without scratch (one dispatch per region); the
//       scratch's table entries written = the regions (so the batched path ran);
//   regions: batched against independent oracles    ASTC 6x6 sRGB (libastcenc) and BC7 (lavapipe's
//       native decode) into an A8B8G8R8 image, batched;
//   regions: batches end where they must             more regions than one batch holds (1100),
//       overlapping regions (the later one wins, as unbatched), a region cut into chunks between
//       small ones, an offset scratch;
//   regions: scratch problems are refused            too small, misaligned, null, chained junk:
//       INVALID_ARGUMENT, nothing recorded.
namespace {

// `count` regions of 1..max_edge texels a side in a grid of `cell`-texel cells (cols wide) of mip
// `mip`: source rows past the extent on some, cells in any order.
std::vector<texdec_region> grid_regions(SplitMix64& rng, uint32_t count, uint32_t mip, uint32_t cell, uint32_t cols,
                                        uint32_t max_edge) {
    std::vector<texdec_region> out;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t c = (i * 7) % count;  // not in raster order
        const uint32_t w = 1 + uint32_t(rng.next() % max_edge), h = 1 + uint32_t(rng.next() % max_edge);
        const int32_t x = int32_t((c % cols) * cell + rng.next() % (cell - w + 1));
        const int32_t y = int32_t((c / cols) * cell + rng.next() % (cell - h + 1));
        out.push_back(region_2d(mip, 0, 1, x, y, w, h, rng.next() % 3 == 0 ? w + 5 : 0));
    }
    return out;
}

// Batched and unbatched, into an image and a buffer: against the reference and each other.
void check_batched(ExternalSetup& setup, texdec_format format, texdec_output output, const ImageSpec& spec,
                   std::vector<texdec_region> regions, uint64_t seed, size_t image_batched, size_t buffer_batched) {
    const texdec_format_info fi = format_info(format);
    INFO(fi.name << " output " << output << ": " << regions.size() << " regions, batched");
    const uint32_t texel = texel_size(format, output);
    const bool half_nan = is_half_output(spec.format);
    Source src = make_source(*setup.device, format, regions, seed);
    const auto refs = references(setup, format, output, src, regions);
    Scratch scratch;
    scratch.on = true;
    const ImageResult img = decode_into_image(setup, setup.ctx, format, output, spec, src, regions,
                                              ImageBarriers::library_canary, 0, &scratch);
    CHECK(scratch.entries_written == image_batched);
    CHECK_NO_MISMATCHES(compare_images(spec, texel, img.layout, img.bytes,
                                       expected_image(spec, texel, regions, refs, img.layout), half_nan),
                        "batched image vs one-call reference");
    const ImageResult unbatched =
        decode_into_image(setup, setup.ctx, format, output, spec, src, regions, ImageBarriers::library_canary);
    CHECK(img.bytes == unbatched.bytes);
    const size_t size = assign_buffer_layout(regions, texel, 3, 2);  // neighbours share words (narrow texels)
    Scratch buffer_scratch;
    buffer_scratch.on = true;
    buffer_scratch.offset = 36;
    const auto buf = decode_into_buffer(setup, setup.ctx, format, output, size, src, regions, true, 0, &buffer_scratch);
    CHECK(buffer_scratch.entries_written == buffer_batched);
    CHECK_NO_MISMATCHES(compare_buffers(buf, expected_buffer(size, texel, regions, refs)),
                        "batched buffer vs one-call reference");
    const auto buf_unbatched = decode_into_buffer(setup, setup.ctx, format, output, size, src, regions, false);
    CHECK(buf == buf_unbatched);
    destroy(*setup.device, src);
}

}  // namespace

TEST_CASE("regions: batched", "[regions][gpu][batched]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    const FormatOutput formats[] = {
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8},     {TEXDEC_FORMAT_BC2_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_BC3_UNORM, TEXDEC_OUTPUT_RGBA16F},        {TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_BC5_UNORM, TEXDEC_OUTPUT_NATIVE},         {TEXDEC_FORMAT_BC6H_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
        {TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8},          {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, TEXDEC_OUTPUT_RGBA8}, {TEXDEC_FORMAT_EAC_R11_UNORM, TEXDEC_OUTPUT_NATIVE},
        {TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_NATIVE},  {TEXDEC_FORMAT_ASTC_4x4_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8},      {TEXDEC_FORMAT_ASTC_12x12_UNORM, TEXDEC_OUTPUT_RGBA8},
        {TEXDEC_FORMAT_ASTC_4x4_SFLOAT, TEXDEC_OUTPUT_RGBA16F},
    };
    for (const FormatOutput& f : formats) {
        const texdec_format_info fi = format_info(f.format);
        ImageSpec spec = image_2d(output_vk_format(f.format, f.output), 6 * 40, 3 * 40, 2, 1);
        if (!stores_image_format(setup, f.format, spec.format)) continue;
        SplitMix64 rng(test_seed() + f.format);
        const uint32_t max_edge = std::min(40u, 3 * fi.block_width);
        // Mip 0: 18 regions in 40-texel cells; mip 1 (120x60): 8 regions in 20-texel cells; mip 0
        // again after them (regions of a level need not be consecutive).
        const std::vector<texdec_region> mip0 = grid_regions(rng, 18, 0, 40, 6, max_edge);
        std::vector<texdec_region> regions(mip0.begin(), mip0.begin() + 12);
        for (auto& r : grid_regions(rng, 8, 1, 20, 6, std::min(20u, max_edge))) regions.push_back(r);
        regions.insert(regions.end(), mip0.begin() + 12, mip0.end());
        check_batched(setup, f.format, f.output, spec, regions, test_seed() + 11 + f.format, regions.size(),
                      regions.size());
    }
    // 3D: ASTC 4x4x4 and 3x3x3 into a 3D image, regions of 1..8 slices at odd z (several block slices).
    for (const texdec_format format : {TEXDEC_FORMAT_ASTC_4x4x4_UNORM, TEXDEC_FORMAT_ASTC_3x3x3_SRGB}) {
        ImageSpec spec;
        spec.type = VK_IMAGE_TYPE_3D;
        spec.extent = {4 * 16, 2 * 16, 11};
        SplitMix64 rng(test_seed() + 99 + format);
        std::vector<texdec_region> regions;
        for (uint32_t i = 0; i < 8; ++i) {
            const uint32_t w = 1 + uint32_t(rng.next() % 16), h = 1 + uint32_t(rng.next() % 16),
                           d = 1 + uint32_t(rng.next() % 8);
            regions.push_back(region_3d(0, int32_t(i % 4 * 16 + (16 - w) / 2), int32_t(i / 4 * 16),
                                        int32_t(rng.next() % (12 - d)), w, h, d));
        }
        check_batched(setup, format, TEXDEC_OUTPUT_RGBA8, spec, regions, test_seed() + 12 + format, regions.size(),
                      regions.size());
    }
    setup.close();
}

TEST_CASE("regions: batched against independent oracles", "[regions][gpu][batched]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    for (const texdec_format format : {TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_FORMAT_BC7_UNORM}) {
        const ImageSpec spec = image_2d(VK_FORMAT_A8B8G8R8_UNORM_PACK32, 5 * 24, 2 * 24, 1, 1);
        SplitMix64 rng(test_seed() + 31 + format);
        std::vector<texdec_region> regions;
        for (uint32_t i = 0; i < 10; ++i) {
            const uint32_t w = 1 + uint32_t(rng.next() % 24), h = 1 + uint32_t(rng.next() % 24);
            regions.push_back(region_2d(0, 0, 1, int32_t(i % 5 * 24), int32_t(i / 5 * 24), w, h));
        }
        Source src = make_source(*setup.device, format, regions, test_seed() + 32 + format);
        const auto refs = oracle_references(*setup.device, format, src, regions, false);
        Scratch scratch;
        scratch.on = true;
        const ImageResult img = decode_into_image(setup, setup.ctx, format, TEXDEC_OUTPUT_RGBA8, spec, src, regions,
                                                  ImageBarriers::library_canary, 0, &scratch);
        CHECK(scratch.entries_written == regions.size());
        CHECK_NO_MISMATCHES(
            compare_images(spec, 4, img.layout, img.bytes, expected_image(spec, 4, regions, refs, img.layout), false),
            format_info(format).name << " batched image vs the independent oracle");
        destroy(*setup.device, src);
    }
    setup.close();
}

TEST_CASE("regions: batches end where they must", "[regions][gpu][batched]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    const texdec_format format = TEXDEC_FORMAT_BC1_RGBA_UNORM;
    SECTION("more regions than one batch holds") {
        // 1100 regions of 1..8 texels in 8-texel cells of a 320x32 image (1024 per batch): all batched.
        std::vector<texdec_region> regions;
        SplitMix64 rng(test_seed() + 41);
        for (uint32_t i = 0; i < 1100; ++i)
            regions.push_back(region_2d(0, 0, 1, int32_t(i % 40 * 8), int32_t(i / 40 * 8), 1 + uint32_t(rng.next() % 8),
                                        1 + uint32_t(rng.next() % 8)));
        check_batched(setup, format, TEXDEC_OUTPUT_RGBA8, image_2d(VK_FORMAT_R8G8B8A8_UNORM, 320, 28 * 8), regions,
                      test_seed() + 42, regions.size(), regions.size());
    }
    SECTION("overlapping regions: the later one wins, as without batching") {
        std::vector<texdec_region> regions = {region_2d(0, 0, 1, 0, 0, 30, 30), region_2d(0, 0, 1, 40, 0, 9, 9),
                                              region_2d(0, 0, 1, 5, 7, 13, 11),  // over the first
                                              region_2d(0, 0, 1, 3, 3, 30, 30),  // over both
                                              region_2d(0, 0, 1, 60, 2, 7, 7)};
        // Image: batches {0, 1}, {2} (alone: one dispatch, no entry), {3, 4}; the buffer's
        // destinations do not overlap: one batch.
        check_batched(setup, format, TEXDEC_OUTPUT_RGBA8, image_2d(VK_FORMAT_R8G8B8A8_UNORM, 70, 40), regions,
                      test_seed() + 43, 4, 5);
    }
    SECTION("a region too large for a batch between small ones") {
        std::vector<texdec_region> regions = {region_2d(0, 0, 1, 0, 0, 13, 9), region_2d(0, 0, 1, 16, 0, 7, 5),
                                              region_2d(0, 0, 1, 0, 16, 2200, 2100),  // 2200x2100: over 4096 workgroups
                                              region_2d(0, 0, 1, 32, 0, 11, 13), region_2d(0, 0, 1, 48, 0, 3, 3)};
        check_batched(setup, format, TEXDEC_OUTPUT_RGBA8, image_2d(VK_FORMAT_R8G8B8A8_UNORM, 2200, 2116), regions,
                      test_seed() + 44, 4, 4);
    }
    setup.close();
}

TEST_CASE("regions: scratch problems are refused", "[regions][gpu][batched]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    VulkanTestDevice& dev = *setup.device;
    std::vector<texdec_region> regions = {region_2d(0, 0, 1, 0, 0, 8, 8), region_2d(0, 0, 1, 8, 0, 8, 8)};
    Source src = make_source(dev, TEXDEC_FORMAT_BC1_RGBA_UNORM, regions, test_seed() + 51);
    assign_buffer_layout(regions, 4, 0, 0);
    HostBuffer dst = dev.create_buffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    HostBuffer scratch = dev.create_buffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    texdec_regions_job job = RegionsJobBuilder(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, src.buffer.buffer,
                                               src.bytes.size(), regions.data(), 2)
                                 .into_buffer(dst.buffer, 4096);
    VkDeviceSize need = 0;
    REQUIRE(texdec_regions_scratch_size(setup.ctx, &job, &need) == TEXDEC_SUCCESS);
    CHECK(need == 128);
    CHECK(texdec_regions_scratch_size(setup.ctx, &job, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_regions_scratch_size(setup.ctx, nullptr, &need) == TEXDEC_ERROR_INVALID_ARGUMENT);
    setup.context_log.take_errors();
    texdec_source_layout_info junk{TEXDEC_STRUCTURE_TYPE_SOURCE_LAYOUT_INFO};
    struct Case {
        const char* what;
        texdec_regions_scratch_info info;
        const char* message;
    };
    const Case cases[] = {
        {"too small",
         {TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, nullptr, scratch.buffer, 0, 127},
         "smaller than the 128 bytes"},
        {"too small past the offset",
         {TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, nullptr, scratch.buffer, 200, 56},
         "smaller"},
        {"misaligned", {TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, nullptr, scratch.buffer, 2, 128}, "multiple of 4"},
        {"null buffer",
         {TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, nullptr, VK_NULL_HANDLE, 0, 256},
         "VK_NULL_HANDLE"},
        {"chained junk",
         {TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, &junk, scratch.buffer, 0, 256},
         "texdec_regions_scratch_info.next"},
    };
    VkCommandBuffer cmd = dev.begin_commands();
    for (const Case& c : cases) {
        INFO(c.what);
        job.next = &c.info;
        CHECK(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_ERROR_INVALID_ARGUMENT);
        const auto errors = setup.context_log.take_errors();
        REQUIRE(errors.size() == 1);
        CHECK_THAT(errors[0], Catch::Contains(c.message));
    }
    // The right size at an offset is accepted (128 bytes from 128).
    const texdec_regions_scratch_info ok{TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO, nullptr, scratch.buffer, 128, 128};
    job.next = &ok;
    record_or_fail(setup, setup.ctx, cmd, job);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), "scratch problems");
    dev.destroy(dst);
    dev.destroy(scratch);
    destroy(dev, src);
    setup.close();
}
