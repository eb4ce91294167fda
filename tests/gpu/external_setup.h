// The external-context setup shared by the record-path tests: a VulkanTestDevice of the test's
// own (validation layer, messenger) and a texdec context created on it with
// texdec_context_create_external, whose messages go to `context_log`.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "support/compare.h"  // TexelLayout, canary bytes

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

// The opening of a test on a setup of its own (ExternalSetup, or any with open() and device):
// opens `setup` (with the options, if any) and names its device `dev`, or returns from the test
// where there is no device. A macro because it returns from the calling test.
#define TEXDEC_OPEN_OR_RETURN(setup, dev, ...) \
    if (!(setup).open(__VA_ARGS__)) return;    \
    ::texdec_test::VulkanTestDevice& dev = *(setup).device

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

    // The destination, in one call: a buffer (sizes count from the offset) or an image.
    RecordJob& into_buffer(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size, VkDeviceSize row_pitch = 0,
                           VkDeviceSize slice_pitch = 0) {
        dst_buffer = buffer, dst_offset = offset, dst_size = size, dst_row_pitch = row_pitch,
        dst_slice_pitch = slice_pitch;
        return *this;
    }
    RecordJob& into_image(TestImage* image, int32_t x = 0, int32_t y = 0, uint32_t layer = 0) {
        dst_image = image, dst_x = x, dst_y = y, dst_layer = layer;
        return *this;
    }
};
texdec_status record_one(texdec_context* ctx, VkCommandBuffer cmd, const RecordJob* job);

// A record job's source: `buffer` (STORAGE and TRANSFER_DST, zero until the upload) and a host
// `staging` copy of the bytes; record_upload records the copy from one to the other.
struct StagedSource {
    HostBuffer staging, buffer;
};
StagedSource create_staged_source(VulkanTestDevice& dev, const std::vector<uint8_t>& bytes);
void record_upload(VkCommandBuffer cmd, const StagedSource& s);
void destroy(VulkanTestDevice& dev, StagedSource& s);

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

// How a storage image of an output's VkFormat is created: sRGB formats are MUTABLE_FORMAT with a
// UNORM storage view (and EXTENDED_USAGE where the sRGB format itself has no storage support);
// other formats are their own view. REQUIREs storage-image support of the view format.
struct StorageImageFormat {
    VkFormat view = VK_FORMAT_UNDEFINED;
    VkImageCreateFlags flags = 0;
};
StorageImageFormat storage_image_format(const VulkanTestDevice& dev, VkFormat format);
// The format of that view alone: R8G8B8A8_UNORM for R8G8B8A8_SRGB, else `format`.
VkFormat storage_view_format(VkFormat format);

// A 2D (array) storage image destination of iw x ih texels, `layers` layers, `texel` bytes a
// texel, whose every texel starts as canary bytes: creating it records the canary upload into
// `cmd` (leaving the image in GENERAL for the decode), record_readback copies it to `readback`.
struct CanaryImage {
    TestImage image;
    HostBuffer canary, readback;
    uint32_t iw = 0, ih = 0, layers = 0, texel = 0;
    size_t bytes = 0;
};
CanaryImage create_canary_image(VulkanTestDevice& dev, VkCommandBuffer cmd, VkFormat format, uint32_t iw, uint32_t ih,
                                uint32_t layers, uint32_t texel);
void record_readback(VkCommandBuffer cmd, const CanaryImage& im);
void destroy(VulkanTestDevice& dev, CanaryImage& im);

// Where a w x h window at (x0, y0) of `layer` lies in the image's readback (tight rows and layers).
TexelLayout window_layout(const CanaryImage& im, int32_t x0, int32_t y0, uint32_t layer);

// A buffer destination of w x h x `slices` texels at `offset`, rows padded by 3 texels and slices
// by 5, 64 spare bytes after, canary bytes everywhere; record_readback copies all of it.
struct CanaryBuffer {
    TexelLayout layout;
    VkDeviceSize dst_size = 0;  // from layout.offset to the end of the last texel
    size_t total = 0;           // the whole buffer
    HostBuffer buffer, readback;
};
CanaryBuffer create_canary_buffer(VulkanTestDevice& dev, size_t offset, uint32_t texel, uint32_t w, uint32_t h,
                                  uint32_t slices);
void record_readback(VkCommandBuffer cmd, const CanaryBuffer& b);
void destroy(VulkanTestDevice& dev, CanaryBuffer& b);

// A record job's destinations of each kind, with the output decoded into them.
struct BufferTarget {
    texdec_output output;
    CanaryBuffer buffer;
};
struct ImageTarget {
    texdec_output output;
    CanaryImage image;
};

// Records `job` into a new canary buffer (create_canary_buffer at `offset`, job.width x
// job.height x job.depth texels), or into the window at (x, y, layer) of a new canary image
// (create_canary_image), then the readback; REQUIREs that the record call succeeds.
BufferTarget record_to_canary_buffer(ExternalSetup& setup, VkCommandBuffer cmd, RecordJob job, size_t offset,
                                     uint32_t texel);
ImageTarget record_to_canary_image(ExternalSetup& setup, VkCommandBuffer cmd, RecordJob job, VkFormat format,
                                   uint32_t iw, uint32_t ih, uint32_t layers, uint32_t texel, int32_t x, int32_t y,
                                   uint32_t layer);

// After the readback: calls inside(x, y, texel) for every texel of the w x h window at (x0, y0)
// of `layer` ((x, y) from the window's corner, `texel` its bytes), and returns how many texels
// outside the window no longer hold their canary bytes.
template <class Inside>
size_t visit_window(const CanaryImage& im, uint32_t x0, uint32_t y0, uint32_t layer, uint32_t w, uint32_t h,
                    Inside&& inside) {
    size_t clobbered = 0;
    for (uint32_t z = 0; z < im.layers; ++z)
        for (uint32_t y = 0; y < im.ih; ++y)
            for (uint32_t x = 0; x < im.iw; ++x) {
                const size_t at = ((size_t(z) * im.ih + y) * im.iw + x) * im.texel;
                if (z == layer && x >= x0 && x < x0 + w && y >= y0 && y < y0 + h)
                    inside(x - x0, y - y0, im.readback.mapped + at);
                else clobbered += std::memcmp(im.readback.mapped + at, im.canary.mapped + at, im.texel) != 0;
            }
    return clobbered;
}

}  // namespace texdec_test
