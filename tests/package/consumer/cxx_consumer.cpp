// A C++ program built against the INSTALLED texdec through texdec.hpp alone
// (tests/package/run_cxx_consumer.sh compiles it as C++17 and as C++20 with -Wall -Wextra
// -pedantic -Werror and more, then runs it). The wrapper must hand every argument to the C
// function in its place and return every status: its results are compared with the C API's on
// the same arguments (byte for byte), and with values the spec fixes (block counts, BC1 endpoints).
// Exit 77: no Vulkan device and TEXDEC_ALLOW_NO_DEVICE=1 (skipped).
#include <texdec/texdec.hpp>
#include <texdec/texdec_file.hpp>  // compiled only: nothing here links libtexdec_file

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

#ifndef TEXDEC_EXPECT_CPLUSPLUS
#error "build with -DTEXDEC_EXPECT_CPLUSPLUS=<the __cplusplus value of the -std asked for>"
#endif
static_assert(__cplusplus == TEXDEC_EXPECT_CPLUSPLUS, "compiled with another C++ standard than asked for");

// texdec_file.hpp builds in this standard with these warnings; texdec::File owns (movable, not
// copyable). Its calls run in the texdec::file consumer (tests/package/file_consumer), which links
// libtexdec_file.
static_assert(std::is_nothrow_move_constructible<texdec::File>::value &&
                  std::is_nothrow_move_assignable<texdec::File>::value,
              "texdec::File moves");
static_assert(!std::is_copy_constructible<texdec::File>::value && !std::is_copy_assignable<texdec::File>::value,
              "texdec::File owns its texdec_file");

