// With VK_EXT_debug_utils on the instance, texdec's work is labelled
// and its objects named, so a validation message about it says so; without the extension
// nothing changes but the labels and names.
//
//   debug utils: a validation message inside a texdec dispatch carries texdec's label and names
//       an external context on an instance with debug utils; a test messenger of its own; an
//       image target whose mip level the test left in TRANSFER_DST_OPTIMAL, recorded without
//       barriers, so that the validation layer reports the layout inside texdec's dispatch: the
//       callback data's pCmdBufLabels holds "texdec astc-6x6-srgb -> rgba8 image, 1 region",
//       pObjects a name texdec gave ("texdec image target mip 0 ..."), and the layer's text the
//       pipeline's ("texdec astc-6x6 srgb -> rgba8 image");
//   debug utils: absent on the instance, nothing breaks       the loader returns NULL for the
//       extension's commands when the instance did not enable it (what texdec relies on; the
//       test asserts it); record into an image and a buffer, and texdec_decode, equal each other
//       with the layer silent (its messages come through VK_EXT_debug_report).
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/job_builder.h"
#include "support/record_compare.h"

using namespace texdec_test;

namespace {

// What a debug-utils messenger callback was given, message by message.
struct Captured {
    std::string message;
    std::vector<std::string> labels;        // pCmdBufLabels
    std::vector<std::string> object_names;  // pObjects[i].pObjectName, where set
};

class CapturingMessenger {
public:
    explicit CapturingMessenger(VkInstance instance) : instance_(instance) {
        VkDebugUtilsMessengerCreateInfoEXT ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        ci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        ci.pfnUserCallback = &CapturingMessenger::callback;
        ci.pUserData = this;
        REQUIRE(vkCreateDebugUtilsMessengerEXT(instance, &ci, nullptr, &messenger_) == VK_SUCCESS);
    }
    ~CapturingMessenger() { vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr); }
    std::vector<Captured> take() {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::move(captured_);
    }

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL callback(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
        auto* self = static_cast<CapturingMessenger*>(user);
        Captured c;
        c.message = data->pMessage ? data->pMessage : "";
        for (uint32_t i = 0; i < data->cmdBufLabelCount; ++i)
            c.labels.push_back(data->pCmdBufLabels[i].pLabelName ? data->pCmdBufLabels[i].pLabelName : "");
        for (uint32_t i = 0; i < data->objectCount; ++i)
            if (data->pObjects[i].pObjectName) c.object_names.push_back(data->pObjects[i].pObjectName);
        std::lock_guard<std::mutex> lock(self->mutex_);
        self->captured_.push_back(std::move(c));
        return VK_FALSE;
    }
    VkInstance instance_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    std::mutex mutex_;
    std::vector<Captured> captured_;
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("debug utils: a validation message inside a texdec dispatch carries texdec's label and names",
          "[debug-utils][gpu]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    auto messenger = std::make_unique<CapturingMessenger>(dev.instance());

    const uint32_t w = 16, h = 16;
    const VkImageCreateInfo ici = storage_image_info(VK_FORMAT_R8G8B8A8_SRGB, w, h);
    TestImage image = dev.create_image(ici);
    const texdec_image_target_create_info ti = target_create_info(ici, image.image);
    texdec_image_target* target = nullptr;
    REQUIRE(texdec_image_target_create(setup.ctx, &ti, &target) == TEXDEC_SUCCESS);
    const auto blocks = random_blocks_for(TEXDEC_FORMAT_ASTC_6x6_SRGB, w, h, 4);
    HostBuffer src = dev.create_buffer(blocks.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(src.mapped, blocks.data(), blocks.size());

    VkCommandBuffer cmd = dev.begin_commands();
    // The mistake: the level is left in TRANSFER_DST_OPTIMAL, and the record call gets no
    // barriers, so texdec's storage descriptor (GENERAL) disagrees with the image's layout.
    VkImageMemoryBarrier to_transfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    to_transfer.srcQueueFamilyIndex = to_transfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_transfer.image = image.image;
    to_transfer.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    to_transfer.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    to_transfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                         &to_transfer);
    texdec_region region{};
    region.extent = {w, h, 1};
    const texdec_regions_job job =
        RegionsJobBuilder(TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, src.buffer, blocks.size(), &region)
            .into_image(target);
    REQUIRE(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
    dev.submit_and_wait(cmd);

    const std::vector<Captured> captured = messenger->take();
    REQUIRE_FALSE(captured.empty());  // the layer saw the mistake
    const std::string label = "texdec astc-6x6-srgb -> rgba8 image, 1 region";
    bool labelled = false, named = false, pipeline_named = false;
    std::string seen;
    for (const Captured& c : captured) {
        seen += "\n- " + c.message + "\n  labels:";
        for (const auto& l : c.labels) seen += " [" + l + "]";
        seen += "\n  names:";
        for (const auto& n : c.object_names) seen += " [" + n + "]";
        for (const auto& l : c.labels) labelled |= l == label;
        for (const auto& n : c.object_names) named |= starts_with(n, "texdec ");
        // The layer writes the names of the objects a message mentions into its text too.
        pipeline_named |= c.message.find("[texdec astc-6x6 srgb -> rgba8 image]") != std::string::npos;
    }
    INFO("messages the test messenger got:" << seen);
    CHECK(labelled);
    CHECK(named);
    CHECK(pipeline_named);
    // The fixture's own messenger got them too; they were the point of this test.
    CHECK_FALSE(dev.log().take_validation().empty());

    texdec_image_target_destroy(setup.ctx, target);
    dev.destroy(src);
    dev.destroy(image);
    messenger.reset();  // before its instance goes
    setup.close();
}

TEST_CASE("debug utils: absent on the instance, nothing breaks", "[debug-utils][gpu]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.debug_utils = false;
    TEXDEC_OPEN_OR_RETURN(setup, dev, options);
    // What texdec relies on to know (texdec.h, "Debugging"): the loader gives no VK_EXT_debug_utils
    // command for an instance that did not enable the extension.
    for (const char* name : {"vkCmdBeginDebugUtilsLabelEXT", "vkCmdEndDebugUtilsLabelEXT", "vkSetDebugUtilsObjectNameEXT"}) {
        INFO(name);
        CHECK(vkGetInstanceProcAddr(dev.instance(), name) == nullptr);
    }
    const uint32_t w = 20, h = 14;
    for (texdec_format f : {TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_FORMAT_BC7_UNORM}) {
        INFO("format " << f);
        const auto blocks = random_blocks_for(f, w, h, 5);
        const auto decoded = decode_on_host(setup.ctx, f, TEXDEC_OUTPUT_RGBA8, blocks, w, h);
        CHECK(record_into_image(setup, f, TEXDEC_OUTPUT_RGBA8, blocks, w, h) == decoded);
        CHECK(record_into_buffer(setup, f, TEXDEC_OUTPUT_RGBA8, blocks, w, h) == decoded);
    }
    setup.close();
}
