#include "gpu/external_setup.h"

#include <catch2/catch.hpp>

#include <texdec/texdec.hpp>

#include <string>


namespace texdec_test {
namespace {

void context_callback(texdec_message_severity severity, const char* message, void* user_data) {
    auto* log = static_cast<MessageLog*>(user_data);
    if (severity == TEXDEC_MESSAGE_VALIDATION) log->add_validation(message ? message : "");
    else if (severity == TEXDEC_MESSAGE_ERROR) log->add_error(message ? message : "");
}

}  // namespace

texdec_image_target_create_info target_create_info(const VkImageCreateInfo& ici, VkImage image) {
    return texdec::image_target_info(image, ici);
}

texdec_image_target* image_target(texdec_context* ctx, TestImage& image) {
    if (image.target) return image.target;
    const texdec_image_target_create_info info = target_create_info(image.info, image.image);
    REQUIRE(texdec_image_target_create(ctx, &info, &image.target) == TEXDEC_SUCCESS);
    image.target_context = ctx;
    return image.target;
}

texdec_status record_one(texdec_context* ctx, VkCommandBuffer cmd, const RecordJob* job_ptr) {
    const RecordJob& one = *job_ptr;
    texdec_region region{};
    region.src_offset = one.src_offset;
    region.src_row_length = one.src_row_length;
    region.src_image_height = one.src_image_height;
    region.extent = {one.width, one.height, 1};
    texdec_regions_job job{};
    job.format = one.format;
    job.output = one.output;
    job.bc_rounding = one.bc_rounding;
    job.src_buffer = one.src_buffer;
    // Bytes from offset 0 of the buffer (saturating: an offset + size that wraps stays refused;
    // below VK_WHOLE_SIZE, which is refused as not a size before the regions are checked).
    constexpr VkDeviceSize kHuge = VK_WHOLE_SIZE - 1;
    job.src_size = one.src_offset + one.src_size < one.src_offset ? kHuge : one.src_offset + one.src_size;
    if (one.dst_image) {
        job.dst_image = image_target(ctx, *one.dst_image);
        region.offset = {one.dst_x, one.dst_y, 0};
        if (one.dst_image->info.imageType == VK_IMAGE_TYPE_3D) {
            region.offset.z = int32_t(one.dst_layer);
            region.extent.depth = one.depth;
        } else {
            region.base_array_layer = one.dst_layer;
            region.layer_count = one.depth;
        }
    } else {
        job.dst_buffer = one.dst_buffer;
        job.dst_size = one.dst_offset + one.dst_size < one.dst_offset ? kHuge : one.dst_offset + one.dst_size;
        region.dst_offset = one.dst_offset;
        region.dst_row_pitch = one.dst_row_pitch;
        region.dst_slice_pitch = one.dst_slice_pitch;
        region.extent.depth = one.depth;
    }
    texdec_record_barriers barriers{};
    if (one.barriers) {
        barriers.src_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT;
        barriers.src_access_mask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
        barriers.old_layout = VK_IMAGE_LAYOUT_GENERAL;
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        barriers.dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
        job.barriers = &barriers;
    }
    job.region_count = 1;
    job.regions = &region;
    job.max_texels_per_dispatch = one.max_texels_per_dispatch;
    return texdec_record_regions(ctx, cmd, &job);
}

bool ExternalSetup::open(const VulkanTestDeviceOptions& options) {
    device = VulkanTestDevice::open(options);
    if (!device) return false;
    texdec_context_create_info info{};
    info.message_callback = context_callback;
    info.user_data = &context_log;
    const texdec_external_device ext = device->external_device();
    const texdec_status s = texdec_context_create_external(&info, &ext, &ctx);
    INFO("errors: " << [&] { std::string all; for (auto& e : context_log.take_errors()) all += e + "; "; return all; }());
    REQUIRE(s == TEXDEC_SUCCESS);
    REQUIRE(ctx != nullptr);
    check_no_validation_messages(device->log(), "texdec_context_create_external");
    return true;
}

void ExternalSetup::close() {
    if (ctx) texdec_context_destroy(ctx);
    ctx = nullptr;
    device->close_and_check();
}

ExternalSetup::~ExternalSetup() {
    if (ctx) texdec_context_destroy(ctx);
}

StagedSource create_staged_source(VulkanTestDevice& dev, const std::vector<uint8_t>& bytes) {
    StagedSource s;
    s.staging = dev.create_buffer(bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::memcpy(s.staging.mapped, bytes.data(), bytes.size());
    s.buffer = dev.create_buffer(bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(s.buffer.mapped, 0, bytes.size());
    return s;
}

void record_upload(VkCommandBuffer cmd, const StagedSource& s) {
    const VkBufferCopy upload{0, 0, s.staging.size};
    vkCmdCopyBuffer(cmd, s.staging.buffer, s.buffer.buffer, 1, &upload);
}

void destroy(VulkanTestDevice& dev, StagedSource& s) {
    dev.destroy(s.staging);
    dev.destroy(s.buffer);
}

void host_read_barrier(VkCommandBuffer cmd) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                         1, &b, 0, nullptr, 0, nullptr);
}

using vk_app::image_barrier;
using vk_app::whole_image;

void record_image_canary(VkCommandBuffer cmd, VkImage image, const HostBuffer& canary, uint32_t iw, uint32_t ih,
                         uint32_t layers) {
    VkImageMemoryBarrier ib = image_barrier(image, layers, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                                            VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
    const VkBufferImageCopy region = whole_image(iw, ih, layers);
    vkCmdCopyBufferToImage(cmd, canary.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    // The caller's part of the contract: the image in GENERAL, its earlier writes ordered before the decode's.
    ib = image_barrier(image, layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
}

void record_image_readback(VkCommandBuffer cmd, VkImage image, const HostBuffer& readback, uint32_t iw, uint32_t ih,
                           uint32_t layers) {
    // TEXDEC_RECORD_BARRIER_AFTER (if the job had it) made the texels visible to transfer reads;
    // the layout change for the copy is the caller's.
    const VkImageMemoryBarrier ib = image_barrier(image, layers, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                                  VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
    const VkBufferImageCopy region = whole_image(iw, ih, layers);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
}

VkFormat storage_view_format(VkFormat format) {
    return format == VK_FORMAT_R8G8B8A8_SRGB ? VK_FORMAT_R8G8B8A8_UNORM : format;
}

StorageImageFormat storage_image_format(const VulkanTestDevice& dev, VkFormat format) {
    StorageImageFormat f;
    f.view = storage_view_format(format);
    REQUIRE(dev.format_supports(f.view, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
    if (f.view != format) {
        f.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
        if (!dev.format_supports(format, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
            f.flags |= VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
    }
    return f;
}

CanaryImage create_canary_image(VulkanTestDevice& dev, VkCommandBuffer cmd, VkFormat format, uint32_t iw, uint32_t ih,
                                uint32_t layers, uint32_t texel) {
    CanaryImage im;
    const StorageImageFormat sf = storage_image_format(dev, format);
    im.image =
        dev.create_image(format, iw, ih, layers,
                         VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                         sf.flags, sf.view);
    im.iw = iw, im.ih = ih, im.layers = layers, im.texel = texel;
    im.bytes = size_t(iw) * ih * layers * texel;
    im.canary = dev.create_buffer(im.bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    for (size_t i = 0; i < im.bytes; ++i) im.canary.mapped[i] = canary_byte(i);  // fill_canary, inline
    im.readback = dev.create_buffer(im.bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    record_image_canary(cmd, im.image.image, im.canary, iw, ih, layers);
    return im;
}

void record_readback(VkCommandBuffer cmd, const CanaryImage& im) {
    record_image_readback(cmd, im.image.image, im.readback, im.iw, im.ih, im.layers);
}

TexelLayout window_layout(const CanaryImage& im, int32_t x0, int32_t y0, uint32_t layer) {
    TexelLayout tl;
    tl.row_pitch = size_t(im.iw) * im.texel;
    tl.slice_pitch = tl.row_pitch * im.ih;
    tl.offset = layer * tl.slice_pitch + y0 * tl.row_pitch + x0 * im.texel;
    return tl;
}

CanaryBuffer create_canary_buffer(VulkanTestDevice& dev, size_t offset, uint32_t texel, uint32_t w, uint32_t h,
                                  uint32_t slices) {
    CanaryBuffer b;
    b.layout.offset = offset;
    b.layout.row_pitch = size_t(w + 3) * texel;
    b.layout.slice_pitch = b.layout.row_pitch * h + 5 * texel;
    b.dst_size = b.layout.slice_pitch * (slices - 1) + b.layout.row_pitch * (h - 1) + size_t(w) * texel;
    b.total = b.layout.offset + b.dst_size + 64;
    b.buffer = dev.create_buffer(b.total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    for (size_t i = 0; i < b.total; ++i) b.buffer.mapped[i] = canary_byte(i);
    b.readback = dev.create_buffer(b.total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    return b;
}

void record_readback(VkCommandBuffer cmd, const CanaryBuffer& b) {
    const VkBufferCopy copy{0, 0, b.total};
    vkCmdCopyBuffer(cmd, b.buffer.buffer, b.readback.buffer, 1, &copy);
}

void destroy(VulkanTestDevice& dev, CanaryBuffer& b) {
    dev.destroy(b.buffer);
    dev.destroy(b.readback);
}

BufferTarget record_to_canary_buffer(ExternalSetup& setup, VkCommandBuffer cmd, RecordJob job, size_t offset,
                                     uint32_t texel) {
    BufferTarget t{job.output, create_canary_buffer(*setup.device, offset, texel, job.width, job.height, job.depth)};
    const TexelLayout& l = t.buffer.layout;
    job.into_buffer(t.buffer.buffer.buffer, l.offset, t.buffer.dst_size, l.row_pitch, l.slice_pitch);
    REQUIRE(record_one(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
    record_readback(cmd, t.buffer);
    return t;
}

ImageTarget record_to_canary_image(ExternalSetup& setup, VkCommandBuffer cmd, RecordJob job, VkFormat format,
                                   uint32_t iw, uint32_t ih, uint32_t layers, uint32_t texel, int32_t x, int32_t y,
                                   uint32_t layer) {
    ImageTarget t{job.output, create_canary_image(*setup.device, cmd, format, iw, ih, layers, texel)};
    REQUIRE(record_one(setup.ctx, cmd, &job.into_image(&t.image.image, x, y, layer)) == TEXDEC_SUCCESS);
    record_readback(cmd, t.image);
    return t;
}

void destroy(VulkanTestDevice& dev, CanaryImage& im) {
    dev.destroy(im.canary);
    dev.destroy(im.readback);
    dev.destroy(im.image);
}

}  // namespace texdec_test
