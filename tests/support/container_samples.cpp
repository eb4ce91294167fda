#include "support/container_samples.h"

#include <algorithm>
#include <stdexcept>

#include <texdec/texdec.h>

#include "support/container_files.h"

namespace texdec_test {
namespace {

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 0x5DEECE66Dull;  // SplitMix64
    std::vector<uint8_t> out(n);
    for (uint8_t& b : out) {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        b = uint8_t(z ^ (z >> 31));
    }
    return out;
}

uint64_t image_bytes(texdec_format format, uint32_t w, uint32_t h, uint32_t d = 1) {
    uint64_t bytes = 0;
    if (texdec_encoded_size(format, w, h, d, &bytes) != TEXDEC_SUCCESS)
        throw std::logic_error("container_samples: no encoded size");
    return bytes;
}

// Blocks of every layer of every level, layer-major (DDS order): `layers` x the mip chain.
std::vector<uint8_t> dds_data(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint32_t mips,
                              uint32_t layers, uint64_t seed) {
    uint64_t bytes = 0;
    for (uint32_t l = 0; l < mips; ++l)
        bytes += image_bytes(format, std::max(1u, w >> l), std::max(1u, h >> l), std::max(1u, d >> l));
    return random_bytes(size_t(bytes * layers), seed);
}

// KTX 1 levels: a non-array cube map has one face per imageSize; every block size here is a
// multiple of 4, so no cubePadding or mipPadding.
std::vector<KtxLevel> ktx_levels(texdec_format format, const KtxHeader& h, uint64_t seed) {
    const uint32_t layers = std::max(1u, h.array_elements) * h.faces;
    const bool per_face = h.faces == 6 && h.array_elements == 0;
    std::vector<KtxLevel> levels;
    for (uint32_t l = 0; l < std::max(1u, h.mip_levels); ++l) {
        const uint64_t face = image_bytes(format, std::max(1u, h.width >> l), std::max(1u, h.height >> l),
                                          std::max(1u, std::max(1u, h.depth) >> l));
        levels.push_back({uint32_t(per_face ? face : face * layers), random_bytes(size_t(face * layers), seed + l)});
    }
    return levels;
}

std::vector<std::vector<uint8_t>> ktx2_levels(texdec_format format, const Ktx2Spec& s, uint64_t seed) {
    std::vector<std::vector<uint8_t>> levels;
    for (const uint64_t size : ktx2_level_bytes(format, s)) {
        // Half random, half repeated: Zstandard and zlib then have something to compress.
        std::vector<uint8_t> level = random_bytes(size_t(size), seed + levels.size());
        for (size_t i = level.size() / 2; i < level.size(); ++i) level[i] = level[i % 16];
        levels.push_back(level);
    }
    return levels;
}

}  // namespace

