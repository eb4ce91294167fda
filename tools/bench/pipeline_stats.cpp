// texdec-pipeline-stats: what the driver says about compiled compute shaders
// (VK_KHR_pipeline_executable_properties): registers, shared memory, spills ... per executable.
//
//   texdec-pipeline-stats FILE.spv [WxH[xD]] [ldr|hdr|srgb] [rgba8|rgba16f] ...
//
// Creates the compute pipeline of FILE.spv (an ASTC shader compiled like the library's:
// glslangValidator -V --target-env vulkan1.1 -DTEXDEC_GLSL -Ishaders shaders/astc.comp) with the
// library's specialization constants for the footprint, operation mode and store, and the
// library's descriptor bindings and push-constant range, with
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, and prints every statistic of every executable.
// Several footprint/mode/store groups may follow one file. A development tool for docs/PERFORMANCE.md
// ("What limits each family"): it runs no shader.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "interface.h"
#include "vk_app.h"  // tools/vk_app: the queue family

namespace {

bool check(VkResult r, const char* what) {
    if (r == VK_SUCCESS) return true;
    std::fprintf(stderr, "texdec-pipeline-stats: %s failed (VkResult %d)\n", what, int(r));
    return false;
}

struct Key {
    uint32_t w = 4, h = 4, d = 1, variant = TEXDEC_ASTC_LDR, srgb = 0, store = TEXDEC_STORE_RGBA8;
};

std::string describe(const Key& k) {
    char s[64];
    std::snprintf(s, sizeof s, "%ux%ux%u %s %s", k.w, k.h, k.d,
                  k.variant == TEXDEC_ASTC_HDR ? "hdr"
                  : k.srgb                     ? "srgb"
                                               : "ldr",
                  k.store == TEXDEC_STORE_RGBA16F ? "rgba16f" : "rgba8");
    return s;
}

void print_statistic(const VkPipelineExecutableStatisticKHR& s) {
    std::printf("    %-40s ", s.name);
    switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: std::printf("%s", s.value.b32 ? "true" : "false"); break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: std::printf("%lld", (long long)s.value.i64); break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        std::printf("%llu", (unsigned long long)s.value.u64);
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: std::printf("%g", s.value.f64); break;
    default: std::printf("?"); break;
    }
    std::printf("   (%s)\n", s.description);
}

// Creates the pipeline of `code` for `key` and prints its statistics.
bool report(VkDevice device, const VolkDeviceTable& vk, VkPipelineLayout layout, const std::vector<uint32_t>& code,
            const Key& key) {
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = code.size() * 4;
    mci.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (!check(vk.vkCreateShaderModule(device, &mci, nullptr, &module), "vkCreateShaderModule")) return false;
    // The library's constants (src/pipelines.cpp), buffer destination.
    const uint32_t values[9] = {key.variant, 0, key.store, 0, key.srgb, key.w, key.h, key.d, 0};
    const VkSpecializationMapEntry entries[9] = {
        {TEXDEC_SC_VARIANT, 0, 4},   {TEXDEC_SC_SIGNED, 4, 4},   {TEXDEC_SC_STORE, 8, 4},
        {TEXDEC_SC_ROUNDING, 12, 4}, {TEXDEC_SC_SRGB, 16, 4},    {TEXDEC_SC_BLOCK_W, 20, 4},
        {TEXDEC_SC_BLOCK_H, 24, 4},  {TEXDEC_SC_BLOCK_D, 28, 4}, {TEXDEC_SC_STORE_SWIZZLE, 32, 4}};
    VkSpecializationInfo spec{9, entries, sizeof values, values};
    VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pci.stage.module = module;
    pci.stage.pName = "main";
    pci.stage.pSpecializationInfo = &spec;
    pci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const bool created = check(vk.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline),
                               "vkCreateComputePipelines");
    vk.vkDestroyShaderModule(device, module, nullptr);
    if (!created) return false;
    std::printf("  %s\n", describe(key).c_str());
    VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    info.pipeline = pipeline;
    uint32_t count = 0;
    bool ok = check(vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &count, nullptr), "executable properties");
    std::vector<VkPipelineExecutablePropertiesKHR> props(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    if (ok)
        ok = check(vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &count, props.data()),
                   "executable properties");
    for (uint32_t e = 0; ok && e < count; ++e) {
        std::printf("   executable %u: %s (%s), subgroup size %u\n", e, props[e].name, props[e].description,
                    props[e].subgroupSize);
        VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        ei.pipeline = pipeline;
        ei.executableIndex = e;
        uint32_t n = 0;
        ok = check(vk.vkGetPipelineExecutableStatisticsKHR(device, &ei, &n, nullptr), "executable statistics");
        std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        if (ok)
            ok = check(vk.vkGetPipelineExecutableStatisticsKHR(device, &ei, &n, stats.data()), "executable statistics");
        for (uint32_t i = 0; ok && i < n; ++i) print_statistic(stats[i]);
    }
    vk.vkDestroyPipeline(device, pipeline, nullptr);
    return ok;
}