namespace {

int failures = 0;
int validation_messages = 0;

#define EXPECT(condition)                                                                  \
    do {                                                                                   \
        if (!(condition)) {                                                                \
            std::fprintf(stderr, "FAIL: %s:%d: %s\n", __FILE__, __LINE__, #condition);   \
            ++failures;                                                                    \
        }                                                                                  \
    } while (0)

void on_message(texdec_message_severity severity, const char* message, void*) {
    if (severity == TEXDEC_MESSAGE_VALIDATION) ++validation_messages;
    std::fprintf(stderr, "texdec [%d]: %s\n", int(severity), message);
}

void put_u16(std::vector<uint8_t>& v, size_t at, unsigned value) {
    v[at] = uint8_t(value & 0xFFu);
    v[at + 1] = uint8_t(value >> 8);
}

// Sizes and format queries: the wrapper's answers are the C functions' (statuses included).
void check_queries() {
    // ASTC 5x4 is not square, so swapped width and height would count other blocks:
    // 10x4 texels are 2x1 blocks (32 bytes); 4x10 would be 1x3.
    uint64_t bytes = 0, c_bytes = 0;
    EXPECT(texdec::encoded_size(TEXDEC_FORMAT_ASTC_5x4_UNORM, 10, 4, 1, bytes) == TEXDEC_SUCCESS);
    EXPECT(bytes == 32);
    EXPECT(texdec_encoded_size(TEXDEC_FORMAT_ASTC_5x4_UNORM, 10, 4, 1, &c_bytes) == TEXDEC_SUCCESS && c_bytes == bytes);
    EXPECT(texdec::decoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA16F, 12, 8, 3, bytes) == TEXDEC_SUCCESS);
    EXPECT(bytes == 12u * 8u * 3u * 8u);
    // A failing query returns its status (decoded_size used to return 0 for any error).
    EXPECT(texdec::decoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, 0, 8, 1, bytes) ==
           TEXDEC_ERROR_INVALID_EXTENT);
    EXPECT(texdec::decoded_size(TEXDEC_FORMAT_BC6H_UFLOAT, TEXDEC_OUTPUT_RGBA8, 4, 4, 1, bytes) ==
           TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
    EXPECT(texdec::encoded_size(texdec_format(100000), 4, 4, 1, bytes) == TEXDEC_ERROR_UNKNOWN_FORMAT);

    texdec_format_info info{};
    EXPECT(texdec::format_get_info(TEXDEC_FORMAT_ASTC_5x4_SRGB, info) == TEXDEC_SUCCESS);
    EXPECT(info.name != nullptr && std::string(info.name) == "astc-5x4-srgb");
    EXPECT(info.block_width == 5 && info.block_height == 4 && info.vk_format == VK_FORMAT_ASTC_5x4_SRGB_BLOCK);
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    EXPECT(texdec::output_vk_format(TEXDEC_FORMAT_BC1_RGB_SRGB, TEXDEC_OUTPUT_RGBA8, vk_format) == TEXDEC_SUCCESS);
    EXPECT(vk_format == VK_FORMAT_R8G8B8A8_SRGB);
    uint32_t texel_size = 0;
    EXPECT(texdec::output_texel_size(TEXDEC_FORMAT_BC5_UNORM, TEXDEC_OUTPUT_NATIVE, texel_size) == TEXDEC_SUCCESS);
    EXPECT(texel_size == 2);
    EXPECT(std::string(texdec::to_string(TEXDEC_ERROR_NOT_READY)) == texdec_status_string(TEXDEC_ERROR_NOT_READY));
}

// The span types take pointer + size and any contiguous container, sized in bytes.
void check_spans() {
    const std::vector<uint16_t> halves(5);
    const std::array<uint8_t, 7> array{};
    const uint32_t words[3] = {};
    const std::string text = "abc";
    std::vector<uint8_t> out(9);
    EXPECT(texdec::ConstByteSpan(halves).size() == 10 && texdec::ConstByteSpan(halves).data() == halves.data());
    EXPECT(texdec::ConstByteSpan(array).size() == 7);
    EXPECT(texdec::ConstByteSpan(words).size() == 12);
    EXPECT(texdec::ConstByteSpan(text).size() == 3);
    EXPECT(texdec::ConstByteSpan(out.data(), 4).size() == 4);
    EXPECT(texdec::ByteSpan(out).size() == 9 && texdec::ByteSpan(out).data() == out.data());
    EXPECT(texdec::ConstByteSpan().size() == 0 && texdec::ByteSpan().data() == nullptr);
    static_assert(!std::is_convertible<const std::vector<uint8_t>&, texdec::ByteSpan>::value,
                  "texels cannot go into a const container");
    static_assert(!std::is_convertible<const uint8_t*, texdec::ConstByteSpan>::value, "a pointer needs its size");
#if __cplusplus >= 202002L
    const std::span<const std::byte> bytes = std::as_bytes(std::span(halves));
    EXPECT(texdec::ConstByteSpan(bytes).size() == 10);
    EXPECT(texdec::ByteSpan(std::as_writable_bytes(std::span(out))).size() == 9);
#endif
}

bool same_target_info(const texdec_image_target_create_info& a, const texdec_image_target_create_info& b) {
    return a.next == b.next && a.image == b.image && a.image_type == b.image_type && a.format == b.format &&
           a.flags == b.flags && a.usage == b.usage && a.tiling == b.tiling && a.extent.width == b.extent.width &&
           a.extent.height == b.extent.height && a.extent.depth == b.extent.depth && a.mip_levels == b.mip_levels &&
           a.array_layers == b.array_layers;
}

bool same_regions_job(const texdec_regions_job& a, const texdec_regions_job& b) {
    return a.next == b.next && a.format == b.format && a.output == b.output && a.bc_rounding == b.bc_rounding &&
           a.flags == b.flags && a.src_buffer == b.src_buffer && a.src_size == b.src_size &&
           a.dst_image == b.dst_image && a.dst_buffer == b.dst_buffer && a.dst_size == b.dst_size &&
           a.region_count == b.region_count && a.regions == b.regions && a.barriers == b.barriers &&
           a.max_texels_per_dispatch == b.max_texels_per_dispatch;
}

// image_target_info and regions_job fill the C structs as a program filling them by hand would,
// and the library answers the same for both.
void check_job_helpers(const texdec::Context& context) {
    // An image target of a 2D image of 3 mips and 4 layers, from its VkImageCreateInfo and from its numbers.
    VkImageCreateInfo ici{};
    ici.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    ici.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = VK_FORMAT_R8G8B8A8_SRGB;
    ici.extent = {64, 32, 1};
    ici.mipLevels = 3;
    ici.arrayLayers = 4;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    // The C structs as a C program fills them: every field in the order texdec.h declares it.
    texdec_image_target_create_info c_info = {nullptr,
                                              VK_NULL_HANDLE,
                                              VK_IMAGE_TYPE_2D,
                                              VK_FORMAT_R8G8B8A8_SRGB,
                                              VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
                                              VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                              VK_IMAGE_TILING_OPTIMAL,
                                              {64, 32, 1},
                                              3,
                                              4};
    const texdec_image_target_create_info from_ici = texdec::image_target_info(VK_NULL_HANDLE, ici);
    const texdec_image_target_create_info from_numbers = texdec::image_target_info(
        VK_NULL_HANDLE, VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 64, 32,
        3, 4, VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT);
    EXPECT(same_target_info(from_ici, c_info));
    EXPECT(same_target_info(from_numbers, c_info));
    const texdec_image_target_create_info defaults =
        texdec::image_target_info(VK_NULL_HANDLE, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT, 8, 4);
    EXPECT(defaults.mip_levels == 1 && defaults.array_layers == 1 && defaults.flags == 0 &&
           defaults.extent.depth == 1 && defaults.tiling == VK_IMAGE_TILING_OPTIMAL);
    // The same status from the library for both (no image: refused).
    texdec::ImageTarget target;
    texdec_image_target* c_target = nullptr;
    EXPECT(texdec::ImageTarget::create(context, from_ici, target) ==
           texdec_image_target_create(context.get(), &c_info, &c_target));
    EXPECT(!target && c_target == nullptr);

    // A regions job of two regions into a buffer, and one into an image target.
    texdec_region regions[2] = {};
    regions[0].extent = {8, 8, 1};
    regions[1].src_offset = 32;
    regions[1].extent = {4, 4, 1};
    regions[1].dst_offset = 256;
    texdec_regions_job c_job = {nullptr,
                                TEXDEC_FORMAT_BC1_RGB_UNORM,
                                TEXDEC_OUTPUT_RGBA8,
                                TEXDEC_BC_ROUNDING_EXACT,
                                0,
                                VK_NULL_HANDLE,
                                40,
                                nullptr,
                                VK_NULL_HANDLE,
                                320,
                                2,
                                regions,
                                nullptr,
                                0};
    const texdec_regions_job job = texdec::regions_job(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, VK_NULL_HANDLE,
                                                       40, regions, 2, VK_NULL_HANDLE, 320);
    EXPECT(same_regions_job(job, c_job));
    VkDeviceSize bytes = 1, c_bytes = 2;
    EXPECT(context.regions_scratch_size(job, bytes) == texdec_regions_scratch_size(context.get(), &c_job, &c_bytes));
    EXPECT(bytes == c_bytes);
    const texdec_image_target* image = reinterpret_cast<const texdec_image_target*>(&c_info);  // compared, never read
    c_job.dst_buffer = VK_NULL_HANDLE;
    c_job.dst_size = 0;
    c_job.dst_image = image;
    EXPECT(same_regions_job(
        texdec::regions_job(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, VK_NULL_HANDLE, 40, regions, 2, image),
        c_job));
}

int run() {
    check_queries();
    check_spans();

    texdec_context_create_info info{};
    info.flags = TEXDEC_CONTEXT_VALIDATION;
    info.message_callback = on_message;
    texdec::Context context;
    // The GPU backend explicitly: without a texdec_backend_info a context is AUTO.
    const texdec::Status status = texdec::Context::create(TEXDEC_BACKEND_GPU, 0, context, info);
    if (status == TEXDEC_ERROR_NO_DEVICE) {
        const char* allow = std::getenv("TEXDEC_ALLOW_NO_DEVICE");
        if (allow && std::strcmp(allow, "1") == 0) {
            std::fprintf(stderr, "*** SKIPPED: no Vulkan device (TEXDEC_ALLOW_NO_DEVICE=1) ***\n");
            return 77;
        }
        std::fprintf(stderr, "FAIL: no Vulkan device with the validation layer; TEXDEC_ALLOW_NO_DEVICE=1 skips\n");
        return 1;
    }
    if (status != TEXDEC_SUCCESS || !context) {
        std::fprintf(stderr, "FAIL: Context::create: %s\n", texdec::to_string(status));
        return 1;
    }
    std::printf("device: %s\n", context.device_name());
    check_job_helpers(context);

    // 12x8 texels = 3x2 BC1 blocks. Block 0 is solid red (c0 = c1 = 0xF800, indices 0); the
    // others have endpoints whose EXACT and IDEAL expansions differ (5-bit 3, 7, 24, 28; 6-bit
    // 13, 50) and use all four indices, so the rounding the job asks for shows in the texels.
    const uint32_t width = 12, height = 8;
    std::vector<uint8_t> blocks(6 * 8);
    for (unsigned k = 0; k < 6; ++k) {
        put_u16(blocks, k * 8, k == 0 ? 0xF800u : (24u << 11) | (13u << 5) | (7u + k));
        put_u16(blocks, k * 8 + 2, k == 0 ? 0xF800u : (3u << 11) | (50u << 5) | 28u);
        for (unsigned b = 0; b < 4; ++b) blocks[k * 8 + 4 + b] = k == 0 ? 0 : uint8_t(0x1Bu + 0x40u * b + k);
    }
    uint64_t size = 0;
    EXPECT(texdec::decoded_size(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, width, height, 1, size) ==
           TEXDEC_SUCCESS);
    std::vector<uint8_t> exact(size_t(size), 0xAA), ideal(size_t(size), 0xAA);
    std::vector<uint8_t> c_exact(size_t(size), 0x55), c_ideal(size_t(size), 0x55);

    EXPECT(context.decode(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, width, height, 1, blocks, exact) ==
           TEXDEC_SUCCESS);
    texdec_host_job job = texdec::host_job(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, width, height, 1,
                                           blocks, ideal);
    job.bc_rounding = TEXDEC_BC_ROUNDING_IDEAL;
    EXPECT(context.decode(job) == TEXDEC_SUCCESS);

    // The same jobs through the C API, filled field by field.
    texdec_host_job c_job{};
    c_job.format = TEXDEC_FORMAT_BC1_RGB_UNORM;
    c_job.output = TEXDEC_OUTPUT_RGBA8;
    c_job.bc_rounding = TEXDEC_BC_ROUNDING_EXACT;
    c_job.width = width;
    c_job.height = height;
    c_job.depth = 1;
    c_job.src = blocks.data();
    c_job.src_size = blocks.size();
    c_job.dst = c_exact.data();
    c_job.dst_size = c_exact.size();
    EXPECT(texdec_decode(context.get(), &c_job) == TEXDEC_SUCCESS);
    c_job.bc_rounding = TEXDEC_BC_ROUNDING_IDEAL;
    c_job.dst = c_ideal.data();
    EXPECT(texdec_decode(context.get(), &c_job) == TEXDEC_SUCCESS);

    EXPECT(exact == c_exact);
    EXPECT(ideal == c_ideal);
    EXPECT(exact != ideal);  // the rounding field reached the library
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
            const uint8_t* texel = &exact[(y * width + x) * 4];
            EXPECT(texel[0] == 255 && texel[1] == 0 && texel[2] == 0 && texel[3] == 255);
        }

