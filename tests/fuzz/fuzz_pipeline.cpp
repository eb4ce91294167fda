// libFuzzer target past the parsers: any container file (.dds, .ktx, .ktx2, .pkm, .astc, found from
// its magic as the CLI finds it) is opened, every surface of its first layer and face (each level)
// is decoded by texdec's CPU backend to NATIVE texels (and to RGBA8 or RGBA16F as the format
// allows), and the texels go through the writers the CLI uses: PNG, TGA, EXR, Radiance .hdr and
// KTX 2 (every level). Inputs reach 256 KiB (run_fuzzers.sh -max_len for this target), so that
// supercompressed KTX 2 files with several levels and big DDS mip chains are reached. A writer or
// a decode may refuse an input, never crash, leak or read outside it. Bounded work per input:
// at most 4 M decoded texels in all (larger surfaces are skipped: the parsers' fuzzers read them).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include <texdec/texdec.h>

#include "image_write.h"
#include "texture_file.h"

namespace {

constexpr uint64_t kMaxTexels = 4u << 20;

texdec_context* cpu_context() {
    static texdec_context* ctx = [] {
        texdec_backend_info backend = {
            TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_CPU, 1, nullptr, nullptr};
        texdec_context_create_info info = {};
        info.next = &backend;
        texdec_context* c = nullptr;
        if (texdec_context_create(&info, &c) != TEXDEC_SUCCESS) {
            std::fprintf(stderr, "fuzz_pipeline: no CPU context\n");
            std::abort();
        }
        return c;
    }();
    return ctx;
}

// Where the writers write: a tmpfs when there is one (their fsync is then free).
std::string output_path(const char* extension) {
    static const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return dir + "/texdec-fuzz-pipeline-" + std::to_string(getpid()) + extension;
}

struct Decoded {
    std::vector<uint8_t> texels;
    VkFormat format = VK_FORMAT_UNDEFINED;
};

// A decode the library refuses is an answer, not a finding; a success must fill the size it promised.
bool decode(const texture_file::TextureFile& file, texdec_output output, const texture_file::LevelInfo& level,
            std::span<const uint8_t> blocks, Decoded& out) {
    uint64_t size = 0;
    if (texdec_decoded_size(file.format, output, level.width, level.height, level.depth, &size) != TEXDEC_SUCCESS)
        return false;
    if (texdec_output_vk_format(file.format, output, &out.format) != TEXDEC_SUCCESS) std::abort();
    out.texels.assign(size_t(size), 0);
    texdec_host_job job = {};
    job.format = file.format;
    job.output = output;
    job.width = level.width;
    job.height = level.height;
    job.depth = level.depth;
    job.src = blocks.data();
    job.src_size = blocks.size();
    job.dst = out.texels.data();
    job.dst_size = out.texels.size();
    return texdec_decode(cpu_context(), &job) == TEXDEC_SUCCESS;
}

void check(const image_write::WriteResult& r, const char* writer) {
    if (!r.ok && r.message.empty()) {
        std::fprintf(stderr, "fuzz_pipeline: %s failed without a message\n", writer);
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    texture_file::FileBytes bytes{{data, size}, nullptr};
    texture_file::OpenOptions options;
    options.profile_must_apply = false;
    auto opened = texture_file::open(bytes, options);
    if (auto* error = std::get_if<texture_file::Error>(&opened)) {
        if (error->message.empty()) std::abort();
        return 0;
    }
    texture_file::TextureFile& file = std::get<texture_file::TextureFile>(opened);

    uint64_t texels_left = kMaxTexels;
    std::vector<Decoded> levels;  // NATIVE texels of each level, for the KTX 2 writer
    bool every_level = true;
    for (uint32_t level = 0; level < file.levels && level < file.level_info.size(); ++level) {
        const texture_file::LevelInfo& info = file.level_info[level];
        const uint64_t texels = uint64_t(info.width) * info.height * info.depth;
        auto blocks = file.blocks(level, 0, 0);
        if (texels > texels_left || !std::holds_alternative<std::span<const uint8_t>>(blocks)) {
            every_level = false;
            break;
        }
        texels_left -= texels;
        const auto span = std::get<std::span<const uint8_t>>(blocks);
        Decoded native;
        if (!decode(file, TEXDEC_OUTPUT_NATIVE, info, span, native)) {
            every_level = false;
            break;
        }
        const image_write::DecodedImage image{native.texels, info.width, info.height, info.depth, native.format};
        texdec_format_info format_info = {};
        texdec_format_get_info(file.format, &format_info);
        const bool is_signed = format_info.flags & TEXDEC_FORMAT_FLAG_SIGNED;
        if (level == 0) {
            if (image_write::png_supports(native.format)) {
                check(image_write::write_png(output_path(".png"), image, is_signed, {1, 0, 1}), "write_png");
                check(image_write::write_tga(output_path(".tga"), image, is_signed), "write_tga");
            }
            // The float writers: RGBA16F of the same surface.
            Decoded half;
            if (decode(file, TEXDEC_OUTPUT_RGBA16F, info, span, half)) {
                const image_write::DecodedImage h{half.texels, info.width, info.height, info.depth, half.format};
                check(image_write::write_exr(output_path(".exr"), h), "write_exr");
                check(image_write::write_hdr(output_path(".hdr"), h), "write_hdr");
            }
        }
        levels.push_back(std::move(native));
    }
    if (every_level && !levels.empty() && image_write::ktx2_supports(levels[0].format)) {
        image_write::Ktx2Texture texture;
        texture.format = levels[0].format;
        texture.width = file.level_info[0].width;
        texture.height = file.level_info[0].height;
        texture.depth = file.is_volume ? file.level_info[0].depth : 0;
        texture.layer_count = 0;
        texture.face_count = 1;
        for (const Decoded& d : levels) texture.levels.emplace_back(d.texels);
        check(image_write::write_ktx2(output_path(".ktx2"), texture), "write_ktx2");
    }
    for (const char* extension : {".png", ".tga", ".exr", ".hdr", ".ktx2"}) unlink(output_path(extension).c_str());
    return 0;
}
