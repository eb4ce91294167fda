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
