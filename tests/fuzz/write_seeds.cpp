// write_seeds DIR: writes the fuzzers' seed corpus, DIR/<container>/<name> for dds, ktx, ktx2, pkm
// and astc: small valid files of every layout and the inputs of past findings
// (support/container_samples.h). Each is checked first (the valid ones parse, the findings are
// refused), so a seed that is not what it should be fails here instead of weakening the fuzzing.
// DIR/pipeline gets bigger files for fuzz_pipeline (16 to 256 KiB: above the parsers' 16 KiB
// max_len), so that multi-level supercompressed KTX 2 files and long mip chains are reached.
// DIR/file gets fuzz_file's own: support/container_writer's whole files of every shape (cube
// arrays, volumes, key-value data, both KTX 1 endians, supercompressed KTX 2), each parsed first.
// DIR/decode gets fuzz_decode's: a valid job of every format, linear and block-linear
// (decode_jobs.h), each checked to be one its model expects to decode.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>
#include <fstream>

#include "decode_jobs.h"
#include "support/container_files.h"
#include "support/container_samples.h"
#include "support/container_writer.h"

namespace {

// Half random bytes (an LCG: seeds must be the same on every run), half a repeated 16-byte block:
// valid-looking blocks that Zstandard and zlib can partly compress.
std::vector<uint8_t> level_bytes(size_t size, uint64_t seed) {
    std::vector<uint8_t> bytes(size);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < size; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        bytes[i] = i < size / 2 ? uint8_t(x >> 56) : bytes[i % 16];
    }
    return bytes;
}

// A texture of `format` with every level of a w x h (x d) chain, its levels' bytes level 0 first.
std::vector<std::vector<uint8_t>> chain(texdec_format format, uint32_t w, uint32_t h, uint32_t d, uint32_t levels,
                                        uint32_t layers, uint64_t seed) {
    std::vector<std::vector<uint8_t>> out;
    for (uint32_t l = 0; l < levels; ++l) {
        uint64_t size = 0;
        texdec_encoded_size(format, std::max(1u, w >> l), std::max(1u, h >> l), std::max(1u, d >> l), &size);
        out.push_back(level_bytes(size_t(size) * layers, seed + l));
    }
    return out;
}

std::vector<texdec_test::ContainerSample> pipeline_seeds() {
    using texdec_test::Container;
    std::vector<texdec_test::ContainerSample> out;
    struct Ktx2Seed {
        const char* name;
        texdec_format format;
        uint32_t w, h, d, layer_count, levels, scheme;
    };
    const Ktx2Seed ktx2_seeds[] = {
        {"bc7-256x256-mips-zstd", TEXDEC_FORMAT_BC7_UNORM, 256, 256, 0, 0, 9, 2},
        {"astc-6x6-srgb-400x240-mips-zstd", TEXDEC_FORMAT_ASTC_6x6_SRGB, 400, 240, 0, 0, 9, 2},
        {"bc6h-128x128-array2-mips-zlib", TEXDEC_FORMAT_BC6H_SFLOAT, 128, 128, 0, 2, 8, 3},
        {"eac-rg11-snorm-256x128-mips", TEXDEC_FORMAT_EAC_R11G11_SNORM, 256, 128, 0, 0, 9, 0},
        {"astc-4x4x4-64x64x16-mips", TEXDEC_FORMAT_ASTC_4x4x4_SFLOAT, 64, 64, 16, 0, 7, 0},
    };
    uint64_t seed = 1;
    for (const Ktx2Seed& s : ktx2_seeds) {
        texdec_test::Ktx2Spec spec =
            texdec_test::ktx2_spec(s.format, s.w, s.h, s.d, s.layer_count, 1, s.levels, s.scheme);
        const auto levels = chain(s.format, s.w, s.h, std::max(1u, s.d), s.levels, std::max(1u, s.layer_count), seed++);
        out.push_back({std::string(s.name) + ".ktx2", Container::Ktx2, texdec_test::ktx2_bytes(spec, levels).bytes});
    }
    // DDS with a DX10 header: BC3 with a full mip chain; BC4 SNORM without.
    auto flat = [](const std::vector<std::vector<uint8_t>>& levels) {
        std::vector<uint8_t> all;
        for (const auto& l : levels) all.insert(all.end(), l.begin(), l.end());
        return all;
    };
    texdec_test::Dx10Header bc3 = {77 /* DXGI_FORMAT_BC3_UNORM */, 256, 128};
    bc3.mip_count = 9;
    out.push_back({"bc3-256x128-mips.dds", Container::Dds,
                   texdec_test::dx10_dds(bc3, flat(chain(TEXDEC_FORMAT_BC3_UNORM, 256, 128, 1, 9, 1, seed++)))});
    const texdec_test::Dx10Header bc4 = {81 /* DXGI_FORMAT_BC4_SNORM */, 300, 200};
    out.push_back({"bc4-snorm-300x200.dds", Container::Dds,
                   texdec_test::dx10_dds(bc4, flat(chain(TEXDEC_FORMAT_BC4_SNORM, 300, 200, 1, 1, 1, seed++)))});
    out.push_back({"astc-8x5-400x300.astc", Container::Astc,
                   texdec_test::astc_file_bytes(8, 5, 1, 400, 300, 1,
                                                flat(chain(TEXDEC_FORMAT_ASTC_8x5_UNORM, 400, 300, 1, 1, 1, seed++)))});
    return out;
}

