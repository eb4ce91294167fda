// texdec_file (include/texdec/texdec_file.h) on files of every container and shape written by
// tests/support/container_writer (from the container specs, not from src/io): KTX 2 (none,
// Zstandard, zlib), KTX 1.1 (little- and big-endian), DDS (legacy FourCC and DX10), .pkm and .astc;
// mips, arrays, cube maps, cube arrays, volumes, 3D ASTC footprints. For each file, opened from
// memory with and without TEXDEC_FILE_OPEN_COPY: get_info against what the writer wrote, every
// surface's range (into the file, or into the inflated level) holding that surface's pattern,
// get_surfaces in the file's order, read_level / read_blocks = the packed layout the header
// documents (level-major, 16-byte aligned levels, layer x face surfaces contiguous), the packed
// layout's offsets, the key-value entries and the orientation.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <texdec/texdec.h>
#include <texdec/texdec_file.h>

#include "support/container_writer.h"

namespace w = texdec_test::writer;

namespace {

struct Case {
    std::string name;
    w::Shape shape;
    w::Written written;
    texdec_file_container container;
    uint32_t supercompression = 0;
    uint32_t orientation = 0;  // the bits KTXorientation states
    bool orientation_stated = false;
    bool array_flag = false;  // TEXDEC_FILE_ARRAY expected
    bool range_stated = true;
    bool color_space_stated = true;
};

struct Messages {
    std::vector<std::string> bad;  // ERROR and WARNING messages
    static void callback(texdec_message_severity severity, const char* message, void* user) {
        if (severity == TEXDEC_MESSAGE_ERROR || severity == TEXDEC_MESSAGE_WARNING)
            static_cast<Messages*>(user)->bad.push_back(message ? message : "(null)");
    }
};

bool is_astc(texdec_format f) { return f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT; }

std::vector<w::KeyValue> kv(const std::string& orientation) { return w::default_key_values(orientation); }

w::Shape shape(texdec_format f, uint32_t width, uint32_t height, uint32_t depth, uint32_t levels, uint32_t layers,
               uint32_t faces, bool array) {
    w::Shape s;
    s.format = f, s.width = width, s.height = height, s.depth = depth, s.levels = levels, s.layers = layers;
    s.faces = faces, s.array = array;
    return s;
}

std::vector<Case> ktx2_cases() {
    struct S {
        const char* name;
        w::Shape shape;
        const char* orientation;
        uint32_t bits;
    };
    const S shapes[] = {
        {"2D mips", shape(TEXDEC_FORMAT_BC7_SRGB, 13, 9, 1, 4, 1, 1, false), "ru", TEXDEC_FILE_ORIENTATION_Y_UP},
        {"array", shape(TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 10, 6, 1, 2, 3, 1, true), "rd", 0},
        {"array of one", shape(TEXDEC_FORMAT_EAC_R11_UNORM, 8, 8, 1, 1, 1, 1, true), "ld",
         TEXDEC_FILE_ORIENTATION_X_LEFT},
        {"cube", shape(TEXDEC_FORMAT_BC1_RGB_UNORM, 8, 8, 1, 3, 1, 6, false), "rd", 0},
        {"cube array", shape(TEXDEC_FORMAT_BC5_SNORM, 4, 4, 1, 2, 2, 6, true), "rd", 0},
        {"3D of a 2D footprint", shape(TEXDEC_FORMAT_ASTC_4x4_UNORM, 9, 5, 3, 2, 1, 1, false), "rdo",
         TEXDEC_FILE_ORIENTATION_Z_OUT},
        {"3D footprint", shape(TEXDEC_FORMAT_ASTC_5x5x4_SRGB, 11, 6, 9, 2, 1, 1, false), "rdi", 0},
        {"HDR ASTC", shape(TEXDEC_FORMAT_ASTC_6x6_SFLOAT, 13, 13, 1, 2, 1, 1, false), "rd", 0},
        {"BC6H signed", shape(TEXDEC_FORMAT_BC6H_SFLOAT, 8, 4, 1, 3, 1, 1, false), "rd", 0},
    };
    std::vector<Case> cases;
    for (const uint32_t scheme : {0u, 2u, 3u})
        for (const S& s : shapes) {
            Case c;
            c.name = std::string("KTX 2 ") + s.name + (scheme == 2 ? ", Zstandard" : scheme == 3 ? ", zlib" : "");
            c.shape = s.shape;
            c.written = w::write_ktx2(s.shape, scheme, kv(s.orientation));
            c.container = TEXDEC_FILE_CONTAINER_KTX2;
            c.supercompression = scheme;
            c.orientation = s.bits, c.orientation_stated = true;
            c.array_flag = s.shape.array;
            cases.push_back(std::move(c));
        }
    return cases;
}

std::vector<Case> ktx1_cases() {
    struct S {
        const char* name;
        w::Shape shape;
        const char* orientation;  // nullptr: no key-value data
        uint32_t bits;
    };
    const S shapes[] = {
        {"2D mips", shape(TEXDEC_FORMAT_BC3_SRGB, 17, 5, 1, 3, 1, 1, false), "S=r,T=u", TEXDEC_FILE_ORIENTATION_Y_UP},
        {"array", shape(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, 8, 8, 1, 2, 2, 1, true), "S=r,T=d", 0},
        {"cube (cubePadding, one imageSize per face)", shape(TEXDEC_FORMAT_BC4_UNORM, 8, 8, 1, 2, 1, 6, false),
         "S=r,T=d", 0},
        {"cube array", shape(TEXDEC_FORMAT_BC7_UNORM, 4, 4, 1, 1, 2, 6, true), "S=l,T=d",
         TEXDEC_FILE_ORIENTATION_X_LEFT},
        {"3D", shape(TEXDEC_FORMAT_EAC_R11G11_SNORM, 8, 8, 4, 2, 1, 1, false), "S=r,T=d,R=o",
         TEXDEC_FILE_ORIENTATION_Z_OUT},
        {"3D ASTC footprint", shape(TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 8, 8, 8, 2, 1, 1, false), "S=r,T=d,R=i", 0},
        {"no key-value data", shape(TEXDEC_FORMAT_BC1_RGBA_UNORM, 4, 4, 1, 1, 1, 1, false), nullptr, 0},
    };
    std::vector<Case> cases;
    for (const bool big : {false, true})
        for (const S& s : shapes) {
            Case c;
            c.name = std::string("KTX 1 ") + (big ? "big-endian " : "little-endian ") + s.name;
            c.shape = s.shape;
            c.written = w::write_ktx1(s.shape, big, s.orientation ? kv(s.orientation) : std::vector<w::KeyValue>{});
            c.container = TEXDEC_FILE_CONTAINER_KTX;
            c.orientation = s.bits, c.orientation_stated = s.orientation != nullptr;
            c.array_flag = s.shape.array;
            c.range_stated = !is_astc(s.shape.format);  // GL's ASTC enums do not say LDR or HDR
            cases.push_back(std::move(c));
        }
    return cases;
}

std::vector<Case> dds_cases() {
    struct S {
        const char* name;
        w::Shape shape;
        const char fourcc[5];
        uint32_t dxgi;
    };
    const S shapes[] = {
        {"legacy DXT1 2D mips", shape(TEXDEC_FORMAT_BC1_RGBA_UNORM, 16, 16, 1, 5, 1, 1, false), "DXT1", 0},
        {"legacy DXT5 cube", shape(TEXDEC_FORMAT_BC3_UNORM, 8, 8, 1, 2, 1, 6, false), "DXT5", 0},
        {"legacy ATI2 volume", shape(TEXDEC_FORMAT_BC5_UNORM, 8, 8, 4, 2, 1, 1, false), "ATI2", 0},
        {"legacy BC4S", shape(TEXDEC_FORMAT_BC4_SNORM, 12, 4, 1, 1, 1, 1, false), "BC4S", 0},
        {"DX10 BC7 sRGB 2D mips", shape(TEXDEC_FORMAT_BC7_SRGB, 13, 9, 1, 3, 1, 1, false), "DX10", 99},
        {"DX10 BC6H array", shape(TEXDEC_FORMAT_BC6H_UFLOAT, 8, 4, 1, 2, 3, 1, false), "DX10", 95},
        {"DX10 array of one", shape(TEXDEC_FORMAT_BC2_SRGB, 8, 8, 1, 1, 1, 1, false), "DX10", 75},
        {"DX10 BC5 cube", shape(TEXDEC_FORMAT_BC5_UNORM, 8, 8, 1, 2, 1, 6, false), "DX10", 83},
        {"DX10 BC1 cube array", shape(TEXDEC_FORMAT_BC1_RGBA_SRGB, 4, 4, 1, 2, 2, 6, false), "DX10", 72},
        {"DX10 BC4 volume", shape(TEXDEC_FORMAT_BC4_UNORM, 8, 8, 5, 3, 1, 1, false), "DX10", 80},
        {"DX10 ASTC 6x6 sRGB (NVTT)", shape(TEXDEC_FORMAT_ASTC_6x6_SRGB, 13, 7, 1, 2, 1, 1, false), "DX10", 151},
    };
    std::vector<Case> cases;
    for (const S& s : shapes) {
        Case c;
        c.name = std::string("DDS ") + s.name;
        c.shape = s.shape;
        c.written = w::write_dds(s.shape, s.fourcc, s.dxgi);
        c.container = TEXDEC_FILE_CONTAINER_DDS;
        c.array_flag = s.shape.layers > 1;  // DX10 arraySize > 1
        c.range_stated = !is_astc(s.shape.format);
        cases.push_back(std::move(c));
    }
    return cases;
}

std::vector<Case> pkm_astc_cases() {
    std::vector<Case> cases;
    struct P {
        const char* name;
        w::Shape shape;
        const char version[3];
        uint32_t code;
    };
    const P pkms[] = {
        {"ETC1 (v1, padded extent)", shape(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, 13, 6, 1, 1, 1, 1, false), "10", 0},
        {"ETC2 RGBA8", shape(TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 8, 4, 1, 1, 1, 1, false), "20", 3},
        {"EAC RG11 signed", shape(TEXDEC_FORMAT_EAC_R11G11_SNORM, 5, 9, 1, 1, 1, 1, false), "20", 8},
        {"ETC2 sRGB punch-through", shape(TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB, 4, 4, 1, 1, 1, 1, false), "20", 11},
    };
    for (const P& p : pkms) {
        Case c;
        c.name = std::string("PKM ") + p.name;
        c.shape = p.shape;
        c.written = w::write_pkm(p.shape, p.version, p.code);
        c.container = TEXDEC_FILE_CONTAINER_PKM;
        cases.push_back(std::move(c));
    }
    struct A {
        const char* name;
        w::Shape shape;
    };
    const A astcs[] = {
        {"2D 6x5", shape(TEXDEC_FORMAT_ASTC_6x5_UNORM, 13, 7, 1, 1, 1, 1, false)},
        {"3D 4x4x4", shape(TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 9, 9, 5, 1, 1, 1, false)},
        {"a stack of 2D 8x8 slices", shape(TEXDEC_FORMAT_ASTC_8x8_UNORM, 17, 8, 3, 1, 1, 1, false)},
        {"3D 3x3x3, one block", shape(TEXDEC_FORMAT_ASTC_3x3x3_UNORM, 3, 3, 3, 1, 1, 1, false)},
    };
    for (const A& a : astcs) {
        Case c;
        c.name = std::string(".astc ") + a.name;
        c.shape = a.shape;
        c.written = w::write_astc(a.shape);
        c.container = TEXDEC_FILE_CONTAINER_ASTC;
        c.range_stated = false, c.color_space_stated = false;  // .astc states neither
        cases.push_back(std::move(c));
    }
    return cases;
}

std::vector<Case> all_cases() {
    std::vector<Case> cases = ktx2_cases();
    for (auto* more : {&ktx1_cases, &dds_cases, &pkm_astc_cases})
        for (Case& c : more()) cases.push_back(std::move(c));
    return cases;
}

std::string hex(const uint8_t* p, size_t n) {
    std::string s;
    char buf[4];
    for (size_t i = 0; i < std::min<size_t>(n, 16); ++i) {
        std::snprintf(buf, sizeof buf, "%02x ", p[i]);
        s += buf;
    }
    return s;
}

// The surface's bytes in `frame` (the file, or the inflated level) are its pattern.
void check_surface_bytes(const std::vector<uint8_t>& frame, const texdec_file_surface& s, const char* where) {
    INFO(where << ": surface level " << s.level << " layer " << s.layer << " face " << s.face << " at " << s.offset);
    REQUIRE(s.offset + s.size <= frame.size());
    const std::vector<uint8_t> want = w::surface_pattern(s.level, s.layer, s.face, s.size);
    const bool same = std::equal(want.begin(), want.end(), frame.begin() + ptrdiff_t(s.offset));
    INFO("found " << hex(frame.data() + s.offset, size_t(s.size)) << " want " << hex(want.data(), want.size()));
    CHECK(same);
}

uint64_t packed_offset(const w::Shape& s, uint32_t level, uint32_t layer, uint32_t face) {
    return w::packed_level_offsets(s)[level] + (uint64_t(layer) * s.faces + face) * w::surface_size(s, level);
}

void check_file(const Case& c, bool copy) {
    INFO(c.name << (copy ? ", TEXDEC_FILE_OPEN_COPY" : ", kept pointer"));
    const w::Shape& sh = c.shape;
    std::vector<uint8_t> bytes = c.written.bytes;  // the caller's bytes (overwritten after a COPY open)
    Messages messages;
    texdec_file_problem problem = TEXDEC_FILE_PROBLEM_MAX_ENUM;
    texdec_file_open_info open{};
    open.flags = copy ? TEXDEC_FILE_OPEN_COPY : 0;
    open.message_callback = &Messages::callback;
    open.user_data = &messages;
    open.problem = &problem;
    texdec_file* file = nullptr;
    REQUIRE(texdec_file_open(&open, bytes.data(), bytes.size(), &file) == TEXDEC_SUCCESS);
    REQUIRE(file != nullptr);
    CHECK(problem == TEXDEC_FILE_PROBLEM_NONE);
    if (copy) std::fill(bytes.begin(), bytes.end(), uint8_t(0xEE));  // the file owns its copy
    const std::vector<uint8_t>& original = c.written.bytes;

    // A valid file opens without an ERROR or a WARNING (later ones answer the deliberate bad calls below).
    INFO("messages: " << (messages.bad.empty() ? "" : messages.bad.front()));
    CHECK(messages.bad.empty());
    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(file, &info) == TEXDEC_SUCCESS);
    texdec_format_info fi{};
    REQUIRE(texdec_format_get_info(sh.format, &fi) == TEXDEC_SUCCESS);
    const bool volume = w::is_volume(sh);
    CHECK(info.container == c.container);
    CHECK(info.format == sh.format);
    CHECK(info.vk_format == fi.vk_format);
    CHECK(info.header_format == c.written.header_format);
    REQUIRE(info.header_format_text != nullptr);
    CHECK(std::strlen(info.header_format_text) > 0);
    CHECK(uint32_t(info.supercompression) == c.supercompression);
    CHECK(info.width == sh.width);
    CHECK(info.height == sh.height);
    CHECK(info.depth == (volume ? sh.depth : 1u));
    CHECK(info.levels == sh.levels);
    CHECK(info.layers == sh.layers);
    CHECK(info.faces == sh.faces);
    const uint32_t layout = (c.array_flag ? TEXDEC_FILE_ARRAY : 0) | (sh.faces == 6 ? TEXDEC_FILE_CUBE : 0) |
                            (volume ? TEXDEC_FILE_VOLUME : 0);
    CHECK(info.layout_flags == layout);
    CHECK(bool(info.facts & TEXDEC_FILE_FACT_COLOR_SPACE_STATED) == c.color_space_stated);
    CHECK(bool(info.facts & TEXDEC_FILE_FACT_RANGE_STATED) == c.range_stated);
    CHECK(bool(info.facts & TEXDEC_FILE_FACT_ORIENTATION_STATED) == c.orientation_stated);
    const uint32_t unexpected = TEXDEC_FILE_FACT_PROFILE_CHOSEN | TEXDEC_FILE_FACT_SWAP_RED_ALPHA |
                                TEXDEC_FILE_FACT_PREMULTIPLIED_ALPHA | TEXDEC_FILE_FACT_DFD_DISAGREES |
                                TEXDEC_FILE_FACT_KEY_VALUE_DAMAGED;
    CHECK((info.facts & unexpected) == 0);
    if (c.orientation_stated) CHECK(info.orientation == c.orientation);
    CHECK(info.key_value_count == c.written.key_values.size());
    CHECK(info.surface_count == uint64_t(sh.levels) * sh.layers * sh.faces);
    CHECK(info.file_size == original.size());
    CHECK(info.trailing_bytes == 0);
    CHECK(info.blocks_size == w::packed_total(sh));

