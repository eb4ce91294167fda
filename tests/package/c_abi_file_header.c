/* c_abi_header: texdec_file.h alone (it includes texdec.h), compiled as C99 / C11 and as C++:
 * the header is self-contained and plain C. The sizeofs make the compiler complete every struct. */
#include <texdec/texdec_file.h>

size_t texdec_file_abi_sizes(void);
size_t texdec_file_abi_sizes(void) {
    return sizeof(texdec_upload_plan_info) + sizeof(texdec_upload_plan) + sizeof(texdec_file_open_info) +
           sizeof(texdec_file_info) + sizeof(texdec_file_surface) + sizeof(texdec_file_key_value) +
           sizeof(texdec_file_level_layout) + sizeof(texdec_file_decode_job) + sizeof(texdec_file_record_job);
}
