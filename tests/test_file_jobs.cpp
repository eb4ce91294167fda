// [file][jobs]: texdec_file.h's whole-texture jobs (item 3 of issue 36) on files the test writes
// itself (support/container_files: KTX 2 with and without Zstandard / zlib, DDS DX10 arrays, .astc
// 3D), with shapes of every kind: 2D mips, arrays, a cube map, 3D ASTC.
//   - texdec_file_get_layout and texdec_file_buffer_copies against numbers computed here from the
//     header's rules (level-major, 16-byte aligned levels, layer x face surfaces, tight rows);
//   - texdec_file_decode on the CPU backend and on the GPU (lavapipe here): every surface of every
//     level, at the offsets computed here, equals the CPU reference decoder (src/reference, the
//     --verify path) decoding the blocks the test wrote for that surface; tolerance 0;
//   - texdec_file_record into an image target (created with the flags the image target table asks
//     for: none for UNORM outputs, CUBE_COMPATIBLE for the cube), read back with the
//     texdec_file_buffer_copies of the texel layout, equals the one-call decode byte for byte;
//   - bad arguments: their statuses, a message naming the field, nothing written.
#include <catch2/catch.hpp>

#include <texdec/texdec.h>
#include <texdec/texdec.hpp>  // image_create_info, image_target_info of a plan
#include <texdec/texdec_file.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "reference/cpu_reference.h"
#include "support/compare.h"  // image_half_texels_equal
#include "support/container_files.h"
#include "support/record_compare.h"  // random_bytes

using namespace texdec_test;