    // Statuses come back from every call.
    std::vector<uint8_t> small(size_t(size) - 1);
    EXPECT(context.decode(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, width, height, 1, blocks, small) ==
           TEXDEC_ERROR_DESTINATION_TOO_SMALL);
    EXPECT(context.decode(TEXDEC_FORMAT_BC1_RGB_UNORM, TEXDEC_OUTPUT_RGBA8, width, height, 1,
                          texdec::ConstByteSpan(blocks.data(), blocks.size() - 1), exact) ==
           TEXDEC_ERROR_SOURCE_TOO_SMALL);
    uint64_t host_bytes = 0, device_bytes = 0;
    EXPECT(context.decode_scratch_size(job, host_bytes, device_bytes) == TEXDEC_SUCCESS);
    EXPECT(host_bytes >= blocks.size() + size);
    texdec_decode_timing timing{};
    EXPECT(context.decode_timed(job, &timing) == TEXDEC_SUCCESS && timing.total_ns > 0);
    texdec_variant variant{};
    variant.format = TEXDEC_FORMAT_BC4_UNORM;
    variant.output = TEXDEC_OUTPUT_NATIVE;
    variant.destination = TEXDEC_DESTINATION_BUFFER;
    EXPECT(context.variant_ready(variant) == TEXDEC_ERROR_NOT_READY);
    EXPECT(context.prepare(1, &variant) == TEXDEC_SUCCESS);
    EXPECT(context.variant_ready(variant) == TEXDEC_SUCCESS);
    texdec_support support{};
    EXPECT(context.query_support(variant, support) == TEXDEC_SUCCESS && support.reasons == 0);
    texdec_memory_usage usage{};
    EXPECT(context.memory_usage(usage) == TEXDEC_SUCCESS);
    EXPECT(usage.pipelines >= 2 && usage.staging_host_bytes > 0);
    EXPECT(context.release_staging() == TEXDEC_SUCCESS);
    texdec::ImageTarget target;
    texdec_image_target_create_info target_info{};  // no image: refused, and the target stays empty
    EXPECT(texdec::ImageTarget::create(context, target_info, target) == TEXDEC_ERROR_INVALID_ARGUMENT);
    EXPECT(!target);

    // RAII: a move leaves the source empty; destroying the moved-to context is the only destroy.
    texdec::Context moved(std::move(context));
    EXPECT(!context && moved);
    // Not owning: a ContextRef of it makes the same calls; release() hands the pointer over
    // (adopted back by a Context, the one destroy).
    {
        const texdec::ContextRef ref = moved;
        EXPECT(ref && ref.get() == moved.get() && ref.backend() == moved.backend());
        texdec_memory_usage ref_usage{};
        EXPECT(ref.memory_usage(ref_usage) == TEXDEC_SUCCESS);
        texdec_context* raw = moved.release();
        EXPECT(!moved && raw != nullptr);
        const texdec::ContextRef view(raw);
        EXPECT(view.get() == raw && view.device_name() != nullptr);
        moved = texdec::Context(raw);
    }
    moved = texdec::Context();
    EXPECT(!moved);

    if (validation_messages) std::fprintf(stderr, "FAIL: %d validation messages\n", validation_messages);
    if (failures || validation_messages) return 1;
    std::printf("OK: texdec.hpp as C++ %ld: results and statuses equal the C API's\n", long(__cplusplus));
    return 0;
}

}  // namespace

int main() { return run(); }
