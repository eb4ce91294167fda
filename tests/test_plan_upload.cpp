// texdec_plan_upload ([plan]): native upload or decode, and the image to create, on the test's own
// device (lavapipe in CI: samples BC, not ETC2 or ASTC), on the CPU backend and without a context.
// The expected answers come from the Vulkan format properties the test asks itself and from tables
// written here from texdec.h's contract (which output each format decodes to, which feature each
// needs, which storage view each image format has), never from texdec's code. Every image a
// plan describes is created (validation layer on: silent), every DECODE_RECORD image takes an
// image target, and a record into a few of them gives the bytes the CPU backend decodes.
#include <catch2/catch.hpp>

#include <texdec/texdec.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/compare.h"  // image_half_texels_equal
#include "support/cpu_context.h"

using namespace texdec_test;

namespace {

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
bool ends_with(const std::string& s, const char* tail) {
    const size_t n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

std::string name_of(texdec_format f) {
    texdec_format_info info{};
    REQUIRE(texdec_format_get_info(f, &info) == TEXDEC_SUCCESS);
    return info.name;
}

// "astc-3x3x3-unorm": a 3D footprint (two x in the footprint).
bool is_3d_footprint(const std::string& name) {
    return name.rfind("astc-", 0) == 0 && std::count(name.begin(), name.end(), 'x') == 2;
}

// texdec.h, "outputs": NATIVE is R8/RG8 for BC4/BC5, R16/RG16 for EAC, RGBA16F for BC6H and
// ASTC sfloat, RGBA8 (sRGB-encoded for sRGB formats) otherwise.
VkFormat expected_native(const std::string& n) {
    if (n == "bc4-unorm") return VK_FORMAT_R8_UNORM;
    if (n == "bc4-snorm") return VK_FORMAT_R8_SNORM;
    if (n == "bc5-unorm") return VK_FORMAT_R8G8_UNORM;
    if (n == "bc5-snorm") return VK_FORMAT_R8G8_SNORM;
    if (n == "eac-r11-unorm") return VK_FORMAT_R16_UNORM;
    if (n == "eac-r11-snorm") return VK_FORMAT_R16_SNORM;
    if (n == "eac-r11g11-unorm") return VK_FORMAT_R16G16_UNORM;
    if (n == "eac-r11g11-snorm") return VK_FORMAT_R16G16_SNORM;
    if (has(n, "bc6h") || ends_with(n, "-sfloat")) return VK_FORMAT_R16G16B16A16_SFLOAT;
    return has(n, "srgb") ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
}

// TEXDEC_PLAN_OUTPUT_RGBA: RGBA8 where offered (not SNORM, BC6H, ASTC sfloat), else RGBA16F.
VkFormat expected_rgba(const std::string& n) {
    if (has(n, "bc6h") || ends_with(n, "-sfloat") || has(n, "snorm")) return VK_FORMAT_R16G16B16A16_SFLOAT;
    return has(n, "srgb") ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
}

// The device feature sampling the format needs (Vulkan, "Features").
bool feature_enabled(const std::string& n, const VkPhysicalDeviceFeatures& f, bool hdr, bool astc_3d) {
    if (n.rfind("bc", 0) == 0) return f.textureCompressionBC;
    if (n.rfind("etc2", 0) == 0 || n.rfind("eac", 0) == 0) return f.textureCompressionETC2;
    if (!f.textureCompressionASTC_LDR) return false;
    if (ends_with(n, "-sfloat") && !hdr) return false;
    return !is_3d_footprint(n) || astc_3d;
}

// texdec.h's image target table: sRGB RGBA8 images are written through an R8G8B8A8_UNORM view.
VkFormat expected_storage_view(VkFormat image) {
    return image == VK_FORMAT_R8G8B8A8_SRGB ? VK_FORMAT_R8G8B8A8_UNORM : image;
}

VkFormatFeatureFlags optimal_features(VkPhysicalDevice pd, VkFormat format) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(pd, format, &props);
    return props.optimalTilingFeatures;
}

std::vector<texdec_format> all_formats() {
    std::vector<texdec_format> all;
    for (uint32_t f = 1; f < TEXDEC_FORMAT_COUNT; ++f) all.push_back(texdec_format(f));
    return all;
}

texdec_upload_plan_info plan_info(texdec_context* ctx, VulkanTestDevice* dev, const VkPhysicalDeviceFeatures* features,
                                  texdec_format format) {
    texdec_upload_plan_info info{};
    info.context = ctx;
    if (dev) {
        info.physical_device = dev->physical_device();
        info.get_format_properties = vkGetPhysicalDeviceFormatProperties;
    }
    info.enabled_features = features;
    info.format = format;
    return info;
}

texdec_upload_plan plan_of(const texdec_upload_plan_info& info) {
    texdec_upload_plan plan{};
    INFO(name_of(info.format));
    REQUIRE(texdec_plan_upload(&info, &plan) == TEXDEC_SUCCESS);
    return plan;
}

// Checks a decode plan's output, image format, flags, usage and view formats against the tables
// above: DECODE_RECORD with a storage view (and MUTABLE_FORMAT, a format list, EXTENDED_USAGE
// where the device cannot store the image's format) or DECODE_HOST with TRANSFER_DST.
void check_decode_plan(VulkanTestDevice& dev, const texdec_upload_plan& plan, const std::string& n, bool rgba,
                       texdec_upload_action action, VkImageUsageFlags usage) {
    INFO(n);
    const VkFormat image = rgba ? expected_rgba(n) : expected_native(n);
    CHECK(plan.action == action);
    CHECK(plan.output == (rgba ? (image == VK_FORMAT_R16G16B16A16_SFLOAT ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_RGBA8)
                               : TEXDEC_OUTPUT_NATIVE));
    CHECK(plan.block_format == TEXDEC_FORMAT_UNDEFINED);
    CHECK(plan.image_format == image);
    CHECK(plan.image_type == (is_3d_footprint(n) ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D));
    if (action == TEXDEC_UPLOAD_DECODE_RECORD) {
        const VkFormat view = expected_storage_view(image);
        CHECK(plan.storage_format == view);
        CHECK(plan.image_usage == (usage | VK_IMAGE_USAGE_STORAGE_BIT));
        if (view == image) {
            CHECK(plan.image_flags == 0);
            CHECK(plan.view_format_count == 0);
        } else {
            const bool stores_image =
                optimal_features(dev.physical_device(), image) & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
            CHECK(plan.image_flags == (VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
                                       (stores_image ? 0u : uint32_t(VK_IMAGE_CREATE_EXTENDED_USAGE_BIT))));
            REQUIRE(plan.view_format_count == 2);
            CHECK(plan.view_formats[0] == image);
            CHECK(plan.view_formats[1] == view);
        }
    } else {
        CHECK(plan.storage_format == VK_FORMAT_UNDEFINED);
        CHECK(plan.image_usage == (usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
        CHECK(plan.image_flags == 0);
        CHECK(plan.view_format_count == 0);
    }
}

// Creates the image `plan` describes (w x h x d texels, one level) with texdec::image_create_info;
// for DECODE_RECORD also its image target. With `blocks`, records the decode of random blocks into
// it (barriers: UNDEFINED -> GENERAL -> TRANSFER_SRC), copies it out and compares with the CPU
// backend's texdec_decode of the same blocks, tolerance 0.
void create_and_maybe_record(ExternalSetup& setup, texdec_context* cpu, const texdec_upload_plan& plan,
                             texdec_format format, uint32_t w, uint32_t h, uint32_t d, bool record) {
    VulkanTestDevice& dev = *setup.device;
    const std::string n = name_of(format);
    INFO(n);
    VkImageFormatListCreateInfo list{};
    const VkImageCreateInfo ici = texdec::image_create_info(plan, {w, h, d}, 1, 1, list);
    if (plan.view_format_count && !dev.has_image_format_list()) return;  // the list needs VK_KHR_image_format_list
    TestImage image = dev.create_image(ici);
    check_no_validation_messages(dev.log(), "creating the image of a plan");
    if (plan.action != TEXDEC_UPLOAD_DECODE_RECORD) {
        dev.destroy(image);
        return;
    }
    texdec::ImageTarget target;
    const texdec_image_target_create_info tci = texdec::image_target_info(image.image, ici, list);
    REQUIRE(texdec::ImageTarget::create(texdec::ContextRef(setup.ctx), tci, target) == TEXDEC_SUCCESS);
    if (record) {
        uint64_t block_bytes = 0, texel_bytes = 0;
        REQUIRE(texdec_encoded_size(format, w, h, d, &block_bytes) == TEXDEC_SUCCESS);
        REQUIRE(texdec_decoded_size(format, plan.output, w, h, d, &texel_bytes) == TEXDEC_SUCCESS);
        std::vector<uint8_t> blocks(block_bytes);
        std::mt19937 rng(uint32_t(format) * 7919u);
        for (auto& b : blocks) b = uint8_t(rng());
        HostBuffer src = dev.create_buffer(block_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memcpy(src.mapped, blocks.data(), blocks.size());
        HostBuffer out = dev.create_buffer(texel_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        std::memset(out.mapped, 0xA5, texel_bytes);

        texdec_region region{};
        region.layer_count = 1;
        region.extent = {w, h, d};
        texdec_record_barriers barriers{};
        barriers.old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
        barriers.new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        barriers.dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT;
        texdec_regions_job job =
            texdec::regions_job(format, plan.output, src.buffer, block_bytes, &region, 1, target.get());
        job.barriers = &barriers;
        VkCommandBuffer cmd = dev.begin_commands();
        REQUIRE(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_SUCCESS);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {w, h, d};
        vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &copy);
        host_read_barrier(cmd);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "recording into the image of a plan");

        std::vector<uint8_t> expected(texel_bytes, 0x5A);
        texdec_host_job host{};
        host.format = format;
        host.output = plan.output;
        host.width = w, host.height = h, host.depth = d;
        host.src = blocks.data(), host.src_size = blocks.size();
        host.dst = expected.data(), host.dst_size = expected.size();
        REQUIRE(texdec_decode(cpu, &host) == TEXDEC_SUCCESS);
        // An image: where the CPU backend gives an FP16 NaN (error blocks), any NaN.
        const bool half = plan.image_format == VK_FORMAT_R16G16B16A16_SFLOAT;
        const auto* got = static_cast<const uint8_t*>(out.mapped);
        CHECK((half ? image_half_texels_equal(got, expected.data(), texel_bytes)
                    : std::memcmp(expected.data(), got, texel_bytes) == 0));
        dev.destroy(src);
        dev.destroy(out);
    }
    target = texdec::ImageTarget();
    dev.destroy(image);
}

// A device the test makes up, for the cases that need no Vulkan: it samples VK_FORMAT_BC7_UNORM_BLOCK
// only (SAMPLED_IMAGE | TRANSFER_DST), and its images of it are at most 1024 x 1024, 4 levels, 2
// layers. Counts the calls, and the formats asked about.
std::atomic<int> fake_format_calls{0}, fake_image_calls{0};
std::atomic<int> fake_last_format{0};
void VKAPI_CALL fake_format_properties(VkPhysicalDevice, VkFormat format, VkFormatProperties* props) {
    ++fake_format_calls;
    fake_last_format = int(format);
    *props = VkFormatProperties{};
    if (format == VK_FORMAT_BC7_UNORM_BLOCK)
        props->optimalTilingFeatures = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
}
VkResult VKAPI_CALL fake_image_format_properties(VkPhysicalDevice, VkFormat format, VkImageType, VkImageTiling,
                                                 VkImageUsageFlags, VkImageCreateFlags,
                                                 VkImageFormatProperties* props) {
    ++fake_image_calls;
    *props = VkImageFormatProperties{};
    if (format != VK_FORMAT_BC7_UNORM_BLOCK) return VK_ERROR_FORMAT_NOT_SUPPORTED;
    props->maxExtent = {1024, 1024, 1};
    props->maxMipLevels = 4;
    props->maxArrayLayers = 2;
    props->sampleCounts = VK_SAMPLE_COUNT_1_BIT;
    return VK_SUCCESS;
}
VkPhysicalDevice fake_device() {
    static int token = 0;
    return reinterpret_cast<VkPhysicalDevice>(&token);
}

}  // namespace

TEST_CASE("plan: the test's device with its compression features: native where it samples, else a record",
          "[plan][gpu]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.texture_compression = true;
    TEXDEC_OPEN_OR_RETURN(setup, dev, options);
    MessageLog cpu_log;
    texdec_context* cpu = create_cpu_context(cpu_log);
    const VkPhysicalDeviceFeatures& features = dev.enabled_features();
    const bool lavapipe = has(dev.properties().deviceName, "llvmpipe");
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    // The formats whose record is checked byte for byte: each output kind and view, a 3D footprint.
    const std::vector<texdec_format> recorded = {
        TEXDEC_FORMAT_BC4_SNORM,          TEXDEC_FORMAT_BC7_SRGB,        TEXDEC_FORMAT_ETC2_R8G8B8_UNORM,
        TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, TEXDEC_FORMAT_EAC_R11_SNORM,   TEXDEC_FORMAT_EAC_R11G11_UNORM,
        TEXDEC_FORMAT_ASTC_4x4_SRGB,      TEXDEC_FORMAT_ASTC_6x6_SFLOAT, TEXDEC_FORMAT_ASTC_3x3x3_UNORM};
    for (texdec_format f : all_formats()) {
        const std::string n = name_of(f);
        INFO(n);
        texdec_upload_plan_info info = plan_info(setup.ctx, &dev, &features, f);
        info.usage = usage;
        const texdec_upload_plan plan = plan_of(info);
        const VkFormatFeatureFlags want = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
        const bool enabled = feature_enabled(n, features, false, false);
        texdec_format_info fi{};
        REQUIRE(texdec_format_get_info(f, &fi) == TEXDEC_SUCCESS);
        const bool samples = enabled && (optimal_features(dev.physical_device(), fi.vk_format) & want) == want;
        if (lavapipe) {
            // What the issue states of lavapipe: BC sampled natively, ETC2/EAC and ASTC not.
            CHECK(samples == (n.rfind("bc", 0) == 0));
        }
        const bool is_3d = is_3d_footprint(n);
        if (samples) {
            CHECK(plan.action == TEXDEC_UPLOAD_NATIVE);
            CHECK(plan.reasons == 0);
            CHECK(plan.block_format == f);
            CHECK(plan.output == TEXDEC_OUTPUT_MAX_ENUM);
            CHECK(plan.backend == TEXDEC_BACKEND_MAX_ENUM);
            CHECK(plan.image_usage == (usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
            CHECK(plan.image_flags == 0);
            CHECK(plan.view_format_count == 0);
            CHECK(plan.storage_format == VK_FORMAT_UNDEFINED);
            create_and_maybe_record(setup, cpu, plan, f, 16, 16, 1, false);
        } else {
            CHECK(plan.reasons ==
                  (enabled ? TEXDEC_PLAN_REASON_FORMAT_FEATURES : TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED));
            CHECK(plan.backend == TEXDEC_BACKEND_GPU);
            check_decode_plan(dev, plan, n, false, TEXDEC_UPLOAD_DECODE_RECORD, usage);
            const bool record = std::find(recorded.begin(), recorded.end(), f) != recorded.end();
            create_and_maybe_record(setup, cpu, plan, f, 13, 9, is_3d ? 5 : 1, record);
        }
    }
    // The recorded BC formats, decoded: FORCE_DECODE.
    for (texdec_format f : {TEXDEC_FORMAT_BC4_SNORM, TEXDEC_FORMAT_BC7_SRGB}) {
        texdec_upload_plan_info info = plan_info(setup.ctx, &dev, &features, f);
        info.usage = usage;
        info.flags = TEXDEC_PLAN_FORCE_DECODE;
        const texdec_upload_plan plan = plan_of(info);
        CHECK((plan.reasons & TEXDEC_PLAN_REASON_FORCED) != 0);
        check_decode_plan(dev, plan, name_of(f), false, TEXDEC_UPLOAD_DECODE_RECORD, usage);
        create_and_maybe_record(setup, cpu, plan, f, 13, 9, 1, true);
    }
    texdec_context_destroy(cpu);
    setup.close();
}

TEST_CASE("plan: zero features, FORCE_DECODE, PREFER_HOST, OUTPUT_RGBA, image flags and limits", "[plan][gpu]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.texture_compression = true;
    TEXDEC_OPEN_OR_RETURN(setup, dev, options);
    const VkPhysicalDeviceFeatures& features = dev.enabled_features();
    const VkPhysicalDeviceFeatures none{};

    SECTION("no feature enabled (NULL or zero): every format decodes") {
        for (texdec_format f : all_formats()) {
            for (const VkPhysicalDeviceFeatures* given :
                 {static_cast<const VkPhysicalDeviceFeatures*>(nullptr), &none}) {
                const texdec_upload_plan plan = plan_of(plan_info(setup.ctx, &dev, given, f));
                CHECK(plan.reasons == TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED);
                check_decode_plan(dev, plan, name_of(f), false, TEXDEC_UPLOAD_DECODE_RECORD,
                                  VK_IMAGE_USAGE_SAMPLED_BIT);
            }
        }
    }
    SECTION("FORCE_DECODE: a format the device samples is decoded, reason FORCED alone") {
        if (!features.textureCompressionBC) return;
        texdec_upload_plan_info info = plan_info(setup.ctx, &dev, &features, TEXDEC_FORMAT_BC1_RGBA_UNORM);
        CHECK(plan_of(info).action == TEXDEC_UPLOAD_NATIVE);
        info.flags = TEXDEC_PLAN_FORCE_DECODE;
        const texdec_upload_plan plan = plan_of(info);
        CHECK(plan.reasons == TEXDEC_PLAN_REASON_FORCED);
        check_decode_plan(dev, plan, "bc1-rgba-unorm", false, TEXDEC_UPLOAD_DECODE_RECORD, VK_IMAGE_USAGE_SAMPLED_BIT);
    }
    SECTION("PREFER_HOST: DECODE_HOST on the GPU context; a native format stays native") {
        for (texdec_format f : all_formats()) {
            texdec_upload_plan_info info = plan_info(setup.ctx, &dev, nullptr, f);
            info.flags = TEXDEC_PLAN_PREFER_HOST;
            const texdec_upload_plan plan = plan_of(info);
            CHECK(plan.reasons == (TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED | TEXDEC_PLAN_REASON_HOST_PREFERRED));
            CHECK(plan.backend == TEXDEC_BACKEND_GPU);
            check_decode_plan(dev, plan, name_of(f), false, TEXDEC_UPLOAD_DECODE_HOST, VK_IMAGE_USAGE_SAMPLED_BIT);
        }
        if (features.textureCompressionBC) {
            texdec_upload_plan_info info = plan_info(setup.ctx, &dev, &features, TEXDEC_FORMAT_BC3_SRGB);
            info.flags = TEXDEC_PLAN_PREFER_HOST;
            CHECK(plan_of(info).action == TEXDEC_UPLOAD_NATIVE);
        }
    }
    SECTION("OUTPUT_RGBA: four channels, RGBA8 where offered, else RGBA16F") {
        for (texdec_format f : all_formats()) {
            texdec_upload_plan_info info = plan_info(setup.ctx, &dev, nullptr, f);
            info.flags = TEXDEC_PLAN_OUTPUT_RGBA;
            const texdec_upload_plan plan = plan_of(info);
            check_decode_plan(dev, plan, name_of(f), true, TEXDEC_UPLOAD_DECODE_RECORD, VK_IMAGE_USAGE_SAMPLED_BIT);
        }
    }
    SECTION("the context's own device and function when physical_device is NULL") {
        for (texdec_format f : all_formats()) {
            const texdec_upload_plan mine = plan_of(plan_info(setup.ctx, &dev, &features, f));
            const texdec_upload_plan its = plan_of(plan_info(setup.ctx, nullptr, &features, f));
            CHECK(std::memcmp(&mine, &its, sizeof mine) == 0);
        }
    }
    SECTION("image flags are kept; a cube map records through MUTABLE_FORMAT") {
        texdec_upload_plan_info info = plan_info(setup.ctx, &dev, nullptr, TEXDEC_FORMAT_ASTC_8x8_SRGB);
        info.image_flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
        info.extent = {64, 64, 1};
        info.array_layers = 6;
        info.mip_levels = 7;
        const texdec_upload_plan plan = plan_of(info);
        CHECK(plan.action == TEXDEC_UPLOAD_DECODE_RECORD);
        CHECK((plan.image_flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) != 0);
        CHECK((plan.image_flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) != 0);
        if (dev.has_image_format_list()) {
            VkImageFormatListCreateInfo list{};
            const VkImageCreateInfo ici = texdec::image_create_info(plan, info.extent, 7, 6, list);
            TestImage image = dev.create_image(ici);
            texdec_image_target* target = nullptr;
            const texdec_image_target_create_info tci = texdec::image_target_info(image.image, ici, list);
            CHECK(texdec_image_target_create(setup.ctx, &tci, &target) == TEXDEC_SUCCESS);
            texdec_image_target_destroy(setup.ctx, target);
            dev.destroy(image);
            check_no_validation_messages(dev.log(), "a cube map of a plan");
        }
    }
    SECTION("image limits: checked with get_image_format_properties where an extent is given") {
        if (!features.textureCompressionBC) return;
        texdec_upload_plan_info info = plan_info(setup.ctx, &dev, &features, TEXDEC_FORMAT_BC7_UNORM);
        info.get_image_format_properties = vkGetPhysicalDeviceImageFormatProperties;
        info.extent = {256, 128, 1};
        info.mip_levels = 9;
        CHECK(plan_of(info).action == TEXDEC_UPLOAD_NATIVE);
        VkImageFormatProperties limits{};
        REQUIRE(vkGetPhysicalDeviceImageFormatProperties(
                    dev.physical_device(), VK_FORMAT_BC7_UNORM_BLOCK, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &limits) == VK_SUCCESS);
        info.extent = {limits.maxExtent.width + 4, 4, 1};
        info.mip_levels = 1;
        texdec_upload_plan plan = plan_of(info);
        CHECK(plan.action == TEXDEC_UPLOAD_DECODE_RECORD);
        CHECK(plan.reasons == TEXDEC_PLAN_REASON_IMAGE_LIMITS);
        info.extent = {64, 64, 1};
        info.array_layers = limits.maxArrayLayers + 1;
        CHECK(plan_of(info).reasons == TEXDEC_PLAN_REASON_IMAGE_LIMITS);
        info.array_layers = 1;
        info.get_image_format_properties = nullptr;  // not asked: native
        info.extent = {limits.maxExtent.width + 4, 4, 1};
        CHECK(plan_of(info).action == TEXDEC_UPLOAD_NATIVE);
    }
    SECTION("another device's context: DECODE_HOST, OTHER_DEVICE") {
        auto own = OwnContext::open(Backend::gpu);
        if (!own) return;
        const texdec_upload_plan plan = plan_of(plan_info(own->get(), &dev, &features, TEXDEC_FORMAT_ASTC_5x5_UNORM));
        CHECK((plan.reasons & TEXDEC_PLAN_REASON_OTHER_DEVICE) != 0);
        CHECK(plan.backend == TEXDEC_BACKEND_GPU);
        check_decode_plan(dev, plan, "astc-5x5-unorm", false, TEXDEC_UPLOAD_DECODE_HOST, VK_IMAGE_USAGE_SAMPLED_BIT);
        own->close_and_check();
    }
    check_no_validation_messages(dev.log(), "planning");
    setup.close();
}

TEST_CASE("plan: CPU context and no context decode on the host, native where a device is given", "[plan][gpu][cpu]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.texture_compression = true;
    TEXDEC_OPEN_OR_RETURN(setup, dev, options);
    MessageLog cpu_log;
    texdec_context* cpu = create_cpu_context(cpu_log);
    const VkPhysicalDeviceFeatures& features = dev.enabled_features();
    const VkFormatFeatureFlags want = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    for (texdec_context* ctx : {cpu, static_cast<texdec_context*>(nullptr)}) {
        const texdec_backend backend = ctx ? TEXDEC_BACKEND_CPU : TEXDEC_BACKEND_AUTO;
        for (texdec_format f : all_formats()) {
            const std::string n = name_of(f);
            INFO(n << (ctx ? " on the CPU context" : " without a context"));
            // No device: never native.
            texdec_upload_plan plan = plan_of(plan_info(ctx, nullptr, &features, f));
            CHECK(plan.backend == backend);
            CHECK(
                plan.reasons ==
                (TEXDEC_PLAN_REASON_NO_DEVICE |
                 (feature_enabled(n, features, false, false) ? 0u : uint32_t(TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED))));
            check_decode_plan(dev, plan, n, false, TEXDEC_UPLOAD_DECODE_HOST, VK_IMAGE_USAGE_SAMPLED_BIT);
            // The device given: native where it samples, else a host decode.
            plan = plan_of(plan_info(ctx, &dev, &features, f));
            texdec_format_info fi{};
            REQUIRE(texdec_format_get_info(f, &fi) == TEXDEC_SUCCESS);
            const bool samples = feature_enabled(n, features, false, false) &&
                                 (optimal_features(dev.physical_device(), fi.vk_format) & want) == want;
            if (samples) {
                CHECK(plan.action == TEXDEC_UPLOAD_NATIVE);
                CHECK(plan.image_format == fi.vk_format);
                CHECK(plan.image_usage == (VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
            } else {
                CHECK(plan.backend == backend);
                check_decode_plan(dev, plan, n, false, TEXDEC_UPLOAD_DECODE_HOST, VK_IMAGE_USAGE_SAMPLED_BIT);
                VkImageFormatListCreateInfo list{};
                TestImage image =
                    dev.create_image(texdec::image_create_info(plan, {8, 8, is_3d_footprint(n) ? 3u : 1u}, 1, 1, list));
                dev.destroy(image);
            }
        }
    }
    CHECK(cpu_log.take_errors().empty());
    texdec_context_destroy(cpu);
    setup.close();
}

TEST_CASE("plan: invalid arguments are refused and leave the plan unwritten", "[plan][cpu]") {
    MessageLog log;
    texdec_context* cpu = create_cpu_context(log);
    const texdec_upload_plan_info good = plan_info(cpu, nullptr, nullptr, TEXDEC_FORMAT_BC1_RGB_UNORM);
    texdec_upload_plan plan{};
    REQUIRE(texdec_plan_upload(&good, &plan) == TEXDEC_SUCCESS);
    CHECK(plan.action == TEXDEC_UPLOAD_DECODE_HOST);
    CHECK(texdec_plan_upload(nullptr, &plan) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_plan_upload(&good, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(!log.take_errors().empty());  // "plan" named through the context's callback

    struct Bad {
        const char* what;
        texdec_status status;
        void (*change)(texdec_upload_plan_info&);
    };
    static int dummy = 0;
    const Bad bad[] = {
        {"next", TEXDEC_ERROR_INVALID_ARGUMENT, [](texdec_upload_plan_info& i) { i.next = &dummy; }},
        {"flags", TEXDEC_ERROR_INVALID_ARGUMENT, [](texdec_upload_plan_info& i) { i.flags = 1u << 3; }},
        {"physical_device", TEXDEC_ERROR_INVALID_ARGUMENT,
         [](texdec_upload_plan_info& i) { i.physical_device = reinterpret_cast<VkPhysicalDevice>(&dummy); }},
        {"get_format_properties", TEXDEC_ERROR_INVALID_ARGUMENT,
         [](texdec_upload_plan_info& i) { i.get_format_properties = fake_format_properties; }},
        {"get_image_format_properties", TEXDEC_ERROR_INVALID_ARGUMENT,
         [](texdec_upload_plan_info& i) { i.get_image_format_properties = fake_image_format_properties; }},
        {"format", TEXDEC_ERROR_UNKNOWN_FORMAT, [](texdec_upload_plan_info& i) { i.format = TEXDEC_FORMAT_COUNT; }},
        {"format", TEXDEC_ERROR_UNKNOWN_FORMAT, [](texdec_upload_plan_info& i) { i.format = TEXDEC_FORMAT_UNDEFINED; }},
        {"extent", TEXDEC_ERROR_INVALID_EXTENT,
         [](texdec_upload_plan_info& i) {
             i.extent = {16, 16, 0};
         }},
        {"array_layers", TEXDEC_ERROR_INVALID_ARGUMENT,
         [](texdec_upload_plan_info& i) {
             i.extent = {8, 8, 4}, i.array_layers = 2;
         }},
        {"array_layers", TEXDEC_ERROR_INVALID_ARGUMENT,
         [](texdec_upload_plan_info& i) { i.format = TEXDEC_FORMAT_ASTC_3x3x3_SRGB, i.array_layers = 6; }},
    };
    for (const Bad& b : bad) {
        INFO(b.what);
        texdec_upload_plan_info info = good;
        b.change(info);
        texdec_upload_plan untouched;
        std::memset(&untouched, 0xCD, sizeof untouched);
        CHECK(texdec_plan_upload(&info, &untouched) == b.status);
        const std::vector<uint8_t> cd(sizeof untouched, 0xCD);
        CHECK(std::memcmp(&untouched, cd.data(), sizeof untouched) == 0);
        const std::vector<std::string> errors = log.take_errors();
        REQUIRE(errors.size() == 1);
        CHECK(has(errors[0], b.what));
        // Without a context: the same status, no message anywhere.
        info.context = nullptr;
        CHECK(texdec_plan_upload(&info, &untouched) == b.status);
    }
    // The C++ wrapper sets the context.
    texdec_upload_plan_info info = good;
    info.context = nullptr;
    CHECK(texdec::ContextRef(cpu).plan_upload(info, plan) == TEXDEC_SUCCESS);
    CHECK(plan.backend == TEXDEC_BACKEND_CPU);
    CHECK(texdec::plan_upload(info, plan) == TEXDEC_SUCCESS);
    CHECK(plan.backend == TEXDEC_BACKEND_AUTO);
    texdec_context_destroy(cpu);
}

TEST_CASE("plan: a made-up device: format features, image limits, and what is asked", "[plan][cpu]") {
    MessageLog log;
    texdec_context* cpu = create_cpu_context(log);
    VkPhysicalDeviceFeatures features{};
    features.textureCompressionBC = VK_TRUE;
    texdec_upload_plan_info info = plan_info(cpu, nullptr, &features, TEXDEC_FORMAT_BC7_UNORM);
    info.physical_device = fake_device();
    info.get_format_properties = fake_format_properties;
    fake_format_calls = 0;
    texdec_upload_plan plan = plan_of(info);
    CHECK(plan.action == TEXDEC_UPLOAD_NATIVE);
    CHECK(plan.image_format == VK_FORMAT_BC7_UNORM_BLOCK);
    CHECK(fake_format_calls == 1);
    CHECK(fake_last_format == int(VK_FORMAT_BC7_UNORM_BLOCK));
    // Another BC format lacks the features: decoded on the CPU context.
    info.format = TEXDEC_FORMAT_BC1_RGBA_UNORM;
    plan = plan_of(info);
    CHECK(plan.action == TEXDEC_UPLOAD_DECODE_HOST);
    CHECK(plan.reasons == TEXDEC_PLAN_REASON_FORMAT_FEATURES);
    CHECK(plan.backend == TEXDEC_BACKEND_CPU);
    // Linear filtering asked for: BC7 lacks it here.
    info.format = TEXDEC_FORMAT_BC7_UNORM;
    info.format_features = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    CHECK(plan_of(info).reasons == TEXDEC_PLAN_REASON_FORMAT_FEATURES);
    info.format_features = 0;
    // A format whose feature is not enabled is not asked about (its VkFormat may be an extension's).
    fake_format_calls = 0;
    for (texdec_format f :
         {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, TEXDEC_FORMAT_ASTC_4x4_SFLOAT, TEXDEC_FORMAT_ASTC_3x3x3_UNORM}) {
        info.format = f;
        CHECK(plan_of(info).reasons == TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED);
    }
    CHECK(fake_format_calls == 0);
    // ASTC: LDR alone does not make sfloat or 3D native; HDR and 3D enable them.
    features.textureCompressionASTC_LDR = VK_TRUE;
    info.format = TEXDEC_FORMAT_ASTC_4x4_SFLOAT;
    CHECK(plan_of(info).reasons == TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED);
    info.astc_hdr_enabled = VK_TRUE;
    CHECK(plan_of(info).reasons == TEXDEC_PLAN_REASON_FORMAT_FEATURES);  // asked now: the fake lacks it
    info.format = TEXDEC_FORMAT_ASTC_3x3x3_SRGB;
    CHECK(plan_of(info).reasons == TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED);
    info.astc_3d_enabled = VK_TRUE;
    plan = plan_of(info);
    CHECK(plan.reasons == TEXDEC_PLAN_REASON_FORMAT_FEATURES);
    CHECK(plan.image_type == VK_IMAGE_TYPE_3D);
    // Image limits, with the function given and an extent.
    info.format = TEXDEC_FORMAT_BC7_UNORM;
    info.get_image_format_properties = fake_image_format_properties;
    fake_image_calls = 0;
    CHECK(plan_of(info).action == TEXDEC_UPLOAD_NATIVE);  // extent 0 x 0 x 0: not asked
    CHECK(fake_image_calls == 0);
    struct Case {
        VkExtent3D extent;
        uint32_t levels, layers;
        bool native;
    };
    for (const Case& c :
         {Case{{1024, 1024, 1}, 4, 2, true}, Case{{1025, 16, 1}, 1, 1, false}, Case{{16, 2048, 1}, 1, 1, false},
          Case{{64, 64, 1}, 5, 1, false}, Case{{64, 64, 1}, 1, 3, false}, Case{{64, 64, 2}, 1, 1, false}}) {
        INFO(c.extent.width << "x" << c.extent.height << "x" << c.extent.depth << ", " << c.levels << " levels, "
                            << c.layers << " layers");
        info.extent = c.extent;
        info.mip_levels = c.levels;
        info.array_layers = c.layers;
        plan = plan_of(info);
        CHECK(plan.action == (c.native ? TEXDEC_UPLOAD_NATIVE : TEXDEC_UPLOAD_DECODE_HOST));
        CHECK(plan.reasons == (c.native ? 0u : uint32_t(TEXDEC_PLAN_REASON_IMAGE_LIMITS)));
    }
    CHECK(fake_image_calls == 6);
    // FORCE_DECODE with everything else fine.
    info.extent = {};
    info.mip_levels = info.array_layers = 0;
    info.flags = TEXDEC_PLAN_FORCE_DECODE | TEXDEC_PLAN_OUTPUT_RGBA;
    plan = plan_of(info);
    CHECK(plan.reasons == TEXDEC_PLAN_REASON_FORCED);
    CHECK(plan.output == TEXDEC_OUTPUT_RGBA8);
    CHECK(plan.image_format == VK_FORMAT_R8G8B8A8_UNORM);
    CHECK(log.take_errors().empty());
    texdec_context_destroy(cpu);
}

TEST_CASE("plan: a native image's usage needs its format features", "[plan][cpu]") {
    // The made-up device's BC7 has SAMPLED_IMAGE and TRANSFER_DST only. An image of it with STORAGE
    // or TRANSFER_SRC usage cannot be created (vkGetPhysicalDeviceImageFormatProperties refuses a
    // usage whose format feature is missing), so the plan must not answer NATIVE for that usage,
    // even where no extent is given and so no image limits are asked. It used to: NATIVE with
    // image_usage STORAGE | SAMPLED | TRANSFER_DST, an image the device cannot make.
    MessageLog log;
    texdec_context* cpu = create_cpu_context(log);
    VkPhysicalDeviceFeatures features{};
    features.textureCompressionBC = VK_TRUE;
    texdec_upload_plan_info info = plan_info(cpu, nullptr, &features, TEXDEC_FORMAT_BC7_UNORM);
    info.physical_device = fake_device();
    info.get_format_properties = fake_format_properties;
    struct Case {
        VkImageUsageFlags usage;
        bool native;
    };
    for (const Case& c : {Case{0, true}, Case{VK_IMAGE_USAGE_SAMPLED_BIT, true},
                          Case{VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, true},
                          Case{VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT, false},
                          Case{VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, false},
                          Case{VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, false}}) {
        INFO("usage 0x" << std::hex << c.usage);
        info.usage = c.usage;
        const texdec_upload_plan plan = plan_of(info);
        CHECK(plan.action == (c.native ? TEXDEC_UPLOAD_NATIVE : TEXDEC_UPLOAD_DECODE_HOST));
        CHECK(plan.reasons == (c.native ? 0u : uint32_t(TEXDEC_PLAN_REASON_FORMAT_FEATURES)));
    }
    CHECK(log.take_errors().empty());
    texdec_context_destroy(cpu);
}

TEST_CASE("plan: many threads ask at once and get the answers of one", "[plan][gpu][threads]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.texture_compression = true;
    TEXDEC_OPEN_OR_RETURN(setup, dev, options);
    const VkPhysicalDeviceFeatures& features = dev.enabled_features();
    const std::vector<texdec_format> formats = all_formats();
    const uint32_t flag_sets[] = {0, TEXDEC_PLAN_OUTPUT_RGBA, TEXDEC_PLAN_PREFER_HOST, TEXDEC_PLAN_FORCE_DECODE};
    auto ask = [&](texdec_format f, uint32_t flags, texdec_upload_plan& plan) {
        texdec_upload_plan_info info = plan_info(setup.ctx, &dev, &features, f);
        info.flags = flags;
        return texdec_plan_upload(&info, &plan);
    };
    std::vector<texdec_upload_plan> serial(formats.size() * 4);
    for (size_t i = 0; i < formats.size(); ++i)
        for (size_t k = 0; k < 4; ++k) REQUIRE(ask(formats[i], flag_sets[k], serial[i * 4 + k]) == TEXDEC_SUCCESS);
    constexpr int kThreads = 8;
    std::vector<int> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 4; ++round)
                for (size_t i = 0; i < formats.size(); ++i) {
                    const size_t k = size_t(t + round + int(i)) % 4;
                    texdec_upload_plan plan{};
                    if (ask(formats[i], flag_sets[k], plan) != TEXDEC_SUCCESS ||
                        std::memcmp(&plan, &serial[i * 4 + k], sizeof plan) != 0)
                        ++mismatches[size_t(t)];
                }
        });
    for (std::thread& t : threads) t.join();
    for (int t = 0; t < kThreads; ++t) CHECK(mismatches[size_t(t)] == 0);
    setup.close();
}
