// record_into_app: an application that owns its Vulkan instance, device, queue, command pool and
// synchronization (an emulator's texture cache, an engine) records texdec's decode of a whole mip
// chain into its own command buffer, straight into its own sampled image:
//   1. once: create the image (R8G8B8A8_SRGB, MUTABLE_FORMAT + EXTENDED_USAGE because texdec writes
//      sRGB images through a UNORM storage view) and a texdec_image_target for it;
//   2. per upload: copy the blocks into a buffer, texdec_record_regions (one region per mip, one
//      call), the app's own readback, then submit with the app's own fence.
// Vulkan is loaded through volk, as emulators do; texdec gets volk's vkGetInstanceProcAddr.
// The blocks are BC1 (sRGB) made up per mip at run time: no encoder, no file.
#include <volk.h>

#include <texdec/texdec.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#define VK_OK(call)                                                                      \
    do {                                                                                 \
        const VkResult r_ = (call);                                                      \
        if (r_ != VK_SUCCESS) return std::fprintf(stderr, "%s: VkResult %d\n", #call, r_), 1; \
    } while (0)
#define TEXDEC_OK(call)                                                                                 \
    do {                                                                                                \
        const texdec_status s_ = (call);                                                                \
        if (s_ != TEXDEC_SUCCESS) return std::fprintf(stderr, "%s: %s\n", #call, texdec_status_string(s_)), 1; \
    } while (0)

// ---- test harness: every validation-layer message is counted, and any fails the run ----------
static int g_validation_messages = 0;
static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                            const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    ++g_validation_messages;
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
    return VK_FALSE;
}
// ---- end of test harness ----------------------------------------------------------------------

static VkPhysicalDeviceMemoryProperties g_memory;
static uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want) {
    for (uint32_t i = 0; i < g_memory.memoryTypeCount; ++i)
        if ((bits >> i & 1) && (g_memory.memoryTypes[i].propertyFlags & want) == want) return i;
    return 0;
}

struct Buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint8_t* mapped;  // host-visible buffers only
};
static Buffer make_buffer(VkDevice dev, VkDeviceSize size, VkBufferUsageFlags usage, bool host) {
    Buffer b{};
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage};
    vkCreateBuffer(dev, &bci, nullptr, &b.buffer);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b.buffer, &req);
    const VkMemoryPropertyFlags props = host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                             : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, memory_type(req.memoryTypeBits, props)};
    vkAllocateMemory(dev, &mai, nullptr, &b.memory);
    vkBindBufferMemory(dev, b.buffer, b.memory, 0);
    if (host) vkMapMemory(dev, b.memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&b.mapped));
    return b;
}

