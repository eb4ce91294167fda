// Ask before you fail: the capability rules, each in one place. texdec_query_support evaluates
// them silently to collect every reason, then once more in the order the work applies them for the
// status and its message; the calls that would fail (texdec_prepare, the record calls,
// texdec_decode, texdec_image_target_create) apply the same functions. All of them read
// DeviceFacts, gathered once at context creation, so the answer costs no Vulkan call and can never
// disagree with the failure.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "interface.h"
#include "gpu_backend.h"
#include "record.h"
#include "test_hooks.h"

namespace texdec {
namespace {

// A TEXDEC_DEBUG_* variable's decimal value (TEXDEC_TEST_HOOK(name) passed in, so that a build
// without test hooks keeps no name, even unoptimized), or false if unset or not a number.
bool debug_number(const char* v, uint32_t* value) {
    if (!v || !*v || strspn(v, "0123456789") != strlen(v)) return false;
    *value = uint32_t(std::min<unsigned long long>(strtoull(v, nullptr, 10), UINT32_MAX));
    return true;
}

// TEXDEC_DEBUG_NO_STORAGE_FORMATS=VK_FORMAT_R8_SNORM,VK_FORMAT_R16_UNORM: the gathered format
// properties of these formats lose STORAGE_IMAGE (both tilings), as on a device that lacks them.
void apply_debug_storage_override(DeviceFacts& f) {
    const char* list = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_NO_STORAGE_FORMATS");
    if (!list) return;
    for (uint32_t i = 0; i < f.format_count; ++i) {
        const auto formatted = vk_format_name(f.formats[i]);
        const char* name = formatted.text;
        const size_t n = strlen(name);
        for (const char* p = strstr(list, name); p; p = strstr(p + 1, name)) {
            const bool whole = (p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ',');
            if (!whole) continue;
            f.format_properties[i].optimalTilingFeatures &= ~VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
            f.format_properties[i].linearTilingFeatures &= ~VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
        }
    }
}

}  // namespace

void gather_device_facts(texdec_context* ctx) {
    DeviceFacts& f = ctx->facts;
    const VkPhysicalDeviceLimits& l = ctx->properties.limits;
    f.push_descriptor = ctx->vkd.vkCmdPushDescriptorSetKHR != nullptr;
    f.max_shared_memory = l.maxComputeSharedMemorySize;
    f.max_invocations = std::min(l.maxComputeWorkGroupInvocations, l.maxComputeWorkGroupSize[0]);
    f.max_texel_buffer_elements = l.maxTexelBufferElements;
    f.format_count = target_formats(f.formats, DeviceFacts::kMaxFormats - 1);
    f.formats[f.format_count++] = VK_FORMAT_R32_UINT;  // the tables' texel buffer
    for (uint32_t i = 0; i < f.format_count; ++i)
        ctx->vki.vkGetPhysicalDeviceFormatProperties(ctx->physical_device, f.formats[i], &f.format_properties[i]);
    uint32_t v = 0;
    if (debug_number(TEXDEC_TEST_HOOK("TEXDEC_DEBUG_MAX_SHARED_MEMORY"), &v)) f.max_shared_memory = v;
    if (debug_number(TEXDEC_TEST_HOOK("TEXDEC_DEBUG_MAX_INVOCATIONS"), &v)) f.max_invocations = v;
    const bool cpu_device = ctx->properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    f.astc_group_size = !cpu_device && f.max_invocations >= TEXDEC_ASTC_GROUP_SIZE_FAST ? TEXDEC_ASTC_GROUP_SIZE_FAST
                                                                                        : TEXDEC_ASTC_GROUP_SIZE;
    if (debug_number(TEXDEC_TEST_HOOK("TEXDEC_DEBUG_ASTC_GROUP_SIZE"), &v) &&
        (v == TEXDEC_ASTC_GROUP_SIZE || v == TEXDEC_ASTC_GROUP_SIZE_FAST) && v <= f.max_invocations)
        f.astc_group_size = v;
    apply_debug_storage_override(f);
}

VkFormatProperties format_properties(const texdec_context* ctx, VkFormat format) {
    const DeviceFacts& f = ctx->facts;
    for (uint32_t i = 0; i < f.format_count; ++i)
        if (f.formats[i] == format) return f.format_properties[i];
    // Not gathered (no format texdec writes): ask the device (thread-safe, allocates nothing).
    VkFormatProperties props{};
    ctx->vki.vkGetPhysicalDeviceFormatProperties(ctx->physical_device, format, &props);
    return props;
}

texdec_status check_device_needs(const texdec_context* ctx, const FormatEntry& format, bool report, texdec_support* support) {
    const DeviceFacts& d = ctx->facts;
    // What the family's shader uses (its workgroup and shared memory, its tables).
    const FamilyTraits& family = family_traits(format.family);
    const uint32_t shared = family.shared_bytes;
    const uint32_t invocations = family.group_size;
    bool tables_ok = true;
    if (family.reads_tables) {
        const VkFormatProperties props = format_properties(ctx, VK_FORMAT_R32_UINT);
        tables_ok = (props.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) &&
                    d.max_texel_buffer_elements >= TEXDEC_TABLES_WORDS;
    }
    texdec_support_reasons reasons = 0;
    if (!d.push_descriptor) reasons |= TEXDEC_SUPPORT_REASON_PUSH_DESCRIPTOR;
    if (d.max_shared_memory < shared) reasons |= TEXDEC_SUPPORT_REASON_SHARED_MEMORY;
    if (d.max_invocations < invocations) reasons |= TEXDEC_SUPPORT_REASON_INVOCATIONS;
    if (!tables_ok) reasons |= TEXDEC_SUPPORT_REASON_TABLES;
    if (support) {
        support->reasons |= reasons;
        support->shared_memory_needed = shared;
        support->shared_memory_offered = d.max_shared_memory;
        support->invocations_needed = invocations;
        support->invocations_offered = d.max_invocations;
    }
    if (!reasons) return TEXDEC_SUCCESS;
    const texdec_status status = TEXDEC_ERROR_MISSING_FEATURE;
    if (!report) return status;
    if (reasons & TEXDEC_SUPPORT_REASON_PUSH_DESCRIPTOR)
        return ctx->report(status, TEXDEC_MESSAGE_ERROR,
                           "%s: VK_KHR_push_descriptor is not enabled on the device, and texdec records its descriptors "
                           "with vkCmdPushDescriptorSetKHR (enable the extension when you create the VkDevice)", format.name);
    if (reasons & (TEXDEC_SUPPORT_REASON_SHARED_MEMORY | TEXDEC_SUPPORT_REASON_INVOCATIONS))
        return ctx->report(status, TEXDEC_MESSAGE_ERROR,
                           "the %s decoder needs %u bytes of compute shared memory and %u invocations per workgroup; the "
                           "device offers %u (maxComputeSharedMemorySize) and %u (maxComputeWorkGroupInvocations, "
                           "maxComputeWorkGroupSize[0])", format.name, shared, invocations, d.max_shared_memory,
                           d.max_invocations);
    return ctx->report(status, TEXDEC_MESSAGE_ERROR,
                       "the %s decoder reads its tables from an R32_UINT uniform texel buffer of %u texels; the device "
                       "offers %s, up to %u texels (maxTexelBufferElements)", format.name, unsigned(TEXDEC_TABLES_WORDS),
                       (format_properties(ctx, VK_FORMAT_R32_UINT).bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT)
                           ? "them" : "none", d.max_texel_buffer_elements);
}

texdec_status check_storage_format(const texdec_context* ctx, VkFormat view_format, VkImageTiling tiling, bool report,
                                   texdec_support* support) {
    const VkFormatProperties props = format_properties(ctx, view_format);
    const bool linear = tiling == VK_IMAGE_TILING_LINEAR;
    const VkFormatFeatureFlags features = linear ? props.linearTilingFeatures : props.optimalTilingFeatures;
    if (support) {
        support->storage_format = view_format;
        support->storage_format_features = features;
    }
    if (features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) return TEXDEC_SUCCESS;
    if (support) support->reasons |= TEXDEC_SUPPORT_REASON_STORAGE_IMAGE_FORMAT;
    if (!report) return TEXDEC_ERROR_MISSING_FEATURE;
    return ctx->report(TEXDEC_ERROR_MISSING_FEATURE, TEXDEC_MESSAGE_ERROR,
                       "the device cannot write %s as a storage image with %s tiling (its %sTilingFeatures lack "
                       "VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)", vk_format_name(view_format).text, linear ? "linear" : "optimal",
                       linear ? "linear" : "optimal");
}

texdec_status find_decoder(const texdec_context* ctx, const FormatEntry& format, const OutputInfo& output,
                           texdec_destination_kind kind, bool report, uint32_t* shader) {
    if (find_shader(format.family, kind, output.vk_format, shader)) return TEXDEC_SUCCESS;
    if (!report) return TEXDEC_ERROR_INVALID_DESTINATION;
    return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR, "no decoder writes %s texels of %s into a %s",
                       vk_format_name(output.vk_format).text, format.name, destination_name(kind));
}

