// texdec_image_target: the caller's VkImage, checked once, with one storage view per mip level
// so that recording into any level needs no allocation.
#include <algorithm>
#include <bit>
#include <new>

#include "context.h"
#include "record.h"

using namespace texdec;

namespace {

// How texdec writes image targets: which VkFormats, through which storage view, with which store
// swizzle (the columns of the texel-format table in formats.cpp).
//
// The image shaders declare their storage image with the SPIR-V Image Format of their output
// (Rgba8, Rgba16f, R8, ...), and Vulkan's "Compatibility Between SPIR-V Image Formats and Vulkan
// Formats" pairs each of those with exactly one VkFormat (Rgba8: R8G8B8A8_UNORM). So the storage
// view is always of the output's UNORM/SFLOAT/SNORM format, and an image of any other format is
// written through such a view: it must be created with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT (every
// format of an RGBA8 row is in the 32-bit compatibility class, so the view is allowed).
//   - *_SRGB: the same bytes as the UNORM twin; sRGB formats cannot be storage images anyway.
//   - A8B8G8R8_*_PACK32: packed formats, one 32-bit word with R in bits 0..7, G in 8..15, B in
//     16..23 and A in 24..31 (Vulkan, VkFormat and "Packed Formats"); on a little-endian machine
//     (asserted below) that word's bytes in memory are R, G, B, A: exactly those of R8G8B8A8.
//   - B8G8R8A8_*: bytes B, G, R, A. Written through the R8G8B8A8_UNORM view with R and B swapped by
//     the shader (TEXDEC_STORE_SWIZZLE_BGRA), so every byte lands where the image wants it.
// Why not a view of the image's own format where the device can store it: the Rgba8 declaration
// does not match such a view, a format-less (Unknown) declaration needs
// shaderStorageImageWriteWithoutFormat (not on every device, nor from Vulkan 1.3 for every format),
// and storage support for A8B8G8R8 and B8G8R8A8 is optional ("Mandatory format support: 4
// byte-sized components" lists STORAGE_IMAGE for R8G8B8A8_UNORM, not for them). A view of the
// output's own format works alike on NVIDIA, AMD, Intel and lavapipe with one set of shaders. The
// cost of MUTABLE_FORMAT (a driver may give up compression) is what VkImageFormatListCreateInfo is
// for: a list naming the image's format and the view format, which texdec_image_target_create checks.
//
// Not written: R8_SRGB / R8G8_SRGB (no output of 1 or 2 channels is sRGB-encoded), *_UINT, *_SINT,
// *_USCALED, *_SSCALED (decoded colours are not integers), and formats whose bytes no output has.
static_assert(std::endian::native == std::endian::little, "A8B8G8R8_*_PACK32 rows assume little-endian words");

// The VkImageFormatListCreateInfo chained to the create info (nullptr if none). INVALID_ARGUMENT
// for any other structure in the chain, or a second list.
texdec_status read_chain(const texdec_context* ctx, const void* next, const VkImageFormatListCreateInfo** list) {
    *list = nullptr;
    for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO)
            return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                               "image target: next chains a structure of VkStructureType %d; texdec_image_target_create_info "
                               "takes a VkImageFormatListCreateInfo (VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO) only",
                               int(s->sType));
        if (*list)
            return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                               "image target: next chains two VkImageFormatListCreateInfo structures");
        *list = reinterpret_cast<const VkImageFormatListCreateInfo*>(s);
    }
    return TEXDEC_SUCCESS;
}

