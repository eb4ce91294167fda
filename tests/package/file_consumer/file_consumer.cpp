// An engine's loader built against the INSTALLED texdec package alone (find_package(texdec) and
// texdec::file; tests/package/run_file_consumer.sh builds and runs it): every texture file under
// the folders given is opened with texdec_file, planned, and decoded whole (every level, layer,
// face and slice) on the CPU backend, and on the GPU (lavapipe in CI) where the plan for that
// device answers DECODE_RECORD. Each decode must equal, byte for byte, what the CLI writes for
// the same file with `astc-gpu-decode --backend cpu decode --verify --output native FILE OUT.ktx2`
// (every level, layer and face; --verify compares with texdec's CPU reference and exits 5 on a
// mismatch), read back from the KTX 2 file's level index. A file texdec_file refuses must be
// refused by the CLI too (exit 3); a file of no container texdec reads (PNG, PPM, READMEs) is
// skipped and counted. texdec_file.hpp's calls are also compared with the C API's on each file.
// Usage: file_consumer CLI WORK_DIR DIR... ; exit 0 when every file agreed and at least one was
// decoded, 77 when there is no Vulkan device and TEXDEC_ALLOW_NO_DEVICE=1.
#include <texdec/texdec_file.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <sys/wait.h>  // WIFEXITED, WEXITSTATUS of std::system

namespace fs = std::filesystem;

