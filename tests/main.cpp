// Catch2 runner. A GPU test that finds no Vulkan device fails, unless TEXDEC_ALLOW_NO_DEVICE=1:
// then it returns early after a loud message and the process exits with kSkipExitCode, which
// ctest reports as "Skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt). A test whose optional
// input is not configured (skip_loudly, e.g. the corpus test without TEXDEC_CORPUS) does the same.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "gpu/gpu_fixture.h"

int main(int argc, char** argv) {
    const int result = Catch::Session().run(argc, argv);
    if (result == 0 && texdec_test::any_test_skipped_for_lack_of_device()) {
        std::fprintf(stderr, "texdec tests: SKIPPED (no Vulkan device and TEXDEC_ALLOW_NO_DEVICE=1, or an optional "
                             "input not configured: see the *** SKIPPED lines above)\n");
        return texdec_test::kSkipExitCode;
    }
    return result;
}
