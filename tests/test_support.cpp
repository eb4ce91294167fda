// "Ask before you fail": texdec_query_support on a device of the test's own
// (validation on; any message fails).
//
//   support: common variants are supported, asking creates nothing, and recording them works
//       buffer, 2D and 3D image variants answer SUCCESS with their numbers; the queries create no
//       pipeline and no table (texdec_context_memory_usage); BC1 and ASTC 6x6 sRGB recorded into
//       a buffer and an image target equal texdec_decode, tolerance 0;
//   support: refusals name their reason and agree with the failing call
//       output not offered (BC6H RGBA8), unknown format / rounding / destination kind, image
//       formats targets do not take or that the output does not write; the record call, the
//       one-call path or target creation fails with the same status;
//   support: ASTC on a device whose limits are too small      TEXDEC_DEBUG_MAX_SHARED_MEMORY /
//       _MAX_INVOCATIONS fake 16 KiB and 128 invocations (Vulkan's minimum): ASTC is refused with
//       both reasons and the numbers, BC7 is not; record and decode fail alike, creating nothing;
//   support: a storage format the device cannot store         TEXDEC_DEBUG_NO_STORAGE_FORMATS
//       takes STORAGE_IMAGE from R8_SNORM (lavapipe stores every format texdec writes): BC4
//       SNORM NATIVE into images is refused, into buffers not; target creation fails alike; a
//       context without the override answers SUCCESS on the same device;
//   support: an external device without VK_KHR_push_descriptor
//       the context is created; every variant is refused for push descriptors; record and decode
//       fail with a message naming the extension; image targets still work.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/job_builder.h"
#include "support/portable.h"
#include "support/record_compare.h"

using namespace texdec_test;

namespace {

struct Answer {
    texdec_status status;
    texdec_support support;
    std::string errors;  // what the message callback got
};

Answer ask(ExternalSetup& setup, const texdec_variant& v) {
    Answer a{};
    setup.context_log.take_errors();
    a.status = texdec_query_support(setup.ctx, &v, &a.support);
    for (auto& e : setup.context_log.take_errors()) a.errors += e + "; ";
    return a;
}

// Sets an environment variable for the lifetime of the object (read at context creation).
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) { set_env(name, value); }
    ~ScopedEnv() { unset_env(name_); }

private:
    const char* name_;
};

// texdec_record_regions of one w x h region into a buffer; returns its status, the library's
// messages in `errors`. Nothing is submitted.
texdec_status record_buffer_status(ExternalSetup& setup, texdec_format format, texdec_output output, std::string* errors) {
    VulkanTestDevice& dev = *setup.device;
    HostBuffer src = dev.create_buffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    HostBuffer dst = dev.create_buffer(65536, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    texdec_region region{};
    region.extent = {16, 16, 1};
    const texdec_regions_job job =
        RegionsJobBuilder(format, output, src.buffer, src.size, &region).into_buffer(dst.buffer, dst.size);
    setup.context_log.take_errors();
    VkCommandBuffer cmd = dev.begin_commands();
    const texdec_status st = texdec_record_regions(setup.ctx, cmd, &job);
    dev.submit_and_wait(cmd);  // an empty command buffer if the call refused
    for (auto& e : setup.context_log.take_errors()) *errors += e + "; ";
    dev.destroy(src);
    dev.destroy(dst);
    return st;
}

texdec_status decode_status(texdec_context* ctx, texdec_format format, texdec_output output) {
    std::vector<uint8_t> blocks(4096), texels(16 * 16 * 8);
    const texdec_host_job job = JobBuilder(format, output, 16, 16).blocks(blocks).texels(texels);
    return texdec_decode(ctx, &job);
}

// A variant the device lacks a feature for: recording and decoding `format` to RGBA8 are refused
// with MISSING_FEATURE, the recording's message naming `what`. The memory usage after.
texdec_memory_usage check_missing_feature(ExternalSetup& setup, texdec_format format, const char* what) {
    std::string errors;
    CHECK(record_buffer_status(setup, format, TEXDEC_OUTPUT_RGBA8, &errors) == TEXDEC_ERROR_MISSING_FEATURE);
    CHECK(errors.find(what) != std::string::npos);
    CHECK(decode_status(setup.ctx, format, TEXDEC_OUTPUT_RGBA8) == TEXDEC_ERROR_MISSING_FEATURE);
    return usage_of(setup.ctx);
}

// texdec_image_target_create's answer for an 8x8 storage image of `format` on `ctx` (a target it
// creates is destroyed, and the image).
texdec_status target_create_status(VulkanTestDevice& dev, texdec_context* ctx, VkFormat format) {
    const VkImageCreateInfo ici = storage_image_info(format, 8, 8);
    TestImage image = dev.create_image(ici);
    const texdec_image_target_create_info ti = target_create_info(ici, image.image);
    texdec_image_target* target = nullptr;
    const texdec_status status = texdec_image_target_create(ctx, &ti, &target);
    if (target) texdec_image_target_destroy(ctx, target);
    dev.destroy(image);
    return status;
}

constexpr uint32_t kAstcShared = 22856, kAstcInvocations = 256;  // texdec.h, "Device needs"

}  // namespace

