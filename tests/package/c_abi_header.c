/* c_abi_header: texdec.h alone, compiled as C99 / C11 (and as C++): the header is self-contained
 * and plain C. The sizeofs make the compiler complete every struct type. */
#include <texdec/texdec.h>

size_t texdec_abi_sizes(void);
size_t texdec_abi_sizes(void) {
    return sizeof(texdec_host_job) + sizeof(texdec_variant) + sizeof(texdec_region) +
           sizeof(texdec_regions_job) + sizeof(texdec_record_barriers) + sizeof(texdec_context_create_info) +
           sizeof(texdec_external_device) + sizeof(texdec_decode_timing) + sizeof(texdec_memory_usage) +
           sizeof(texdec_image_target_create_info) + sizeof(texdec_format_info);
}