namespace {

enum class Container { ktx2, ktx1_big_endian, dds, dds_legacy, astc };

// A texture the test writes: its format's block numbers (stated here, not asked of texdec), its
// shape, and how it is stored.
struct Shape {
    const char* name;
    texdec_format format;
    uint32_t bw, bh, bd, block_bytes;
    uint32_t w, h, d, levels, layers, faces;
    Container container;
    uint32_t scheme;  // KTX 2 supercompression: 0, 2 (Zstandard), 3 (zlib)
    uint32_t dxgi;    // DDS DX10: DXGI_FORMAT; legacy DDS: FourCC; KTX 1: glInternalFormat
    texdec_output output;
    uint32_t texel_bytes;  // of `output`
    bool needs_scratch;    // some level is not in packed order in the file, or is supercompressed
};

const Shape kShapes[] = {
    // 2D mips, packed as stored: read in place.
    {"ktx2 bc1 13x7 3 mips", TEXDEC_FORMAT_BC1_RGBA_UNORM, 4, 4, 1, 8, 13, 7, 1, 3, 1, 1, Container::ktx2, 0, 0,
     TEXDEC_OUTPUT_RGBA8, 4, false},
    // An array, Zstandard.
    {"ktx2 bc7 array 9x9 x3 layers 2 mips zstd", TEXDEC_FORMAT_BC7_UNORM, 4, 4, 1, 16, 9, 9, 1, 2, 3, 1,
     Container::ktx2, 2, 0, TEXDEC_OUTPUT_RGBA8, 4, true},
    // A cube map, zlib.
    {"ktx2 etc2 cube 8x8 2 mips zlib", TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 4, 4, 1, 16, 8, 8, 1, 2, 1, 6,
     Container::ktx2, 3, 0, TEXDEC_OUTPUT_RGBA8, 4, true},
    // A DDS array: layer-major in the file, so gathered.
    {"dds bc3 array 10x6 x2 layers 2 mips", TEXDEC_FORMAT_BC3_UNORM, 4, 4, 1, 16, 10, 6, 1, 2, 2, 1, Container::dds, 0,
     77, TEXDEC_OUTPUT_RGBA8, 4, true},
    // A KTX 1 cube map, big-endian: each level's faces follow each other, read in place.
    {"ktx1 big-endian bc1 cube 8x8 2 mips", TEXDEC_FORMAT_BC1_RGBA_UNORM, 4, 4, 1, 8, 8, 8, 1, 2, 1, 6,
     Container::ktx1_big_endian, 0, 0x83F1 /* GL_COMPRESSED_RGBA_S3TC_DXT1_EXT */, TEXDEC_OUTPUT_RGBA8, 4, false},
    // A legacy DDS cube map (DXT5): face by face, each face's mip chain, so gathered.
    {"dds legacy bc3 cube 4x4 3 mips", TEXDEC_FORMAT_BC3_UNORM, 4, 4, 1, 16, 4, 4, 1, 3, 1, 6, Container::dds_legacy, 0,
     0, TEXDEC_OUTPUT_RGBA8, 4, true},
    // 3D ASTC, one level (.astc), as RGBA16F.
    {"astc 4x4x4 9x7x5", TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 4, 4, 4, 16, 9, 7, 5, 1, 1, 1, Container::astc, 0, 0,
     TEXDEC_OUTPUT_RGBA16F, 8, false},
    // 3D ASTC with mips in KTX 2.
    {"ktx2 astc 3x3x3 7x5x4 2 mips", TEXDEC_FORMAT_ASTC_3x3x3_UNORM, 3, 3, 3, 16, 7, 5, 4, 2, 1, 1, Container::ktx2, 0,
     0, TEXDEC_OUTPUT_RGBA8, 4, false},
};

uint32_t mip(uint32_t v, uint32_t level) { return v >> level ? v >> level : 1; }
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t align16(uint64_t v) { return (v + 15) / 16 * 16; }

struct Written {
    std::vector<uint8_t> bytes;
    // blocks[level][layer * faces + face]: what the test wrote for that surface.
    std::vector<std::vector<std::vector<uint8_t>>> blocks;
    // KTX 2: where each level's (compressed) bytes are in the file, level 0 first.
    std::vector<uint64_t> level_offsets, level_lengths;
};

uint64_t surface_block_bytes(const Shape& s, uint32_t level) {
    return ceil_div(mip(s.w, level), s.bw) * ceil_div(mip(s.h, level), s.bh) * ceil_div(mip(s.d, level), s.bd) *
           s.block_bytes;
}

Written write_file(const Shape& s, uint64_t seed) {
    Written out;
    const uint32_t surfaces = s.layers * s.faces;
    out.blocks.resize(s.levels);
    for (uint32_t l = 0; l < s.levels; ++l)
        for (uint32_t i = 0; i < surfaces; ++i)
            out.blocks[l].push_back(random_bytes(size_t(surface_block_bytes(s, l)), seed * 1000 + l * 64 + i));
    switch (s.container) {
    case Container::ktx2: {
        // KTX 2 "Level Index": a level holds every layer, then face, then z slice.
        std::vector<std::vector<uint8_t>> levels(s.levels);
        for (uint32_t l = 0; l < s.levels; ++l)
            for (const std::vector<uint8_t>& b : out.blocks[l]) levels[l].insert(levels[l].end(), b.begin(), b.end());
        const Ktx2Spec spec =
            ktx2_spec(s.format, s.w, s.h, s.d > 1 ? s.d : 0, s.layers > 1 ? s.layers : 0, s.faces, s.levels, s.scheme);
        Ktx2File file = ktx2_bytes(spec, levels);
        out.bytes = std::move(file.bytes);
        out.level_offsets = file.level_offsets;
        out.level_lengths = file.level_lengths;
        break;
    }
    case Container::ktx1_big_endian: {
        // KTX 1.1: per level imageSize (one face of a non-array cube map), then every face; BC1
        // faces are multiples of 4 bytes, so no cubePadding.
        KtxHeader h{};
        h.gl_internal_format = s.dxgi, h.width = s.w, h.height = s.h, h.faces = s.faces, h.mip_levels = s.levels;
        std::vector<KtxLevel> levels(s.levels);
        for (uint32_t l = 0; l < s.levels; ++l) {
            levels[l].image_size = uint32_t(surface_block_bytes(s, l));
            for (const std::vector<uint8_t>& b : out.blocks[l])
                levels[l].data.insert(levels[l].data.end(), b.begin(), b.end());
        }
        out.bytes = ktx_bytes(h, levels, true);
        break;
    }
    case Container::dds:
    case Container::dds_legacy: {
        // DDS: each array element's (cube face's) whole mip chain, then the next element's.
        std::vector<uint8_t> data;
        for (uint32_t i = 0; i < surfaces; ++i)
            for (uint32_t l = 0; l < s.levels; ++l)
                data.insert(data.end(), out.blocks[l][i].begin(), out.blocks[l][i].end());
        if (s.container == Container::dds) {
            Dx10Header h{};
            h.dxgi_format = s.dxgi, h.width = s.w, h.height = s.h, h.mip_count = s.levels, h.array_size = s.layers;
            out.bytes = dx10_dds(h, data);
        } else {
            // DDSCAPS2_CUBEMAP and the six face bits.
            const LegacyDdsHeader h{{'D', 'X', 'T', '5'}, s.w, s.h, 0, s.levels, 0x200u | 0xFC00u};
            out.bytes = legacy_dds(h, data);
        }
        break;
    }
    case Container::astc: out.bytes = astc_file_bytes(s.bw, s.bh, s.bd, s.w, s.h, s.d, out.blocks[0][0]); break;
    }
    return out;
}

// Messages the file sends (texdec_file_open_info's callback), kept for the checks.
struct FileMessages {
    std::string text;
    static void callback(texdec_message_severity severity, const char* message, void* user) {
        if (severity != TEXDEC_MESSAGE_ERROR) return;
        auto* self = static_cast<FileMessages*>(user);
        self->text += (self->text.empty() ? "" : "; ") + std::string(message ? message : "(null)");
    }
    std::string take() { return std::exchange(text, std::string()); }
};

struct OpenFile {
    Written written;
    FileMessages messages;
    texdec_file* file = nullptr;
    OpenFile(const Shape& s, uint64_t seed) : written(write_file(s, seed)) {
        texdec_file_open_info info{};
        info.message_callback = &FileMessages::callback;
        info.user_data = &messages;
        const texdec_status st = texdec_file_open(&info, written.bytes.data(), written.bytes.size(), &file);
        INFO(s.name << ": " << messages.text);
        REQUIRE(st == TEXDEC_SUCCESS);
    }
    ~OpenFile() { texdec_file_destroy(file); }
    OpenFile(const OpenFile&) = delete;
    OpenFile& operator=(const OpenFile&) = delete;
};

// The texel layout of texdec_file.h computed here: levels from base_level, each at a multiple of
// 16, surfaces of w x h x d texels with tight rows and slices.
struct Expected {
    uint64_t offset, size, row, slice, surface;
};
std::vector<Expected> expected_layout(const Shape& s, bool blocks, uint32_t base_level, uint32_t count,
                                      uint64_t* total) {
    std::vector<Expected> out;
    uint64_t at = 0;
    for (uint32_t l = base_level; l < base_level + count; ++l) {
        Expected e{};
        if (blocks) {
            e.row = ceil_div(mip(s.w, l), s.bw) * s.block_bytes;
            e.slice = e.row * ceil_div(mip(s.h, l), s.bh);
            e.surface = e.slice * ceil_div(mip(s.d, l), s.bd);
        } else {
            e.row = uint64_t(mip(s.w, l)) * s.texel_bytes;
            e.slice = e.row * mip(s.h, l);
            e.surface = e.slice * mip(s.d, l);
        }
        e.size = e.surface * s.layers * s.faces;
        e.offset = align16(at);
        at = e.offset + e.size;
        out.push_back(e);
    }
    *total = at;
    return out;
}

bool is_3d(const Shape& s) { return s.d > 1 || s.bd > 1; }

// The reference decoder's texels of one surface (tight rows and slices).
std::vector<uint8_t> reference_surface(const Shape& s, uint32_t level, const std::vector<uint8_t>& blocks) {
    texdec_host_job job{};
    job.format = s.format;
    job.output = s.output;
    job.width = mip(s.w, level), job.height = mip(s.h, level), job.depth = mip(s.d, level);
    job.src = blocks.data();
    job.src_size = blocks.size();
    std::vector<uint8_t> texels(size_t(job.width) * job.height * job.depth * s.texel_bytes, 0xCD);
    job.dst = texels.data();
    job.dst_size = texels.size();
    const texdec_reference::Result r = texdec_reference::decode(job);
    INFO(r.message);
    REQUIRE(r.status == TEXDEC_SUCCESS);
    return texels;
}

// CHECKs every surface of levels base_level .. in `texels` (the texel layout) against the reference.
void check_against_reference(const Shape& s, const Written& w, const std::vector<uint8_t>& texels, uint32_t base_level,
                             uint32_t count, const char* where) {
    uint64_t total = 0;
    const std::vector<Expected> layout = expected_layout(s, false, base_level, count, &total);
    REQUIRE(texels.size() >= total);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t level = base_level + i;
        for (uint32_t surface = 0; surface < s.layers * s.faces; ++surface) {
            const std::vector<uint8_t> expected = reference_surface(s, level, w.blocks[level][surface]);
            const uint8_t* got = texels.data() + layout[i].offset + surface * layout[i].surface;
            INFO(s.name << ", " << where << ": level " << level << ", surface (layer x face) " << surface);
            CHECK(std::memcmp(got, expected.data(), expected.size()) == 0);
        }
    }
}

// texdec_file_decode of levels base_level .. into a buffer of the layout's size plus a canary tail;
// REQUIREs success.
std::vector<uint8_t> decode_file(texdec_context* ctx, OpenFile& f, const Shape& s, uint32_t base_level,
                                 uint32_t level_count, bool own_scratch) {
    texdec_file_level_layout layout{};
    REQUIRE(texdec_file_get_layout(f.file, TEXDEC_FILE_DATA_TEXELS, s.output, base_level, level_count, base_level,
                                   &layout) == TEXDEC_SUCCESS);
    std::vector<uint8_t> texels(size_t(layout.total_size) + 64, 0xA5);
    texdec_file_decode_job job{};
    job.output = s.output;
    job.base_level = base_level;
    job.level_count = level_count;
    job.dst = texels.data();
    job.dst_size = size_t(layout.total_size);
    std::vector<uint8_t> scratch;
    if (own_scratch) {
        uint64_t bytes = 0;
        REQUIRE(texdec_file_decode_scratch_size(f.file, &job, &bytes) == TEXDEC_SUCCESS);
        scratch.assign(size_t(bytes), 0);
        job.scratch = scratch.empty() ? nullptr : scratch.data();
        job.scratch_size = scratch.size();
    }
    const texdec_status st = texdec_file_decode(ctx, f.file, &job);
    INFO(s.name << ": " << f.messages.text);
    REQUIRE(st == TEXDEC_SUCCESS);
    for (size_t i = size_t(layout.total_size); i < texels.size(); ++i) REQUIRE(texels[i] == 0xA5);
    texels.resize(size_t(layout.total_size));
    return texels;
}

}  // namespace

