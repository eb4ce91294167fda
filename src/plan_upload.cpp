// texdec_plan_upload: native upload or decode, and the VkImageCreateInfo of the image (texdec.h,
// "the upload plan"). Stateless: it reads the caller's info, asks the device's format properties
// through the function it was given (or a GPU context's own), and applies the rules of the image
// target table (image_target.cpp) and of texdec_query_support (support.cpp), silently. Nothing is
// created; nothing is stored.
#include <texdec/texdec.h>

#include "backend.h"
#include "context.h"
#include "enum_bits.h"
#include "formats.h"
#include "record.h"

using namespace texdec;

namespace {

constexpr uint32_t kKnownFlags = TEXDEC_PLAN_FORCE_DECODE | TEXDEC_PLAN_OUTPUT_RGBA | TEXDEC_PLAN_PREFER_HOST;

// Whether the device enabled what sampling `info`'s format needs (Vulkan, "Features":
// textureCompressionBC, textureCompressionETC2, textureCompressionASTC_LDR; ASTC sfloat formats
// also textureCompressionASTC_HDR; the 3D footprints also VK_EXT_texture_compression_astc_3d).
bool feature_enabled(const texdec_upload_plan_info& info, const texdec_format_info& format) {
    const VkPhysicalDeviceFeatures* f = info.enabled_features;
    if (!f) return false;
    switch (format.family) {
    case TEXDEC_FAMILY_BC1_3:
    case TEXDEC_FAMILY_BC4_5:
    case TEXDEC_FAMILY_BC6H:
    case TEXDEC_FAMILY_BC7: return f->textureCompressionBC == VK_TRUE;
    case TEXDEC_FAMILY_ETC2:
    case TEXDEC_FAMILY_EAC: return f->textureCompressionETC2 == VK_TRUE;
    case TEXDEC_FAMILY_ASTC:
        if (f->textureCompressionASTC_LDR != VK_TRUE) return false;
        if ((format.flags & TEXDEC_FORMAT_FLAG_HDR) && info.astc_hdr_enabled != VK_TRUE) return false;
        return format.block_depth == 1 || info.astc_3d_enabled == VK_TRUE;
    default: return false;
    }
}

// The format features an image's usage needs (Vulkan, "Image Creation Limits": the image format
// properties refuse a usage whose feature the format lacks, so vkCreateImage may not be called
// with it). TRANSFER_DST's is asked anyway (the upload's copy).
VkFormatFeatureFlags usage_features(VkImageUsageFlags usage) {
    VkFormatFeatureFlags features = 0;
    if (usage & VK_IMAGE_USAGE_SAMPLED_BIT) features |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if (usage & VK_IMAGE_USAGE_STORAGE_BIT) features |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    if (usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) features |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    if (usage & VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT) features |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    if (usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) features |= VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
    if (usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT) features |= VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    return features;
}

// The message for a failure, through the context's callback where there is one.
texdec_status refuse(const texdec_context* ctx, texdec_status status, const char* what) {
    if (!ctx) return status;
    return ctx->report(status, TEXDEC_MESSAGE_ERROR, "texdec_plan_upload: %s", what);
}

}  // namespace

