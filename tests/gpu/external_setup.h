// The external-context setup shared by the record-path tests: a VulkanTestDevice of the test's
// own (validation layer, messenger) and a texdec context created on it with
// texdec_context_create_external, whose messages go to `context_log`.
#pragma once

#include <memory>

#include "gpu/gpu_fixture.h"

namespace texdec_test {

struct ExternalSetup {
    std::unique_ptr<VulkanTestDevice> device;
    texdec_context* ctx = nullptr;
    MessageLog context_log;

    // False: no device and TEXDEC_ALLOW_NO_DEVICE=1 (the test returns); otherwise REQUIREs success.
    bool open(const VulkanTestDeviceOptions& options = {});
    // Destroys the context, then the device, checking the validation log.
    void close();
    ~ExternalSetup();
};

// The texdec_image_target_create_info of an image created with `ici`.
texdec_image_target_create_info target_create_info(const VkImageCreateInfo& ici, VkImage image);

// The texdec_image_target of `image` on `ctx` (created on first call from image.info, REQUIREd
// to succeed; destroyed with the image).
texdec_image_target* image_target(texdec_context* ctx, TestImage& image);

// One decode of the shape most record tests use, recorded by texdec_record_regions as a single
// region (1.0 has one record call). src_size / dst_size count from the offsets.
struct RecordJob {
    texdec_format format{};
    texdec_output output{};
    texdec_bc_rounding bc_rounding{};
    // Barriers: transfer and host writes -> the decode; the decode -> transfer and shader reads.
    // Image destinations are in GENERAL before and stay in GENERAL.
    bool barriers = false;
    uint32_t width = 0, height = 0, depth = 0;
    VkBuffer src_buffer = VK_NULL_HANDLE;
    VkDeviceSize src_offset = 0, src_size = 0;
    uint32_t src_row_length = 0, src_image_height = 0;
    // Buffer destination ...
    VkBuffer dst_buffer = VK_NULL_HANDLE;
    VkDeviceSize dst_offset = 0, dst_size = 0, dst_row_pitch = 0, dst_slice_pitch = 0;
    // ... or image destination: slice z goes to layer dst_layer + z (3D images: depth slice).
    TestImage* dst_image = nullptr;
    int32_t dst_x = 0, dst_y = 0;
    uint32_t dst_layer = 0;
    uint32_t max_texels_per_dispatch = 0;
};
texdec_status record_one(texdec_context* ctx, VkCommandBuffer cmd, const RecordJob* job);

// Makes transfer and shader writes visible to host reads (before a submit + wait).
void host_read_barrier(VkCommandBuffer cmd);

// Storage-image destinations of a record job (iw x ih texels, `layers` layers, one colour mip):
// record_image_canary copies `canary` (tightly packed texels of every layer) into the image and
// leaves it in GENERAL, ordered before the decode's shader writes; record_image_readback moves it
// to TRANSFER_SRC after those writes and copies every layer into `readback`.
void record_image_canary(VkCommandBuffer cmd, VkImage image, const HostBuffer& canary, uint32_t iw, uint32_t ih,
                         uint32_t layers);
void record_image_readback(VkCommandBuffer cmd, VkImage image, const HostBuffer& readback, uint32_t iw, uint32_t ih,
                           uint32_t layers);

}  // namespace texdec_test