TEST_CASE("file jobs: layouts and buffer copies", "[file][jobs]") {
    uint64_t seed = 1;
    for (const Shape& s : kShapes) {
        OpenFile f(s, seed++);
        texdec_file_info info{};
        REQUIRE(texdec_file_get_info(f.file, &info) == TEXDEC_SUCCESS);
        REQUIRE(info.format == s.format);
        REQUIRE(info.levels == s.levels);
        REQUIRE(info.layers * info.faces == s.layers * s.faces);
        for (const bool blocks : {true, false}) {
            const texdec_file_data data = blocks ? TEXDEC_FILE_DATA_BLOCKS : TEXDEC_FILE_DATA_TEXELS;
            for (uint32_t base = 0; base < s.levels; ++base) {
                for (uint32_t count = 0; count <= s.levels - base; ++count) {
                    const uint32_t levels = count ? count : s.levels - base;
                    uint64_t total = 0;
                    const std::vector<Expected> expected = expected_layout(s, blocks, base, levels, &total);
                    INFO(s.name << (blocks ? ", blocks" : ", texels") << ", base_level " << base << ", level_count "
                                << count);
                    for (uint32_t i = 0; i < levels; ++i) {
                        texdec_file_level_layout l{};
                        REQUIRE(texdec_file_get_layout(f.file, data, s.output, base, count, base + i, &l) ==
                                TEXDEC_SUCCESS);
                        CHECK(l.offset == expected[i].offset);
                        CHECK(l.size == expected[i].size);
                        CHECK(l.row_pitch == expected[i].row);
                        CHECK(l.slice_pitch == expected[i].slice);
                        CHECK(l.surface_pitch == expected[i].surface);
                        CHECK(l.total_size == total);
                    }
                    for (const VkBool32 zero : {VK_FALSE, VK_TRUE}) {
                        uint32_t n = 0;
                        REQUIRE(texdec_file_buffer_copies(f.file, data, s.output, base, count, zero, 32, &n, nullptr) ==
                                TEXDEC_SUCCESS);
                        REQUIRE(n == levels);
                        std::vector<VkBufferImageCopy> copies(n + 1);
                        copies[n].bufferOffset = 12345;  // past *count: untouched
                        REQUIRE(texdec_file_buffer_copies(f.file, data, s.output, base, count, zero, 32, &n,
                                                          copies.data()) == TEXDEC_SUCCESS);
                        CHECK(copies[n].bufferOffset == 12345);
                        for (uint32_t i = 0; i < levels; ++i) {
                            const VkBufferImageCopy& c = copies[i];
                            CHECK(c.bufferOffset == 32 + expected[i].offset);
                            CHECK(c.bufferRowLength == 0);
                            CHECK(c.bufferImageHeight == 0);
                            CHECK(c.imageSubresource.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT);
                            CHECK(c.imageSubresource.mipLevel == (zero ? i : base + i));
                            CHECK(c.imageSubresource.baseArrayLayer == 0);
                            CHECK(c.imageSubresource.layerCount == (is_3d(s) ? 1 : s.layers * s.faces));
                            CHECK(c.imageOffset.x == 0);
                            CHECK(c.imageOffset.y == 0);
                            CHECK(c.imageOffset.z == 0);
                            CHECK(c.imageExtent.width == mip(s.w, base + i));
                            CHECK(c.imageExtent.height == mip(s.h, base + i));
                            CHECK(c.imageExtent.depth == (is_3d(s) ? mip(s.d, base + i) : 1));
                        }
                    }
                }
            }
        }
        // The packed layout of the whole file is texdec_file_read_blocks' (packed_offset, blocks_size).
        uint64_t total = 0;
        const std::vector<Expected> blocks = expected_layout(s, true, 0, s.levels, &total);
        CHECK(info.blocks_size == total);
        for (uint32_t l = 0; l < s.levels; ++l) {
            for (uint32_t layer = 0; layer < s.layers; ++layer) {
                for (uint32_t face = 0; face < s.faces; ++face) {
                    texdec_file_surface surface{};
                    REQUIRE(texdec_file_get_surface(f.file, l, layer, face, &surface) == TEXDEC_SUCCESS);
                    INFO(s.name << ": level " << l << " layer " << layer << " face " << face);
                    CHECK(surface.packed_offset == blocks[l].offset + (layer * s.faces + face) * blocks[l].surface);
                    CHECK(surface.size == blocks[l].surface);
                }
            }
        }
        // The scratch the one-call decode needs: 0 where every level is read in place, else the
        // largest level's blocks.
        texdec_file_decode_job job{};
        job.output = s.output;
        uint64_t scratch = 1;
        REQUIRE(texdec_file_decode_scratch_size(f.file, &job, &scratch) == TEXDEC_SUCCESS);
        CHECK(scratch == (s.needs_scratch ? blocks[0].size : 0));
        CHECK(f.messages.take().empty());
    }
}

TEST_CASE("file jobs: whole-file decode equals the reference, CPU and GPU", "[file][jobs]") {
    for (const Backend backend : {Backend::cpu, Backend::gpu}) {
        std::unique_ptr<OwnContext> ctx = OwnContext::open(backend);
        if (!ctx) return;
        uint64_t seed = 100;
        for (const Shape& s : kShapes) {
            OpenFile f(s, seed++);
            INFO(backend_name(backend) << " backend");
            // Every level; the scratch texdec allocates, then the caller's.
            for (const bool own_scratch : {false, true}) {
                const std::vector<uint8_t> texels = decode_file(ctx->get(), f, s, 0, 0, own_scratch);
                check_against_reference(s, f.written, texels, 0, s.levels, "all levels");
            }
            // A loader skipping the top level: levels 1 ..
            if (s.levels > 1) {
                const std::vector<uint8_t> texels = decode_file(ctx->get(), f, s, 1, 0, false);
                check_against_reference(s, f.written, texels, 1, s.levels - 1, "base_level 1");
            }
            // One level in the middle of the chain.
            const std::vector<uint8_t> one = decode_file(ctx->get(), f, s, s.levels - 1, 1, true);
            check_against_reference(s, f.written, one, s.levels - 1, 1, "the last level alone");
            CHECK(f.messages.take().empty());
        }
        ctx->close_and_check();
    }
}