DestinationFit fit_destination(uint32_t kind, VkFormat image_format, VkFormat output_format,
                               const TexelFormat** image_row) {
    *image_row = nullptr;
    if (kind == TEXDEC_DESTINATION_BUFFER) return DestinationFit::fits;
    if (!is_image_destination(kind)) return DestinationFit::unknown_kind;
    *image_row = find_texel_format(image_format ? image_format : output_format);
    if (!*image_row) return DestinationFit::unknown_image_format;
    return image_format_takes_output(**image_row, output_format) ? DestinationFit::fits
                                                                 : DestinationFit::image_format_mismatch;
}

texdec_status check_destination(const texdec_context* ctx, const FormatEntry& format, const OutputInfo& output,
                                uint32_t kind, VkFormat image_format, bool report, texdec_support* support) {
    auto add_reason = [&](texdec_support_reasons reason) {
        if (support) support->reasons |= reason;
    };
    const TexelFormat* row = nullptr;
    const DestinationFit fit = fit_destination(kind, image_format, output.vk_format, &row);
    if (fit == DestinationFit::unknown_kind) {
        add_reason(TEXDEC_SUPPORT_REASON_DESTINATION);
        return report ? ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR, "unknown destination kind %u", kind)
                      : TEXDEC_ERROR_INVALID_DESTINATION;
    }
    const auto dst_kind = texdec_destination_kind(kind);
    texdec_status first = TEXDEC_SUCCESS;  // the first failure; every reason is collected
    if (fit != DestinationFit::fits) {
        add_reason(TEXDEC_SUPPORT_REASON_DESTINATION);
        first = TEXDEC_ERROR_INVALID_DESTINATION;
        const auto image = vk_format_name(image_format ? image_format : output.vk_format);
        if (report && fit == DestinationFit::unknown_image_format)
            ctx->report(first, TEXDEC_MESSAGE_ERROR,
                        "image_format %s is not a format image targets take "
                        "(texdec_output_vk_format lists them)",
                        image.text);
        else if (report)
            ctx->report(first, TEXDEC_MESSAGE_ERROR, "%s with this output writes %s texels, not %s", format.name,
                        vk_format_name(output.vk_format).text, image.text);
    }
    if (row) {
        const texdec_status s =
            check_storage_format(ctx, row->view_format, VK_IMAGE_TILING_OPTIMAL, report && !first, support);
        if (!first) first = s;
    }
    uint32_t shader = 0;
    if (const texdec_status s = find_decoder(ctx, format, output, dst_kind, report && !first, &shader); s != TEXDEC_SUCCESS) {
        add_reason(TEXDEC_SUPPORT_REASON_DESTINATION);
        if (!first) first = s;
    }
    return first;
}

}  // namespace texdec

