// Environment variables read by texdec and its CLI: the test hooks and the one user setting.
//
// Test hooks (TEXDEC_DEBUG_* in the library, TEXDEC_CLI_*_FAULT and TEXDEC_CLI_PNG_* in the CLI)
// force internal paths that the tests must reach on any machine: another Vulkan loader file, the
// discrete-GPU staging route, smaller device limits, injected write faults. They are compiled in
// only where the tests are built (CMake defines TEXDEC_TEST_HOOKS=1 then: CMakeLists.txt,
// texdec_enable_test_hooks); in any other build test_hook() answers nullptr and the variable names
// are not in the binary. Where they are compiled in, they are read with secure_getenv, so a
// set-user-ID or set-group-ID program that links texdec never takes them from its caller.
//
// TEXDEC_DEVICE (which GPU an own context takes; texdec.h) is a user setting: read in every build,
// through user_setting(), also with secure_getenv.
#pragma once

#include <cstdlib>

namespace texdec {

// getenv, except in a process whose privileges were raised at exec (glibc's secure_getenv).
inline const char* environment_value(const char* name) {
#if defined(__GLIBC__)
    return secure_getenv(name);
#else
    return std::getenv(name);
#endif
}

// A user setting: documented, read in every build.
inline const char* user_setting(const char* name) { return environment_value(name); }

#if defined(TEXDEC_TEST_HOOKS) && TEXDEC_TEST_HOOKS
inline constexpr bool kTestHooks = true;
// The value of a test hook's variable; nullptr when unset.
#define TEXDEC_TEST_HOOK(name) ::texdec::environment_value(name)
#else
inline constexpr bool kTestHooks = false;
// Not compiled in: the name is not even kept as a string.
#define TEXDEC_TEST_HOOK(name) static_cast<const char*>(nullptr)
#endif

}  // namespace texdec