TEST_CASE("file jobs: bad arguments", "[file][jobs]") {
    std::unique_ptr<OwnContext> ctx = OwnContext::open(Backend::cpu);
    if (!ctx) return;
    const Shape& dds = kShapes[3];  // needs scratch
    REQUIRE(dds.needs_scratch);
    OpenFile f(dds, 7);
    uint64_t total = 0;
    expected_layout(dds, false, 0, dds.levels, &total);
    std::vector<uint8_t> texels(size_t(total), 0xA5);
    texdec_file_decode_job good{};
    good.output = dds.output;
    good.dst = texels.data();
    good.dst_size = texels.size();
    uint64_t scratch_bytes = 0;
    REQUIRE(texdec_file_decode_scratch_size(f.file, &good, &scratch_bytes) == TEXDEC_SUCCESS);
    REQUIRE(scratch_bytes > 0);
    std::vector<uint8_t> scratch(static_cast<size_t>(scratch_bytes));

    auto refused = [&](texdec_file_decode_job job, texdec_status status, const char* field) {
        const texdec_status st = texdec_file_decode(ctx->get(), f.file, &job);
        const std::string message = f.messages.take();
        INFO(field << ": " << texdec_status_string(st) << ": " << message);
        CHECK(st == status);
        CHECK(message.find(field) != std::string::npos);
        for (const uint8_t b : texels) REQUIRE(b == 0xA5);  // nothing written
    };
    {
        texdec_file_decode_job job = good;
        job.dst_size = texels.size() - 1;
        refused(job, TEXDEC_ERROR_DESTINATION_TOO_SMALL, "dst_size");
    }
    {
        texdec_file_decode_job job = good;
        job.scratch = scratch.data();
        job.scratch_size = scratch.size() - 1;
        refused(job, TEXDEC_ERROR_INVALID_ARGUMENT, "scratch_size");
    }
    {
        texdec_file_decode_job job = good;
        job.base_level = dds.levels;
        refused(job, TEXDEC_ERROR_INVALID_ARGUMENT, "base_level");
    }
    {
        texdec_file_decode_job job = good;
        job.base_level = 1;
        job.level_count = dds.levels;
        refused(job, TEXDEC_ERROR_INVALID_ARGUMENT, "level_count");
    }
    {
        texdec_file_decode_job job = good;
        job.level_count = dds.levels + 1;
        refused(job, TEXDEC_ERROR_INVALID_ARGUMENT, "level_count");
    }
    {
        const int chained = 0;
        texdec_file_decode_job job = good;
        job.next = &chained;
        refused(job, TEXDEC_ERROR_INVALID_ARGUMENT, "next");
    }
    {
        texdec_file_decode_job job = good;
        job.output = TEXDEC_OUTPUT_MAX_ENUM;
        const texdec_status st = texdec_file_decode(ctx->get(), f.file, &job);
        CHECK(st == TEXDEC_ERROR_UNSUPPORTED_OUTPUT);
        CHECK(!f.messages.take().empty());
    }
    {
        // texdec_decode's own checks, before any level is decoded.
        texdec_file_decode_job job = good;
        job.bc_rounding = texdec_bc_rounding(99);
        CHECK(texdec_file_decode(ctx->get(), f.file, &job) == TEXDEC_ERROR_UNSUPPORTED_ROUNDING);
        for (const uint8_t b : texels) REQUIRE(b == 0xA5);
    }
    CHECK(texdec_file_decode(nullptr, f.file, &good) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_decode(ctx->get(), nullptr, &good) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_decode(ctx->get(), f.file, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    f.messages.take();
    for (const uint8_t b : texels) REQUIRE(b == 0xA5);

    // Layout queries: levels outside the file or the range, an unknown data value, counts.
    texdec_file_level_layout layout{};
    CHECK(texdec_file_get_layout(f.file, TEXDEC_FILE_DATA_TEXELS, dds.output, dds.levels, 0, dds.levels, &layout) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_layout(f.file, TEXDEC_FILE_DATA_TEXELS, dds.output, 1, 1, 0, &layout) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_layout(f.file, texdec_file_data(7), dds.output, 0, 0, 0, &layout) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_get_layout(f.file, TEXDEC_FILE_DATA_TEXELS, dds.output, 0, 0, 0, nullptr) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    uint32_t n = 1;
    VkBufferImageCopy copies[4]{};
    CHECK(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_BLOCKS, dds.output, 0, 0, VK_FALSE, 0, &n, copies) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    n = 4;
    CHECK(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_BLOCKS, dds.output, 0, 0, VK_FALSE, 8, &n, copies) ==
          TEXDEC_ERROR_INVALID_LAYOUT);
    CHECK(f.messages.take().find("buffer_offset") != std::string::npos);
    CHECK(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_BLOCKS, dds.output, 0, 0, VK_FALSE, VkDeviceSize(0) - 16,
                                    &n, copies) == TEXDEC_ERROR_SIZE_OVERFLOW);
    f.messages.take();

    // Regions: sizes first, levels outside the file, misaligned offsets.
    texdec_file_record_job rjob{};
    rjob.output = dds.output;
    uint32_t count = 0;
    REQUIRE(texdec_file_make_regions(f.file, &rjob, &count, nullptr) == TEXDEC_SUCCESS);
    CHECK(count == dds.levels);
    texdec_region regions[4]{};
    count = 1;
    CHECK(texdec_file_make_regions(f.file, &rjob, &count, regions) == TEXDEC_ERROR_INVALID_ARGUMENT);
    rjob.base_level = dds.levels;
    count = 4;
    CHECK(texdec_file_make_regions(f.file, &rjob, &count, regions) == TEXDEC_ERROR_INVALID_ARGUMENT);
    rjob.base_level = 0;
    rjob.src_offset = 4;
    CHECK(texdec_file_make_regions(f.file, &rjob, &count, regions) == TEXDEC_ERROR_INVALID_LAYOUT);
    f.messages.take();

    // The record path on a CPU context: WRONG_BACKEND, whatever the command buffer and job.
    rjob.src_offset = 0;
    CHECK(texdec_file_record(ctx->get(), VK_NULL_HANDLE, f.file, &rjob) == TEXDEC_ERROR_WRONG_BACKEND);
    CHECK(texdec_file_record(ctx->get(), reinterpret_cast<VkCommandBuffer>(uintptr_t(0x1234)), f.file, &rjob) ==
          TEXDEC_ERROR_WRONG_BACKEND);
    CHECK(texdec_file_record(ctx->get(), VK_NULL_HANDLE, nullptr, nullptr) == TEXDEC_ERROR_WRONG_BACKEND);
    ctx->close_and_check();
}

namespace {

std::string context_errors(ExternalSetup& setup) {
    std::string text;
    for (const std::string& e : setup.context_log.take_errors()) text += e + "; ";
    return text;
}

// texdec_file_record of levels base .. of `s` into a new image target (2D array of layers x faces
// layers, or 3D) with those levels only (a loader skipping the top levels: file level `base` is the
// image's level 0), read back through texdec_file_buffer_copies of the texel layout. base 0: the
// source is texdec_file_read_blocks' bytes; else each level's texdec_file_read_level at its
// texdec_file_get_layout(BLOCKS) offset, as texdec_file_record_job describes.
std::vector<uint8_t> record_file(ExternalSetup& setup, OpenFile& f, const Shape& s, uint32_t base) {
    VulkanTestDevice& dev = *setup.device;
    const uint32_t levels = s.levels - base;
    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(f.file, &info) == TEXDEC_SUCCESS);
    uint64_t blocks_total = 0;
    const std::vector<Expected> blocks = expected_layout(s, true, base, levels, &blocks_total);
    std::vector<uint8_t> packed;
    if (base == 0) {
        packed.resize(size_t(info.blocks_size));
        REQUIRE(texdec_file_read_blocks(f.file, packed.data(), packed.size()) == TEXDEC_SUCCESS);
    } else {
        packed.resize(size_t(blocks_total));
        for (uint32_t i = 0; i < levels; ++i) {
            texdec_file_level_layout l{};
            REQUIRE(texdec_file_get_layout(f.file, TEXDEC_FILE_DATA_BLOCKS, s.output, base, 0, base + i, &l) ==
                    TEXDEC_SUCCESS);
            REQUIRE(l.offset == blocks[i].offset);
            REQUIRE(texdec_file_read_level(f.file, base + i, packed.data() + l.offset, size_t(l.size)) ==
                    TEXDEC_SUCCESS);
        }
    }
    const VkDeviceSize src_offset = 48;  // a multiple of 16
    HostBuffer src = dev.create_buffer(src_offset + packed.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memcpy(src.mapped + src_offset, packed.data(), packed.size());

    VkFormat vk = VK_FORMAT_UNDEFINED;
    REQUIRE(texdec_output_vk_format(s.format, s.output, &vk) == TEXDEC_SUCCESS);
    // UNORM outputs: the storage view is the image's own format, so the image target table asks
    // for no MUTABLE_FORMAT / EXTENDED_USAGE; a cube map's image is CUBE_COMPATIBLE, as a loader
    // creates it.
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.flags = s.faces == 6 ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
    ici.imageType = is_3d(s) ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
    ici.format = vk;
    ici.extent = {mip(s.w, base), mip(s.h, base), is_3d(s) ? mip(s.d, base) : 1};
    ici.mipLevels = levels;
    ici.arrayLayers = is_3d(s) ? 1 : s.layers * s.faces;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    ici.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    TestImage image = dev.create_image(ici);
    texdec_image_target* target = image_target(setup.ctx, image);

    uint64_t total = 0;
    expected_layout(s, false, base, levels, &total);
    HostBuffer readback = dev.create_buffer(total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(readback.mapped, 0xA5, size_t(total));

    texdec_record_barriers barriers{};
    barriers.src_stage_mask = 0;  // the host wrote the source before the submission
    barriers.old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    barriers.dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    barriers.dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT;
    barriers.new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    texdec_file_record_job job{};
    job.output = s.output;
    job.base_level = base;
    job.src_buffer = src.buffer;
    job.src_offset = src_offset;
    job.src_size = src_offset + packed.size();
    job.dst_image = target;
    job.image_base_level = 0;
    job.barriers = &barriers;

    // The regions it records: one per level, at the packed layout's offsets.
    uint32_t count = 0;
    REQUIRE(texdec_file_make_regions(f.file, &job, &count, nullptr) == TEXDEC_SUCCESS);
    REQUIRE(count == levels);
    std::vector<texdec_region> regions(count);
    REQUIRE(texdec_file_make_regions(f.file, &job, &count, regions.data()) == TEXDEC_SUCCESS);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t l = base + i;
        INFO(s.name << ": region " << i << " (file level " << l << ")");
        CHECK(regions[i].src_offset == src_offset + blocks[i].offset);
        CHECK(regions[i].src_row_length == 0);
        CHECK(regions[i].src_image_height == 0);
        CHECK(regions[i].mip_level == i);
        CHECK(regions[i].base_array_layer == 0);
        CHECK(regions[i].layer_count == (is_3d(s) ? 1 : s.layers * s.faces));
        CHECK(regions[i].extent.width == mip(s.w, l));
        CHECK(regions[i].extent.height == mip(s.h, l));
        CHECK(regions[i].extent.depth == (is_3d(s) ? mip(s.d, l) : 1));
    }

    VkCommandBuffer cmd = dev.begin_commands();
    const texdec_status st = texdec_file_record(setup.ctx, cmd, f.file, &job);
    INFO(s.name << ": texdec_file_record: " << texdec_status_string(st) << " " << f.messages.text << " "
                << context_errors(setup));
    REQUIRE(st == TEXDEC_SUCCESS);
    uint32_t n = 0;
    REQUIRE(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_TEXELS, s.output, base, 0, VK_TRUE, 0, &n, nullptr) ==
            TEXDEC_SUCCESS);
    std::vector<VkBufferImageCopy> copies(n);
    REQUIRE(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_TEXELS, s.output, base, 0, VK_TRUE, 0, &n,
                                      copies.data()) == TEXDEC_SUCCESS);
    vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, n, copies.data());
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), s.name);
    std::vector<uint8_t> out(readback.mapped, readback.mapped + total);
    dev.destroy(image);
    dev.destroy(src);
    dev.destroy(readback);
    return out;
}

}  // namespace

