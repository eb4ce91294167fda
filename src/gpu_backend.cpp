// The GPU backend behind the backend seam (backend.h, gpu_backend.h): forwards to the Vulkan
// paths (decode_host.cpp, support.cpp, record.cpp) and tears the context's Vulkan state down.
#include "gpu_backend.h"

#include "record.h"
#include "vulkan_loader.h"

namespace texdec::gpu {
namespace {

class GpuBackend final : public Backend {
public:
    texdec_backend kind() const override { return TEXDEC_BACKEND_GPU; }

    texdec_status require_device(const texdec_context*, const char*) const override { return TEXDEC_SUCCESS; }

    texdec_status decode(texdec_context* ctx, const texdec_host_job& job, const JobPlan& plan,
                         texdec_decode_timing* timing, uint64_t start_ns) override {
        return gpu::decode(ctx, &job, plan, timing, start_ns);
    }
    void scratch_size(texdec_context* ctx, const JobPlan& plan, uint64_t* host_bytes, uint64_t* device_bytes) override {
        gpu::scratch_size(ctx, plan, host_bytes, device_bytes);
    }

    texdec_status prepare(texdec_context* ctx, const JobPlan& plan, texdec_destination_kind dst_kind,
                          const TexelFormat* image_format, Creation creation) override {
        return prepare_variant(ctx, plan, dst_kind, image_format, creation);
    }

    void support_reasons(const texdec_context* ctx, texdec_status resolved, const FormatEntry* entry,
                         const OutputInfo& output, uint32_t kind, VkFormat image_format,
                         texdec_support* support) override {
        gpu::support_reasons(ctx, resolved, entry, output, kind, image_format, support);
    }
    texdec_status support_status(texdec_context* ctx, const JobPlan& plan, uint32_t kind,
                                 VkFormat image_format) override {
        return gpu::support_status(ctx, plan, kind, image_format);
    }

    void memory_usage(texdec_context* ctx, texdec_memory_usage* usage) override { gpu::memory_usage(ctx, usage); }
    texdec_status release_staging(texdec_context* ctx) override { return gpu::release_staging(ctx); }

    // The context's Vulkan objects, then (own contexts) its device, messenger and instance, and
    // last the Vulkan loader (the instance's functions live in it). Whatever a failed creation
    // left empty is skipped.
    void destroy(texdec_context* ctx) override {
        if (ctx->device && ctx->vkd.vkDestroyPipeline) {
            destroy_host_staging(ctx);
            destroy_luts(ctx);
            destroy_pipelines(ctx);
            if (ctx->owns_pipeline_cache)
                ctx->vkd.vkDestroyPipelineCache(ctx->device, ctx->pipeline_cache, ctx->allocator);
        }
        if (ctx->owns_device) {
            if (ctx->device && ctx->vkd.vkDestroyDevice) ctx->vkd.vkDestroyDevice(ctx->device, ctx->allocator);
            else if (ctx->device && ctx->vki.vkGetDeviceProcAddr) {
                auto destroy =
                    reinterpret_cast<PFN_vkDestroyDevice>(ctx->vki.vkGetDeviceProcAddr(ctx->device, "vkDestroyDevice"));
                if (destroy) destroy(ctx->device, ctx->allocator);
            }
            if (ctx->messenger) ctx->vki.vkDestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, ctx->allocator);
            if (ctx->instance && ctx->vki.vkDestroyInstance) ctx->vki.vkDestroyInstance(ctx->instance, ctx->allocator);
        }
        close_vulkan_loader(ctx->loader_library);
        ctx->loader_library = nullptr;
    }
};

}  // namespace

Backend* backend() {
    static GpuBackend gpu;
    return &gpu;
}

}  // namespace texdec::gpu
