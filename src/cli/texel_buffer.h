// The decoded texels' memory: a std::vector whose allocator maps large buffers (8 MiB and up)
// 2 MiB-aligned with transparent huge pages requested (MADV_HUGEPAGE; Windows: VirtualAlloc) and touches their pages on
// several threads before returning, and whose resize() leaves bytes uninitialised (the decode
// writes every byte): on an 8192x8192 RGBA8 surface (256 MiB) this replaces a single-threaded
// zero fill that took 120-160 ms on the H100 host (16 cores) by a few milliseconds of parallel
// page faults, and the decode's copy into it takes no page faults.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace cli {

void* texel_memory_allocate(size_t bytes);           // throws std::bad_alloc
void texel_memory_free(void* memory, size_t bytes);  // bytes: as allocated

template <class T>
struct TexelAllocator {
    using value_type = T;
    TexelAllocator() = default;
    template <class U>
    TexelAllocator(const TexelAllocator<U>&) noexcept {}
    T* allocate(size_t n) { return static_cast<T*>(texel_memory_allocate(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept { texel_memory_free(p, n * sizeof(T)); }
    // Default-initialises (no zero fill) what resize() adds.
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(static_cast<Args&&>(args)...);
    }
    template <class U>
    bool operator==(const TexelAllocator<U>&) const noexcept {
        return true;
    }
};

using TexelBuffer = std::vector<uint8_t, TexelAllocator<uint8_t>>;

}  // namespace cli