bool parse_key(const char* arg, Key* key) {
    unsigned w = 0, h = 0, d = 1;
    if (std::sscanf(arg, "%ux%ux%u", &w, &h, &d) >= 2 && w >= 4 && h >= 4 && d >= 1) {
        key->w = w, key->h = h, key->d = d;
    } else if (!std::strcmp(arg, "ldr")) {
        key->variant = TEXDEC_ASTC_LDR, key->srgb = 0;
    } else if (!std::strcmp(arg, "srgb")) {
        key->variant = TEXDEC_ASTC_LDR, key->srgb = 1;
    } else if (!std::strcmp(arg, "hdr")) {
        key->variant = TEXDEC_ASTC_HDR, key->srgb = 0, key->store = TEXDEC_STORE_RGBA16F;
    } else if (!std::strcmp(arg, "rgba8")) {
        key->store = TEXDEC_STORE_RGBA8;
    } else if (!std::strcmp(arg, "rgba16f")) {
        key->store = TEXDEC_STORE_RGBA16F;
    } else {
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: texdec-pipeline-stats FILE.spv [WxH[xD]] [ldr|srgb|hdr] [rgba8|rgba16f] "
                     "[, WxH ...]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty() || bytes.size() % 4) {
        std::fprintf(stderr, "texdec-pipeline-stats: cannot read SPIR-V from %s\n", argv[1]);
        return 1;
    }
    std::vector<uint32_t> code(bytes.size() / 4);
    std::memcpy(code.data(), bytes.data(), bytes.size());
    // Keys: footprint / mode / store words; a footprint word after a complete key starts the next.
    std::vector<Key> keys;
    Key key;
    bool pending = false;
    for (int i = 2; i < argc; ++i) {
        unsigned a, b;
        if (pending && std::sscanf(argv[i], "%ux%u", &a, &b) == 2) keys.push_back(key), key = Key{};
        if (!parse_key(argv[i], &key)) {
            std::fprintf(stderr, "texdec-pipeline-stats: '%s' is not WxH[xD], ldr, srgb, hdr, rgba8 or rgba16f\n",
                         argv[i]);
            return 2;
        }
        pending = true;
    }
    keys.push_back(key);

    if (!check(volkInitialize(), "loading the Vulkan loader")) return 1;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    if (!check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance")) return 1;
    volkLoadInstanceOnly(instance);
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> physicals(n);
    vkEnumeratePhysicalDevices(instance, &n, physicals.data());
    int failures = 0;
    for (VkPhysicalDevice physical : physicals) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
        VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        features.pNext = &exec;
        vkGetPhysicalDeviceFeatures2(physical, &features);
        std::printf("%s (driver %u.%u.%u, Vulkan %u.%u):\n", props.deviceName,
                    VK_API_VERSION_MAJOR(props.driverVersion), VK_API_VERSION_MINOR(props.driverVersion),
                    VK_API_VERSION_PATCH(props.driverVersion), VK_API_VERSION_MAJOR(props.apiVersion),
                    VK_API_VERSION_MINOR(props.apiVersion));
        if (!exec.pipelineExecutableInfo) {
            std::printf("  no VK_KHR_pipeline_executable_properties\n");
            continue;
        }
        const uint32_t family = vk_app::compute_family(physical);
        if (family == UINT32_MAX) {
            std::printf("  no compute queue\n");
            ++failures;
            continue;
        }
        const char* extensions[] = {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
        VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR enable{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
        enable.pipelineExecutableInfo = VK_TRUE;
        VkDevice device = VK_NULL_HANDLE;
        if (!check(vk_app::create_device(physical, family, 1, extensions, nullptr, &enable, &device),
                   "vkCreateDevice")) {
            ++failures;
            continue;
        }
        VolkDeviceTable vk;
        volkLoadDeviceTable(&vk, device);
        // The library's bindings (src/pipelines.cpp), buffer destination, without push descriptors.
        VkDescriptorSetLayoutBinding bindings[5] = {};
        const uint32_t numbers[5] = {TEXDEC_BINDING_SRC, TEXDEC_BINDING_DST, TEXDEC_BINDING_LUT,
                                     TEXDEC_BINDING_FOOTPRINT_LUT, TEXDEC_BINDING_TABLES};
        for (uint32_t i = 0; i < 5; ++i) {
            bindings[i].binding = numbers[i];
            bindings[i].descriptorType = numbers[i] == TEXDEC_BINDING_TABLES ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                                                             : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            bindings[i].descriptorCount = 1;
            bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        }
        VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        sci.bindingCount = 5;
        sci.pBindings = bindings;
        VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
        VkPipelineLayout layout = VK_NULL_HANDLE;
        VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(texdec::shader::TexdecPushConstants)};
        VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        lci.setLayoutCount = 1;
        lci.pSetLayouts = &set_layout;
        lci.pushConstantRangeCount = 1;
        lci.pPushConstantRanges = &range;
        if (check(vk.vkCreateDescriptorSetLayout(device, &sci, nullptr, &set_layout), "vkCreateDescriptorSetLayout") &&
            check(vk.vkCreatePipelineLayout(device, &lci, nullptr, &layout), "vkCreatePipelineLayout")) {
            for (const Key& k : keys) failures += report(device, vk, layout, code, k) ? 0 : 1;
        } else {
            ++failures;
        }
        vk.vkDestroyPipelineLayout(device, layout, nullptr);
        vk.vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
        vk.vkDestroyDevice(device, nullptr);
    }
    vkDestroyInstance(instance, nullptr);
    return failures ? 1 : 0;
}
