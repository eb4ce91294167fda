// Test hooks of texdec_io and the CLI: environment variables only the tests set (TEXDEC_CLI_*:
// injected write faults, PNG band sizes), compiled in only where the tests are built (CMake's
// texdec_enable_test_hooks defines TEXDEC_TEST_HOOKS=1), as the library's own hooks are
// (docs/DEVELOPING.md, "Test hooks"). Elsewhere TEXDEC_IO_TEST_HOOK answers nullptr and the names
// are not in the binary.
#pragma once

#include <cstdlib>

#if defined(TEXDEC_TEST_HOOKS) && TEXDEC_TEST_HOOKS
#if defined(__GLIBC__)  // not from the caller of a set-user-ID or set-group-ID program
#define TEXDEC_IO_TEST_HOOK(name) secure_getenv(name)
#else
#define TEXDEC_IO_TEST_HOOK(name) std::getenv(name)
#endif
#else
#define TEXDEC_IO_TEST_HOOK(name) static_cast<const char*>(nullptr)
#endif
