// texdec_image_target: the caller's VkImage, checked once, with one storage view per mip level
// so that recording into any level needs no allocation.
#include <algorithm>
#include <new>

#include "context.h"
#include "job.h"

using namespace texdec;

// The storage view format for an image format texdec can write (one some output produces), or
// UNDEFINED.
VkFormat texdec::storage_view_format(VkFormat image_format) {
    switch (image_format) {
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM: case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_SNORM:
    case VK_FORMAT_R16_UNORM: case VK_FORMAT_R16_SNORM: case VK_FORMAT_R16G16_UNORM: case VK_FORMAT_R16G16_SNORM:
        return storage_format(image_format);
    default: return VK_FORMAT_UNDEFINED;
    }
}

bool texdec::image_holds_output(VkFormat image_format, const OutputInfo& output) {
    const VkFormat view = storage_view_format(image_format);
    return view != VK_FORMAT_UNDEFINED && view == storage_format(output.vk_format);
}

namespace {

void destroy_views(texdec_context* ctx, texdec_image_target* target) {
    for (VkImageView view : target->views)
        if (view) ctx->vkd.vkDestroyImageView(ctx->device, view, ctx->allocator);
}

}  // namespace

extern "C" TEXDEC_API texdec_status texdec_image_target_create(texdec_context* ctx, const texdec_image_target_create_info* info,
                                                               texdec_image_target** out_target) {
    if (!ctx || !info || !out_target)
        return null_argument(ctx, "texdec_image_target_create", !ctx ? "context" : !info ? "info" : "out_target");
    *out_target = nullptr;
    auto fail = [&](const char* what) { return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR, "image target: %s", what); };
    if (!info->image) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "image target: image is VK_NULL_HANDLE");
    const bool is_3d = info->image_type == VK_IMAGE_TYPE_3D;
    if (!is_3d && info->image_type != VK_IMAGE_TYPE_2D) return fail("image_type must be VK_IMAGE_TYPE_2D or VK_IMAGE_TYPE_3D");
    if (info->extent.width == 0 || info->extent.height == 0 || info->extent.depth == 0 || info->mip_levels == 0 ||
        info->array_layers == 0)
        return ctx->report(TEXDEC_ERROR_INVALID_EXTENT, TEXDEC_MESSAGE_ERROR, "image target: extent, mip_levels and array_layers must be at least 1");
    if (info->mip_levels > kMaxMipLevels) return fail("mip_levels is above 32");
    if (is_3d && info->array_layers != 1) return fail("a 3D image has array_layers 1");
    if (!is_3d && info->extent.depth != 1) return fail("a 2D image has extent.depth 1");
    if (!(info->usage & VK_IMAGE_USAGE_STORAGE_BIT)) return fail("the image lacks VK_IMAGE_USAGE_STORAGE_BIT (texdec writes it with imageStore)");
    const VkFormat view_format = storage_view_format(info->format);
    if (view_format == VK_FORMAT_UNDEFINED)
        return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                           "image target: VkFormat %d is not a format texdec decodes to (texdec_output_vk_format lists them)",
                           int(info->format));
    const bool srgb = view_format != info->format;
    if (srgb && !(info->flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
        return fail("an sRGB image is written through an R8G8B8A8_UNORM view: create it with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT "
                    "(and VK_IMAGE_CREATE_EXTENDED_USAGE_BIT, since sRGB formats do not support storage)");
    auto features_of = [&](VkFormat format) {
        VkFormatProperties props{};
        ctx->vki.vkGetPhysicalDeviceFormatProperties(ctx->physical_device, format, &props);
        return info->tiling == VK_IMAGE_TILING_LINEAR ? props.linearTilingFeatures : props.optimalTilingFeatures;
    };
    // STORAGE usage on an sRGB image is valid only with EXTENDED_USAGE, unless the device can
    // store the sRGB format itself (the usage rule of VkImageCreateInfo).
    if (srgb && !(info->flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) && !(features_of(info->format) & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
        return fail("an sRGB image with STORAGE usage needs VK_IMAGE_CREATE_EXTENDED_USAGE_BIT (the device cannot store the sRGB "
                    "format itself)");
    const VkFormatFeatureFlags features = features_of(view_format);
    if (!(features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
        return ctx->report(TEXDEC_ERROR_MISSING_FEATURE, TEXDEC_MESSAGE_ERROR,
                           "image target: the device cannot write VkFormat %d as a storage image with this tiling (R8/RG8/R16/RG16 "
                           "need shaderStorageImageExtendedFormats)", int(view_format));

    auto* target = new (std::nothrow) texdec_image_target;
    if (!target) return TEXDEC_ERROR_OUT_OF_MEMORY;
    target->image = info->image;
    target->is_3d = is_3d;
    target->format = info->format;
    target->view_format = view_format;
    target->extent = info->extent;
    target->mip_levels = info->mip_levels;
    target->array_layers = info->array_layers;
    // With EXTENDED_USAGE the image's usage may include bits its own format lacks; the view
    // declares storage alone (VkImageViewUsageCreateInfo, Vulkan 1.1).
    VkImageViewUsageCreateInfo view_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
    view_usage.usage = VK_IMAGE_USAGE_STORAGE_BIT;
    for (uint32_t level = 0; level < info->mip_levels; ++level) {
        VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        ci.pNext = &view_usage;
        ci.image = info->image;
        ci.viewType = is_3d ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D_ARRAY;
        ci.format = view_format;
        ci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, info->array_layers};
        VkResult r = ctx->vkd.vkCreateImageView(ctx->device, &ci, ctx->allocator, &target->views[level]);
        if (r != VK_SUCCESS) {
            destroy_views(ctx, target);
            delete target;
            return vk_failure(ctx, r, "vkCreateImageView (image target)");
        }
    }
    *out_target = target;
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API void texdec_image_target_destroy(texdec_context* ctx, texdec_image_target* target) {
    if (!ctx || !target) return;
    destroy_views(ctx, target);
    delete target;
}