// The image's extent, mip levels and layers against what the device allows an image of its
// description (Vulkan's "Image Creation Limits": the VkImageFormatProperties of its format, type,
// tiling, usage and flags where the device answers, else the maxImageDimension* and
// maxImageArrayLayers limits) and against what any image can have. INVALID_ARGUMENT with a message
// naming the member: no image with such a VkImageCreateInfo can exist. Record calls address texels
// with 32-bit signed offsets (VkOffset3D), so no edge may exceed INT32_MAX.
texdec_status check_image_limits(const texdec_context* ctx, const texdec_image_target_create_info& info, bool is_3d,
                                 VkImageTiling tiling) {
    const VkPhysicalDeviceLimits& lim = ctx->properties.limits;
    uint32_t max_edge = std::min<uint32_t>(is_3d ? lim.maxImageDimension3D : lim.maxImageDimension2D, INT32_MAX);
    uint32_t max_depth = is_3d ? max_edge : 1;
    uint32_t max_layers = lim.maxImageArrayLayers, max_mips = kMaxMipLevels;
    const char* source = is_3d ? "maxImageDimension3D" : "maxImageDimension2D";
    VkImageFormatProperties props{};
    // Asked only with flags Vulkan 1.1 defines (the query would be invalid usage with others).
    constexpr VkImageCreateFlags kCoreFlags = 0xFFF;
    if (!(info.flags & ~kCoreFlags) &&
        ctx->vki.vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device, info.format, info.image_type, tiling,
                                                          info.usage, info.flags, &props) == VK_SUCCESS) {
        max_edge = std::min({max_edge, props.maxExtent.width, props.maxExtent.height});
        max_depth = std::min(max_depth, props.maxExtent.depth);
        max_layers = std::min(max_layers, props.maxArrayLayers);
        max_mips = std::min(max_mips, props.maxMipLevels);
        source = "the device's VkImageFormatProperties for this image";
    }
    auto fail = [&](const char* member, uint32_t value, uint32_t most) {
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "image target: %s %u is above %u (%s): no such image can exist", member, value, most,
                           source);
    };
    if (info.extent.width > max_edge) return fail("extent.width", info.extent.width, max_edge);
    if (info.extent.height > max_edge) return fail("extent.height", info.extent.height, max_edge);
    if (info.extent.depth > max_depth) return fail("extent.depth", info.extent.depth, max_depth);
    if (info.array_layers > max_layers) return fail("array_layers", info.array_layers, max_layers);
    const uint32_t largest = std::max({info.extent.width, info.extent.height, is_3d ? info.extent.depth : 1u});
    const uint32_t chain = uint32_t(std::bit_width(largest));  // floor(log2(largest)) + 1
    if (info.mip_levels > chain)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "image target: mip_levels %u is more than a %ux%ux%u image has (%u)", info.mip_levels,
                           info.extent.width, info.extent.height, info.extent.depth, chain);
    if (info.mip_levels > max_mips) return fail("mip_levels", info.mip_levels, max_mips);
    return TEXDEC_SUCCESS;
}

void destroy_views(texdec_context* ctx, texdec_image_target* target) {
    for (VkImageView view : target->views)
        if (view) ctx->vkd.vkDestroyImageView(ctx->device, view, ctx->allocator);
}

}  // namespace

namespace texdec {

bool image_format_takes_output(const TexelFormat& image, VkFormat output_format) {
    return storage_format(output_format) == image.view_format;  // R8G8B8A8_SRGB texels: its UNORM twin's bytes
}

texdec_status check_target_output(const texdec_context* ctx, const texdec_image_target& target, const JobPlan& plan) {
    const TexelFormat& image = *target.format;
    if (image_format_takes_output(image, plan.output.vk_format)) return TEXDEC_SUCCESS;
    const VkFormat srgb_twin = find_texel_format(image.view_format)->srgb_format;  // views are rows
    return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                       "%s with this output gives %s texels; the target image is %s, which takes %s%s%s texels",
                       plan.format->name, vk_format_name(plan.output.vk_format).text, image.name,
                       vk_format_name(image.view_format).text, srgb_twin ? " or " : "",
                       srgb_twin ? vk_format_name(srgb_twin).text : "");
}

uint32_t target_formats(VkFormat* formats, uint32_t max) {
    uint32_t n = 0;
    auto add = [&](VkFormat f) {
        if (n < max && std::find(formats, formats + n, f) == formats + n) formats[n++] = f;
    };
    for (const TexelFormat& row : texel_formats()) {
        add(row.format);
        add(row.view_format);
    }
    return n;
}

}  // namespace texdec

