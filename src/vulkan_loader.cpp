#include "vulkan_loader.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace texdec {

bool open_vulkan_loader(VulkanLoader& out) {
    out = {};
#ifdef _WIN32  // untested
    HMODULE library = LoadLibraryA("vulkan-1.dll");
    if (!library) return false;
    auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
        reinterpret_cast<void (*)()>(GetProcAddress(library, "vkGetInstanceProcAddr")));
    if (!gipa) {
        FreeLibrary(library);
        return false;
    }
#else
    // libvulkan.so is the development symlink: a fallback for systems without the .so.1 name.
    void* library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
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
