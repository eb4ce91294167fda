// Status names: one constant string per texdec_status (astc-encoder style).
#include <texdec/texdec.h>

extern "C" TEXDEC_API const char* texdec_status_string(texdec_status status) {
    switch (status) {
    case TEXDEC_SUCCESS: return "success";
    case TEXDEC_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case TEXDEC_ERROR_UNKNOWN_FORMAT: return "unknown format";
    case TEXDEC_ERROR_UNSUPPORTED_FORMAT: return "format not supported by this version";
    case TEXDEC_ERROR_UNSUPPORTED_OUTPUT: return "output type not supported for this format";
    case TEXDEC_ERROR_UNSUPPORTED_ROUNDING: return "BC rounding mode not supported";
    case TEXDEC_ERROR_INVALID_EXTENT: return "invalid extent (zero width, height or depth)";
    case TEXDEC_ERROR_SIZE_OVERFLOW: return "size overflow";
    case TEXDEC_ERROR_SOURCE_TOO_SMALL: return "source data too small";
    case TEXDEC_ERROR_DESTINATION_TOO_SMALL: return "destination too small";
    case TEXDEC_ERROR_INVALID_LAYOUT: return "invalid row length, pitch or alignment";
    case TEXDEC_ERROR_NO_DEVICE: return "no usable Vulkan device";
    case TEXDEC_ERROR_MISSING_FEATURE: return "device lacks a required feature";
    case TEXDEC_ERROR_VULKAN: return "Vulkan call failed";
    case TEXDEC_ERROR_OUT_OF_MEMORY: return "out of memory";
    case TEXDEC_ERROR_TIMEOUT: return "timed out waiting for the GPU";
    case TEXDEC_ERROR_DEVICE_LOST: return "device lost";
    case TEXDEC_ERROR_INVALID_DESTINATION: return "invalid destination";
    case TEXDEC_ERROR_NOT_READY: return "decoder variant not prepared yet";
    case TEXDEC_ERROR_WRONG_BACKEND: return "needs a GPU context (this is a CPU context)";
    case TEXDEC_ERROR_MALFORMED_FILE: return "malformed texture file";
    case TEXDEC_ERROR_UNSUPPORTED_FILE: return "texture file not supported";
    case TEXDEC_ERROR_BASIS_UNIVERSAL: return "Basis Universal data (transcode it first)";
    case TEXDEC_ERROR_FILE_IO: return "file could not be read";
    case TEXDEC_STATUS_MAX_ENUM: break;
    }
    return "unknown status";
}

extern "C" TEXDEC_API uint32_t texdec_version(void) { return TEXDEC_VERSION; }
