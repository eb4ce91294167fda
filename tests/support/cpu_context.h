// A CPU-backend texdec context that collects its error messages in a MessageLog, for the tests
// that check the record path or a device of their own against the CPU backend
// (test_record_differential.cpp, test_source_strides.cpp, test_block_linear_levels.cpp).
#pragma once

#include <catch2/catch.hpp>

#include <texdec/texdec.h>

#include <cstdint>

#include "gpu/gpu_fixture.h"  // MessageLog, backend_info

namespace texdec_test {

// texdec_context_create on the CPU backend with `cpu_threads` threads (0: the backend's
// default), error messages into `errors`; REQUIREs success. The caller destroys the context.
inline texdec_context* create_cpu_context(MessageLog& errors, uint32_t cpu_threads = 0) {
    const texdec_backend_info backend = backend_info(TEXDEC_BACKEND_CPU, cpu_threads);
    texdec_context_create_info info{};
    info.next = &backend;
    info.message_callback = [](texdec_message_severity severity, const char* m, void* user) {
        if (severity == TEXDEC_MESSAGE_ERROR) static_cast<MessageLog*>(user)->add_error(m ? m : "");
    };
    info.user_data = &errors;
    texdec_context* ctx = nullptr;
    REQUIRE(texdec_context_create(&info, &ctx) == TEXDEC_SUCCESS);
    return ctx;
}

}  // namespace texdec_test