TEST_CASE("support: common variants are supported, asking creates nothing, and recording them works", "[support][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;
    const VkPhysicalDeviceLimits& limits = setup.device->properties().limits;
    const uint32_t offered_invocations = std::min(limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]);
    const texdec_memory_usage before = usage_of(setup.ctx);

    struct Case {
        texdec_variant v;
        uint32_t shared, invocations;
        VkFormat storage;
    } cases[] = {
        {make_variant(TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8), 0, 64, VK_FORMAT_UNDEFINED},
        {make_variant(TEXDEC_FORMAT_BC6H_SFLOAT, TEXDEC_OUTPUT_RGBA16F), 0, 64, VK_FORMAT_UNDEFINED},
        {make_variant(TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE), kAstcShared,
         kAstcInvocations, VK_FORMAT_R8G8B8A8_UNORM},  // an sRGB image is written through its UNORM twin
        {make_variant(TEXDEC_FORMAT_BC7_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE, VK_FORMAT_R8G8B8A8_SRGB),
         0, 64, VK_FORMAT_R8G8B8A8_UNORM},
        {make_variant(TEXDEC_FORMAT_EAC_R11G11_SNORM, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_IMAGE_3D), 0, 64,
         VK_FORMAT_R16G16_SNORM},
        {make_variant(TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_IMAGE_3D), kAstcShared,
         kAstcInvocations, VK_FORMAT_R16G16B16A16_SFLOAT},
        // Buffer destinations ignore image_format.
        {make_variant(TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_BUFFER, VK_FORMAT_R32_SFLOAT),
         0, 64, VK_FORMAT_UNDEFINED},
    };
    for (const Case& c : cases) {
        const Answer a = ask(setup, c.v);
        INFO("format " << c.v.format << " output " << c.v.output << " destination " << c.v.destination << ": "
                       << texdec_status_string(a.status) << " " << a.errors);
        CHECK(a.status == TEXDEC_SUCCESS);
        CHECK(a.support.reasons == 0);
        CHECK(a.support.shared_memory_needed == c.shared);
        CHECK(a.support.shared_memory_offered == limits.maxComputeSharedMemorySize);
        CHECK(a.support.invocations_needed == c.invocations);
        CHECK(a.support.invocations_offered == offered_invocations);
        CHECK(a.support.storage_format == c.storage);
        if (c.storage) CHECK((a.support.storage_format_features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) != 0);
        else CHECK(a.support.storage_format_features == 0);
    }
    // Asking compiled nothing and built no table.
    const texdec_memory_usage after = usage_of(setup.ctx);
    CHECK(after.pipelines == before.pipelines);
    CHECK(after.table_bytes == before.table_bytes);
    CHECK(after.pipelines == 0);

    // And what was answered SUCCESS records, exactly as the one-call path decodes.
    const auto bc1 = random_blocks_for(TEXDEC_FORMAT_BC1_RGBA_UNORM, 20, 12, 1);
    CHECK(record_into_buffer(setup, TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, bc1, 20, 12) ==
          decode_on_host(setup.ctx, TEXDEC_FORMAT_BC1_RGBA_UNORM, TEXDEC_OUTPUT_RGBA8, bc1, 20, 12));
    const auto astc = random_blocks_for(TEXDEC_FORMAT_ASTC_6x6_SRGB, 20, 14, 2);
    CHECK(record_into_image(setup, TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, astc, 20, 14) ==
          decode_on_host(setup.ctx, TEXDEC_FORMAT_ASTC_6x6_SRGB, TEXDEC_OUTPUT_RGBA8, astc, 20, 14));
    CHECK(usage_of(setup.ctx).pipelines == 3);  // BC1 buffer, ASTC image, ASTC buffer: the counter counts
    setup.close();
}