using namespace texdec;

extern "C" TEXDEC_API texdec_status texdec_query_support(texdec_context* ctx, const texdec_variant* variant,
                                                         texdec_support* support) {
    if (!ctx || !variant || !support)
        return null_argument(ctx, "texdec_query_support", !ctx ? "context" : !variant ? "variant" : "support");
    if (texdec_status s = check_chain(ctx, variant->next, "texdec_variant"); s != TEXDEC_SUCCESS) return s;
    *support = texdec_support{};
    const uint32_t format_bits = enum_bits(variant->format), output_bits = enum_bits(variant->output);
    const uint32_t rounding_bits = enum_bits(variant->bc_rounding), kind = enum_bits(variant->destination);

    // Every reason, silently: the variant's own, then the device's for whatever is known.
    const FormatEntry* entry = nullptr;
    OutputInfo output{};
    if (rounding_bits > TEXDEC_BC_ROUNDING_NVIDIA) support->reasons |= TEXDEC_SUPPORT_REASON_ROUNDING;
    const texdec_status resolved = resolve_output(format_bits, output_bits, true, &entry, &output);
    if (resolved == TEXDEC_ERROR_UNSUPPORTED_OUTPUT) support->reasons |= TEXDEC_SUPPORT_REASON_OUTPUT;
    else if (resolved != TEXDEC_SUCCESS) support->reasons |= TEXDEC_SUPPORT_REASON_FORMAT;
    if (kind != TEXDEC_DESTINATION_BUFFER && !is_image_destination(kind))
        support->reasons |= TEXDEC_SUPPORT_REASON_DESTINATION;
    ctx->backend->support_reasons(ctx, resolved, entry, output, kind, variant->image_format, support);

    // The status and its sentence: the same rules in the order the work applies them.
    JobPlan plan;
    texdec_status s = plan_job(ctx, format_bits, output_bits, rounding_bits, 1, 1, 1, {0, 0, nullptr, nullptr}, &plan);
    if (s != TEXDEC_SUCCESS) return s;
    return ctx->backend->support_status(ctx, plan, kind, variant->image_format);
}

void texdec::gpu::support_reasons(const texdec_context* ctx, texdec_status resolved, const FormatEntry* entry,
                                  const OutputInfo& output, uint32_t kind, VkFormat image_format,
                                  texdec_support* support) {
    if (resolved == TEXDEC_SUCCESS || resolved == TEXDEC_ERROR_UNSUPPORTED_OUTPUT)
        check_device_needs(ctx, *entry, false, support);
    if (resolved == TEXDEC_SUCCESS) check_destination(ctx, *entry, output, kind, image_format, false, support);
}

texdec_status texdec::gpu::support_status(texdec_context* ctx, const JobPlan& plan, uint32_t kind,
                                          VkFormat image_format) {
    texdec_status s = check_destination(ctx, *plan.format, plan.output, kind, image_format, true, nullptr);
    if (s == TEXDEC_SUCCESS) s = check_device_needs(ctx, *plan.format, true, nullptr);
    return s;
}
