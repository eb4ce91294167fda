#include "vulkan_loader.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#include "test_hooks.h"

namespace texdec {

const char* vulkan_loader_name() {
    if (const char* name = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_VULKAN_LOADER"); name && *name) return name;
#ifdef _WIN32
    return "vulkan-1.dll";
#else
    return "libvulkan.so.1";
#endif
}

bool open_vulkan_loader(VulkanLoader& out) {
    out = {};
    [[maybe_unused]] const char* debug_name = TEXDEC_TEST_HOOK("TEXDEC_DEBUG_VULKAN_LOADER");
    if (debug_name && !*debug_name) debug_name = nullptr;
#ifdef _WIN32
    // The program's folder and the system folders (where the Vulkan runtime installs vulkan-1.dll),
    // never the current directory (a planted DLL there would run with the program's rights).
    HMODULE library = LoadLibraryExA(vulkan_loader_name(), nullptr, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
    if (!library) return false;
    auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
        reinterpret_cast<void (*)()>(GetProcAddress(library, "vkGetInstanceProcAddr")));
    if (!gipa) {
        FreeLibrary(library);
        return false;
    }
#else
    // libvulkan.so is the development symlink: a fallback for systems without the .so.1 name.
    void* library = dlopen(vulkan_loader_name(), RTLD_NOW | RTLD_LOCAL);
    if (!library && !debug_name) library = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) return false;
    auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
    if (!gipa) {
        dlclose(library);
        return false;
    }
#endif
    out.library = library;
    out.get_instance_proc_addr = gipa;
    return true;
}

void close_vulkan_loader(void* library) {
    if (!library) return;
#ifdef _WIN32
    FreeLibrary(static_cast<HMODULE>(library));
#else
    dlclose(library);
#endif
}

}  // namespace texdec