TEST_CASE("file jobs: the record path into an image target equals the one-call decode", "[file][jobs]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    (void)dev;
    std::unique_ptr<OwnContext> cpu = OwnContext::open(Backend::cpu);
    if (!cpu) return;
    uint64_t seed = 200;
    for (const Shape& s : kShapes) {
        OpenFile f(s, seed++);
        for (uint32_t base = 0; base < s.levels && base < 2; ++base) {
            const std::vector<uint8_t> recorded = record_file(setup, f, s, base);
            const std::vector<uint8_t> decoded = decode_file(cpu->get(), f, s, base, 0, false);
            REQUIRE(recorded.size() == decoded.size());
            INFO(s.name << ", from level " << base);
            // An image: where the one-call decode gives an FP16 NaN (error blocks), any NaN.
            CHECK((s.texel_bytes == 8 ? image_half_texels_equal(recorded.data(), decoded.data(), decoded.size())
                                      : recorded == decoded));
        }
        CHECK(f.messages.take().empty());
    }
    // The record path's bad arguments on a GPU context: each refused with its status, nothing
    // recorded (the command buffer is submitted empty; the layer stays silent).
    OpenFile f(kShapes[0], 300);
    texdec_file_record_job job{};
    job.output = kShapes[0].output;
    VkCommandBuffer cmd = setup.device->begin_commands();
    job.base_level = kShapes[0].levels;
    CHECK(texdec_file_record(setup.ctx, cmd, f.file, &job) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(f.messages.take().find("base_level") != std::string::npos);
    job.base_level = 0;
    job.src_offset = 8;
    CHECK(texdec_file_record(setup.ctx, cmd, f.file, &job) == TEXDEC_ERROR_INVALID_LAYOUT);
    CHECK(f.messages.take().find("src_offset") != std::string::npos);
    CHECK(texdec_file_record(setup.ctx, cmd, f.file, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_record(setup.ctx, cmd, nullptr, &job) == TEXDEC_ERROR_INVALID_ARGUMENT);
    setup.device->submit_and_wait(cmd);
    check_no_validation_messages(setup.device->log(), "bad record jobs");
    context_errors(setup);
    cpu->close_and_check();
}

namespace {

std::vector<uint8_t> read_whole_file(const std::string& path) {
    std::vector<uint8_t> bytes;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        uint8_t chunk[65536];
        for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) bytes.insert(bytes.end(), chunk, chunk + n);
        std::fclose(f);
    }
    return bytes;
}

// texdec_file_decode of every level of a real file on `ctx`, each surface compared with the CPU
// reference decoding the blocks texdec_file_get_surface names (in the file, or in its inflated
// level), at offsets computed here from the file's info and the texel size.
void check_real_file(texdec_context* ctx, const std::string& path, bool by_path) {
    const std::vector<uint8_t> bytes = read_whole_file(path);
    REQUIRE(!bytes.empty());
    FileMessages messages;
    texdec_file_open_info oi{};
    oi.message_callback = &FileMessages::callback;
    oi.user_data = &messages;
    texdec_file* file = nullptr;
    {
        // By path: texdec_file_open_path maps the file, and the decode reads the mapping in place.
        const texdec_status st = by_path ? texdec_file_open_path(&oi, path.c_str(), &file)
                                         : texdec_file_open(&oi, bytes.data(), bytes.size(), &file);
        INFO(path << ": " << messages.text);
        REQUIRE(st == TEXDEC_SUCCESS);
    }
    std::unique_ptr<texdec_file, void (*)(texdec_file*)> owner(file, texdec_file_destroy);
    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(file, &info) == TEXDEC_SUCCESS);
    texdec_format_info fi{};
    REQUIRE(texdec_format_get_info(info.format, &fi) == TEXDEC_SUCCESS);
    const texdec_output output = (fi.flags & TEXDEC_FORMAT_FLAG_HDR) ? TEXDEC_OUTPUT_RGBA16F : TEXDEC_OUTPUT_RGBA8;
    const uint64_t texel = output == TEXDEC_OUTPUT_RGBA16F ? 8 : 4;
    const uint32_t surfaces = info.layers * info.faces;
    std::vector<uint64_t> offsets;
    uint64_t at = 0;
    for (uint32_t l = 0; l < info.levels; ++l) {
        offsets.push_back(align16(at));
        at =
            offsets.back() + uint64_t(mip(info.width, l)) * mip(info.height, l) * mip(info.depth, l) * texel * surfaces;
    }
    std::vector<uint8_t> texels(size_t(at), 0xA5);
    texdec_file_decode_job job{};
    job.output = output;
    job.dst = texels.data();
    job.dst_size = texels.size();
    {
        const texdec_status st = texdec_file_decode(ctx, file, &job);
        INFO(path << ": " << messages.text);
        REQUIRE(st == TEXDEC_SUCCESS);
    }
    for (uint32_t l = 0; l < info.levels; ++l) {
        std::vector<uint8_t> level;  // supercompressed files: the inflated level
        if (info.supercompression != TEXDEC_FILE_SUPERCOMPRESSION_NONE) {
            uint64_t size = 0;
            REQUIRE(texdec_file_level_size(file, l, &size) == TEXDEC_SUCCESS);
            level.resize(size_t(size));
            REQUIRE(texdec_file_read_level(file, l, level.data(), level.size()) == TEXDEC_SUCCESS);
        }
        const std::vector<uint8_t>& source = level.empty() ? bytes : level;
        for (uint32_t layer = 0; layer < info.layers; ++layer) {
            for (uint32_t face = 0; face < info.faces; ++face) {
                texdec_file_surface s{};
                REQUIRE(texdec_file_get_surface(file, l, layer, face, &s) == TEXDEC_SUCCESS);
                REQUIRE(s.offset + s.size <= source.size());
                texdec_host_job ref{};
                ref.format = info.format;
                ref.output = output;
                ref.width = s.width, ref.height = s.height, ref.depth = s.depth;
                ref.src = source.data() + s.offset;
                ref.src_size = size_t(s.size);
                const uint64_t surface_bytes = uint64_t(s.width) * s.height * s.depth * texel;
                std::vector<uint8_t> expected(static_cast<size_t>(surface_bytes));
                ref.dst = expected.data();
                ref.dst_size = expected.size();
                const texdec_reference::Result r = texdec_reference::decode(ref);
                INFO(path << ": level " << l << " layer " << layer << " face " << face << ": " << r.message);
                REQUIRE(r.status == TEXDEC_SUCCESS);
                const uint64_t offset = offsets[l] + (uint64_t(layer) * info.faces + face) * surface_bytes;
                CHECK(std::memcmp(texels.data() + offset, expected.data(), expected.size()) == 0);
            }
        }
    }
    INFO(path);
    CHECK(messages.take().empty());
}

}  // namespace