std::vector<texdec_test::ContainerSample> file_seeds() {
    namespace w = texdec_test::writer;
    using texdec_test::Container;
    const auto shape = [](texdec_format f, uint32_t width, uint32_t height, uint32_t depth, uint32_t levels,
                          uint32_t layers, uint32_t faces, bool array) {
        w::Shape s;
        s.format = f, s.width = width, s.height = height, s.depth = depth, s.levels = levels;
        s.layers = layers, s.faces = faces, s.array = array;
        return s;
    };
    const w::Shape cube_array = shape(TEXDEC_FORMAT_BC7_UNORM, 8, 8, 1, 2, 2, 6, true);
    const w::Shape volume = shape(TEXDEC_FORMAT_BC4_UNORM, 8, 8, 4, 3, 1, 1, false);
    const w::Shape astc3d = shape(TEXDEC_FORMAT_ASTC_4x4x4_UNORM, 8, 8, 8, 2, 1, 1, false);
    const w::Shape array = shape(TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 12, 8, 1, 3, 3, 1, true);
    std::vector<texdec_test::ContainerSample> out = {
        {"cube-array-zstd.ktx2", Container::Ktx2, w::write_ktx2(cube_array, 2, w::default_key_values("rd")).bytes},
        {"array-zlib.ktx2", Container::Ktx2, w::write_ktx2(array, 3, w::default_key_values("ru")).bytes},
        {"volume.ktx2", Container::Ktx2, w::write_ktx2(volume, 0, w::default_key_values("rdi")).bytes},
        {"astc3d.ktx2", Container::Ktx2, w::write_ktx2(astc3d, 0, {}).bytes},
        {"cube-array-be.ktx", Container::Ktx, w::write_ktx1(cube_array, true, w::default_key_values("S=r,T=d")).bytes},
        {"volume-le.ktx", Container::Ktx, w::write_ktx1(volume, false, w::default_key_values("S=r,T=u,R=i")).bytes},
        {"cube-array-dx10.dds", Container::Dds,
         w::write_dds(shape(TEXDEC_FORMAT_BC7_UNORM, 8, 8, 1, 2, 2, 6, false), "DX10", 98).bytes},
        {"volume-dx10.dds", Container::Dds, w::write_dds(volume, "DX10", 80).bytes},
        {"cube-dxt5.dds", Container::Dds,
         w::write_dds(shape(TEXDEC_FORMAT_BC3_UNORM, 8, 8, 1, 2, 1, 6, false), "DXT5").bytes},
        {"etc1.pkm", Container::Pkm,
         w::write_pkm(shape(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, 13, 6, 1, 1, 1, 1, false), "10", 0).bytes},
        {"stack.astc", Container::Astc,
         w::write_astc(shape(TEXDEC_FORMAT_ASTC_8x8_UNORM, 17, 8, 3, 1, 1, 1, false)).bytes},
    };
    return out;
}

