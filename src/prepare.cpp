// texdec_prepare and texdec_variant_ready: decoder variants created ahead of recording (on any
// thread), and whether recording one would create anything.
#include <cstdio>

#include "context.h"
#include "record.h"

using namespace texdec;

namespace {

// A variant checked as a record call of it would be checked.
struct CheckedVariant {
    JobPlan plan;  // format, output and rounding (the extent is 1x1x1)
    texdec_destination_kind destination = TEXDEC_DESTINATION_BUFFER;
    const TexelFormat* image_format = nullptr;  // image destinations: the image format's row
};

// Checks one variant; `who` names it in messages ("texdec_prepare: variant 2").
texdec_status check_variant(const texdec_context* ctx, const texdec_variant& v, const char* who, CheckedVariant* out) {
    auto fail = [&](texdec_status s, const char* what) {
        ctx->report(s, TEXDEC_MESSAGE_ERROR, "%s: %s", who, what);
        return s;
    };
    char what[256];
    std::snprintf(what, sizeof what, "%s: texdec_variant", who);  // the struct rule's one check
    if (texdec_status s = check_chain(ctx, v.next, what); s != TEXDEC_SUCCESS) return s;
    const uint32_t format = enum_bits(v.format), output = enum_bits(v.output), rounding = enum_bits(v.bc_rounding);
    // The checks of a record call; the messages are this function's, to name the variant.
    const texdec_status s = plan_job(nullptr, format, output, rounding, 1, 1, 1, {0, 0, nullptr, nullptr}, &out->plan);
    if (s == TEXDEC_ERROR_UNSUPPORTED_ROUNDING) {
        std::snprintf(what, sizeof what, "bc_rounding %u is not a texdec_bc_rounding", rounding);
        return fail(s, what);
    }
    if (s == TEXDEC_ERROR_UNKNOWN_FORMAT) {
        std::snprintf(what, sizeof what, "format %u is not a texdec_format", format);
        return fail(s, what);
    }
    if (s == TEXDEC_ERROR_UNSUPPORTED_FORMAT) {
        std::snprintf(what, sizeof what, "format %s is not implemented in this version", out->plan.format->name);
        return fail(s, what);
    }
    if (s == TEXDEC_ERROR_UNSUPPORTED_OUTPUT) {
        refused_output_message(what, sizeof what, output, out->plan.format->name);
        return fail(s, what);
    }
    if (s != TEXDEC_SUCCESS) return fail(s, texdec_status_string(s));
    const uint32_t kind = enum_bits(v.destination);
    const DestinationFit fit = fit_destination(kind, v.image_format, out->plan.output.vk_format, &out->image_format);
    if (fit == DestinationFit::unknown_kind) {
        std::snprintf(what, sizeof what, "destination %u is not a texdec_destination_kind", kind);
        return fail(TEXDEC_ERROR_INVALID_DESTINATION, what);
    }
    if (kind == TEXDEC_DESTINATION_BUFFER && v.image_format != VK_FORMAT_UNDEFINED)
        return fail(TEXDEC_ERROR_INVALID_DESTINATION, "image_format is set for a buffer destination (leave it VK_FORMAT_UNDEFINED)");
    if (fit != DestinationFit::fits) {
        std::snprintf(what, sizeof what,
                      "an image of %s cannot hold %s -> %s texels (texdec_image_target_create_info lists "
                      "what each image format holds)",
                      vk_format_name(v.image_format).text, out->plan.format->name, output_label(output).text);
        return fail(TEXDEC_ERROR_INVALID_DESTINATION, what);
    }
    out->destination = texdec_destination_kind(kind);
    return TEXDEC_SUCCESS;
}

}  // namespace

extern "C" TEXDEC_API texdec_status texdec_prepare(texdec_context* ctx, uint32_t variant_count, const texdec_variant* variants) {
    if (!ctx || (variant_count && !variants)) return null_argument(ctx, "texdec_prepare", !ctx ? "context" : "variants");
    // Every variant is checked before anything is created; then each is checked again (cheap,
    // and no per-call storage) and created.
    char who[48];
    CheckedVariant checked;
    for (uint32_t i = 0; i < variant_count; ++i) {
        std::snprintf(who, sizeof who, "texdec_prepare: variant %u", i);
        if (texdec_status s = check_variant(ctx, variants[i], who, &checked); s != TEXDEC_SUCCESS) return s;
    }
    for (uint32_t i = 0; i < variant_count; ++i) {
        std::snprintf(who, sizeof who, "texdec_prepare: variant %u", i);
        check_variant(ctx, variants[i], who, &checked);  // succeeded above
        texdec_status s = ctx->backend->prepare(ctx, checked.plan, checked.destination, checked.image_format,
                                                Creation::create_missing);
        if (s != TEXDEC_SUCCESS) return s;
    }
    return TEXDEC_SUCCESS;
}

extern "C" TEXDEC_API texdec_status texdec_variant_ready(texdec_context* ctx, const texdec_variant* variant) {
    if (!ctx || !variant) return null_argument(ctx, "texdec_variant_ready", !ctx ? "context" : "variant");
    CheckedVariant checked;
    if (texdec_status s = check_variant(ctx, *variant, "texdec_variant_ready", &checked); s != TEXDEC_SUCCESS) return s;
    return ctx->backend->prepare(ctx, checked.plan, checked.destination, checked.image_format, Creation::lookup_only);
}