TEST_CASE("file jobs: sample and corpus files decode like the reference, surface by surface", "[file][jobs][corpus]") {
    std::vector<std::string> paths = {std::string(TEXDEC_SOURCE_DIR) + "/samples/sample-astc-6x6.astc",
                                      std::string(TEXDEC_SOURCE_DIR) + "/samples/sample-bc3.dds"};
    if (const char* corpus = std::getenv("TEXDEC_CORPUS"); corpus && *corpus) {
        const std::string root = corpus;
        for (const char* name : {
                 "/piglit/khr_texture_compression_astc/compressed/2D/ldrl/waffles-6x5.ktx",  // mips
                 "/piglit/khr_texture_compression_astc/compressed/2D/ldrs/array/waffles-5x5.ktx",
                 "/piglit/khr_texture_compression_astc/compressed/SLICED3D/hdr/waffles-10x8.ktx",
                 "/piglit/gles-3.0/waffles-compressed-etc2-rgba8-64x32-miptree.ktx",
                 "/piglit/gles-3.0/waffles-compressed-etc2-rg11-64x32-miptree.ktx",
                 "/bcdec/test_images/testcard_bc2.dds",
                 "/bcdec/test_images/lythwood_room_1k_bc6h_signed.dds",
             })
            paths.push_back(root + name);
    } else {
        WARN("TEXDEC_CORPUS is not set: the real-file cases check only the 2 files of samples/");
    }
    for (const Backend backend : {Backend::cpu, Backend::gpu}) {
        std::unique_ptr<OwnContext> ctx = OwnContext::open(backend);
        if (!ctx) return;
        for (const std::string& path : paths) {
            INFO(backend_name(backend) << " backend, " << (backend == Backend::gpu ? "by path" : "from memory"));
            check_real_file(ctx->get(), path, backend == Backend::gpu);
        }
        ctx->close_and_check();
    }
    WARN("file jobs: checked " << paths.size() << " real files on both backends");
}

