// VK_EXT_debug_utils: names for texdec's own Vulkan objects and labels around what it records, so
// that RenderDoc captures and validation messages say "texdec ...". Used only where the instance
// has the extension (texdec_context::debug_utils: its functions loaded, see vk_functions.h);
// otherwise every function here does nothing.
#include <cstdio>

#include "context.h"
#include "interface.h"

namespace texdec {

void name_object(const texdec_context* ctx, VkObjectType type, uint64_t handle, const char* fmt, ...) {
    if (!ctx->debug_utils || !handle) return;
    char name[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(name, sizeof name, fmt, args);
    va_end(args);
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    ctx->vki.vkSetDebugUtilsObjectNameEXT(ctx->device, &info);  // a name only helps debugging: its failure is ignored
}

void begin_label(const texdec_context* ctx, VkCommandBuffer cmd, const char* fmt, ...) {
    if (!ctx->debug_utils) return;
    char text[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = text;  // the layer and the driver copy it
    ctx->vki.vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
}

void end_label(const texdec_context* ctx, VkCommandBuffer cmd) {
    if (ctx->debug_utils) ctx->vki.vkCmdEndDebugUtilsLabelEXT(cmd);
}

const char* store_name(uint32_t store_kind) {
    switch (store_kind) {
    case TEXDEC_STORE_RGBA8: return "rgba8";
    case TEXDEC_STORE_RGBA16F: return "rgba16f";
    case TEXDEC_STORE_R8: return "r8";
    case TEXDEC_STORE_RG8: return "rg8";
    case TEXDEC_STORE_R16: return "r16";
    case TEXDEC_STORE_RG16: return "rg16";
    default: return "?";
    }
}

const char* destination_name(uint32_t kind) {
    return kind == TEXDEC_DESTINATION_IMAGE_3D ? "3D image" : kind == TEXDEC_DESTINATION_IMAGE ? "image" : "buffer";
}

}  // namespace texdec