namespace {

int validation_messages = 0;
std::string messages;  // of the file at hand: printed when it fails
void on_message(texdec_message_severity severity, const char* message, void*) {
    if (severity == TEXDEC_MESSAGE_VALIDATION) {
        ++validation_messages;
        std::fprintf(stderr, "  validation: %s\n", message);
    }
    if (severity != TEXDEC_MESSAGE_INFO) messages += std::string("  texdec: ") + message + "\n";
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint64_t u64(const std::vector<uint8_t>& b, size_t at) { return u32(b, at) | uint64_t(u32(b, at + 4)) << 32; }

// The CLI's output: a KTX 2.0 file without supercompression (Khronos KTX File Format
// Specification 2.0, "File Structure": the 12-byte identifier, vkFormat at 12, pixelWidth 20 ..
// levelCount 40, supercompressionScheme 44, the index to 80, then the "Level Index": per level
// byteOffset, byteLength, uncompressedByteLength, level 0 first). Levels hold their layers, faces,
// depth slices and rows tightly packed, in that order: texdec_file's texel layout of one level.
struct CliKtx2 {
    std::vector<uint8_t> bytes;
    uint32_t vk_format = 0, levels = 0;
    std::vector<uint64_t> offsets, lengths;
};
bool read_ktx2(const std::string& path, CliKtx2& out, std::string& why) {
    std::ifstream in(path, std::ios::binary);
    out.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    static const uint8_t magic[12] = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'};
    if (out.bytes.size() < 80 || std::memcmp(out.bytes.data(), magic, 12) != 0) return why = "not a KTX 2 file", false;
    out.vk_format = u32(out.bytes, 12);
    out.levels = std::max(1u, u32(out.bytes, 40));
    if (u32(out.bytes, 44) != 0) return why = "supercompressed", false;
    if (out.bytes.size() < 80 + 24 * uint64_t(out.levels)) return why = "level index past the end", false;
    for (uint32_t l = 0; l < out.levels; ++l) {
        const uint64_t offset = u64(out.bytes, 80 + 24 * l), length = u64(out.bytes, 88 + 24 * l);
        if (offset > out.bytes.size() || length > out.bytes.size() - offset) return why = "level past the end", false;
        out.offsets.push_back(offset);
        out.lengths.push_back(length);
    }
    return true;
}

// Every level of `texels` (texdec_file_decode's layout of `output`) equals the CLI's level.
bool same_as_cli(const texdec::File& file, texdec_output output, const std::vector<uint8_t>& texels, const CliKtx2& cli,
                 const char* who) {
    texdec_file_info info{};
    if (file.info(info) != TEXDEC_SUCCESS || cli.levels != info.levels) {
        std::fprintf(stderr, "  %s: the CLI's file has %u levels, texdec_file %u\n", who, cli.levels, info.levels);
        return false;
    }
    for (uint32_t level = 0; level < info.levels; ++level) {
        texdec_file_level_layout layout{};
        if (file.layout(TEXDEC_FILE_DATA_TEXELS, output, level, layout) != TEXDEC_SUCCESS) return false;
        if (layout.size != cli.lengths[level] ||
            std::memcmp(texels.data() + layout.offset, cli.bytes.data() + cli.offsets[level], size_t(layout.size)) !=
                0) {
            std::fprintf(stderr, "  %s: level %u (%llu bytes) differs from the CLI's (%llu bytes)\n", who, level,
                         static_cast<unsigned long long>(layout.size),
                         static_cast<unsigned long long>(cli.lengths[level]));
            return false;
        }
    }
    return true;
}

// The wrapper hands every argument to its C function in its place: its answers equal the C
// API's on the same file, surface by surface (layer and face not swapped), level by level, and a
// File opened from the bytes in memory reads as the one opened from the path.
template <class T>
bool same_bytes(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}
bool wrapper_agrees(const texdec::File& file, const std::string& path, const char*& what) {
    const texdec_file* c = file.get();
    texdec_file_info info{}, c_info{};
    what = "info";
    if (file.info(info) != TEXDEC_SUCCESS || texdec_file_get_info(c, &c_info) != TEXDEC_SUCCESS ||
        !same_bytes(info, c_info))
        return false;
    what = "surface";
    for (uint32_t level = 0; level < info.levels; ++level)
        for (uint32_t layer = 0; layer < info.layers; ++layer)
            for (uint32_t face = 0; face < info.faces; ++face) {
                texdec_file_surface w{}, k{};
                if (file.surface(level, layer, face, w) != TEXDEC_SUCCESS ||
                    texdec_file_get_surface(c, level, layer, face, &k) != TEXDEC_SUCCESS || !same_bytes(w, k) ||
                    w.level != level || w.layer != layer || w.face != face)
                    return false;
            }
    what = "surfaces";
    const uint32_t listed = uint32_t(std::min<uint64_t>(info.surface_count, 64));
    std::vector<texdec_file_surface> w(listed), k(listed);
    if (file.surfaces(0, listed, w.data()) != TEXDEC_SUCCESS ||
        texdec_file_get_surfaces(c, 0, listed, k.data()) != TEXDEC_SUCCESS ||
        std::memcmp(w.data(), k.data(), listed * sizeof(texdec_file_surface)) != 0)
        return false;
    what = "key values";
    for (uint32_t i = 0; i < info.key_value_count; ++i) {
        texdec_file_key_value wk{}, kk{}, found{};
        if (file.key_value(i, wk) != TEXDEC_SUCCESS || texdec_file_get_key_value(c, i, &kk) != TEXDEC_SUCCESS ||
            !same_bytes(wk, kk) || file.find_key_value(wk.key, found) != TEXDEC_SUCCESS || !found.key)
            return false;
    }
    what = "read_level / read_blocks / level_size";
    std::vector<uint8_t> blocks(size_t(info.blocks_size));
    if (file.read_blocks(blocks) != TEXDEC_SUCCESS) return false;
    for (uint32_t level = 0; level < info.levels; ++level) {
        texdec_file_level_layout layout{};
        uint64_t size = 0;
        if (file.layout(TEXDEC_FILE_DATA_BLOCKS, TEXDEC_OUTPUT_NATIVE, level, layout) != TEXDEC_SUCCESS ||
            file.level_size(level, size) != TEXDEC_SUCCESS || size != layout.size)
            return false;
        std::vector<uint8_t> one(static_cast<size_t>(size));
        if (file.read_level(level, one) != TEXDEC_SUCCESS ||
            std::memcmp(one.data(), blocks.data() + layout.offset, one.size()) != 0)
            return false;
    }
    what = "buffer_copies";
    uint32_t count = 0, c_count = 0;
    if (file.buffer_copies(TEXDEC_FILE_DATA_TEXELS, TEXDEC_OUTPUT_NATIVE, count, nullptr, 16, 0, 0, true) !=
            TEXDEC_SUCCESS ||
        texdec_file_buffer_copies(c, TEXDEC_FILE_DATA_TEXELS, TEXDEC_OUTPUT_NATIVE, 0, 0, VK_TRUE, 16, &c_count,
                                  nullptr) != TEXDEC_SUCCESS ||
        count != c_count)
        return false;
    std::vector<VkBufferImageCopy> wc(count), kc(count);
    if (file.buffer_copies(TEXDEC_FILE_DATA_TEXELS, TEXDEC_OUTPUT_NATIVE, count, wc.data(), 16, 0, 0, true) !=
            TEXDEC_SUCCESS ||
        texdec_file_buffer_copies(c, TEXDEC_FILE_DATA_TEXELS, TEXDEC_OUTPUT_NATIVE, 0, 0, VK_TRUE, 16, &c_count,
                                  kc.data()) != TEXDEC_SUCCESS ||
        std::memcmp(wc.data(), kc.data(), count * sizeof(VkBufferImageCopy)) != 0 || wc[0].bufferOffset != 16)
        return false;
    what = "open from memory";
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    texdec::File copy;
    texdec_file_open_info copy_info{};
    copy_info.flags = TEXDEC_FILE_OPEN_COPY;
    texdec_file_info mem{};
    if (texdec::File::open(bytes, copy, &copy_info) != TEXDEC_SUCCESS || copy.info(mem) != TEXDEC_SUCCESS ||
        mem.format != info.format || mem.width != info.width || mem.height != info.height || mem.depth != info.depth ||
        mem.levels != info.levels || mem.layers != info.layers || mem.faces != info.faces ||
        mem.blocks_size != info.blocks_size)
        return false;
    std::vector<uint8_t> mem_blocks(blocks.size());
    return copy.read_blocks(mem_blocks) == TEXDEC_SUCCESS && mem_blocks == blocks;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) return std::fprintf(stderr, "usage: file_consumer CLI WORK_DIR DIR...\n"), 2;
    const std::string cli = argv[1], work = argv[2];
    std::vector<std::string> files;
    for (int i = 3; i < argc; ++i) {
        std::error_code error;
        for (fs::recursive_directory_iterator it(argv[i], error), end; !error && it != end; it.increment(error))
            if (it->is_regular_file()) files.push_back(it->path().string());
        if (error) return std::fprintf(stderr, "FAIL: cannot list %s: %s\n", argv[i], error.message().c_str()), 1;
    }
    std::sort(files.begin(), files.end());
    std::error_code made;
    fs::create_directories(work, made);

    texdec_context_create_info context_info{};
    context_info.message_callback = on_message;
    texdec::Context cpu, gpu;
    if (texdec::Context::create(TEXDEC_BACKEND_CPU, 0, cpu, context_info) != TEXDEC_SUCCESS)
        return std::fprintf(stderr, "FAIL: no CPU context\n"), 1;
    context_info.flags = TEXDEC_CONTEXT_VALIDATION;  // any validation-layer message fails the run
    const texdec_status gpu_status = texdec::Context::create(TEXDEC_BACKEND_GPU, 0, gpu, context_info);
    if (gpu_status != TEXDEC_SUCCESS) {
        const char* allow = std::getenv("TEXDEC_ALLOW_NO_DEVICE");
        if (gpu_status == TEXDEC_ERROR_NO_DEVICE && allow && std::strcmp(allow, "1") == 0)
            return std::printf("*** SKIPPED: no Vulkan device ***\n"), 77;
        return std::fprintf(stderr, "FAIL: no GPU context: %s (install mesa-vulkan-drivers for lavapipe)\n",
                            texdec::to_string(gpu_status)),
               1;
    }
    std::printf("GPU context: %s\n", gpu.device_name());

    int compared = 0, on_gpu = 0, refused = 0, skipped = 0, failed = 0;
    for (size_t index = 0; index < files.size(); ++index) {
        const std::string& path = files[index];
        messages.clear();
        texdec_file_problem problem = TEXDEC_FILE_PROBLEM_NONE;
        texdec_file_open_info open_info{};
        open_info.message_callback = on_message;
        open_info.problem = &problem;
        texdec::File file;
        const texdec_status opened = texdec::File::open_path(path.c_str(), file, &open_info);
        if (opened == TEXDEC_ERROR_UNSUPPORTED_FILE && problem == TEXDEC_FILE_PROBLEM_UNKNOWN_CONTAINER) {
            ++skipped;  // no texture file
            continue;
        }
        const std::string out = work + "/cli-" + std::to_string(index) + ".ktx2";
        const std::string command = shell_quote(cli) + " --backend cpu decode --verify --output native " +
                                    shell_quote(path) + " " + shell_quote(out) + " >/dev/null 2>&1";
        const int raw = std::system(command.c_str());
        const int cli_exit = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
        if (opened != TEXDEC_SUCCESS) {
            // Refused: the CLI must refuse it too, as an input error.
            if (cli_exit == 3) {
                ++refused;
            } else {
                std::fprintf(stderr, "FAIL: %s: texdec_file refuses it (%s, problem %d), the CLI exits %d\n%s",
                             path.c_str(), texdec::to_string(opened), int(problem), cli_exit, messages.c_str());
                ++failed;
            }
            continue;
        }
        CliKtx2 expected;
        std::string why;
        if (cli_exit != 0 || !read_ktx2(out, expected, why)) {
            std::fprintf(stderr, "FAIL: %s: the CLI exits %d %s\n%s", path.c_str(), cli_exit, why.c_str(),
                         messages.c_str());
            ++failed;
            continue;
        }
        fs::remove(out);

        // The plan on the CPU context: DECODE_HOST to NATIVE (no device to sample anything).
        texdec_file_info info{};
        texdec_upload_plan_info plan_info{};
        texdec_upload_plan cpu_plan{}, gpu_plan{};
        plan_info.context = cpu.get();
        bool ok = file.info(info) == TEXDEC_SUCCESS && file.plan_upload(plan_info, cpu_plan) == TEXDEC_SUCCESS &&
                  cpu_plan.action == TEXDEC_UPLOAD_DECODE_HOST && cpu_plan.output == TEXDEC_OUTPUT_NATIVE;
        // The plan for the GPU context's device (every compression feature off: the context's own
        // device enables none, so everything decodes; DECODE_RECORD where texdec records it).
        plan_info.context = gpu.get();
        ok = ok && file.plan_upload(plan_info, gpu_plan) == TEXDEC_SUCCESS;
        VkFormat native_format = VK_FORMAT_UNDEFINED;
        ok = ok && texdec::output_vk_format(info.format, TEXDEC_OUTPUT_NATIVE, native_format) == TEXDEC_SUCCESS &&
             uint32_t(native_format) == expected.vk_format;
        uint64_t size = 0;
        ok = ok && file.decoded_size(TEXDEC_OUTPUT_NATIVE, size) == TEXDEC_SUCCESS;
        if (!ok) {
            std::fprintf(stderr, "FAIL: %s: info, plans (CPU action %d output %d) or the CLI's vkFormat %u\n%s",
                         path.c_str(), int(cpu_plan.action), int(cpu_plan.output), expected.vk_format,
                         messages.c_str());
            ++failed;
            continue;
        }
        // DDS 'RXGB': texdec reports the swap (TEXDEC_FILE_FACT_SWAP_RED_ALPHA), the CLI makes it.
        const bool swap = (info.facts & TEXDEC_FILE_FACT_SWAP_RED_ALPHA) != 0;
        auto swap_red_alpha = [&](std::vector<uint8_t>& rgba8) {
            for (size_t t = 0; swap && t + 4 <= rgba8.size(); t += 4) std::swap(rgba8[t], rgba8[t + 3]);
        };
        std::vector<uint8_t> texels(size_t(size), 0xCD);
        const texdec_status decoded = file.decode(cpu, TEXDEC_OUTPUT_NATIVE, texels);
        swap_red_alpha(texels);
        ok = decoded == TEXDEC_SUCCESS && same_as_cli(file, TEXDEC_OUTPUT_NATIVE, texels, expected, "CPU backend");
        if (gpu_plan.action == TEXDEC_UPLOAD_DECODE_RECORD) {
            std::vector<uint8_t> gpu_texels(size_t(size), 0x5A);
            const bool gpu_decoded = file.decode(gpu, gpu_plan.output, gpu_texels) == TEXDEC_SUCCESS;
            swap_red_alpha(gpu_texels);
            ok = gpu_decoded && gpu_plan.output == TEXDEC_OUTPUT_NATIVE &&
                 same_as_cli(file, TEXDEC_OUTPUT_NATIVE, gpu_texels, expected, "GPU") && ok;
        }
        const char* what = "";
        if (ok && !wrapper_agrees(file, path, what)) {
            std::fprintf(stderr, "FAIL: %s: texdec_file.hpp's %s differs from the C API's\n%s", path.c_str(), what,
                         messages.c_str());
            ++failed;
            continue;
        }
        if (!ok) {
            std::fprintf(stderr, "FAIL: %s: %s\n%s", path.c_str(), texdec::to_string(decoded), messages.c_str());
            ++failed;
            continue;
        }
        ++compared;
        on_gpu += gpu_plan.action == TEXDEC_UPLOAD_DECODE_RECORD;
    }
    std::printf(
        "file_consumer: %d files decoded and equal to the CLI's --verify output (%d of them on the GPU "
        "too), %d refused by both, %d not texture files, %d failed, %d validation messages\n",
        compared, on_gpu, refused, skipped, failed, validation_messages);
    if (compared == 0) return std::fprintf(stderr, "FAIL: no file decoded\n"), 1;
    return failed || validation_messages ? 1 : 0;
}
