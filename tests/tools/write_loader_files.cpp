// write_loader_files DIR: writes the small texture files the load_texture sample's ctests load
// (samples/CMakeLists.txt), with support/container_files.h's writers (each container written field
// by field from its specification) and deterministic random blocks. Between them they hold what
// the bundled samples lack: ETC2 and EAC, mip chains, arrays, cube maps, a 3D texture, and KTX 2
// supercompression. Random blocks are fine: the sample compares the image with texdec's CPU
// backend, which decodes every bit pattern (error blocks, reserved modes) exactly.
// Creates DIR if needed; prints each file's name; exit status 1 if one cannot be written.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <texdec/texdec.h>

#include "support/container_files.h"

using namespace texdec_test;

namespace {

std::vector<uint8_t> random_blocks(uint64_t bytes, uint64_t seed) {
    std::vector<uint8_t> out(static_cast<size_t>(bytes));
    uint64_t z = seed;
    for (uint8_t& b : out) {  // splitmix64, one byte per step
        z += 0x9E3779B97F4A7C15ull;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        b = uint8_t(x ^ (x >> 31));
    }
    return out;
}

uint64_t surface_bytes(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint32_t level) {
    uint64_t bytes = 0;
    texdec_encoded_size(format, std::max(1u, w >> level), std::max(1u, h >> level), std::max(1u, d >> level), &bytes);
    return bytes;
}

bool write(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = dir + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    const bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (f && std::fclose(f) != 0) return false;
    if (!ok) std::fprintf(stderr, "write_loader_files: cannot write %s\n", path.c_str());
    else std::printf("%s (%zu bytes)\n", name.c_str(), bytes.size());
    return ok;
}

// KTX 1.1, little-endian: every level's faces (or layers) after one imageSize. Block sizes are
// multiples of 4: no cubePadding or mipPadding.
std::vector<uint8_t> ktx1(texdec_format format, const KtxHeader& h, uint64_t seed) {
    std::vector<KtxLevel> levels;
    const uint32_t layers = std::max(1u, h.array_elements) * h.faces;
    const bool per_face = h.faces == 6 && h.array_elements == 0;
    for (uint32_t l = 0; l < h.mip_levels; ++l) {
        const uint64_t one = surface_bytes(format, h.width, h.height, std::max(1u, h.depth), l);
        levels.push_back({uint32_t(per_face ? one : one * layers), random_blocks(one * layers, seed + l)});
    }
    return ktx_bytes(h, levels, false);
}

// KTX 2.0 with a DFD that agrees with the format.
std::vector<uint8_t> ktx2(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint32_t layers, uint32_t faces,
                          uint32_t levels, uint32_t scheme, uint64_t seed) {
    const Ktx2Spec spec = ktx2_spec(format, w, h, d, layers, faces, levels, scheme);
    std::vector<std::vector<uint8_t>> data;
    for (const uint64_t size : ktx2_level_bytes(format, spec)) data.push_back(random_blocks(size, seed++));
    return ktx2_bytes(spec, data).bytes;
}

// DDS order: layer (or face) by layer, each with its mip chain.
std::vector<uint8_t> dds_blocks(texdec_format format, uint32_t w, uint32_t h, uint32_t levels, uint32_t layers,
                                uint64_t seed) {
    uint64_t bytes = 0;
    for (uint32_t l = 0; l < levels; ++l) bytes += surface_bytes(format, w, h, 1, l);
    return random_blocks(bytes * layers, seed);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return std::fprintf(stderr, "usage: write_loader_files DIR\n"), 2;
    const std::string dir = argv[1];
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    bool ok = true;
    // ETC2 RGB8, 20x12 with its 5 levels (no level but the first a multiple of 4): KTX 1.
    ok &= write(dir, "etc2-rgb-mips.ktx", ktx1(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, {0x9274, 20, 12, 0, 0, 1, 5}, 1));
    // ETC2 RGBA8 sRGB cube map, 8x8, 2 levels: KTX 1 (one imageSize per face).
    ok &= write(dir, "etc2-rgba-srgb-cube.ktx", ktx1(TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, {0x9279, 8, 8, 0, 0, 6, 2}, 2));
    // EAC RG11 array of 3, 8x8, 2 levels: KTX 2 without supercompression (NATIVE output RG16).
    ok &= write(dir, "eac-rg11-array.ktx2", ktx2(TEXDEC_FORMAT_EAC_R11G11_UNORM, 8, 8, 0, 3, 1, 2, 0, 3));
    // ASTC 6x6 sRGB cube map, 14x14, 3 levels: KTX 2 with Zstandard.
    ok &= write(dir, "astc-6x6-srgb-cube-zstd.ktx2", ktx2(TEXDEC_FORMAT_ASTC_6x6_SRGB, 14, 14, 0, 0, 6, 3, 2, 4));
    // ASTC 4x4x4, a 3D texture 8x8x8 with 2 levels: KTX 2 with zlib.
    ok &= write(dir, "astc-4x4x4-3d-zlib.ktx2", ktx2(TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 8, 8, 8, 0, 1, 2, 3, 5));
    // BC7 array of 2, 12x8, 3 levels: DDS with a DX10 header (DXGI_FORMAT_BC7_UNORM 98).
    ok &= write(dir, "bc7-array-mips.dds",
                dx10_dds({98, 12, 8, 1, 3, 3, 0, 2}, dds_blocks(TEXDEC_FORMAT_BC7_UNORM, 12, 8, 3, 2, 6)));
    // BC1 cube map, 8x8, 2 levels: legacy 'DXT1' DDS (DDSCAPS2_CUBEMAP and the six face bits).
    ok &= write(dir, "bc1-cube.dds",
                legacy_dds({{'D', 'X', 'T', '1'}, 8, 8, 0, 2, 0x200 | 0xFC00},
                           dds_blocks(TEXDEC_FORMAT_BC1_RGBA_UNORM, 8, 8, 2, 6, 7)));
    // BC6H (signed), 8x8 with 4 levels: KTX 2 (HDR: RGBA16F when decoded).
    ok &= write(dir, "bc6h-sf16-mips.ktx2", ktx2(TEXDEC_FORMAT_BC6H_SFLOAT, 8, 8, 0, 0, 1, 4, 0, 8));
    return ok ? 0 : 1;
}