extern "C" TEXDEC_API texdec_status texdec_image_target_create(texdec_context* ctx, const texdec_image_target_create_info* info,
                                                               texdec_image_target** out_target) {
    if (!ctx) return null_argument(ctx, "texdec_image_target_create", "context");
    if (out_target) *out_target = nullptr;
    // A CPU context answers WRONG_BACKEND whatever the other arguments.
    if (texdec_status s = ctx->backend->require_device(ctx, "texdec_image_target_create"); s != TEXDEC_SUCCESS)
        return s;
    if (!info || !out_target) return null_argument(ctx, "texdec_image_target_create", !info ? "info" : "out_target");
    auto fail = [&](const char* what) { return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR, "image target: %s", what); };
    const VkImageFormatListCreateInfo* format_list = nullptr;
    if (texdec_status s = read_chain(ctx, info->next, &format_list); s != TEXDEC_SUCCESS) return s;
    if (!info->image) return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "image target: image is VK_NULL_HANDLE");
    const bool is_3d = info->image_type == VK_IMAGE_TYPE_3D;
    if (!is_3d && info->image_type != VK_IMAGE_TYPE_2D) return fail("image_type must be VK_IMAGE_TYPE_2D or VK_IMAGE_TYPE_3D");
    if (info->extent.width == 0 || info->extent.height == 0 || info->extent.depth == 0 || info->mip_levels == 0 ||
        info->array_layers == 0)
        return ctx->report(TEXDEC_ERROR_INVALID_EXTENT, TEXDEC_MESSAGE_ERROR, "image target: extent, mip_levels and array_layers must be at least 1");
    if (info->mip_levels > kMaxMipLevels) return fail("mip_levels is above 32");
    if (is_3d && info->array_layers != 1) return fail("a 3D image has array_layers 1");
    if (!is_3d && info->extent.depth != 1) return fail("a 2D image has extent.depth 1");
    if (info->tiling == VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT)
        return ctx->report(
            TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
            "image target: tiling VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT is not supported (texdec writes "
            "OPTIMAL and LINEAR images)");
    if (info->tiling != VK_IMAGE_TILING_OPTIMAL && info->tiling != VK_IMAGE_TILING_LINEAR)
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                           "image target: tiling %d is not VK_IMAGE_TILING_OPTIMAL or VK_IMAGE_TILING_LINEAR",
                           int(info->tiling));
    const VkImageTiling tiling = info->tiling;
    if (!(info->usage & VK_IMAGE_USAGE_STORAGE_BIT)) return fail("the image lacks VK_IMAGE_USAGE_STORAGE_BIT (texdec writes it with imageStore)");
    const TexelFormat* row = find_texel_format(info->format);
    const auto image_name = vk_format_name(info->format);
    if (!row)
        return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                           "image target: %s is not a format texdec writes (texdec_image_target_create_info lists them)",
                           image_name.text);
    if (texdec_status s = check_image_limits(ctx, *info, is_3d, tiling); s != TEXDEC_SUCCESS) return s;
    const VkFormat view_format = row->view_format;
    const auto view_name = vk_format_name(view_format);
    if (view_format != info->format) {
        // STORAGE usage on the image is valid only with EXTENDED_USAGE where the device cannot store
        // the image's own format (the usage rule of VkImageCreateInfo: sRGB formats, often B8G8R8A8).
        const bool needs_extended_usage = check_storage_format(ctx, info->format, tiling, false, nullptr) != TEXDEC_SUCCESS;
        if (!(info->flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
            return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                               "image target: texdec writes a %s image through %s storage views (the one format its shaders' "
                               "storage image declaration matches): create the image with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT%s",
                               image_name.text, view_name.text,
                               needs_extended_usage ? " and VK_IMAGE_CREATE_EXTENDED_USAGE_BIT (the device cannot store that "
                                                      "format itself)"
                                                    : "");
        if (needs_extended_usage && !(info->flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT))
            return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                               "image target: a %s image with STORAGE usage needs VK_IMAGE_CREATE_EXTENDED_USAGE_BIT (the device "
                               "cannot store %s itself; texdec stores through %s views)",
                               image_name.text, image_name.text, view_name.text);
    }
    // Views of an image created with a format list must have a format of the list.
    if (format_list && format_list->viewFormatCount) {
        if (!format_list->pViewFormats)
            return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR,
                               "image target: the chained VkImageFormatListCreateInfo has viewFormatCount %u and pViewFormats NULL",
                               format_list->viewFormatCount);
        const VkFormat* end = format_list->pViewFormats + format_list->viewFormatCount;
        if (std::find(format_list->pViewFormats, end, view_format) == end)
            return ctx->report(TEXDEC_ERROR_INVALID_DESTINATION, TEXDEC_MESSAGE_ERROR,
                               "image target: the image's VkImageFormatListCreateInfo lacks %s, the format of the storage views "
                               "texdec creates on a %s image: add it to the list the image is created with",
                               view_name.text, image_name.text);
    }
    if (texdec_status s = check_storage_format(ctx, view_format, tiling, true, nullptr); s != TEXDEC_SUCCESS) return s;

    auto* target = new (std::nothrow) texdec_image_target;
    if (!target) return TEXDEC_ERROR_OUT_OF_MEMORY;
    target->image = info->image;
    target->is_3d = is_3d;
    target->format = row;
    target->extent = info->extent;
    target->mip_levels = info->mip_levels;
    target->array_layers = info->array_layers;
    target->usage = info->usage;
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
        name_object(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, handle_bits(target->views[level]), "texdec image target mip %u (%s %s view)", level,
                    view_name.text, is_3d ? "3D" : "2D-array");
    }
    *out_target = target;
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API void texdec_image_target_destroy(texdec_context* ctx, texdec_image_target* target) {
    if (!ctx || !target) return;
    destroy_views(ctx, target);
    delete target;
}
