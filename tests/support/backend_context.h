// A texdec context of one backend, opened for the CPU backend tests (test_cpu_bc_etc.cpp,
// test_cpu_bptc.cpp) that decode the same job on both: the GPU one runs with the validation
// layer, and the library's error and validation messages are collected.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <texdec/texdec.h>

#include "gpu/gpu_fixture.h"  // validation_context_flag, fail_or_skip_for_missing_device

namespace texdec_test {

class BackendContext {
public:
    // nullptr: stop the test (no device and TEXDEC_ALLOW_NO_DEVICE=1). cpu_threads as
    // texdec_backend_info's (0: the backend's default).
    static std::unique_ptr<BackendContext> open(texdec_backend backend, uint32_t cpu_threads = 0) {
        std::unique_ptr<BackendContext> self(new BackendContext);
        texdec_backend_info b{TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, backend, cpu_threads, nullptr, nullptr};
        texdec_context_create_info info{};
        info.next = &b;
        info.flags = backend == TEXDEC_BACKEND_GPU ? validation_context_flag() : 0u;
        info.message_callback = &BackendContext::callback;
        info.user_data = self.get();
        const texdec_status status = texdec_context_create(&info, &self->ctx_);
        if (backend == TEXDEC_BACKEND_GPU && status == TEXDEC_ERROR_NO_DEVICE) {
            fail_or_skip_for_missing_device(
                "texdec_context_create (GPU, validation) returned TEXDEC_ERROR_NO_DEVICE: " + self->take_messages());
            return nullptr;
        }
        INFO(self->take_messages());
        REQUIRE(status == TEXDEC_SUCCESS);
        REQUIRE(self->ctx_ != nullptr);
        REQUIRE(texdec_context_backend(self->ctx_) == backend);
        return self;
    }
    ~BackendContext() {
        if (ctx_) texdec_context_destroy(ctx_);
    }
    BackendContext(const BackendContext&) = delete;
    BackendContext& operator=(const BackendContext&) = delete;

    // texdec_decode; REQUIREs success and no error or validation message.
    void decode(const texdec_host_job& job) {
        const texdec_status status = texdec_decode(ctx_, &job);
        const std::string messages = take_messages();
        INFO(messages);
        REQUIRE(status == TEXDEC_SUCCESS);
        REQUIRE(messages.empty());
    }

private:
    BackendContext() = default;
    static void callback(texdec_message_severity severity, const char* message, void* user_data) {
        if (severity != TEXDEC_MESSAGE_ERROR && severity != TEXDEC_MESSAGE_VALIDATION) return;
        auto* self = static_cast<BackendContext*>(user_data);
        const std::lock_guard<std::mutex> lock(self->mutex_);
        self->messages_ += (self->messages_.empty() ? "" : "; ") + std::string(message ? message : "(null)");
    }
    std::string take_messages() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return std::exchange(messages_, std::string());
    }

    texdec_context* ctx_ = nullptr;
    std::mutex mutex_;
    std::string messages_;
};

}  // namespace texdec_test
