// VK_EXT_debug_utils: names for texdec's own Vulkan objects and labels around what it records, so
// that RenderDoc captures and validation messages say "texdec ...". Used only where the instance
// has the extension (texdec_context::debug_utils: its functions loaded, see vk_functions.h);
// otherwise every function here does nothing.
#include <cstdio>

#include "context.h"

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

}  // namespace texdec