TEST_CASE("support: refusals name their reason and agree with the failing call", "[support][gpu]") {
    ExternalSetup setup;
    if (!setup.open()) return;

    SECTION("an output the format does not offer") {
        const Answer a = ask(setup, make_variant(TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA8));
        CHECK(a.status == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_OUTPUT);
        CHECK(a.support.invocations_needed == 64);  // the format is known: its numbers are there
        CHECK(a.errors.find("bc6h-ufloat") != std::string::npos);
        std::string errors;
        CHECK(record_buffer_status(setup, TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA8, &errors) ==
              TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(decode_status(setup.ctx, TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA8) == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(ask(setup, make_variant(TEXDEC_FORMAT_EAC_R11_SNORM, TEXDEC_OUTPUT_RGBA8)).status ==
              TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
    }
    SECTION("values outside the enums") {
        Answer a = ask(setup, make_variant(texdec_format(9999), TEXDEC_OUTPUT_RGBA8));
        CHECK(a.status == TEXDEC_ERROR_UNKNOWN_FORMAT);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_FORMAT);
        CHECK(a.support.invocations_needed == 0);  // unknown format: no numbers
        texdec_variant v = make_variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8);
        v.bc_rounding = texdec_bc_rounding(77);
        a = ask(setup, v);
        CHECK(a.status == TEXDEC_ERROR_UNSUPPORTED_ROUNDING);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_ROUNDING);
        // Every reason is collected; the status is the first in the documented order.
        v.format = texdec_format(9999);
        v.destination = texdec_destination_kind(9);
        a = ask(setup, v);
        CHECK(a.status == TEXDEC_ERROR_UNSUPPORTED_ROUNDING);
        CHECK(a.support.reasons ==
              (TEXDEC_SUPPORT_REASON_ROUNDING | TEXDEC_SUPPORT_REASON_FORMAT | TEXDEC_SUPPORT_REASON_DESTINATION));
        a = ask(setup, make_variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, texdec_destination_kind(9)));
        CHECK(a.status == TEXDEC_ERROR_INVALID_DESTINATION);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_DESTINATION);
        CHECK(a.errors.find("unknown destination kind 9") != std::string::npos);
    }
    SECTION("image formats targets do not take, or that the output does not write") {
        Answer a = ask(setup, make_variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE,
                                           VK_FORMAT_R32_SFLOAT));
        CHECK(a.status == TEXDEC_ERROR_INVALID_DESTINATION);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_DESTINATION);
        CHECK(a.errors.find("VK_FORMAT_R32_SFLOAT") != std::string::npos);
        // Target creation refuses that image alike.
        VulkanTestDevice& dev = *setup.device;
        CHECK(target_create_status(dev, setup.ctx, VK_FORMAT_R32_SFLOAT) == TEXDEC_ERROR_INVALID_DESTINATION);
        a = ask(setup, make_variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE,
                                    VK_FORMAT_R16G16B16A16_SFLOAT));
        CHECK(a.status == TEXDEC_ERROR_INVALID_DESTINATION);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_DESTINATION);
        CHECK(a.support.storage_format == VK_FORMAT_R16G16B16A16_SFLOAT);  // the target's view, storable
        CHECK(a.errors.find("writes VK_FORMAT_R8G8B8A8_UNORM texels, not VK_FORMAT_R16G16B16A16_SFLOAT") != std::string::npos);
        // Recording BC1 RGBA8 into an RGBA16F target is refused alike.
        {
            const VkImageCreateInfo ici = storage_image_info(VK_FORMAT_R16G16B16A16_SFLOAT, 8, 8);
            TestImage image = dev.create_image(ici);
            const texdec_image_target_create_info ti = target_create_info(ici, image.image);
            texdec_image_target* target = nullptr;
            REQUIRE(texdec_image_target_create(setup.ctx, &ti, &target) == TEXDEC_SUCCESS);
            HostBuffer src = dev.create_buffer(1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            texdec_region region{};
            region.extent = {8, 8, 1};
            const texdec_regions_job job =
                RegionsJobBuilder(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, src.buffer, src.size, &region)
                    .into_image(target);
            VkCommandBuffer cmd = dev.begin_commands();
            CHECK(texdec_record_regions(setup.ctx, cmd, &job) == TEXDEC_ERROR_INVALID_DESTINATION);
            dev.submit_and_wait(cmd);
            texdec_image_target_destroy(setup.ctx, target);
            dev.destroy(src);
            dev.destroy(image);
        }
        a = ask(setup, make_variant(TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_IMAGE_3D,
                                    VK_FORMAT_R8G8B8A8_UNORM));
        CHECK(a.status == TEXDEC_ERROR_INVALID_DESTINATION);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_DESTINATION);
    }
    SECTION("bad arguments") {
        texdec_variant v = make_variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8);
        texdec_support s{};
        CHECK(texdec_query_support(nullptr, &v, &s) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_query_support(setup.ctx, nullptr, &s) == TEXDEC_ERROR_INVALID_ARGUMENT);
        CHECK(texdec_query_support(setup.ctx, &v, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
        const uint32_t unknown_struct[4] = {0x7F000000, 0, 0, 0};
        v.next = unknown_struct;
        CHECK(texdec_query_support(setup.ctx, &v, &s) == TEXDEC_ERROR_INVALID_ARGUMENT);
        v.next = nullptr;
        const auto errors = setup.context_log.take_errors();  // none for the NULL context: no callback to call
        REQUIRE(errors.size() == 3);
        CHECK(errors[0].find("variant is NULL") != std::string::npos);
        CHECK(errors[1].find("support is NULL") != std::string::npos);
        CHECK(errors[2].find("texdec_variant.next") != std::string::npos);
    }
    CHECK(usage_of(setup.ctx).pipelines == 0);
    setup.close();
}