extern "C" TEXDEC_API texdec_status texdec_plan_upload(const texdec_upload_plan_info* info, texdec_upload_plan* plan) {
    texdec_context* ctx = info ? info->context : nullptr;
    if (!info || !plan) return null_argument(ctx, "texdec_plan_upload", !info ? "info" : "plan");
    if (texdec_status s = check_chain(ctx, info->next, "texdec_upload_plan_info"); s != TEXDEC_SUCCESS) return s;
    if (info->flags & ~kKnownFlags)
        return ctx ? ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                                 "texdec_plan_upload: flags 0x%x has bits that are not texdec_plan_flag_bits",
                                 unsigned(info->flags))
                   : TEXDEC_ERROR_INVALID_ARGUMENT;
    if (!info->physical_device != !info->get_format_properties)
        return refuse(ctx, TEXDEC_ERROR_INVALID_ARGUMENT,
                      info->physical_device
                          ? "physical_device is given without get_format_properties (give both or neither)"
                          : "get_format_properties is given without physical_device (give both or neither)");
    if (info->get_image_format_properties && !info->physical_device)
        return refuse(
            ctx, TEXDEC_ERROR_INVALID_ARGUMENT,
            "get_image_format_properties is given without physical_device (the function asks about that device)");

    // The format, as texdec_decode checks it.
    texdec_format_info format{};
    if (texdec_status s = texdec_format_get_info(info->format, &format); s != TEXDEC_SUCCESS)
        return ctx ? ctx->report(s, TEXDEC_MESSAGE_ERROR, "texdec_plan_upload: format %u is not a texdec_format",
                                 enum_bits(info->format))
                   : s;
    if (!(format.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
        return ctx ? ctx->report(TEXDEC_ERROR_UNSUPPORTED_FORMAT, TEXDEC_MESSAGE_ERROR,
                                 "texdec_plan_upload: %s is not decoded by this version", format.name)
                   : TEXDEC_ERROR_UNSUPPORTED_FORMAT;

    // The image: extent (0 x 0 x 0: unchecked), type, levels, layers.
    const VkExtent3D extent = info->extent;
    const bool extent_given = extent.width || extent.height || extent.depth;
    if (extent_given && (!extent.width || !extent.height || !extent.depth)) {
        if (!ctx) return TEXDEC_ERROR_INVALID_EXTENT;
        return ctx->report(TEXDEC_ERROR_INVALID_EXTENT, TEXDEC_MESSAGE_ERROR,
                           "texdec_plan_upload: extent %ux%ux%u has a 0 member (0 x 0 x 0 leaves the image unchecked; "
                           "a 2D image has depth 1)",
                           extent.width, extent.height, extent.depth);
    }
    const bool is_3d = extent.depth > 1 || format.block_depth > 1;
    const uint32_t mip_levels = info->mip_levels ? info->mip_levels : 1;
    const uint32_t array_layers = info->array_layers ? info->array_layers : 1;
    if (is_3d && array_layers > 1) {
        if (!ctx) return TEXDEC_ERROR_INVALID_ARGUMENT;
        return ctx->report(
            TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
            "texdec_plan_upload: array_layers %u for a 3D image (%s, extent.depth %u): a 3D image has one "
            "layer",
            array_layers, format.name, extent.depth);
    }

    // The output a decode writes, and its VkFormat.
    texdec_output output = TEXDEC_OUTPUT_NATIVE;
    VkFormat decoded = VK_FORMAT_UNDEFINED;
    if (info->flags & TEXDEC_PLAN_OUTPUT_RGBA) {
        output = TEXDEC_OUTPUT_RGBA8;
        if (texdec_output_vk_format(info->format, output, &decoded) != TEXDEC_SUCCESS) output = TEXDEC_OUTPUT_RGBA16F;
    }
    if (texdec_status s = texdec_output_vk_format(info->format, output, &decoded); s != TEXDEC_SUCCESS)
        return refuse(ctx, s, "no output of the format fits the flags");

    const VkImageUsageFlags usage = info->usage ? info->usage : VkImageUsageFlags(VK_IMAGE_USAGE_SAMPLED_BIT);
    const VkFormatFeatureFlags needed =
        info->format_features ? info->format_features : VkFormatFeatureFlags(VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
    const VkImageType image_type = is_3d ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;

    // The device that samples: the caller's, or a GPU context's own.
    const bool gpu_context = ctx && texdec_context_backend(ctx) == TEXDEC_BACKEND_GPU;
    VkPhysicalDevice device = info->physical_device;
    PFN_vkGetPhysicalDeviceFormatProperties get_format_properties = info->get_format_properties;
    PFN_vkGetPhysicalDeviceImageFormatProperties get_image_format_properties = info->get_image_format_properties;
    if (!device && gpu_context) {
        device = ctx->physical_device;
        get_format_properties = ctx->vki.vkGetPhysicalDeviceFormatProperties;
        get_image_format_properties = ctx->vki.vkGetPhysicalDeviceImageFormatProperties;
    }

    // Native? Every reason of the first group that applies.
    uint32_t reasons = 0;
    if (info->flags & TEXDEC_PLAN_FORCE_DECODE) reasons |= TEXDEC_PLAN_REASON_FORCED;
    if (!device) reasons |= TEXDEC_PLAN_REASON_NO_DEVICE;
    const bool enabled = feature_enabled(*info, format);
    if (!enabled) reasons |= TEXDEC_PLAN_REASON_FEATURE_NOT_ENABLED;
    const VkImageUsageFlags native_usage = usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (device && enabled) {
        // Asked only where the feature is enabled: the format is then one the device knows.
        VkFormatProperties props{};
        get_format_properties(device, format.vk_format, &props);
        const VkFormatFeatureFlags want = needed | usage_features(native_usage);
        if ((props.optimalTilingFeatures & want) != want) reasons |= TEXDEC_PLAN_REASON_FORMAT_FEATURES;
        if (get_image_format_properties && extent_given) {
            // Vulkan, "Image Creation Limits".
            VkImageFormatProperties limits{};
            const VkResult r =
                get_image_format_properties(device, format.vk_format, image_type, VK_IMAGE_TILING_OPTIMAL, native_usage,
                                            info->image_flags, &limits);
            if (r != VK_SUCCESS || extent.width > limits.maxExtent.width || extent.height > limits.maxExtent.height ||
                extent.depth > limits.maxExtent.depth || mip_levels > limits.maxMipLevels ||
                array_layers > limits.maxArrayLayers)
                reasons |= TEXDEC_PLAN_REASON_IMAGE_LIMITS;
        }
    }

    texdec_upload_plan out{};
    out.image_type = image_type;
    if (!reasons) {
        out.action = TEXDEC_UPLOAD_NATIVE;
        out.backend = TEXDEC_BACKEND_MAX_ENUM;
        out.output = TEXDEC_OUTPUT_MAX_ENUM;
        out.block_format = info->format;
        out.image_format = format.vk_format;
        out.image_flags = info->image_flags;
        out.image_usage = native_usage;
        out.storage_format = VK_FORMAT_UNDEFINED;
        *plan = out;
        return TEXDEC_SUCCESS;
    }

    // A decode: on the GPU into the image where this context can, else into host memory.
    out.output = output;
    out.block_format = TEXDEC_FORMAT_UNDEFINED;
    out.image_format = decoded;
    out.storage_format = VK_FORMAT_UNDEFINED;
    out.backend = ctx ? texdec_context_backend(ctx) : TEXDEC_BACKEND_AUTO;
    bool record = gpu_context;
    if (gpu_context) {
        const FormatEntry* entry = nullptr;
        OutputInfo output_info{};
        const texdec_status resolved =
            resolve_output(uint32_t(info->format), uint32_t(output), true, &entry, &output_info);
        if (resolved != TEXDEC_SUCCESS || check_device_needs(ctx, *entry, false, nullptr) != TEXDEC_SUCCESS) {
            // Not even texdec_decode works on this context (no push descriptors, too little
            // shared memory): the CPU backend decodes.
            reasons |= TEXDEC_PLAN_REASON_DECODER;
            out.backend = TEXDEC_BACKEND_CPU;
            record = false;
        } else {
            if (info->flags & TEXDEC_PLAN_PREFER_HOST) reasons |= TEXDEC_PLAN_REASON_HOST_PREFERRED;
            if (info->physical_device && info->physical_device != ctx->physical_device)
                reasons |= TEXDEC_PLAN_REASON_OTHER_DEVICE;
            texdec_support support{};
            const uint32_t kind = is_3d ? TEXDEC_DESTINATION_IMAGE_3D : TEXDEC_DESTINATION_IMAGE;
            ctx->backend->support_reasons(ctx, resolved, entry, output_info, kind, decoded, &support);
            if (support.reasons & TEXDEC_SUPPORT_REASON_STORAGE_IMAGE_FORMAT)
                reasons |= TEXDEC_PLAN_REASON_STORAGE_FORMAT;
            if (support.reasons & ~TEXDEC_SUPPORT_REASON_STORAGE_IMAGE_FORMAT) reasons |= TEXDEC_PLAN_REASON_DECODER;
            record = !(reasons & (TEXDEC_PLAN_REASON_HOST_PREFERRED | TEXDEC_PLAN_REASON_OTHER_DEVICE |
                                  TEXDEC_PLAN_REASON_STORAGE_FORMAT | TEXDEC_PLAN_REASON_DECODER));
            if (record) {
                // The image target rules (texdec_image_target_create): a storage view of the
                // output's own format; MUTABLE_FORMAT and a format list where it differs from
                // the image's, EXTENDED_USAGE where the device cannot store the image's format.
                const TexelFormat* row = find_texel_format(decoded);
                out.storage_format = row ? row->view_format : decoded;
                out.image_flags = info->image_flags;
                if (out.storage_format != decoded) {
                    out.image_flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
                    if (check_storage_format(ctx, decoded, VK_IMAGE_TILING_OPTIMAL, false, nullptr) != TEXDEC_SUCCESS)
                        out.image_flags |= VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
                    out.view_format_count = 2;
                    out.view_formats[0] = decoded;
                    out.view_formats[1] = out.storage_format;
                }
                out.image_usage = usage | VK_IMAGE_USAGE_STORAGE_BIT;
            }
        }
    }
    out.reasons = reasons;
    if (record) {
        out.action = TEXDEC_UPLOAD_DECODE_RECORD;
    } else {
        out.action = TEXDEC_UPLOAD_DECODE_HOST;
        out.image_flags = info->image_flags;
        out.image_usage = usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        out.storage_format = VK_FORMAT_UNDEFINED;
        out.view_format_count = 0;
    }
    *plan = out;
    return TEXDEC_SUCCESS;
}