int main() {
    // ---- the app's own Vulkan (an emulator has all of this already) ----
    VK_OK(volkInitialize());
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    const char* debug_ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledExtensionCount = 1, ici.ppEnabledExtensionNames = &debug_ext;  // test harness
    VkInstance instance;
    VK_OK(vkCreateInstance(&ici, nullptr, &instance));
    volkLoadInstance(instance);
    VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};  // test harness
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mci.pfnUserCallback = on_validation_message;
    VkDebugUtilsMessengerEXT messenger;
    VK_OK(vkCreateDebugUtilsMessengerEXT(instance, &mci, nullptr, &messenger));

    uint32_t count = 1;
    VkPhysicalDevice phys;  // the first device; an app chooses its own way
    if (vkEnumeratePhysicalDevices(instance, &count, &phys) < 0 || count == 0) return std::fprintf(stderr, "no Vulkan device\n"), 1;
    vkGetPhysicalDeviceMemoryProperties(phys, &g_memory);
    vkEnumerateDeviceLayerProperties(phys, &count, nullptr);  // test harness: the enabled layers (the ctest fails on "off")
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateDeviceLayerProperties(phys, &count, layers.data());
    bool layer_on = false;
    for (const auto& l : layers) layer_on |= std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    std::printf("validation layer: %s\n", layer_on ? "on" : "off");
    std::vector<VkQueueFamilyProperties> families(16);
    count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &count, families.data());
    uint32_t family = 0;  // graphics + compute: the decode runs where the frame's commands run
    while (family < count && (families[family].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) !=
                                 (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
        ++family;
    if (family == count) return std::fprintf(stderr, "no graphics + compute queue\n"), 1;
    const float priority = 1;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, family, 1, &priority};
    const char* push_descriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;  // texdec needs it
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1, dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1, dci.ppEnabledExtensionNames = &push_descriptor;
    VkDevice dev;
    VK_OK(vkCreateDevice(phys, &dci, nullptr, &dev));
    volkLoadDevice(dev);
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, family};
    VkCommandPool pool;
    VK_OK(vkCreateCommandPool(dev, &pci, nullptr, &pool));

    // ---- texdec on the app's device ----
    texdec_external_device ext = {};
    ext.get_instance_proc_addr = vkGetInstanceProcAddr, ext.instance = instance, ext.physical_device = phys;
    ext.device = dev, ext.queue_family_index = family, ext.queue = queue;  // the queue: only for the check below
    texdec_context* ctx;
    TEXDEC_OK(texdec_context_create_external(nullptr, &ext, &ctx));
    const texdec_format format = TEXDEC_FORMAT_BC1_RGB_SRGB;
    // At load time (any thread): create the pipeline and tables now, so that recording never compiles.
    texdec_variant variant = {};
    variant.format = format, variant.output = TEXDEC_OUTPUT_RGBA8, variant.destination = TEXDEC_DESTINATION_IMAGE;
    variant.image_format = VK_FORMAT_R8G8B8A8_SRGB;  // the image below
    TEXDEC_OK(texdec_prepare(ctx, 1, &variant));

    // ---- the texture: 61x37, full mip chain (61x37 ... 1x1; no level is a multiple of 4) ----
    const uint32_t width = 61, height = 37, mips = 6;
    VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    image_info.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
    image_info.imageType = VK_IMAGE_TYPE_2D, image_info.format = VK_FORMAT_R8G8B8A8_SRGB;
    image_info.extent = {width, height, 1}, image_info.mipLevels = mips, image_info.arrayLayers = 1;
    image_info.samples = VK_SAMPLE_COUNT_1_BIT, image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
    image_info.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkImage image;
    VK_OK(vkCreateImage(dev, &image_info, nullptr, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, image, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                             memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    VkDeviceMemory image_memory;
    VK_OK(vkAllocateMemory(dev, &mai, nullptr, &image_memory));
    VK_OK(vkBindImageMemory(dev, image, image_memory, 0));
    texdec_image_target_create_info ti = {};  // the image's create info, so that texdec can check it
    ti.next = nullptr;  // or the VkImageFormatListCreateInfo chained to image_info, if it had one
    ti.image = image, ti.image_type = image_info.imageType, ti.format = image_info.format, ti.flags = image_info.flags;
    ti.usage = image_info.usage, ti.tiling = image_info.tiling, ti.extent = image_info.extent;
    ti.mip_levels = mips, ti.array_layers = 1;
    texdec_image_target* target;
    TEXDEC_OK(texdec_image_target_create(ctx, &ti, &target));

    // ---- the guest's blocks: BC1, one block list per mip, packed in one upload buffer ----
    std::vector<uint8_t> blocks;
    std::vector<texdec_region> regions(mips);
    for (uint32_t m = 0; m < mips; ++m) {
        const uint32_t w = std::max(1u, width >> m), h = std::max(1u, height >> m);
        regions[m].src_offset = blocks.size();
        regions[m].mip_level = m;
        regions[m].layer_count = 1;
        regions[m].extent = {w, h, 1};
        for (uint32_t by = 0; by < (h + 3) / 4; ++by)
            for (uint32_t bx = 0; bx < (w + 3) / 4; ++bx) {  // two RGB565 colours and 16 2-bit indices
                const uint16_t c0 = uint16_t((bx * 5 + m * 7) % 32 << 11 | (by * 9) % 64 << 5 | (bx + by) % 32), c1 = uint16_t(~c0);
                const uint32_t indices = 0xE4E41B1Bu >> (2 * ((bx + by + m) % 4));
                const uint8_t block[8] = {uint8_t(c0), uint8_t(c0 >> 8), uint8_t(c1), uint8_t(c1 >> 8),
                                          uint8_t(indices), uint8_t(indices >> 8), uint8_t(indices >> 16), uint8_t(indices >> 24)};
                blocks.insert(blocks.end(), block, block + 8);
            }
    }
    Buffer upload = make_buffer(dev, blocks.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    std::memcpy(upload.mapped, blocks.data(), blocks.size());
    Buffer source = make_buffer(dev, blocks.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    std::vector<VkBufferImageCopy> readback_copies(mips);
    VkDeviceSize readback_size = 0;
    for (uint32_t m = 0; m < mips; ++m) {
        readback_copies[m] = {readback_size, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1}, {0, 0, 0}, regions[m].extent};
        readback_size += VkDeviceSize(regions[m].extent.width) * regions[m].extent.height * 4;
    }
    Buffer readback = make_buffer(dev, readback_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);

    // ---- record: upload copy, the decode of all mips in one call, the app's readback ----
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    VK_OK(vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_OK(vkBeginCommandBuffer(cmd, &begin));
    const VkBufferCopy copy{0, 0, blocks.size()};
    vkCmdCopyBuffer(cmd, upload.buffer, source.buffer, 1, &copy);
    texdec_record_barriers barriers = {};
    barriers.src_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;  // after our upload copy
    barriers.src_access_mask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barriers.old_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // every texel is rewritten
    barriers.dst_stage_mask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;  // before the frame samples it
    barriers.dst_access_mask = VK_ACCESS_SHADER_READ_BIT;
    barriers.new_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    texdec_regions_job job = {};
    job.format = format, job.output = TEXDEC_OUTPUT_RGBA8;
    job.src_buffer = source.buffer, job.src_size = blocks.size();
    job.dst_image = target;
    job.region_count = mips, job.regions = regions.data();
    job.barriers = &barriers;
    // Never compile here: an app would draw a fallback this frame on TEXDEC_ERROR_NOT_READY (the
    // variant is prepared above, so this sample treats it as an error).
    job.flags = TEXDEC_RECORD_FAIL_IF_NOT_READY;
    TEXDEC_OK(texdec_record_regions(ctx, cmd, &job));
    // (Here a renderer would bind its own compute pipeline again and draw with the texture.)
    // This sample reads the texture back instead: from SHADER_READ_ONLY (after texdec's barrier) to TRANSFER_SRC.
    VkImageMemoryBarrier to_copy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, 0, VK_ACCESS_TRANSFER_READ_BIT,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                 VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, mips, 0, 1}};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &to_copy);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, mips, readback_copies.data());
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
    VK_OK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK_OK(vkCreateFence(dev, &fci, nullptr, &fence));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1, submit.pCommandBuffers = &cmd;
    VK_OK(vkQueueSubmit(queue, 1, &submit, fence));
    VK_OK(vkWaitForFences(dev, 1, &fence, VK_TRUE, 10'000'000'000ull));

    // ---- the check that makes this sample a test of the record path: every mip read back from the
    // image equals what the one-call path (texdec_decode, proven against the oracles by the tests)
    // gives for the same blocks ----
    int bad_mips = 0;
    for (uint32_t m = 0; m < mips; ++m) {
        const VkExtent3D e = regions[m].extent;
        std::vector<uint8_t> expected(size_t(e.width) * e.height * 4);
        texdec_host_job one_call = {};
        one_call.format = format, one_call.output = TEXDEC_OUTPUT_RGBA8;
        one_call.width = e.width, one_call.height = e.height, one_call.depth = 1;
        one_call.src = blocks.data() + regions[m].src_offset, one_call.src_size = blocks.size() - regions[m].src_offset;
        one_call.dst = expected.data(), one_call.dst_size = expected.size();
        TEXDEC_OK(texdec_decode(ctx, &one_call));
        const bool same = std::memcmp(readback.mapped + readback_copies[m].bufferOffset, expected.data(), expected.size()) == 0;
        std::printf("mip %u (%ux%u): %s\n", m, e.width, e.height, same ? "equal to texdec_decode" : "DIFFERS from texdec_decode");
        bad_mips += !same;
    }

    vkDestroyFence(dev, fence, nullptr);
    texdec_image_target_destroy(ctx, target);  // before the image; the GPU work is done
    texdec_context_destroy(ctx);
    for (Buffer* b : {&upload, &source, &readback}) vkDestroyBuffer(dev, b->buffer, nullptr), vkFreeMemory(dev, b->memory, nullptr);
    vkDestroyImage(dev, image, nullptr);
    vkFreeMemory(dev, image_memory, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyDevice(dev, nullptr);
    vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    std::printf("%d validation messages\n", g_validation_messages);  // test harness
    return bad_mips || g_validation_messages ? 1 : 0;
}