TEST_CASE("support: ASTC on a device whose limits are too small", "[support][gpu]") {
    ExternalSetup setup;
    {
        // Vulkan's guaranteed minimums; lavapipe offers more.
        ScopedEnv shared("TEXDEC_DEBUG_MAX_SHARED_MEMORY", "16384");
        ScopedEnv invocations("TEXDEC_DEBUG_MAX_INVOCATIONS", "128");
        if (!setup.open()) return;
    }
    for (texdec_format f : {TEXDEC_FORMAT_ASTC_6x6_UNORM, TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT}) {
        const Answer a = ask(setup, make_variant(f, TEXDEC_OUTPUT_RGBA16F));
        CHECK(a.status == TEXDEC_ERROR_MISSING_FEATURE);
        CHECK(a.support.reasons == (TEXDEC_SUPPORT_REASON_SHARED_MEMORY | TEXDEC_SUPPORT_REASON_INVOCATIONS));
        CHECK(a.support.shared_memory_needed == kAstcShared);
        CHECK(a.support.shared_memory_offered == 16384);
        CHECK(a.support.invocations_needed == kAstcInvocations);
        CHECK(a.support.invocations_offered == 128);
        CHECK(a.errors.find("22856 bytes of compute shared memory and 256 invocations") != std::string::npos);
        CHECK(a.errors.find("offers 16384") != std::string::npos);
    }
    // The failing calls say the same and create nothing.
    const texdec_memory_usage refused = check_missing_feature(setup, TEXDEC_FORMAT_ASTC_6x6_UNORM, "22856");
    CHECK(refused.pipelines == 0);
    CHECK(refused.table_bytes == 0);
    CHECK(refused.staging_host_bytes == 0);  // texdec_decode refused before allocating its staging
    // Other families fit the minimums.
    const Answer bc7 = ask(setup, make_variant(TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE));
    CHECK(bc7.status == TEXDEC_SUCCESS);
    CHECK(bc7.support.reasons == 0);
    CHECK(bc7.support.invocations_offered == 128);
    const auto blocks = random_blocks_for(TEXDEC_FORMAT_BC7_UNORM, 12, 8, 3);
    CHECK(record_into_buffer(setup, TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, blocks, 12, 8) ==
          decode_on_host(setup.ctx, TEXDEC_FORMAT_BC7_UNORM, TEXDEC_OUTPUT_RGBA8, blocks, 12, 8));
    setup.context_log.take_errors();
    setup.close();
}

