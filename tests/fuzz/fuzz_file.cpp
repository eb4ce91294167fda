// libFuzzer target: texdec_file (include/texdec/texdec_file.h), the public container library, on
// any input: texdec_file_open, then every query (info, every surface listed and looked up, every
// key-value entry, each level's size and packed layout, the plan) with the bytes of every range it reports
// read (AddressSanitizer sees a range outside the input), and texdec_file_read_blocks into a
// buffer of blocks_size (capped), and for small files texdec_file_decode on a CPU context (NATIVE).
// Its contract is checked: a refusal has no file, a problem in the status's group and a message;
// an opened file's surfaces lie in the input (or, supercompressed, in their level) and in
// blocks_size; a file that opened reads and decodes (only a supercompressed level may fail). A
// broken contract aborts (libFuzzer saves the input).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <texdec/texdec_file.h>

namespace {

volatile uint64_t checksum_sink;

[[noreturn]] void broken(const char* what, size_t size) {
    std::fprintf(stderr, "texdec_file broke its contract on a %zu-byte input: %s\n", size, what);
    std::abort();
}

struct Seen {
    unsigned errors = 0;
};

void on_message(texdec_message_severity severity, const char* message, void* user) {
    if (!message) std::abort();
    uint64_t sum = 0;
    for (const char* p = message; *p; ++p) sum += uint8_t(*p);  // the text is a valid string
    checksum_sink = checksum_sink + sum;
    if (severity == TEXDEC_MESSAGE_ERROR) ++static_cast<Seen*>(user)->errors;
}

texdec_status status_of(texdec_file_problem p) {
    if (p == TEXDEC_FILE_PROBLEM_NONE) return TEXDEC_SUCCESS;
    if (p <= TEXDEC_FILE_PROBLEM_UNSUPPORTED_SUPERCOMPRESSION) return TEXDEC_ERROR_UNSUPPORTED_FILE;
    if (p == TEXDEC_FILE_PROBLEM_BASIS_UNIVERSAL) return TEXDEC_ERROR_BASIS_UNIVERSAL;
    return TEXDEC_ERROR_MALFORMED_FILE;
}

uint64_t sum_range(const uint8_t* data, uint64_t offset, uint64_t size) {
    // The first, last and a few bytes between: enough for ASan to see a range outside the input.
    if (size == 0) return 0;
    uint64_t sum = 0;
    const uint64_t step = size / 8 + 1;
    for (uint64_t i = 0; i < size; i += step) sum += data[offset + i];
    return sum + data[offset + size - 1];
}

bool same(const texdec_file_surface& a, const texdec_file_surface& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Seen seen;
    texdec_file_problem problem = TEXDEC_FILE_PROBLEM_MAX_ENUM;
    texdec_file_open_info open{};
    open.message_callback = &on_message;
    open.user_data = &seen;
    open.problem = &problem;
    texdec_file* file = nullptr;
    const texdec_status status = texdec_file_open(&open, data, size, &file);
    if (status != TEXDEC_SUCCESS) {
        if (file) broken("a refusal returned a file", size);
        if (status == TEXDEC_ERROR_OUT_OF_MEMORY) return 0;
        if (problem == TEXDEC_FILE_PROBLEM_NONE || status_of(problem) != status)
            broken("a refusal's problem is not in its status's group", size);
        if (seen.errors == 0) broken("a refusal without an ERROR message", size);
        return 0;
    }
    if (problem != TEXDEC_FILE_PROBLEM_NONE) broken("success with a problem", size);
    texdec_file_info info{};
    if (texdec_file_get_info(file, &info) != TEXDEC_SUCCESS) broken("get_info failed", size);
    if (info.surface_count != uint64_t(info.levels) * info.layers * info.faces || info.levels == 0 ||
        info.layers == 0 || (info.faces != 1 && info.faces != 6))
        broken("surface_count is not levels x layers x faces", size);
    if (info.file_size != size || info.trailing_bytes > size) broken("file_size / trailing_bytes", size);
    const bool plain = info.supercompression == TEXDEC_FILE_SUPERCOMPRESSION_NONE;
    uint64_t sum = 0;

    // Levels: their sizes and packed offsets.
    std::vector<uint64_t> level_size(info.levels);
    for (uint32_t l = 0; l < info.levels; ++l) {
        if (texdec_file_level_size(file, l, &level_size[l]) != TEXDEC_SUCCESS) broken("level_size failed", size);
        texdec_file_level_layout lay{};
        if (texdec_file_get_layout(file, TEXDEC_FILE_DATA_BLOCKS, TEXDEC_OUTPUT_RGBA8, 0, 0, l, &lay) != TEXDEC_SUCCESS)
            broken("get_layout(BLOCKS) failed", size);
        if (lay.offset % 16 || lay.size != level_size[l] || lay.offset + lay.size > info.blocks_size ||
            lay.total_size != info.blocks_size)
            broken("a level's packed place is outside blocks_size", size);
    }

    // Surfaces in the file's order (at most 4096 of them), each looked up by (level, layer, face).
    const uint64_t listed = info.surface_count < 4096 ? info.surface_count : 4096;
    std::vector<texdec_file_surface> surfaces(listed);
    if (listed && texdec_file_get_surfaces(file, 0, uint32_t(listed), surfaces.data()) != TEXDEC_SUCCESS)
        broken("get_surfaces failed", size);
    for (const texdec_file_surface& s : surfaces) {
        if (s.level >= info.levels || s.layer >= info.layers || s.face >= info.faces) broken("surface index", size);
        if (s.size == 0 || s.slice_size == 0 || s.size % s.slice_size) broken("surface size", size);
        if (s.packed_offset + s.size > info.blocks_size) broken("surface outside blocks_size", size);
        if (plain) {
            if (s.offset > size || s.size > size - s.offset) broken("surface outside the input", size);
            sum += sum_range(data, s.offset, s.size);
        } else if (s.offset + s.size > level_size[s.level]) {
            broken("surface outside its inflated level", size);
        }
        texdec_file_surface again{};
        if (texdec_file_get_surface(file, s.level, s.layer, s.face, &again) != TEXDEC_SUCCESS || !same(again, s))
            broken("get_surface differs from get_surfaces", size);
    }
    texdec_file_surface past{};
    if (texdec_file_get_surfaces(file, info.surface_count, 1, &past) != TEXDEC_ERROR_INVALID_ARGUMENT)
        broken("get_surfaces past the end", size);

    // Key-value entries: key and value lie in the input.
    for (uint32_t i = 0; i < info.key_value_count; ++i) {
        texdec_file_key_value e{};
        if (texdec_file_get_key_value(file, i, &e) != TEXDEC_SUCCESS || !e.key) broken("get_key_value", size);
        const uint8_t* key = reinterpret_cast<const uint8_t*>(e.key);
        const uint8_t* value = static_cast<const uint8_t*>(e.value);
        const bool in_input = key >= data && key < data + size &&
                              (e.value_size == 0 ||
                               (value >= data && value <= data + size && e.value_size <= size_t(data + size - value)));
        // With TEXDEC_FILE_OPEN_COPY off, entries point into the caller's bytes.
        if (!in_input) broken("a key-value entry outside the input", size);
        sum += std::strlen(e.key) + (e.value_size ? value[0] + value[e.value_size - 1] : 0);
    }
    texdec_file_key_value orientation{};
    if (texdec_file_find_key_value(file, "KTXorientation", &orientation) != TEXDEC_SUCCESS)
        broken("find_key_value", size);

    // The plan of the whole file, no context and no device: a host decode, or a refusal.
    texdec_upload_plan_info plan_info{};
    texdec_upload_plan plan{};
    const texdec_status planned = texdec_file_plan_upload(file, &plan_info, &plan);
    if (planned == TEXDEC_SUCCESS && plan.action != TEXDEC_UPLOAD_DECODE_HOST)
        broken("a plan without a device is not DECODE_HOST", size);

    // Every level into one buffer of blocks_size (capped at 16 MiB: the malloc limit catches more).
    if (info.blocks_size <= (uint64_t(16) << 20)) {
        std::vector<uint8_t> blocks(size_t(info.blocks_size) + 1);
        const texdec_status r = texdec_file_read_blocks(file, blocks.data(), size_t(info.blocks_size));
        if (r != TEXDEC_SUCCESS && !(r == TEXDEC_ERROR_MALFORMED_FILE && !plain) && r != TEXDEC_ERROR_UNSUPPORTED_FILE)
            broken("read_blocks failed on a file that opened", size);
        for (size_t i = 0; i < blocks.size(); i += 4096) sum += blocks[i];
    }
    // Small files: the whole-texture one-call decode on a CPU context (one thread: libFuzzer runs
    // one input at a time), NATIVE, into the texel layout texdec_file_get_layout(TEXELS) gives.
    texdec_file_level_layout texels{};
    if (info.blocks_size <= (uint64_t(1) << 18) &&
        texdec_file_get_layout(file, TEXDEC_FILE_DATA_TEXELS, TEXDEC_OUTPUT_NATIVE, 0, 0, 0, &texels) ==
            TEXDEC_SUCCESS &&
        texels.total_size <= (uint64_t(16) << 20)) {
        static texdec_context* cpu = [] {
            texdec_backend_info backend{};
            backend.type = TEXDEC_STRUCTURE_TYPE_BACKEND_INFO;
            backend.backend = TEXDEC_BACKEND_CPU;
            backend.cpu_threads = 1;
            texdec_context_create_info create{};
            create.next = &backend;
            texdec_context* context = nullptr;
            if (texdec_context_create(&create, &context) != TEXDEC_SUCCESS) std::abort();
            return context;
        }();
        std::vector<uint8_t> dst(size_t(texels.total_size));
        texdec_file_decode_job job{};
        job.output = TEXDEC_OUTPUT_NATIVE;
        job.dst = dst.data();
        job.dst_size = dst.size();
        const texdec_status r = texdec_file_decode(cpu, file, &job);
        if (r != TEXDEC_SUCCESS && !(r == TEXDEC_ERROR_MALFORMED_FILE && !plain) && r != TEXDEC_ERROR_UNSUPPORTED_FILE)
            broken("the CPU decode of a file that opened failed", size);
        for (size_t i = 0; i < dst.size(); i += 997) sum += dst[i];
    }
    checksum_sink = checksum_sink + sum;
    texdec_file_destroy(file);
    return 0;
}