bool write_seed(const std::filesystem::path& dir, const texdec_test::ContainerSample& s) {
    std::filesystem::create_directories(dir);
    std::ofstream out(dir / s.name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(s.bytes.data()), std::streamsize(s.bytes.size()));
    if (!out) std::fprintf(stderr, "write_seeds: cannot write %s\n", (dir / s.name).c_str());
    return bool(out);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
        return 2;
    }
    namespace fs = std::filesystem;
    int written = 0;
    std::vector<texdec_test::ContainerSample> seeds = texdec_test::generated_container_samples();
    const size_t valid = seeds.size();
    for (texdec_test::ContainerSample& s : texdec_test::fuzz_finding_inputs()) seeds.push_back(std::move(s));
    for (size_t i = 0; i < seeds.size(); ++i) {
        const texdec_test::ContainerSample& s = seeds[i];
        const texdec_test::ParserCheck check = texdec_test::check_parser(s.container, s.bytes);
        const bool parsed = check.parsed && !check.level_errors;
        if (!check.violation.empty() || parsed != (i < valid)) {
            std::fprintf(stderr, "write_seeds: %s %s: %s%s\n", s.name.c_str(),
                         i < valid ? "does not parse" : "(a past finding) is not refused", check.error.c_str(),
                         check.violation.c_str());
            return 1;
        }
        if (!write_seed(fs::path(argv[1]) / texdec_test::container_name(s.container), s)) return 1;
        ++written;
    }
    // fuzz_pipeline's own: each must parse, and be above the parsers' 16 KiB.
    for (const texdec_test::ContainerSample& s : pipeline_seeds()) {
        const texdec_test::ParserCheck check = texdec_test::check_parser(s.container, s.bytes);
        if (!check.violation.empty() || !check.parsed || check.level_errors || s.bytes.size() <= 16384 ||
            s.bytes.size() > 262144) {
            std::fprintf(stderr,
                         "write_seeds: pipeline seed %s (%zu bytes) does not parse or is not 16-256 KiB: %s%s\n",
                         s.name.c_str(), s.bytes.size(), check.error.c_str(), check.violation.c_str());
            return 1;
        }
        if (!write_seed(fs::path(argv[1]) / "pipeline", s)) return 1;
        ++written;
    }
    // fuzz_file's own: each must parse.
    for (const texdec_test::ContainerSample& s : file_seeds()) {
        const texdec_test::ParserCheck check = texdec_test::check_parser(s.container, s.bytes);
        if (!check.violation.empty() || !check.parsed || check.level_errors) {
            std::fprintf(stderr, "write_seeds: file seed %s does not parse: %s%s\n", s.name.c_str(),
                         check.error.c_str(), check.violation.c_str());
            return 1;
        }
        if (!write_seed(fs::path(argv[1]) / "file", s)) return 1;
        ++written;
    }
    // fuzz_decode's: valid jobs (the model expects SUCCESS).
    int index = 0;
    for (const std::vector<uint8_t>& input : texdec_fuzz::decode_seed_inputs()) {
        const texdec_fuzz::DecodeCase job(input);
        if (!job.expects_success()) {
            std::fprintf(stderr, "write_seeds: decode seed %d is not a valid job: %s; %s\n", index,
                         job.describe().c_str(), job.expectation().c_str());
            return 1;
        }
        const fs::path dir = fs::path(argv[1]) / "decode";
        fs::create_directories(dir);
        char name[32];
        std::snprintf(name, sizeof name, "job-%03d", index++);
        std::ofstream out(dir / name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(input.data()), std::streamsize(input.size()));
        if (!out) {
            std::fprintf(stderr, "write_seeds: cannot write %s\n", (dir / name).c_str());
            return 1;
        }
        ++written;
    }
    std::printf("write_seeds: %d seed files under %s\n", written, argv[1]);
    return 0;
}