TEST_CASE("support: a storage format the device cannot store", "[support][gpu]") {
    ExternalSetup setup;
    {
        ScopedEnv no_storage("TEXDEC_DEBUG_NO_STORAGE_FORMATS", "VK_FORMAT_R16G16_UNORM,VK_FORMAT_R8_SNORM");
        if (!setup.open()) return;
    }
    const texdec_variant bc4_image =
        make_variant(TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_IMAGE);
    const Answer a = ask(setup, bc4_image);
    CHECK(a.status == TEXDEC_ERROR_MISSING_FEATURE);
    CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_STORAGE_IMAGE_FORMAT);
    CHECK(a.support.storage_format == VK_FORMAT_R8_SNORM);
    CHECK((a.support.storage_format_features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) == 0);
    CHECK((a.support.storage_format_features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) != 0);  // only storage was taken
    CHECK(a.errors.find("cannot write VK_FORMAT_R8_SNORM as a storage image with optimal tiling") != std::string::npos);
    CHECK(ask(setup, make_variant(TEXDEC_FORMAT_EAC_R11G11_UNORM, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_IMAGE_3D))
              .status == TEXDEC_ERROR_MISSING_FEATURE);
    // Into buffers, and into the formats left alone, the same formats decode.
    CHECK(ask(setup, make_variant(TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_NATIVE)).status == TEXDEC_SUCCESS);
    CHECK(ask(setup, make_variant(TEXDEC_FORMAT_BC4_UNORM, TEXDEC_OUTPUT_NATIVE, TEXDEC_DESTINATION_IMAGE)).status ==
          TEXDEC_SUCCESS);
    CHECK(ask(setup, make_variant(TEXDEC_FORMAT_BC4_SNORM, TEXDEC_OUTPUT_RGBA16F, TEXDEC_DESTINATION_IMAGE)).status ==
          TEXDEC_SUCCESS);

    // texdec_image_target_create reads the same fact: the R8_SNORM image is refused with that status.
    VulkanTestDevice& dev = *setup.device;
    const VkImageCreateInfo ici = storage_image_info(VK_FORMAT_R8_SNORM, 8, 8);
    TestImage image = dev.create_image(ici);
    const texdec_image_target_create_info ti = target_create_info(ici, image.image);
    texdec_image_target* target = nullptr;
    setup.context_log.take_errors();
    CHECK(texdec_image_target_create(setup.ctx, &ti, &target) == TEXDEC_ERROR_MISSING_FEATURE);
    CHECK(target == nullptr);
    const auto errors = setup.context_log.take_errors();
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("VK_FORMAT_R8_SNORM") != std::string::npos);

    // A context created without the override, on the same device, answers and creates.
    texdec_context* plain = nullptr;
    const texdec_external_device ext = dev.external_device();
    REQUIRE(texdec_context_create_external(nullptr, &ext, &plain) == TEXDEC_SUCCESS);
    texdec_support s{};
    CHECK(texdec_query_support(plain, &bc4_image, &s) == TEXDEC_SUCCESS);
    CHECK(texdec_image_target_create(plain, &ti, &target) == TEXDEC_SUCCESS);
    texdec_image_target_destroy(plain, target);
    texdec_context_destroy(plain);
    dev.destroy(image);
    setup.close();
}

TEST_CASE("support: an external device without VK_KHR_push_descriptor", "[support][gpu]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.push_descriptor = false;
    if (!setup.open(options)) return;
    for (const texdec_variant& v :
         {make_variant(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8),
          make_variant(TEXDEC_FORMAT_ASTC_8x8_SRGB, TEXDEC_OUTPUT_RGBA8, TEXDEC_DESTINATION_IMAGE)}) {
        const Answer a = ask(setup, v);
        CHECK(a.status == TEXDEC_ERROR_MISSING_FEATURE);
        CHECK(a.support.reasons == TEXDEC_SUPPORT_REASON_PUSH_DESCRIPTOR);
        CHECK(a.errors.find("VK_KHR_push_descriptor") != std::string::npos);
    }
    // A variant wrong in itself still says so first.
    CHECK(ask(setup, make_variant(TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA8)).status ==
          TEXDEC_ERROR_UNSUPPORTED_OUTPUT);

    const texdec_memory_usage u = check_missing_feature(setup, TEXDEC_FORMAT_BC1_RGB_UNORM, "VK_KHR_push_descriptor");
    CHECK(u.pipelines == 0);
    CHECK(u.staging_host_bytes == 0);

    // Image targets need no push descriptors.
    CHECK(target_create_status(*setup.device, setup.ctx, VK_FORMAT_R8G8B8A8_UNORM) == TEXDEC_SUCCESS);
    setup.context_log.take_errors();
    setup.close();
}