std::vector<ContainerSample> generated_container_samples() {
    std::vector<ContainerSample> out;
    auto add = [&](std::string name, Container c, std::vector<uint8_t> bytes) {
        out.push_back({name + "." + container_name(c), c, std::move(bytes)});
    };
    // ---- DDS: legacy FourCC headers and DX10 headers --------------------------------------------
    add("dxt1-8x8-mips", Container::Dds,
        legacy_dds({{'D', 'X', 'T', '1'}, 8, 8, 0, 4}, dds_data(TEXDEC_FORMAT_BC1_RGBA_UNORM, 8, 8, 1, 4, 1, 1)));
    add("dxt5-cube-4x4-mips", Container::Dds,
        legacy_dds({{'D', 'X', 'T', '5'}, 4, 4, 0, 3, 0x200 | 0xFC00},
                   dds_data(TEXDEC_FORMAT_BC3_UNORM, 4, 4, 1, 3, 6, 2)));
    add("ati2-volume-8x8x4-mips", Container::Dds,
        legacy_dds({{'A', 'T', 'I', '2'}, 8, 8, 4, 2, 0x200000}, dds_data(TEXDEC_FORMAT_BC5_UNORM, 8, 8, 4, 2, 1, 3)));
    add("bc4u-5x3-trailing", Container::Dds, [] {
        std::vector<uint8_t> f = legacy_dds({{'B', 'C', '4', 'U'}, 5, 3}, dds_data(TEXDEC_FORMAT_BC4_UNORM, 5, 3, 1, 1, 1, 4));
        f.push_back(0x7F);  // one trailing byte
        return f;
    }());
    add("dx10-bc7-array-12x8-mips", Container::Dds,
        dx10_dds({98, 12, 8, 1, 2, 3, 0, 2}, dds_data(TEXDEC_FORMAT_BC7_UNORM, 12, 8, 1, 2, 2, 5)));
    add("dx10-bc6h-sf16-cube-array", Container::Dds,
        dx10_dds({96, 4, 4, 1, 1, 3, 0x4, 2}, dds_data(TEXDEC_FORMAT_BC6H_SFLOAT, 4, 4, 1, 1, 12, 6)));
    add("dx10-bc1-srgb-3d-8x8x2", Container::Dds,
        dx10_dds({72, 8, 8, 2, 1, 4, 0, 1}, dds_data(TEXDEC_FORMAT_BC1_RGBA_SRGB, 8, 8, 2, 1, 1, 7)));

    // ---- KTX 1.1: both byte orders, key/value data, mips, arrays, cube maps, 3D ----------------
    struct KtxSample {
        const char* name;
        texdec_format format;
        KtxHeader header;
        bool big_endian;
        bool orientation;
    };
    const KtxSample ktx_samples[] = {
        {"etc2-rgb-8x8-mips-orientation", TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, {0x9274, 8, 8, 0, 0, 1, 4}, false, true},
        {"eac-rg11-4x4-big-endian", TEXDEC_FORMAT_EAC_R11G11_UNORM, {0x9272, 4, 4}, true, true},
        {"astc-6x6-cube-12x12", TEXDEC_FORMAT_ASTC_6x6_UNORM, {0x93B4, 12, 12, 0, 0, 6, 2}, false, false},
        {"bc7-array3-8x4-mips", TEXDEC_FORMAT_BC7_UNORM, {0x8E8C, 8, 4, 0, 3, 1, 2}, false, false},
        {"astc-3x3x3-6x6x6", TEXDEC_FORMAT_ASTC_3x3x3_UNORM, {0x93C0, 6, 6, 6}, true, false},
        {"etc1-12x12-levels0", TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, {0x8D64, 12, 12, 0, 0, 1, 0}, false, false},
    };
    uint64_t seed = 100;
    for (const KtxSample& s : ktx_samples)
        add(s.name, Container::Ktx,
            ktx_bytes(s.header, ktx_levels(s.format, s.header, seed++), s.big_endian,
                      s.orientation ? ktx_orientation_kv(s.big_endian) : std::vector<uint8_t>{}));

    // ---- KTX 2.0: none, Zstandard, zlib; mips, arrays, cube maps, 3D, levelCount 0 ---------------
    struct Ktx2Sample {
        const char* name;
        texdec_format format;
        uint32_t w, h, d, layer_count, face_count, level_count, scheme;
    };
    const Ktx2Sample ktx2_samples[] = {
        {"bc1-8x8-mips", TEXDEC_FORMAT_BC1_RGB_UNORM, 8, 8, 0, 0, 1, 4, 0},
        {"astc-4x4-srgb-16x16-mips-zstd", TEXDEC_FORMAT_ASTC_4x4_SRGB, 16, 16, 0, 0, 1, 3, 2},
        {"etc2-rgba8-cube-8x8-zlib", TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 8, 8, 0, 0, 6, 1, 3},
        {"bc5-array3-8x8-kv", TEXDEC_FORMAT_BC5_UNORM, 8, 8, 0, 3, 1, 1, 0},
        {"astc-4x4x4-8x8x8-mips-zstd", TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 8, 8, 8, 0, 1, 2, 2},
        {"eac-r11-4x4-levels0", TEXDEC_FORMAT_EAC_R11_UNORM, 4, 4, 0, 0, 1, 0, 0},
        {"bc6h-array2-8x8-mips-zlib", TEXDEC_FORMAT_BC6H_UFLOAT, 8, 8, 0, 2, 1, 2, 3},
    };
    for (const Ktx2Sample& s : ktx2_samples) {
        Ktx2Spec spec = ktx2_spec(s.format, s.w, s.h, s.d, s.layer_count, s.face_count, s.level_count, s.scheme);
        if (std::string(s.name).ends_with("-kv")) {
            // One pair: keyAndValueByteLength, "KTXwriter\0texdec\0", padding to 4.
            const char pair[] = "KTXwriter\0texdec";  // + the implicit terminating NUL
            spec.key_values.assign(4, 0);
            put_u32(spec.key_values, 0, uint32_t(sizeof pair));
            spec.key_values.insert(spec.key_values.end(), pair, pair + sizeof pair);
            while (spec.key_values.size() % 4) spec.key_values.push_back(0);
        }
        add(s.name, Container::Ktx2, ktx2_bytes(spec, ktx2_levels(s.format, spec, seed++)).bytes);
    }

    // ---- .pkm: version 10 (ETC1) and 20 (ETC2 / EAC) -------------------------------------------
    struct PkmSample {
        const char* name;
        const char* version;
        uint32_t code, w, h, block_bytes;
    };
    const PkmSample pkm_samples[] = {
        {"etc1-13x9", "10", 0, 13, 9, 8}, {"etc2-rgba8-8x8", "20", 3, 8, 8, 16},
        {"eac-rg11-5x7", "20", 6, 5, 7, 16}, {"etc2-srgba1-4x4", "20", 11, 4, 4, 8},
        {"eac-r11-signed-3x3", "20", 7, 3, 3, 8},
    };
    for (const PkmSample& s : pkm_samples) {
        const uint32_t pw = (s.w + 3) / 4 * 4, ph = (s.h + 3) / 4 * 4;
        add(s.name, Container::Pkm,
            pkm_bytes(s.version, s.code, pw, ph, s.w, s.h, random_bytes(size_t(pw / 4) * (ph / 4) * s.block_bytes, seed++)));
    }

    // ---- .astc: 2D and 3D footprints, stacked 2D slices, trailing bytes --------------------------
    struct AstcSample {
        const char* name;
        uint32_t bx, by, bz, w, h, d, extra;
    };
    const AstcSample astc_samples[] = {
        {"4x4-8x8", 4, 4, 1, 8, 8, 1, 0},       {"6x6-13x7", 6, 6, 1, 13, 7, 1, 0},
        {"12x12-1x1", 12, 12, 1, 1, 1, 1, 0},   {"3x3x3-7x7x7", 3, 3, 3, 7, 7, 7, 0},
        {"8x8-slices3", 8, 8, 0, 9, 9, 3, 0},   {"5x4-trailing", 5, 4, 1, 5, 4, 1, 3},
    };
    for (const AstcSample& s : astc_samples) {
        const uint32_t bz = std::max(1u, s.bz);
        const size_t blocks = size_t((s.w + s.bx - 1) / s.bx) * ((s.h + s.by - 1) / s.by) * ((s.d + bz - 1) / bz);
        add(s.name, Container::Astc,
            astc_file_bytes(s.bx, s.by, s.bz, s.w, s.h, s.d, random_bytes(blocks * 16 + s.extra, seed++)));
    }
    return out;
}

