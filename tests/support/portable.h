// What the tests need that POSIX and Windows spell differently (the Windows slice, tests/windows).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

namespace texdec_test {

// setenv(name, value, 1) / unsetenv(name).
inline void set_env(const char* name, const char* value) {
#ifdef _WIN32
    _putenv_s(name, value);
#else
    setenv(name, value, 1);
#endif
}
inline void unset_env(const char* name) {
#ifdef _WIN32
    _putenv_s(name, "");  // an empty value removes the variable on Windows
#else
    unsetenv(name);
#endif
}

// Memory aligned to `alignment` (a power of two, at least sizeof(void*)); free with aligned_free.
inline void* aligned_malloc(size_t alignment, size_t size) {
#ifdef _WIN32
    return _aligned_malloc(size, alignment);
#else
    void* p = nullptr;
    return posix_memalign(&p, alignment, size) == 0 ? p : nullptr;
#endif
}
inline void aligned_free(void* p) {
#ifdef _WIN32
    _aligned_free(p);
#else
    std::free(p);
#endif
}

// mkdtemp: a new, empty folder in the system's temporary folder, named prefix + random digits;
// empty if none could be made.
inline std::string make_temp_dir(const char* prefix) {
    namespace fs = std::filesystem;
    std::random_device random;
    std::error_code error;
    const fs::path base = fs::temp_directory_path(error);
    for (int attempt = 0; attempt < 100 && !error; ++attempt) {
        const fs::path dir = base / (prefix + std::to_string(random()));
        if (fs::create_directory(dir, error)) return dir.string();
    }
    return {};
}

}  // namespace texdec_test
