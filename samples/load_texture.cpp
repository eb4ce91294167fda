// load_texture: an engine's texture loader. It opens any file texdec reads (.ktx2, .ktx, .dds, .pkm,
// .astc), asks texdec which way the file's format gets into a VkImage this device samples, and
// does it:
//   NATIVE         the device samples the format: the blocks go into a compressed image
//                  (texdec_file_read_blocks + vkCmdCopyBufferToImage, texdec_file_buffer_copies);
//   DECODE_RECORD  it does not, and texdec decodes on this GPU: the blocks go into a storage
//                  buffer and texdec records the decode of every level, layer and face into the
//                  image the plan describes (texdec_file_record);
//   DECODE_HOST    it does not, and the decode runs on the CPU (texdec_file_decode on a CPU
//                  context), then the texels are copied into the image.
// Every image leaves in SHADER_READ_ONLY_OPTIMAL, ready to sample.
//
// Usage: load_texture [--force-decode] [--host] [--print] FILE
//        load_texture --plan-table
//   --plan-table    print the plan of every format on this device (what a loader would do) and exit
//   --force-decode  never upload natively (TEXDEC_PLAN_FORCE_DECODE)
//   --host          decode on the CPU backend (a CPU context for the plan and the decode)
//   --print         print a few texels (or blocks) of each level as read back from the image
// Then it checks itself: it reads the whole image back and compares it, byte for byte, with the
// CPU backend's decode of the same file (decodes) or with the file's blocks (native uploads; then
// level 0 is also blitted to floats, the device's own texels, and compared with the CPU backend's
// within the sampler's rounding). The exit status is 0 only if they agree and the validation layer
// (when on) said nothing.
// Vulkan is loaded through volk; texdec gets volk's vkGetInstanceProcAddr.
#include <volk.h>

#include <texdec/texdec_file.hpp>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define VK_OK(call)                                                                           \
    do {                                                                                      \
        const VkResult r_ = (call);                                                           \
        if (r_ != VK_SUCCESS) return std::fprintf(stderr, "%s: VkResult %d\n", #call, r_), 1; \
    } while (0)
#define TEXDEC_OK(call)                                                                                     \
    do {                                                                                                    \
        const texdec_status s_ = (call);                                                                    \
        if (s_ != TEXDEC_SUCCESS) return std::fprintf(stderr, "%s: %s\n", #call, texdec::to_string(s_)), 1; \
    } while (0)

// ---- test harness: every validation-layer message is counted, and any fails the run ----------
static int g_validation_messages = 0;
static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                            VkDebugUtilsMessageTypeFlagsEXT,
                                                            const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    ++g_validation_messages;
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
    return VK_FALSE;
}
// ---- end of test harness ----------------------------------------------------------------------

// texdec's messages: the sentence behind a failure (which field of the file, which member of a
// job), warnings; its INFO notes (the device chosen, trailing bytes) are left out.
static void on_texdec_message(texdec_message_severity severity, const char* message, void*) {
    static const char* const names[] = {"info", "warning", "error", "validation"};
    if (severity == TEXDEC_MESSAGE_INFO) return;
    std::fprintf(stderr, "texdec %s: %s\n", unsigned(severity) < 4 ? names[severity] : "?", message);
}

static VkPhysicalDeviceMemoryProperties g_memory;
static uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want) {
    for (uint32_t i = 0; i < g_memory.memoryTypeCount; ++i)
        if ((bits >> i & 1) && (g_memory.memoryTypes[i].propertyFlags & want) == want) return i;
    return 0;
}

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* mapped = nullptr;
};
// A host-visible buffer (an engine would take this from its staging allocator).
static VkResult make_buffer(VkDevice dev, VkDeviceSize size, VkBufferUsageFlags usage, Buffer& b) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage};
    VkResult r = vkCreateBuffer(dev, &bci, nullptr, &b.buffer);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b.buffer, &req);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                             memory_type(req.memoryTypeBits, host)};
    if ((r = vkAllocateMemory(dev, &mai, nullptr, &b.memory)) != VK_SUCCESS) return r;
    if ((r = vkBindBufferMemory(dev, b.buffer, b.memory, 0)) != VK_SUCCESS) return r;
    return vkMapMemory(dev, b.memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&b.mapped));
}
static void destroy_buffer(VkDevice dev, Buffer& b) {
    vkDestroyBuffer(dev, b.buffer, nullptr);
    vkFreeMemory(dev, b.memory, nullptr);
}