std::vector<ContainerSample> fuzz_finding_inputs() {
    std::vector<ContainerSample> out;
    auto add = [&](std::string name, Container c, std::vector<uint8_t> bytes) {
        out.push_back({"finding-" + name + "." + container_name(c), c, std::move(bytes)});
    };
    // ktx2.cpp: a vkFormat above VK_FORMAT_MAX_ENUM was converted to VkFormat (UBSan).
    {
        Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_BC1_RGB_UNORM, 4, 4);
        spec.vk_format = 0x97000001;
        add("ktx2-vkformat-above-max-enum", Container::Ktx2, ktx2_bytes(spec, {random_bytes(8, 1)}).bytes);
    }
    // ktx2.cpp level_data: a few bytes of zlib / Zstandard claiming a 4 GiB level were allocated
    // (and zeroed) before being inflated.
    for (uint32_t scheme : {2u, 3u}) {
        Ktx2File file = ktx2_bytes(ktx2_spec(TEXDEC_FORMAT_BC7_UNORM, 4, 4, 0, 0, 1, 1, scheme),
                                   {std::vector<uint8_t>(16, 0)});
        put_u32(file.bytes, 20, 65536);  // pixelWidth, pixelHeight: 16384 x 16384 blocks of 16 bytes
        put_u32(file.bytes, 24, 65536);
        put_u64(file.bytes, 80 + 16, uint64_t(1) << 32);  // uncompressedByteLength
        add(std::string("ktx2-4gib-level-") + (scheme == 2 ? "zstd" : "zlib"), Container::Ktx2, file.bytes);
    }
    // ktx.cpp: a cube array of 2^20 elements, 2^20 x 2^20, 21 levels reserved its 132 million
    // surfaces before the file was found to hold none.
    {
        KtxHeader h{0x83F0, 1u << 20, 1u << 20};
        h.array_elements = 1u << 20, h.faces = 6, h.mip_levels = 21;
        add("ktx-132m-surfaces", Container::Ktx, ktx_bytes(h, {{8, std::vector<uint8_t>(8, 0)}}, false));
    }
    return out;
}

}  // namespace texdec_test