    // The plan of the whole file without a context or a device (texdec_file.h, texdec.h): a host
    // decode to NATIVE, an image of the file's type (3D for a volume) and CUBE_COMPATIBLE for a cube.
    texdec_upload_plan_info plan_info{};
    texdec_upload_plan plan{};
    REQUIRE(texdec_file_plan_upload(file, &plan_info, &plan) == TEXDEC_SUCCESS);
    CHECK(plan.action == TEXDEC_UPLOAD_DECODE_HOST);
    CHECK((plan.reasons & TEXDEC_PLAN_REASON_NO_DEVICE) != 0);
    CHECK(plan.backend == TEXDEC_BACKEND_AUTO);
    CHECK(plan.output == TEXDEC_OUTPUT_NATIVE);
    CHECK(plan.block_format == TEXDEC_FORMAT_UNDEFINED);
    CHECK(plan.image_type == (volume ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D));
    VkFormat native = VK_FORMAT_UNDEFINED;
    REQUIRE(texdec_output_vk_format(sh.format, TEXDEC_OUTPUT_NATIVE, &native) == TEXDEC_SUCCESS);
    CHECK(plan.image_format == native);
    CHECK(plan.image_flags == (sh.faces == 6 ? VkImageCreateFlags(VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) : 0u));
    CHECK(plan.image_usage == VkImageUsageFlags(VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    CHECK(plan.view_format_count == 0);

    // Every surface, in the file's order, and each one by (level, layer, face).
    REQUIRE(c.written.surfaces.size() == info.surface_count);
    std::vector<texdec_file_surface> listed(c.written.surfaces.size());
    REQUIRE(texdec_file_get_surfaces(file, 0, uint32_t(listed.size()), listed.data()) == TEXDEC_SUCCESS);
    for (size_t i = 0; i < listed.size(); ++i) {
        const w::Surface& want = c.written.surfaces[i];
        const texdec_file_surface& got = listed[i];
        INFO("file-order surface " << i << ": written level " << want.level << " layer " << want.layer << " face "
                                   << want.face << ", listed " << got.level << " " << got.layer << " " << got.face);
        CHECK((got.level == want.level && got.layer == want.layer && got.face == want.face));
        CHECK((got.width == want.width && got.height == want.height));
        CHECK(got.depth == (volume ? want.depth : 1u));
        CHECK(got.offset == want.offset);
        CHECK(got.size == want.size);
        CHECK(got.slice_size == want.slice_size);
        CHECK(got.packed_offset == packed_offset(sh, want.level, want.layer, want.face));
        texdec_file_surface one{};
        REQUIRE(texdec_file_get_surface(file, want.level, want.layer, want.face, &one) == TEXDEC_SUCCESS);
        CHECK(std::memcmp(&one, &got, sizeof one) == 0);
        // One surface from the middle of the list is the same as in the whole list.
        texdec_file_surface single{};
        REQUIRE(texdec_file_get_surfaces(file, i, 1, &single) == TEXDEC_SUCCESS);
        CHECK(std::memcmp(&single, &got, sizeof single) == 0);
        if (c.supercompression == 0) check_surface_bytes(original, got, "file");
    }
    // Past the end: INVALID_ARGUMENT, nothing written.
    texdec_file_surface untouched{};
    std::memset(&untouched, 0x77, sizeof untouched);
    const texdec_file_surface canary = untouched;
    CHECK(texdec_file_get_surfaces(file, info.surface_count, 1, &untouched) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surfaces(file, 0, uint32_t(info.surface_count + 1), listed.data()) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surfaces(file, UINT64_MAX, 2, &untouched) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(std::memcmp(&untouched, &canary, sizeof canary) == 0);
    CHECK(texdec_file_get_surface(file, sh.levels, 0, 0, &untouched) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surface(file, 0, sh.layers, 0, &untouched) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_surface(file, 0, 0, sh.faces, &untouched) == TEXDEC_ERROR_INVALID_ARGUMENT);

    // read_level: each level in the packed order (inflated for KTX 2 Zstandard / zlib), exactly its size.
    for (uint32_t l = 0; l < sh.levels; ++l) {
        INFO("level " << l);
        const std::vector<uint8_t> want = w::packed_level(sh, l);
        uint64_t size = 0;
        REQUIRE(texdec_file_level_size(file, l, &size) == TEXDEC_SUCCESS);
        CHECK(size == want.size());
        std::vector<uint8_t> got(want.size() + 8, 0xA5);
        CHECK(texdec_file_read_level(file, l, got.data(), want.size() - 1) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
        CHECK(std::all_of(got.begin(), got.end(), [](uint8_t b) { return b == 0xA5; }));
        REQUIRE(texdec_file_read_level(file, l, got.data(), got.size()) == TEXDEC_SUCCESS);
        CHECK(std::equal(want.begin(), want.end(), got.begin()));
        CHECK(std::all_of(got.begin() + ptrdiff_t(want.size()), got.end(), [](uint8_t b) { return b == 0xA5; }));
        if (c.supercompression != 0) {
            got.resize(want.size());
            for (const texdec_file_surface& s : listed)
                if (s.level == l) check_surface_bytes(got, s, "inflated level");
        }
        // The packed layout of texdec_file_get_layout(BLOCKS) is the one the header documents.
        texdec_file_level_layout lay{};
        REQUIRE(texdec_file_get_layout(file, TEXDEC_FILE_DATA_BLOCKS, TEXDEC_OUTPUT_RGBA8, 0, 0, l, &lay) ==
                TEXDEC_SUCCESS);
        CHECK(lay.offset == w::packed_level_offsets(sh)[l]);
        CHECK(lay.size == want.size());
        const w::Blocks blk = w::blocks_of(sh.format);
        CHECK(lay.row_pitch == uint64_t(w::level_extent(sh.width, l) + blk.bw - 1) / blk.bw * blk.bytes);
        CHECK(lay.surface_pitch == w::surface_size(sh, l));
        CHECK(lay.slice_pitch == w::slice_size(sh, l));
        CHECK(lay.total_size == w::packed_total(sh));
    }
    CHECK(texdec_file_read_level(file, sh.levels, listed.data(), 16) == TEXDEC_ERROR_INVALID_ARGUMENT);

    // read_blocks: every level at its packed offset, zeros between levels.
    const std::vector<uint8_t> all = w::packed_all(sh);
    std::vector<uint8_t> blocks(all.size(), 0xEE);
    CHECK(texdec_file_read_blocks(file, blocks.data(), blocks.size() - 1) == TEXDEC_ERROR_DESTINATION_TOO_SMALL);
    REQUIRE(texdec_file_read_blocks(file, blocks.data(), blocks.size()) == TEXDEC_SUCCESS);
    CHECK(blocks == all);

    // Key-value entries in file order; KTXorientation found by key; an absent key.
    for (uint32_t i = 0; i < c.written.key_values.size(); ++i) {
        const w::KeyValue& want = c.written.key_values[i];
        texdec_file_key_value e{};
        REQUIRE(texdec_file_get_key_value(file, i, &e) == TEXDEC_SUCCESS);
        REQUIRE(e.key != nullptr);
        CHECK(std::string(e.key) == want.key);
        CHECK(e.value_size == want.value.size());
        REQUIRE((e.value != nullptr || want.value.empty()));
        CHECK(std::equal(want.value.begin(), want.value.end(), static_cast<const uint8_t*>(e.value)));
        texdec_file_key_value found{};
        REQUIRE(texdec_file_find_key_value(file, want.key.c_str(), &found) == TEXDEC_SUCCESS);
        CHECK(found.key == e.key);
    }
    texdec_file_key_value none{};
    CHECK(texdec_file_get_key_value(file, uint32_t(c.written.key_values.size()), &none) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    none.key = "not written";
    REQUIRE(texdec_file_find_key_value(file, "KTXnotThere", &none) == TEXDEC_SUCCESS);
    CHECK(none.key == nullptr);
    CHECK(texdec_file_find_key_value(file, nullptr, &none) == TEXDEC_ERROR_INVALID_ARGUMENT);

    texdec_file_destroy(file);
}

}  // namespace

TEST_CASE("file containers: every container and shape, opened from memory, every surface's range",
          "[file][containers]") {
    const std::vector<Case> cases = all_cases();
    REQUIRE(cases.size() == 27 + 14 + 11 + 8);
    for (const Case& c : cases) {
        SECTION(c.name) {
            check_file(c, false);
            check_file(c, true);
        }
    }
}

TEST_CASE("file containers: the file order differs from the packed order where the container says so",
          "[file][containers]") {
    // A guard on the writer and the cases above: KTX 2 stores the smallest level first, DDS layer by
    // layer (each layer's mip chain), KTX 1 level by level; so a library listing surfaces in packed
    // order, or placing them by file order, fails those cases.
    const w::Shape s = shape(TEXDEC_FORMAT_BC1_RGBA_UNORM, 8, 8, 1, 2, 2, 1, true);
    const w::Written k2 = w::write_ktx2(s, 0, {});
    CHECK((k2.surfaces.front().level == 1 && k2.surfaces.back().level == 0));
    CHECK(k2.surfaces.front().offset < k2.surfaces.back().offset);
    const w::Written dds = w::write_dds(s, "DX10", 71);
    CHECK((dds.surfaces[1].level == 1 && dds.surfaces[1].layer == 0 && dds.surfaces[2].layer == 1));
    const w::Written k1 = w::write_ktx1(s, false, {});
    CHECK((k1.surfaces[1].level == 0 && k1.surfaces[1].layer == 1));
}

TEST_CASE("file containers: trailing bytes, DDS facts, the ASTC profile, open_path", "[file][containers]") {
    const w::Shape s2d = shape(TEXDEC_FORMAT_BC3_UNORM, 8, 8, 1, 1, 1, 1, false);
    SECTION("trailing bytes are counted for every container") {
        const w::Shape astc = shape(TEXDEC_FORMAT_ASTC_4x4_UNORM, 8, 8, 1, 1, 1, 1, false);
        const w::Shape etc = shape(TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 8, 8, 1, 1, 1, 1, false);
        const std::vector<std::vector<uint8_t>> files = {
            w::write_ktx2(s2d, 0, kv("rd")).bytes, w::write_ktx2(s2d, 2, {}).bytes,  w::write_ktx1(s2d, true, {}).bytes,
            w::write_dds(s2d, "DXT5").bytes,       w::write_pkm(etc, "20", 3).bytes, w::write_astc(astc).bytes};
        for (size_t i = 0; i < files.size(); ++i) {
            INFO("file " << i);
            std::vector<uint8_t> longer = files[i];
            longer.insert(longer.end(), {1, 2, 3, 4, 5});
            texdec_file* file = nullptr;
            REQUIRE(texdec_file_open(nullptr, longer.data(), longer.size(), &file) == TEXDEC_SUCCESS);
            texdec_file_info info{};
            REQUIRE(texdec_file_get_info(file, &info) == TEXDEC_SUCCESS);
            CHECK(info.trailing_bytes == 5);
            CHECK(info.file_size == longer.size());
            texdec_file_destroy(file);
        }
    }
    SECTION("DXT2 / DXT4 are premultiplied, RXGB swaps red and alpha; the blocks are BC2 / BC3") {
        struct F {
            const char cc[5];
            texdec_format format;
            uint32_t fact;
        };
        const F rows[] = {{"DXT2", TEXDEC_FORMAT_BC2_UNORM, TEXDEC_FILE_FACT_PREMULTIPLIED_ALPHA},
                          {"DXT4", TEXDEC_FORMAT_BC3_UNORM, TEXDEC_FILE_FACT_PREMULTIPLIED_ALPHA},
                          {"RXGB", TEXDEC_FORMAT_BC3_UNORM, TEXDEC_FILE_FACT_SWAP_RED_ALPHA},
                          {"DXT3", TEXDEC_FORMAT_BC2_UNORM, 0}};
        for (const F& r : rows) {
            INFO(r.cc);
            w::Shape s = s2d;
            s.format = r.format;
            const w::Written file = w::write_dds(s, r.cc);
            texdec_file* f = nullptr;
            REQUIRE(texdec_file_open(nullptr, file.bytes.data(), file.bytes.size(), &f) == TEXDEC_SUCCESS);
            texdec_file_info info{};
            REQUIRE(texdec_file_get_info(f, &info) == TEXDEC_SUCCESS);
            CHECK(info.format == r.format);
            CHECK((info.facts & (TEXDEC_FILE_FACT_PREMULTIPLIED_ALPHA | TEXDEC_FILE_FACT_SWAP_RED_ALPHA)) == r.fact);
            std::vector<uint8_t> blocks(info.blocks_size);
            REQUIRE(texdec_file_read_blocks(f, blocks.data(), blocks.size()) == TEXDEC_SUCCESS);
            CHECK(blocks == w::packed_all(s));  // never swapped in the blocks
            texdec_file_destroy(f);
        }
    }
    SECTION("astc_profile chooses the ASTC format; a non-ASTC file ignores it") {
        const w::Shape a = shape(TEXDEC_FORMAT_ASTC_6x6_UNORM, 12, 12, 1, 1, 1, 1, false);
        const w::Written astc = w::write_astc(a);
        const w::Written ktx2 = w::write_ktx2(a, 0, {});
        const w::Written bc = w::write_ktx2(s2d, 0, {});
        struct R {
            const w::Written* file;
            texdec_astc_profile profile;
            texdec_format format;
            bool chosen;
        };
        const R rows[] = {{&astc, TEXDEC_ASTC_PROFILE_DEFAULT, TEXDEC_FORMAT_ASTC_6x6_UNORM, false},
                          // .astc names no profile and reads as LDR: LDR chooses nothing else.
                          {&astc, TEXDEC_ASTC_PROFILE_LDR, TEXDEC_FORMAT_ASTC_6x6_UNORM, false},
                          {&astc, TEXDEC_ASTC_PROFILE_SRGB, TEXDEC_FORMAT_ASTC_6x6_SRGB, true},
                          {&astc, TEXDEC_ASTC_PROFILE_HDR, TEXDEC_FORMAT_ASTC_6x6_SFLOAT, true},
                          {&ktx2, TEXDEC_ASTC_PROFILE_HDR, TEXDEC_FORMAT_ASTC_6x6_SFLOAT, true},
                          {&ktx2, TEXDEC_ASTC_PROFILE_DEFAULT, TEXDEC_FORMAT_ASTC_6x6_UNORM, false},
                          {&bc, TEXDEC_ASTC_PROFILE_SRGB, TEXDEC_FORMAT_BC3_UNORM, false}};
        for (const R& r : rows) {
            INFO("row " << (&r - rows));
            texdec_file_open_info open{};
            open.astc_profile = r.profile;
            texdec_file* f = nullptr;
            REQUIRE(texdec_file_open(&open, r.file->bytes.data(), r.file->bytes.size(), &f) == TEXDEC_SUCCESS);
            texdec_file_info info{};
            REQUIRE(texdec_file_get_info(f, &info) == TEXDEC_SUCCESS);
            CHECK(info.format == r.format);
            CHECK(bool(info.facts & TEXDEC_FILE_FACT_PROFILE_CHOSEN) == r.chosen);
            texdec_file_destroy(f);
        }
    }
    SECTION("open_path reads the same file as open from memory") {
        const w::Written file = w::write_ktx2(shape(TEXDEC_FORMAT_BC7_UNORM, 20, 12, 1, 3, 2, 1, true), 3, kv("rd"));
        char path[] = "/tmp/texdec_file_containers_XXXXXX";
        const int fd = mkstemp(path);
        REQUIRE(fd >= 0);
        REQUIRE(write(fd, file.bytes.data(), file.bytes.size()) == ssize_t(file.bytes.size()));
        close(fd);
        texdec_file* a = nullptr;
        texdec_file* b = nullptr;
        REQUIRE(texdec_file_open_path(nullptr, path, &a) == TEXDEC_SUCCESS);
        REQUIRE(texdec_file_open(nullptr, file.bytes.data(), file.bytes.size(), &b) == TEXDEC_SUCCESS);
        texdec_file_info ia{}, ib{};
        REQUIRE(texdec_file_get_info(a, &ia) == TEXDEC_SUCCESS);
        REQUIRE(texdec_file_get_info(b, &ib) == TEXDEC_SUCCESS);
        CHECK((ia.format == ib.format && ia.levels == 3 && ia.layers == 2 && ia.blocks_size == ib.blocks_size));
        std::vector<uint8_t> ba(ia.blocks_size), bb(ib.blocks_size);
        REQUIRE(texdec_file_read_blocks(a, ba.data(), ba.size()) == TEXDEC_SUCCESS);
        REQUIRE(texdec_file_read_blocks(b, bb.data(), bb.size()) == TEXDEC_SUCCESS);
        CHECK(ba == bb);
        texdec_file_destroy(a);
        texdec_file_destroy(b);
        std::remove(path);
        texdec_file* missing = nullptr;
        CHECK(texdec_file_open_path(nullptr, path, &missing) == TEXDEC_ERROR_FILE_IO);
        CHECK(missing == nullptr);
    }
}