// An IEEE 754 binary16 value (the RGBA16F output) as a double.
static double half_to_double(uint16_t h) {
    const int exponent = h >> 10 & 31, mantissa = h & 1023;
    const double sign = h & 0x8000 ? -1 : 1;
    if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

static const char* action_name(texdec_upload_action action) {
    switch (action) {
    case TEXDEC_UPLOAD_NATIVE: return "native";
    case TEXDEC_UPLOAD_DECODE_RECORD: return "decode-record";
    case TEXDEC_UPLOAD_DECODE_HOST: return "decode-host";
    default: return "?";
    }
}

// --plan-table: texdec_plan_upload of every format with this device's enabled features.
static int print_plan_table(texdec_upload_plan_info plan_info) {
    std::printf("%-22s %-14s %-8s %-12s %-10s %s\n", "format", "action", "reasons", "output", "vk format",
                "storage view");
    for (int f = 0; f < TEXDEC_FORMAT_COUNT; ++f) {
        texdec_format_info format{};
        if (texdec_format_get_info(texdec_format(f), &format) != TEXDEC_SUCCESS) continue;
        plan_info.format = texdec_format(f);
        texdec_upload_plan plan{};
        const texdec_status status = texdec_plan_upload(&plan_info, &plan);
        if (status != TEXDEC_SUCCESS) {
            std::printf("%-22s %s\n", format.name, texdec_status_string(status));
            continue;
        }
        std::printf("%-22s %-14s 0x%-6x %-12s %-10d %d\n", format.name, action_name(plan.action), plan.reasons,
                    plan.action == TEXDEC_UPLOAD_NATIVE ? "-" : texdec_output_name(plan.output), int(plan.image_format),
                    int(plan.storage_format));
    }
    return 0;
}

int main(int argc, char** argv) {
    bool force_decode = false, host = false, print = false, plan_table = false;
    const char* path = nullptr;
    const char* expect = nullptr;  // test harness: --expect native|decode-record|decode-host
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--force-decode") force_decode = true;
        else if (arg == "--host") host = true;
        else if (arg == "--print") print = true;
        else if (arg == "--plan-table") plan_table = true;
        else if (arg == "--expect" && i + 1 < argc) expect = argv[++i];
        else if (!path && arg[0] != '-') path = argv[i];
        else return std::fprintf(stderr, "usage: load_texture [--force-decode] [--host] [--print] FILE\n"), 2;
    }
    if (!path && !plan_table)
        return std::fprintf(stderr, "usage: load_texture [--force-decode] [--host] [--print] FILE | --plan-table\n"), 2;

    // ---- the file: opened and parsed, nothing decoded yet ----
    texdec_file_open_info open_info{};
    open_info.message_callback = on_texdec_message;  // the reason behind a refusal names the field
    texdec::File file;
    texdec_file_info info{};
    texdec_format_info format{};
    if (path) {
        TEXDEC_OK(texdec::File::open_path(path, file, &open_info));
        TEXDEC_OK(file.info(info));
        TEXDEC_OK(texdec::format_get_info(info.format, format));
    }
    if (path)
        std::printf("%s: %s, %ux%ux%u, %u level(s), %u layer(s), %u face(s)\n", path, format.name, info.width,
                    info.height, info.depth, info.levels, info.layers, info.faces);

    // ---- the engine's own Vulkan (an engine has all of this already) ----
    VK_OK(volkInitialize());
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;  // VkImageFormatListCreateInfo (the plan's view formats) is 1.2 core
    const char* debug_ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledExtensionCount = 1, ici.ppEnabledExtensionNames = &debug_ext;  // test harness
    VkInstance instance;
    VK_OK(vkCreateInstance(&ici, nullptr, &instance));
    volkLoadInstance(instance);
    VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};  // test harness
    mci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mci.pfnUserCallback = on_validation_message;
    VkDebugUtilsMessengerEXT messenger;
    VK_OK(vkCreateDebugUtilsMessengerEXT(instance, &mci, nullptr, &messenger));

    uint32_t count = 1;
    VkPhysicalDevice phys;  // the first device; an engine chooses its own way
    if (vkEnumeratePhysicalDevices(instance, &count, &phys) < 0 || count == 0)
        return std::fprintf(stderr, "no Vulkan device\n"), 1;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(phys, &props);
    if (props.apiVersion < VK_API_VERSION_1_2)
        return std::fprintf(stderr, "%s: Vulkan 1.2 needed\n", props.deviceName), 1;
    vkGetPhysicalDeviceMemoryProperties(phys, &g_memory);
    vkEnumerateDeviceLayerProperties(phys, &count, nullptr);  // test harness: the ctest fails on "off"
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateDeviceLayerProperties(phys, &count, layers.data());
    bool layer_on = false;
    for (const auto& l : layers) layer_on |= std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    std::printf("device: %s; validation layer: %s\n", props.deviceName, layer_on ? "on" : "off");
    std::vector<VkQueueFamilyProperties> families(16);
    count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &count, families.data());
    uint32_t family = 0;  // graphics + compute: the frame's queue
    const VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    while (family < count && (families[family].queueFlags & want) != want) ++family;
    if (family == count) return std::fprintf(stderr, "no graphics + compute queue\n"), 1;
    // The engine enables the texture compression its device has; the plan must be told which.
    VkPhysicalDeviceFeatures supported, enabled{};
    vkGetPhysicalDeviceFeatures(phys, &supported);
    enabled.textureCompressionBC = supported.textureCompressionBC;
    enabled.textureCompressionETC2 = supported.textureCompressionETC2;
    enabled.textureCompressionASTC_LDR = supported.textureCompressionASTC_LDR;
    const float priority = 1;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, family, 1, &priority};
    const char* push_descriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;  // texdec records with it
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1, dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1, dci.ppEnabledExtensionNames = &push_descriptor;
    dci.pEnabledFeatures = &enabled;
    VkDevice dev;
    VK_OK(vkCreateDevice(phys, &dci, nullptr, &dev));
    volkLoadDevice(dev);
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);

    // ---- texdec: a context on the engine's device (or the CPU backend), and the plan ----
    texdec_context_create_info context_info{};
    context_info.message_callback = on_texdec_message;
    texdec::Context gpu, cpu;  // cpu: --host's decoder, and this sample's check
    TEXDEC_OK(texdec::Context::create(TEXDEC_BACKEND_CPU, 0, cpu, context_info));
    if (!host) {
        texdec_external_device ext{};
        ext.get_instance_proc_addr = vkGetInstanceProcAddr, ext.instance = instance, ext.physical_device = phys;
        ext.device = dev, ext.queue_family_index = family;  // no queue: this context only records
        TEXDEC_OK(texdec::Context::create_external(context_info, ext, gpu));
    }
    texdec_upload_plan_info plan_info{};
    plan_info.flags = force_decode ? uint32_t(TEXDEC_PLAN_FORCE_DECODE) : 0u;
    plan_info.context = host ? cpu.get() : gpu.get();
    plan_info.physical_device = phys;  // the device that samples, and what the engine enabled on it
    plan_info.get_format_properties = vkGetPhysicalDeviceFormatProperties;
    plan_info.get_image_format_properties = vkGetPhysicalDeviceImageFormatProperties;
    plan_info.enabled_features = &enabled;
    plan_info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;  // TRANSFER_SRC: the check
    if (plan_table) return print_plan_table(plan_info);
    texdec_upload_plan plan{};
    TEXDEC_OK(file.plan_upload(plan_info, plan));
    std::printf("plan: %s, image format %d, reasons 0x%x%s%s\n", action_name(plan.action), int(plan.image_format),
                plan.reasons, plan.action == TEXDEC_UPLOAD_NATIVE ? "" : ", output ",
                plan.action == TEXDEC_UPLOAD_NATIVE ? "" : texdec_output_name(plan.output));

    // ---- the image, as the plan says (flags, usage, format list) ----
    VkImageFormatListCreateInfo format_list;
    const VkImageCreateInfo image_info = texdec::image_create_info(plan, info, format_list);
    VkImage image;
    VK_OK(vkCreateImage(dev, &image_info, nullptr, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, image, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                             memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    VkDeviceMemory image_memory;
    VK_OK(vkAllocateMemory(dev, &mai, nullptr, &image_memory));
    VK_OK(vkBindImageMemory(dev, image, image_memory, 0));
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, image_info.mipLevels, 0, image_info.arrayLayers};

    // What goes into the image, and in which layout: blocks (NATIVE, DECODE_RECORD) or texels.
    const bool native = plan.action == TEXDEC_UPLOAD_NATIVE;
    const texdec_file_data data = native ? TEXDEC_FILE_DATA_BLOCKS : TEXDEC_FILE_DATA_TEXELS;
    const texdec_output output = native ? TEXDEC_OUTPUT_NATIVE : plan.output;  // read for TEXELS only
    uint32_t copy_count = 0;
    TEXDEC_OK(file.buffer_copies(data, output, copy_count, nullptr));
    std::vector<VkBufferImageCopy> copies(copy_count);
    TEXDEC_OK(file.buffer_copies(data, output, copy_count, copies.data()));
    uint64_t texel_bytes = 0;
    if (!native) TEXDEC_OK(file.decoded_size(plan.output, texel_bytes));
    const uint64_t image_bytes = native ? info.blocks_size : texel_bytes;  // the readback's size too

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, family};
    VkCommandPool pool;
    VK_OK(vkCreateCommandPool(dev, &pci, nullptr, &pool));
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                    VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    VK_OK(vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_OK(vkBeginCommandBuffer(cmd, &begin));

    Buffer upload;
    texdec::ImageTarget target;
    if (plan.action == TEXDEC_UPLOAD_DECODE_RECORD) {
        // The blocks in a storage buffer; texdec records the decode of every level, layer and face.
        VK_OK(make_buffer(dev, info.blocks_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, upload));
        TEXDEC_OK(file.read_blocks({upload.mapped, size_t(info.blocks_size)}));
        TEXDEC_OK(texdec::ImageTarget::create(gpu, texdec::image_target_info(image, image_info, format_list), target));
        texdec_record_barriers barriers{};
        barriers.old_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // every texel is written
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
        barriers.dst_access_mask = VK_ACCESS_SHADER_READ_BIT;
        barriers.new_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        texdec_file_record_job job{};
        job.output = plan.output;
        job.src_buffer = upload.buffer, job.src_size = info.blocks_size;
        job.dst_image = target.get();
        job.barriers = &barriers;
        TEXDEC_OK(file.record(gpu, cmd, job));
    } else {
        // NATIVE: the blocks; DECODE_HOST: the texels of the CPU backend's decode. Either way one
        // vkCmdCopyBufferToImage of one copy per level.
        VK_OK(make_buffer(dev, image_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, upload));
        if (native) TEXDEC_OK(file.read_blocks({upload.mapped, size_t(image_bytes)}));
        else TEXDEC_OK(file.decode(cpu, plan.output, {upload.mapped, size_t(image_bytes)}));
        VkImageMemoryBarrier to_dst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                    nullptr,
                                    0,
                                    VK_ACCESS_TRANSFER_WRITE_BIT,
                                    VK_IMAGE_LAYOUT_UNDEFINED,
                                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                    VK_QUEUE_FAMILY_IGNORED,
                                    VK_QUEUE_FAMILY_IGNORED,
                                    image,
                                    all};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &to_dst);
        vkCmdCopyBufferToImage(cmd, upload.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, copy_count,
                               copies.data());
        VkImageMemoryBarrier to_read{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                     nullptr,
                                     VK_ACCESS_TRANSFER_WRITE_BIT,
                                     VK_ACCESS_SHADER_READ_BIT,
                                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                     VK_QUEUE_FAMILY_IGNORED,
                                     VK_QUEUE_FAMILY_IGNORED,
                                     image,
                                     all};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &to_read);
    }
    // (Here the engine draws with the texture.) This sample reads the whole image back instead, in the
    // layout it was uploaded from (texdec_file_buffer_copies again).
    Buffer readback;
    VK_OK(make_buffer(dev, image_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback));
    VkImageMemoryBarrier to_src{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                nullptr,
                                VK_ACCESS_SHADER_READ_BIT,
                                VK_ACCESS_TRANSFER_READ_BIT,
                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                VK_QUEUE_FAMILY_IGNORED,
                                VK_QUEUE_FAMILY_IGNORED,
                                image,
                                all};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &to_src);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, copy_count,
                           copies.data());
    // NATIVE: the blocks read back say nothing about how the device samples them, so level 0 (every
    // layer) is also blitted into an R32G32B32A32_SFLOAT image and read back: the device's texels.
    VkFormatProperties block_features, float_features;
    vkGetPhysicalDeviceFormatProperties(phys, plan.image_format, &block_features);
    vkGetPhysicalDeviceFormatProperties(phys, VK_FORMAT_R32G32B32A32_SFLOAT, &float_features);
    const bool blit = native && plan.image_type == VK_IMAGE_TYPE_2D &&
                      (block_features.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT) &&
                      (float_features.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT);
    const uint64_t float_bytes = uint64_t(info.width) * info.height * image_info.arrayLayers * 16;
    VkImage float_image = VK_NULL_HANDLE;
    VkDeviceMemory float_memory = VK_NULL_HANDLE;
    Buffer float_readback;
    if (blit) {
        VkImageCreateInfo fi = image_info;
        fi.pNext = nullptr, fi.flags = 0, fi.format = VK_FORMAT_R32G32B32A32_SFLOAT, fi.mipLevels = 1;
        fi.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
        VK_OK(vkCreateImage(dev, &fi, nullptr, &float_image));
        vkGetImageMemoryRequirements(dev, float_image, &req);
        VkMemoryAllocateInfo fmai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                                  memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
        VK_OK(vkAllocateMemory(dev, &fmai, nullptr, &float_memory));
        VK_OK(vkBindImageMemory(dev, float_image, float_memory, 0));
        VK_OK(make_buffer(dev, float_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, float_readback));
        const VkImageSubresourceRange level0{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, fi.arrayLayers};
        VkImageMemoryBarrier to_dst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                    nullptr,
                                    0,
                                    VK_ACCESS_TRANSFER_WRITE_BIT,
                                    VK_IMAGE_LAYOUT_UNDEFINED,
                                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                    VK_QUEUE_FAMILY_IGNORED,
                                    VK_QUEUE_FAMILY_IGNORED,
                                    float_image,
                                    level0};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &to_dst);
        const VkImageSubresourceLayers layers0{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, fi.arrayLayers};
        const VkOffset3D corner{int32_t(info.width), int32_t(info.height), 1};
        const VkImageBlit region{layers0, {{0, 0, 0}, corner}, layers0, {{0, 0, 0}, corner}};
        vkCmdBlitImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, float_image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_NEAREST);
        VkImageMemoryBarrier to_copy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                     nullptr,
                                     VK_ACCESS_TRANSFER_WRITE_BIT,
                                     VK_ACCESS_TRANSFER_READ_BIT,
                                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                     VK_QUEUE_FAMILY_IGNORED,
                                     VK_QUEUE_FAMILY_IGNORED,
                                     float_image,
                                     level0};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &to_copy);
        const VkBufferImageCopy whole{0, 0, 0, layers0, {0, 0, 0}, {info.width, info.height, 1}};
        vkCmdCopyImageToBuffer(cmd, float_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, float_readback.buffer, 1,
                               &whole);
    }
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0,
                         nullptr);
    VK_OK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK_OK(vkCreateFence(dev, &fci, nullptr, &fence));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1, submit.pCommandBuffers = &cmd;
    VK_OK(vkQueueSubmit(queue, 1, &submit, fence));
    VK_OK(vkWaitForFences(dev, 1, &fence, VK_TRUE, 60'000'000'000ull));

    // ---- the check: the image holds the file's blocks (NATIVE), or, level by level, exactly the
    // texels of the CPU backend's decode of the same file (proven against the oracles by the tests) ----
    std::vector<uint8_t> expected(size_t(image_bytes), 0);
    if (native) TEXDEC_OK(file.read_blocks(expected));
    else TEXDEC_OK(file.decode(cpu, plan.output, expected));
    uint32_t unit = format.bytes_per_block;  // what --print shows: a block, or a texel
    if (!native) TEXDEC_OK(texdec::output_texel_size(info.format, plan.output, unit));
    int bad_levels = 0;
    for (uint32_t level = 0; level < info.levels; ++level) {
        texdec_file_level_layout layout{};
        TEXDEC_OK(file.layout(data, output, level, layout));
        const uint8_t* got = readback.mapped + layout.offset;
        const bool same = std::memcmp(got, expected.data() + layout.offset, size_t(layout.size)) == 0;
        bad_levels += !same;
        std::printf("level %u: %" PRIu64 " bytes %s\n", level, layout.size,
                    same ? (native ? "equal to the file's blocks" : "equal to the CPU backend's decode")
                         : (native ? "DIFFER from the file's blocks" : "DIFFER from the CPU backend's decode"));
        if (!print) continue;
        const uint64_t units = layout.size / unit, picks[] = {0, units / 2, units - 1};
        for (uint64_t pick : picks) {
            std::printf("  %s %" PRIu64 ":", native ? "block" : "texel", pick);
            for (uint32_t b = 0; b < unit; ++b) std::printf(" %02x", got[pick * unit + b]);
            std::printf("\n");
        }
    }

    // NATIVE: the device's texels of level 0 against the CPU backend's RGBA16F decode, in 8-bit
    // codes (127ths for SNORM). BC6H and BC7 have one exact result and lavapipe returns it (tolerance
    // 0 for BC6H; half a code for BC7, the FP16 rounding of v/255); the BC1-BC5 spec leaves rounding
    // open and lavapipe's is up to 2 codes from the exact value (docs/EXACTNESS.md). Other devices
    // round as they like: there the difference is printed, not judged.
    int bad_texels = 0;
    if (native && !blit) std::printf("level 0 texels: not checked (the device cannot blit this image)\n");
    if (blit) {
        texdec_file_decode_job level0{};
        level0.output = TEXDEC_OUTPUT_RGBA16F;
        level0.level_count = 1;
        uint64_t half_bytes = 0;
        TEXDEC_OK(file.decoded_size(TEXDEC_OUTPUT_RGBA16F, half_bytes, 0, 1));
        std::vector<uint16_t> halves(size_t(half_bytes / 2));
        level0.dst = halves.data(), level0.dst_size = size_t(half_bytes);
        TEXDEC_OK(file.decode(cpu, level0));
        const bool srgb = format.flags & TEXDEC_FORMAT_FLAG_SRGB;
        const double scale = format.flags & TEXDEC_FORMAT_FLAG_SIGNED ? 127 : 255;
        const double bound = format.family == TEXDEC_FAMILY_BC6H ? 0 : format.family == TEXDEC_FAMILY_BC7 ? 0.5 : 2;
        double worst = 0;
        for (size_t i = 0; i < halves.size(); ++i) {
            float sampled;
            std::memcpy(&sampled, float_readback.mapped + 4 * i, 4);
            double got = sampled;
            if (srgb && i % 4 != 3)  // the blit decoded sRGB to linear: encode it again (sRGB OETF)
                got = got <= 0.0031308 ? got * 12.92 : 1.055 * std::pow(got, 1 / 2.4) - 0.055;
            const double diff = std::fabs(got - half_to_double(halves[i]));
            worst = std::max(worst, format.family == TEXDEC_FAMILY_BC6H ? diff : diff * scale);
            if (print && i < 8)
                std::printf("  level 0 channel %zu: device %.6f, CPU backend %.6f\n", i, got,
                            half_to_double(halves[i]));
        }
        const bool judged = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;  // lavapipe
        bad_texels = judged && worst > bound + 1e-3;
        std::printf("level 0 texels as the device samples them: at most %.3f %s from the CPU backend's (%s %.1f)\n",
                    worst, format.family == TEXDEC_FAMILY_BC6H ? "apart" : "codes",
                    judged ? "bound" : "not judged on this device; lavapipe's bound", bound);
        destroy_buffer(dev, float_readback);
        vkDestroyImage(dev, float_image, nullptr);
        vkFreeMemory(dev, float_memory, nullptr);
    }

    vkDestroyFence(dev, fence, nullptr);
    target = texdec::ImageTarget();  // before the image and the context; the GPU work is done
    gpu = texdec::Context();
    destroy_buffer(dev, upload);
    destroy_buffer(dev, readback);
    vkDestroyImage(dev, image, nullptr);
    vkFreeMemory(dev, image_memory, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyDevice(dev, nullptr);
    vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    std::printf("%d validation messages\n", g_validation_messages);  // test harness
    if (expect && std::strcmp(expect, action_name(plan.action)) != 0)
        return std::fprintf(stderr, "the plan is %s, the test expects %s\n", action_name(plan.action), expect), 1;
    return bad_levels || bad_texels || g_validation_messages ? 1 : 0;
}