namespace {

// Every mip level and layer of `image` from `from` to `to` (a loader's upload barriers).
void image_layout(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags src_access,
                  VkAccessFlags dst_access, VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

std::vector<VkBufferImageCopy> copies_of(const texdec_file* file, texdec_file_data data, texdec_output output) {
    uint32_t n = 0;
    REQUIRE(texdec_file_buffer_copies(file, data, output, 0, 0, VK_FALSE, 0, &n, nullptr) == TEXDEC_SUCCESS);
    std::vector<VkBufferImageCopy> copies(n);
    REQUIRE(texdec_file_buffer_copies(file, data, output, 0, 0, VK_FALSE, 0, &n, copies.data()) == TEXDEC_SUCCESS);
    return copies;
}

// What a loader does with a plan, on the test's device: NATIVE copies texdec_file_read_blocks'
// bytes in with the BLOCKS copies; DECODE_RECORD records texdec_file_record into an image target
// of the plan's image; DECODE_HOST decodes with texdec_file_decode on `host` and copies the texels
// in with the TEXELS copies. Then the image is copied out with the same copies and returned: the
// blocks (NATIVE) or the texels.
std::vector<uint8_t> load_by_plan(ExternalSetup& setup, texdec_context* host, OpenFile& f, const Shape& s,
                                  const texdec_upload_plan& plan) {
    VulkanTestDevice& dev = *setup.device;
    const bool native = plan.action == TEXDEC_UPLOAD_NATIVE;
    const texdec_file_data data = native ? TEXDEC_FILE_DATA_BLOCKS : TEXDEC_FILE_DATA_TEXELS;
    texdec_file_level_layout layout{};
    REQUIRE(texdec_file_get_layout(f.file, data, plan.output, 0, 0, 0, &layout) == TEXDEC_SUCCESS);
    const size_t total = size_t(layout.total_size);

    VkImageFormatListCreateInfo list{};
    const VkImageCreateInfo ici = texdec::image_create_info(plan, {s.w, s.h, is_3d(s) ? s.d : 1}, s.levels,
                                                            is_3d(s) ? 1 : s.layers * s.faces, list);
    TestImage image = dev.create_image(ici);
    texdec_file_info info{};
    REQUIRE(texdec_file_get_info(f.file, &info) == TEXDEC_SUCCESS);
    // The source: the packed blocks (NATIVE, DECODE_RECORD) or the texels (DECODE_HOST).
    const bool record = plan.action == TEXDEC_UPLOAD_DECODE_RECORD;
    HostBuffer src = dev.create_buffer(record ? info.blocks_size : total,
                                       record ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    HostBuffer readback = dev.create_buffer(total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(readback.mapped, 0, total);
    const std::vector<VkBufferImageCopy> copies = copies_of(f.file, data, plan.output);
    VkCommandBuffer cmd = dev.begin_commands();
    texdec_image_target* target = nullptr;
    if (record) {
        REQUIRE(texdec_file_read_blocks(f.file, src.mapped, size_t(info.blocks_size)) == TEXDEC_SUCCESS);
        const texdec_image_target_create_info ti = texdec::image_target_info(image.image, ici, list);
        REQUIRE(texdec_image_target_create(setup.ctx, &ti, &target) == TEXDEC_SUCCESS);
        texdec_record_barriers barriers{};
        barriers.old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        barriers.dst_access_mask = VK_ACCESS_TRANSFER_READ_BIT;
        barriers.new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        texdec_file_record_job job{};
        job.output = plan.output;
        job.src_buffer = src.buffer;
        job.src_size = info.blocks_size;
        job.dst_image = target;
        job.barriers = &barriers;
        const texdec_status st = texdec_file_record(setup.ctx, cmd, f.file, &job);
        INFO(s.name << ": " << f.messages.text << context_errors(setup));
        REQUIRE(st == TEXDEC_SUCCESS);
    } else {
        if (native) {
            REQUIRE(texdec_file_read_blocks(f.file, src.mapped, total) == TEXDEC_SUCCESS);
        } else {
            texdec_file_decode_job job{};
            job.output = plan.output;
            job.dst = src.mapped;
            job.dst_size = total;
            REQUIRE(texdec_file_decode(host, f.file, &job) == TEXDEC_SUCCESS);
        }
        image_layout(cmd, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                     VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        vkCmdCopyBufferToImage(cmd, src.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               uint32_t(copies.size()), copies.data());
        image_layout(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                     VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_PIPELINE_STAGE_TRANSFER_BIT);
    }
    vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer,
                           uint32_t(copies.size()), copies.data());
    host_read_barrier(cmd);
    dev.submit_and_wait(cmd);
    check_no_validation_messages(dev.log(), s.name);
    std::vector<uint8_t> out(readback.mapped, readback.mapped + total);
    if (target) texdec_image_target_destroy(setup.ctx, target);
    dev.destroy(image);
    dev.destroy(src);
    dev.destroy(readback);
    return out;
}

void check_same_plan(const texdec_upload_plan& got, const texdec_upload_plan& expected) {
    CHECK(got.action == expected.action);
    CHECK(got.reasons == expected.reasons);
    CHECK(got.backend == expected.backend);
    CHECK(got.output == expected.output);
    CHECK(got.block_format == expected.block_format);
    CHECK(got.image_type == expected.image_type);
    CHECK(got.image_format == expected.image_format);
    CHECK(got.image_flags == expected.image_flags);
    CHECK(got.image_usage == expected.image_usage);
    CHECK(got.storage_format == expected.storage_format);
    REQUIRE(got.view_format_count == expected.view_format_count);
    for (uint32_t i = 0; i < got.view_format_count; ++i) CHECK(got.view_formats[i] == expected.view_formats[i]);
}

}  // namespace

TEST_CASE("file jobs: the file's upload plan, and a loader following it", "[file][jobs][plan]") {
    ExternalSetup setup;
    VulkanTestDeviceOptions options;
    options.texture_compression = true;
    TEXDEC_OPEN_OR_RETURN(setup, dev, options);
    std::unique_ptr<OwnContext> cpu = OwnContext::open(Backend::cpu);
    if (!cpu) return;
    uint64_t seed = 400;
    for (const Shape& s : kShapes) {
        OpenFile f(s, seed++);
        for (const bool on_cpu : {false, true}) {
            INFO(s.name << (on_cpu ? ", CPU context" : ", the device's context"));
            texdec_upload_plan_info info{};
            info.context = on_cpu ? cpu->get() : setup.ctx;
            info.physical_device = dev.physical_device();
            info.get_format_properties = vkGetPhysicalDeviceFormatProperties;
            info.enabled_features = &dev.enabled_features();
            info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
            // Ignored: the file's are used.
            info.format = TEXDEC_FORMAT_BC7_SRGB;
            info.extent = {1, 2, 3};
            info.mip_levels = 9;
            info.array_layers = 9;
            texdec_upload_plan plan{};
            {
                const texdec_status st = texdec_file_plan_upload(f.file, &info, &plan);
                INFO(f.messages.text);
                REQUIRE(st == TEXDEC_SUCCESS);
            }
            // The same as texdec_plan_upload of the file's numbers, computed here.
            texdec_upload_plan_info whole = info;
            whole.format = s.format;
            whole.extent = {s.w, s.h, is_3d(s) ? s.d : 1};
            whole.mip_levels = s.levels;
            whole.array_layers = is_3d(s) ? 1 : s.layers * s.faces;
            if (s.faces == 6) whole.image_flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
            texdec_upload_plan expected{};
            REQUIRE(texdec_plan_upload(&whole, &expected) == TEXDEC_SUCCESS);
            check_same_plan(plan, expected);
            CHECK(plan.image_type == (is_3d(s) ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D));
            CHECK(((plan.image_flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) != 0) == (s.faces == 6));
            // lavapipe samples BC, not ETC2 or ASTC; a CPU context never records.
            const bool bc = s.format <= TEXDEC_FORMAT_BC7_SRGB;
            const bool bc_native = bc && dev.enabled_features().textureCompressionBC;
            CHECK(plan.action == (bc_native ? TEXDEC_UPLOAD_NATIVE
                                  : on_cpu  ? TEXDEC_UPLOAD_DECODE_HOST
                                            : TEXDEC_UPLOAD_DECODE_RECORD));
            // The loader's result: the file's blocks (NATIVE) or the one-call decode's texels.
            const std::vector<uint8_t> loaded = load_by_plan(setup, cpu->get(), f, s, plan);
            if (plan.action == TEXDEC_UPLOAD_NATIVE) {
                texdec_file_info fi{};
                REQUIRE(texdec_file_get_info(f.file, &fi) == TEXDEC_SUCCESS);
                std::vector<uint8_t> blocks(size_t(fi.blocks_size));
                REQUIRE(texdec_file_read_blocks(f.file, blocks.data(), blocks.size()) == TEXDEC_SUCCESS);
                CHECK(loaded == blocks);
            } else {
                Shape as_planned = s;
                as_planned.output = plan.output;
                const std::vector<uint8_t> decoded = decode_file(cpu->get(), f, as_planned, 0, 0, false);
                CHECK(loaded == decoded);
            }
        }
        CHECK(f.messages.take().empty());
    }
    texdec_upload_plan plan{};
    texdec_upload_plan_info info{};
    OpenFile f(kShapes[0], 500);
    CHECK(texdec_file_plan_upload(f.file, nullptr, &plan) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_plan_upload(f.file, &info, nullptr) == TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_file_plan_upload(nullptr, &info, &plan) == TEXDEC_ERROR_INVALID_ARGUMENT);
    f.messages.take();
    cpu->close_and_check();
}

TEST_CASE("file jobs: a level that does not inflate stops the decode there", "[file][jobs]") {
    // The zlib cube map with level 1's Adler-32 (the stream's last 4 bytes, RFC 1950) broken: open
    // does not inflate, so the decode finds it. Level 0 is decoded before (and equals the
    // reference); level 1 is refused with MALFORMED_FILE and a message naming it.
    const Shape& s = kShapes[2];
    REQUIRE(s.scheme == 3);
    REQUIRE(s.levels == 2);
    Written w = write_file(s, 600);
    REQUIRE(w.level_lengths.size() == 2);
    w.bytes[size_t(w.level_offsets[1] + w.level_lengths[1] - 1)] ^= 0x5A;
    FileMessages messages;
    texdec_file_open_info oi{};
    oi.message_callback = &FileMessages::callback;
    oi.user_data = &messages;
    texdec_file* file = nullptr;
    REQUIRE(texdec_file_open(&oi, w.bytes.data(), w.bytes.size(), &file) == TEXDEC_SUCCESS);
    std::unique_ptr<texdec_file, void (*)(texdec_file*)> owner(file, texdec_file_destroy);
    std::unique_ptr<OwnContext> ctx = OwnContext::open(Backend::cpu);
    if (!ctx) return;
    uint64_t total = 0;
    const std::vector<Expected> layout = expected_layout(s, false, 0, s.levels, &total);
    std::vector<uint8_t> texels(size_t(total), 0xA5);
    texdec_file_decode_job job{};
    job.output = s.output;
    job.dst = texels.data();
    job.dst_size = texels.size();
    CHECK(texdec_file_decode(ctx->get(), file, &job) == TEXDEC_ERROR_MALFORMED_FILE);
    const std::string message = messages.take();
    INFO(message);
    CHECK(message.find("level 1") != std::string::npos);
    check_against_reference(s, w, texels, 0, 1, "level 0, before the broken level");
    for (size_t i = size_t(layout[1].offset); i < texels.size(); ++i) REQUIRE(texels[i] == 0xA5);
    ctx->close_and_check();
}

TEST_CASE("file jobs: several threads decode one file at once", "[file][jobs][threads]") {
    // texdec_file_decode is thread-safe (a texdec_file is immutable; texdec_decode's rules): eight
    // threads decode the same files on one context at once, each with the scratch texdec
    // allocates, and each gets the reference's texels.
    for (const Backend backend : {Backend::cpu, Backend::gpu}) {
        std::unique_ptr<OwnContext> ctx = OwnContext::open(backend);
        if (!ctx) return;
        for (const size_t shape : {size_t(1), size_t(3)}) {  // Zstandard array, DDS array: scratch
            const Shape& s = kShapes[shape];
            OpenFile f(s, 700 + shape);
            uint64_t total = 0;
            expected_layout(s, false, 0, s.levels, &total);
            constexpr int kThreads = 8;
            std::vector<std::vector<uint8_t>> texels(kThreads, std::vector<uint8_t>(size_t(total), 0xA5));
            std::vector<texdec_status> statuses(kThreads, TEXDEC_STATUS_MAX_ENUM);
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back([&, t] {
                    texdec_file_decode_job job{};
                    job.output = s.output;
                    job.dst = texels[size_t(t)].data();
                    job.dst_size = texels[size_t(t)].size();
                    statuses[size_t(t)] = texdec_file_decode(ctx->get(), f.file, &job);
                });
            }
            for (std::thread& t : threads) t.join();
            INFO(backend_name(backend) << " backend, " << s.name << ": " << f.messages.text);
            for (int t = 0; t < kThreads; ++t) {
                REQUIRE(statuses[size_t(t)] == TEXDEC_SUCCESS);
                check_against_reference(s, f.written, texels[size_t(t)], 0, s.levels, "thread");
            }
        }
        ctx->close_and_check();
    }
}

TEST_CASE("file jobs: a 3D footprint with layers or faces fits no image: the host decode only", "[file][jobs][plan]") {
    // ASTC 3x3x3 blocks in a KTX 2 array (pixelDepth 0, layerCount 2) and a cube map: texdec's
    // image of a 3D footprint is a 3D image of one layer (texdec_plan_upload refuses array_layers
    // above 1), so the copies, the regions and the plan of the file cannot hold its surfaces. They
    // used to answer layerCount 1, silently leaving every surface but the first out of the image;
    // now UNSUPPORTED_FILE with a message naming the layers, nothing written, while
    // texdec_file_decode still decodes every surface (against the reference).
    const Shape shapes[] = {
        {"ktx2 astc 3x3x3 6x6 x2 layers", TEXDEC_FORMAT_ASTC_3x3x3_UNORM, 3, 3, 3, 16, 6, 6, 1, 2, 2, 1,
         Container::ktx2, 0, 0, TEXDEC_OUTPUT_RGBA8, 4, false},
        {"ktx2 astc 4x4x4 cube 8x8", TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 4, 4, 4, 16, 8, 8, 1, 1, 1, 6, Container::ktx2, 3,
         0, TEXDEC_OUTPUT_RGBA8, 4, true},
    };
    std::unique_ptr<OwnContext> cpu = OwnContext::open(Backend::cpu);
    if (!cpu) return;
    uint64_t seed = 900;
    for (const Shape& s : shapes) {
        INFO(s.name);
        OpenFile f(s, seed++);
        check_against_reference(s, f.written, decode_file(cpu->get(), f, s, 0, 0, false), 0, s.levels, "decode");
        CHECK(f.messages.take().empty());

        VkBufferImageCopy copies[2];
        std::memset(copies, 0xA5, sizeof copies);
        uint32_t count = 2;
        CHECK(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_BLOCKS, TEXDEC_OUTPUT_NATIVE, 0, 0, VK_FALSE, 0,
                                        &count, copies) == TEXDEC_ERROR_UNSUPPORTED_FILE);
        CHECK(count == 2);
        CHECK(reinterpret_cast<const uint8_t*>(copies)[0] == 0xA5);
        CHECK(f.messages.take().find("layers") != std::string::npos);
        CHECK(texdec_file_buffer_copies(f.file, TEXDEC_FILE_DATA_TEXELS, TEXDEC_OUTPUT_RGBA8, 0, 0, VK_FALSE, 0, &count,
                                        nullptr) == TEXDEC_ERROR_UNSUPPORTED_FILE);
        CHECK(f.messages.take().find("layers") != std::string::npos);

        texdec_file_record_job job{};
        texdec_region regions[2];
        std::memset(regions, 0xA5, sizeof regions);
        count = 2;
        CHECK(texdec_file_make_regions(f.file, &job, &count, regions) == TEXDEC_ERROR_UNSUPPORTED_FILE);
        CHECK(count == 2);
        CHECK(reinterpret_cast<const uint8_t*>(regions)[0] == 0xA5);
        CHECK(f.messages.take().find("layers") != std::string::npos);

        texdec_upload_plan_info info{};
        info.context = cpu->get();
        texdec_upload_plan plan{};
        plan.reasons = 0xA5A5A5A5u;
        CHECK(texdec_file_plan_upload(f.file, &info, &plan) == TEXDEC_ERROR_UNSUPPORTED_FILE);
        CHECK(plan.reasons == 0xA5A5A5A5u);
        CHECK(f.messages.take().find("layers") != std::string::npos);
    }
    cpu->close_and_check();
}
