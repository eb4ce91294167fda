/* texdec_abi_layout: prints the C layout of what samples/rust/texdec_sample.rs declares (sizes,
 * alignments, every field offset, enum constants), one "key value" per line. The Rust program
 * computes the same keys from its own #[repr(C)] declarations and fails on any difference, so
 * a change in texdec.h that the Rust declarations miss fails the rust_ffi_sample test. */
#include <texdec/texdec.h>

#include <stddef.h>
#include <stdio.h>

#define ALIGNOF(type) offsetof(struct { char c; type member; }, member)
#define TYPE(type) printf("size %s %zu\nalign %s %zu\n", #type, sizeof(type), #type, ALIGNOF(type))
#define FIELD(type, field)                                                    \
    printf("offset %s.%s %zu\nfieldsize %s.%s %zu\n", #type, #field, offsetof(type, field), #type, \
           #field, sizeof(((type*)0)->field))
#define CONSTANT(name) printf("const %s %lld\n", #name, (long long)(name))

int main(void) {
    TYPE(texdec_context_create_info);
    FIELD(texdec_context_create_info, next);
    FIELD(texdec_context_create_info, flags);
    FIELD(texdec_context_create_info, allocator);
    FIELD(texdec_context_create_info, pipeline_cache);
    FIELD(texdec_context_create_info, device_selector);
    FIELD(texdec_context_create_info, message_callback);
    FIELD(texdec_context_create_info, user_data);
    FIELD(texdec_context_create_info, max_texels_per_dispatch);

    /* Rust cannot name a field `type`: its declaration calls it type_. */
    printf("size texdec_backend_info %zu\nalign texdec_backend_info %zu\n", sizeof(texdec_backend_info),
           ALIGNOF(texdec_backend_info));
    printf("offset texdec_backend_info.type_ %zu\nfieldsize texdec_backend_info.type_ %zu\n",
           offsetof(texdec_backend_info, type), sizeof(((texdec_backend_info*)0)->type));
    FIELD(texdec_backend_info, next);
    FIELD(texdec_backend_info, backend);
    FIELD(texdec_backend_info, cpu_threads);
    FIELD(texdec_backend_info, run_tasks);
    FIELD(texdec_backend_info, run_tasks_user_data);

    TYPE(texdec_host_job);
    FIELD(texdec_host_job, next);
    FIELD(texdec_host_job, format);
    FIELD(texdec_host_job, output);
    FIELD(texdec_host_job, bc_rounding);
    FIELD(texdec_host_job, width);
    FIELD(texdec_host_job, height);
    FIELD(texdec_host_job, depth);
    FIELD(texdec_host_job, src);
    FIELD(texdec_host_job, src_size);
    FIELD(texdec_host_job, src_row_length);
    FIELD(texdec_host_job, src_image_height);
    FIELD(texdec_host_job, dst);
    FIELD(texdec_host_job, dst_size);
    FIELD(texdec_host_job, dst_row_pitch);
    FIELD(texdec_host_job, dst_slice_pitch);
    FIELD(texdec_host_job, timeout_ns);

    TYPE(texdec_status);
    TYPE(texdec_format);
    TYPE(texdec_output);
    TYPE(texdec_bc_rounding);
    TYPE(texdec_message_severity);
    CONSTANT(TEXDEC_VERSION);
    CONSTANT(TEXDEC_SUCCESS);
    CONSTANT(TEXDEC_ERROR_SOURCE_TOO_SMALL);
    CONSTANT(TEXDEC_ERROR_NO_DEVICE);
    CONSTANT(TEXDEC_FORMAT_BC1_RGBA_UNORM);
    CONSTANT(TEXDEC_FORMAT_BC3_UNORM);
    CONSTANT(TEXDEC_OUTPUT_RGBA8);
    CONSTANT(TEXDEC_BC_ROUNDING_EXACT);
    CONSTANT(TEXDEC_CONTEXT_VALIDATION);
    CONSTANT(TEXDEC_MESSAGE_INFO);
    CONSTANT(TEXDEC_MESSAGE_VALIDATION);
    CONSTANT(TEXDEC_STRUCTURE_TYPE_BACKEND_INFO);
    CONSTANT(TEXDEC_BACKEND_GPU);
    return 0;
}
