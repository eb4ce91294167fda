#include "texel_buffer.h"

#include <algorithm>
#include <system_error>
#include <thread>
#include <vector>

#include "platform.h"

namespace cli {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kLarge = size_t(8) << 20;  // below this: operator new

size_t rounded(size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

// Touches every 4 KiB page (so that, without huge pages, each is faulted in here too), on up to
// one thread per 16 MiB.
void prefault(uint8_t* memory, size_t size) {
    const size_t threads =
        std::clamp<size_t>(size / (size_t(16) << 20), 1, std::max(1u, std::thread::hardware_concurrency()));
    const size_t per = (size / threads + kHugePage - 1) / kHugePage * kHugePage;
    const auto touch = [memory, size, per](size_t t) {
        const size_t end = std::min(size, (t + 1) * per);
        for (size_t at = t * per; at < end; at += 4096) memory[at] = 0;
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(touch, t);
        } catch (const std::system_error&) {  // no more threads: those pages fault on first write
            break;
        }
    }
    touch(0);
    for (std::thread& thread : pool) thread.join();
}

}  // namespace

void* texel_memory_allocate(size_t bytes) {
    if (bytes < kLarge) return ::operator new(bytes);
    const size_t size = rounded(bytes);
    uint8_t* memory = static_cast<uint8_t*>(platform::allocate_pages(size));
    if (!memory) throw std::bad_alloc();
    prefault(memory, size);
    return memory;
}

void texel_memory_free(void* memory, size_t bytes) {
    if (!memory) return;
    if (bytes < kLarge) ::operator delete(memory);
    else platform::free_pages(memory, rounded(bytes));
}

}  // namespace cli
