// What files written by other tools showed (450 public files were tried).
// Every file is written here field by field (support/container_files.h), every expected texel is a
// known colour worked out from the format's specification in the comments (or the spec's error
// colour), never texdec's own output.
//   11  ASTC HDR data read in the LDR profile: a warning naming -dh; --profile overrides the
//       ASTC format of DDS, KTX and KTX 2 files (with a note); -dh on an sfloat file is accepted.
//       The CPU scan of HDR blocks (src/io/astc_hdr_scan) against blocks the test builder lays out.
//   12  KTX 2 DFDs: vkFormat decides, every DFD field that disagrees is a warning, none a refusal.
//   13  DDS: the ETC FourCCs of Compressonator and Tacent, RXGB, NVTT's DXGI values for ASTC.
//   14  batches and messages: damaged magic in a directory, the progress count, notes once per
//       batch, uncompressed vkFormats by name, Basis Universal codecs by name, info's columns.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "astc_hdr_scan.h"
#include "dds.h"
#include "ktx2.h"
#include "support/astc_block_builder.h"
#include "support/cli_runner.h"
#include "support/container_files.h"

using namespace texdec_test;

namespace {

namespace fs = std::filesystem;

std::string dir(const std::string& name) { return fresh_cli_dir("realfiles_" + name); }

size_t occurrences(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

std::vector<uint8_t> repeat(const std::vector<uint8_t>& block, size_t count) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i < count; ++i) out.insert(out.end(), block.begin(), block.end());
    return out;
}
std::vector<uint8_t> bytes_of(const AstcBlock& b) { return std::vector<uint8_t>(b.begin(), b.end()); }

// Every texel of a raw output equals `texel` (its bytes, little-endian halves for RGBA16F).
void check_every_texel(const std::string& path, const std::vector<uint8_t>& texel, size_t texels) {
    INFO(path);
    const std::vector<uint8_t> got = read_binary_file(path);
    REQUIRE(got.size() == texel.size() * texels);
    size_t wrong = 0;
    for (size_t i = 0; i < texels; ++i) wrong += !std::equal(texel.begin(), texel.end(), got.begin() + std::ptrdiff_t(i * texel.size()));
    CHECK(wrong == 0);
}

std::vector<uint8_t> halves(std::initializer_list<uint16_t> h) {
    std::vector<uint8_t> out;
    for (uint16_t v : h) out.insert(out.end(), {uint8_t(v), uint8_t(v >> 8)});
    return out;
}

// An HDR void extent of FP16 (1.5, 0.25, 3.0, 1.0), and an LDR one of UNORM16 (0x80, 0x40, 0xFF, 0xFF)
// x 257 (so its 8-bit value is the high byte however it is rounded).
const std::vector<uint16_t> kHdrColour = {0x3E00, 0x3400, 0x4200, 0x3C00};
std::vector<uint8_t> hdr_void_extent() {
    AstcVoidExtent v;
    v.hdr = true;
    for (int c = 0; c < 4; ++c) v.rgba[c] = kHdrColour[size_t(c)];
    return bytes_of(astc_build_void_extent(v));
}
std::vector<uint8_t> ldr_void_extent() {
    AstcVoidExtent v;
    const uint16_t rgba[4] = {0x80 * 257, 0x40 * 257, 0xFFFF, 0xFFFF};
    for (int c = 0; c < 4; ++c) v.rgba[c] = rgba[c];
    return bytes_of(astc_build_void_extent(v));
}
const std::vector<uint8_t> kLdrTexel = {0x80, 0x40, 0xFF, 0xFF};
const std::vector<uint8_t> kMagenta = {0xFF, 0x00, 0xFF, 0xFF};  // the spec's error colour (LDR, RGBA8)

}  // namespace

// ---- item 11 ---------------------------------------------------------------------------------------

TEST_CASE("ASTC HDR scan: HDR endpoint modes in either CEM form and HDR void extents, as the block builder lays them out",
          "[cli][realfiles][astc-hdr-scan]") {
    SplitMix64 rng(19011);
    struct Footprint {
        unsigned w, h, d;
    };
    for (const Footprint fp : {Footprint{4, 4, 1}, Footprint{6, 6, 1}, Footprint{12, 10, 1}, Footprint{4, 4, 4}}) {
        INFO("footprint " << fp.w << "x" << fp.h << "x" << fp.d);
        const std::vector<uint32_t> modes = fp.d > 1 ? astc_legal_block_modes_3d(fp.w, fp.h, fp.d)
                                                     : astc_legal_block_modes_2d(fp.w, fp.h);
        size_t hdr = 0, ldr = 0;
        for (unsigned cem = 0; cem < 16; ++cem)
            for (int shared = 0; shared <= 1; ++shared)
                for (int n = 0; n < 40; ++n) {
                    AstcSpecRequest request;
                    request.cem = int(cem);
                    request.shared_cem = shared;
                    if (!shared) request.partitions = 2 + int(rng.next() % 3);
                    const auto spec = fp.d > 1 ? astc_random_legal_spec_3d(modes, fp.w, fp.h, fp.d, request, rng)
                                               : astc_random_legal_spec(modes, fp.w, fp.h, request, rng);
                    if (!spec) continue;
                    const AstcBlock block = fp.d > 1 ? astc_build_random_block_3d(*spec, fp.w, fp.h, fp.d, rng)
                                                     : astc_build_random_block(*spec, fp.w, fp.h, rng);
                    bool want = false;
                    for (unsigned p = 0; p < spec->partitions; ++p) want = want || astc_cem_is_hdr_mode(spec->cem[p]);
                    INFO("CEMs " << spec->cem[0] << " " << spec->cem[1] << " " << spec->cem[2] << " " << spec->cem[3]
                                 << ", " << spec->partitions << " partition(s), shared " << spec->shared_cem);
                    REQUIRE(astc_hdr_scan::is_hdr_block(block.data(), fp.w, fp.h, fp.d) == want);
                    (want ? hdr : ldr)++;
                }
        CHECK(hdr > 200);
        CHECK(ldr > 200);
    }
    // Void extents: the HDR flag counts; an illegal one (reserved bits, or min >= max) is an error
    // block in every profile and does not.
    AstcVoidExtent v;
    v.hdr = true;
    CHECK(astc_hdr_scan::is_hdr_block(astc_build_void_extent(v).data(), 6, 6, 1));
    v.min_s = 3, v.max_s = 9, v.min_t = 1, v.max_t = 2;
    CHECK(astc_hdr_scan::is_hdr_block(astc_build_void_extent(v).data(), 6, 6, 1));
    v.max_t = 1;
    CHECK_FALSE(astc_hdr_scan::is_hdr_block(astc_build_void_extent(v).data(), 6, 6, 1));
    v = AstcVoidExtent{};
    v.hdr = true;
    v.reserved = 1;
    CHECK_FALSE(astc_hdr_scan::is_hdr_block(astc_build_void_extent(v).data(), 6, 6, 1));
    CHECK_FALSE(astc_hdr_scan::is_hdr_block(astc_build_void_extent(AstcVoidExtent{}).data(), 6, 6, 1));
    AstcVoidExtent3d v3;
    v3.hdr = true;
    CHECK(astc_hdr_scan::is_hdr_block(astc_build_void_extent_3d(v3).data(), 4, 4, 4));
    v3.hdr = false;
    CHECK_FALSE(astc_hdr_scan::is_hdr_block(astc_build_void_extent_3d(v3).data(), 4, 4, 4));
    // "Mostly": at least half of the blocks.
    const std::vector<uint8_t> mixed = repeat(hdr_void_extent(), 2);
    std::vector<uint8_t> half = mixed;
    const std::vector<uint8_t> ldr = repeat(ldr_void_extent(), 2);
    half.insert(half.end(), ldr.begin(), ldr.end());
    CHECK(astc_hdr_scan::mostly_hdr(astc_hdr_scan::count(half, 4, 4, 1)));
    half.insert(half.end(), ldr.begin(), ldr.begin() + 16);
    const astc_hdr_scan::Count c = astc_hdr_scan::count(half, 4, 4, 1);
    CHECK((c.blocks == 5 && c.hdr == 2));
    CHECK_FALSE(astc_hdr_scan::mostly_hdr(c));
}

TEST_CASE("CLI: ASTC HDR data read in the LDR profile is reported with the fix, and --profile overrides a container's ASTC format",
          "[cli][gpu][realfiles][item11]") {
    if (!cli_has_device()) return;
    const std::string d = dir("item11");
    const std::vector<uint8_t> hdr_blocks = repeat(hdr_void_extent(), 4);  // 8x8 texels of 4x4 blocks
    const std::vector<uint8_t> hdr_texel = halves({kHdrColour[0], kHdrColour[1], kHdrColour[2], kHdrColour[3]});

    // .astc: the LDR profile is the default. The output is the spec's error colour, with a warning.
    const std::string astc = d + "/hdr.astc";
    write_binary_file(astc, astc_file_bytes(4, 4, 1, 8, 8, 1, hdr_blocks));
    REQUIRE(run_cli("decode --output rgba8 " + astc + " " + d + "/ldr.raw") == 0);
    std::string err = last_cli_stderr();
    INFO(err);
    CHECK(contains(err, "warning: '" + astc + "': 4 of 4 ASTC blocks (100 %) of level 0 layer 0 face 0 use HDR endpoint "
                        "modes or are HDR void extents"));
    CHECK(contains(err, "astc-4x4-unorm (the LDR profile) decodes to the error colour (magenta)"));
    CHECK(contains(err, "decode it with -dh (--profile hdr) as astc-4x4-sfloat"));
    check_every_texel(d + "/ldr.raw", kMagenta, 64);
    // The same in the sRGB profile, and in a batch's --json.
    REQUIRE(run_cli("decode -ds --output rgba8 " + astc + " " + d + "/srgb.raw") == 0);
    CHECK(contains(last_cli_stderr(), "astc-4x4-srgb (the sRGB profile) decodes to the error colour"));
    CHECK(contains(last_cli_stderr(), "as astc-4x4-sfloat"));
    // -dh: the texels are the void extent's halves, and nothing to warn of.
    REQUIRE(run_cli("-dh " + astc + " " + d + "/hdr.raw") == 0);
    CHECK_FALSE(contains(last_cli_stderr(), "warning"));
    check_every_texel(d + "/hdr.raw", hdr_texel, 64);
    // LDR data, and data with fewer than half HDR blocks: no warning.
    std::vector<uint8_t> some = repeat(ldr_void_extent(), 3);
    some.insert(some.end(), hdr_blocks.begin(), hdr_blocks.begin() + 16);
    write_binary_file(d + "/some.astc", astc_file_bytes(4, 4, 1, 8, 8, 1, some));
    REQUIRE(run_cli("decode " + d + "/some.astc " + d + "/some.png") == 0);
    CHECK_FALSE(contains(last_cli_stderr(), "warning"));

    // KTX 2 whose writer labelled HDR data UNORM: the warning, then --profile hdr overrides vkFormat.
    const std::string unorm = d + "/unorm.ktx2";
    Ktx2Spec spec = ktx2_spec(TEXDEC_FORMAT_ASTC_4x4_UNORM, 8, 8);
    write_binary_file(unorm, ktx2_bytes(spec, {hdr_blocks}).bytes);
    REQUIRE(run_cli("decode --output rgba8 " + unorm + " " + d + "/k.raw") == 0);
    CHECK(contains(last_cli_stderr(), "warning: '" + unorm + "': 4 of 4 ASTC blocks"));
    check_every_texel(d + "/k.raw", kMagenta, 64);
    for (const char* flag : {"decode --profile hdr", "-dh"}) {
        INFO(flag);
        REQUIRE(run_cli(std::string(flag) + " " + unorm + " " + d + "/kh.raw") == 0);
        err = last_cli_stderr();
        INFO(err);
        CHECK(contains(err, "note: '" + unorm + "': --profile hdr overrides the format its header names (vkFormat 157 "
                            "(astc-4x4-unorm), astc-4x4-unorm): decoded as astc-4x4-sfloat"));
        CHECK_FALSE(contains(err, "warning"));
        check_every_texel(d + "/kh.raw", hdr_texel, 64);
    }
    // -dh on a file that already says sfloat: accepted, nothing to note (exit 2 before).
    const std::string sfloat = d + "/sfloat.ktx2";
    write_binary_file(sfloat, ktx2_bytes(ktx2_spec(TEXDEC_FORMAT_ASTC_4x4_SFLOAT, 8, 8), {hdr_blocks}).bytes);
    REQUIRE(run_cli("-dh " + sfloat + " " + d + "/s.raw") == 0);
    CHECK_FALSE(contains(last_cli_stderr(), "overrides"));
    check_every_texel(d + "/s.raw", hdr_texel, 64);
    // --profile ldr on the sfloat file overrides the other way (the error colour again, and the warning).
    REQUIRE(run_cli("decode --profile ldr --output rgba8 " + sfloat + " " + d + "/sl.raw") == 0);
    CHECK(contains(last_cli_stderr(), "--profile ldr overrides the format its header names"));
    check_every_texel(d + "/sl.raw", kMagenta, 64);
    // KTX 1 sRGB enum and DDS (NVTT's ASTC 4x4 UNORM_SRGB): overridden too (a usage error before).
    const std::string ktx = d + "/srgb.ktx";
    write_binary_file(ktx, ktx_bytes({0x93D0, 8, 8}, {{64, hdr_blocks}}, false));  // GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR
    REQUIRE(run_cli("-dh " + ktx + " " + d + "/k1.raw") == 0);
    CHECK(contains(last_cli_stderr(), "decoded as astc-4x4-sfloat"));
    check_every_texel(d + "/k1.raw", hdr_texel, 64);
    const std::string dds = d + "/nvtt.dds";
    write_binary_file(dds, dx10_dds({135, 8, 8}, hdr_blocks));
    REQUIRE(run_cli("-dh " + dds + " " + d + "/dd.raw") == 0);
    CHECK(contains(last_cli_stderr(), "(DXGI format 135 (NVTT's DXGI_FORMAT_ASTC_4X4_UNORM_SRGB), astc-4x4-srgb): decoded "
                                      "as astc-4x4-sfloat"));
    check_every_texel(d + "/dd.raw", hdr_texel, 64);
    // Formats that are not ASTC still refuse --profile (one file), or ignore it once per batch.
    const std::string bc1 = d + "/bc1.dds";
    write_binary_file(bc1, legacy_dds({{'D', 'X', 'T', '1'}, 4, 4}, std::vector<uint8_t>(8, 0)));
    CHECK(run_cli("-dh " + bc1 + " " + d + "/b.exr") == 2);
    CHECK(contains(last_cli_stderr(), "--profile applies to ASTC data; this is a DDS file of bc1-rgba-unorm"));
    const std::string out = dir("item11_batch");
    REQUIRE(run_cli("decode --profile hdr --to raw --out-dir " + out + " " + bc1 + " " + unorm + " " + sfloat) == 0);
    err = last_cli_stderr();
    CHECK(occurrences(err, "ignored") == 1);
    CHECK(contains(err, "--profile hdr ignored for 1 file(s) whose format is not ASTC"));
    check_every_texel(out + "/unorm.raw", hdr_texel, 64);
}

// ---- item 12 ---------------------------------------------------------------------------------------

TEST_CASE("KTX2 DFD: vkFormat decides, every DFD field that disagrees is a warning naming it, none refuses the file",
          "[cli][ktx2][realfiles][item12]") {
    const texdec_format f = TEXDEC_FORMAT_ASTC_4x4_UNORM;
    const std::vector<std::vector<uint8_t>> level = {std::vector<uint8_t>(16 * 8, 0)};
    const auto build = [&](const Ktx2Spec& s) { return ktx2_bytes(s, level).bytes; };
    const auto with = [&](auto change) {
        Ktx2Spec s = ktx2_spec(f, 16, 8);
        change(s);
        return build(s);
    };
    const auto patched = [&](size_t at, uint32_t value) {
        std::vector<uint8_t> b = build(ktx2_spec(f, 16, 8));
        put_u32(b, at, value);
        return b;
    };
    const size_t dfd = ktx2_bytes(ktx2_spec(f, 16, 8), level).dfd_offset;
    struct Case {
        const char* name;
        std::vector<uint8_t> bytes;
        const char* warning;
    };
    const Case cases[] = {
        {"sRGB transfer on UNORM (as NVIDIA's tools write BC4/BC5)", with([](Ktx2Spec& s) { s.transfer = 2; }),
         "the DFD's transferFunction is 2, but vkFormat 157 (astc-4x4-unorm) is not sRGB"},
        {"linear transfer on SRGB", with([](Ktx2Spec& s) { s.vk_format = 158; }),
         "vkFormat 158 (astc-4x4-srgb) is sRGB (transfer 2)"},
        {"colour model", with([](Ktx2Spec& s) { s.color_model = 128; }),
         "the DFD's colorModel is 128, which is not the model of vkFormat 157 (astc-4x4-unorm)"},
        {"block dimensions", with([](Ktx2Spec& s) { s.block[0] = 5; }),
         "texelBlockDimension is 5x4x1x1, but vkFormat 157 (astc-4x4-unorm) has 4x4x1 blocks"},
        {"bytesPlane0", with([](Ktx2Spec& s) { s.bytes_plane0 = 8; }), "bytesPlane0 is 8, but a block of astc-4x4-unorm is 16"},
        {"dfdTotalSize", patched(dfd, 48), "dfdTotalSize is 48, dfdByteLength 44"},
        {"vendor", patched(dfd + 4, 1), "vendorId 1, descriptorType 0"},
        {"descriptorBlockSize", patched(dfd + 8, 2u | 4000u << 16), "descriptorBlockSize 4000"},
        {"DFD too short", patched(52, 20), "dfdByteLength is 20"},
        {"DFD past the end", patched(48, 1u << 20), "the data format descriptor (dfdByteOffset 1048576"},
        {"DFD in the level index", patched(48, 90), "is not between the level index"},
        {"no DFD", patched(52, 0), "no data format descriptor (dfdByteLength 0)"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const ktx2::ParseResult r = ktx2::parse(c.bytes);
        if (const auto* e = std::get_if<ktx2::Error>(&r)) FAIL("refused: " << e->message);
        const ktx2::Texture& t = std::get<ktx2::Texture>(r);
        REQUIRE(t.warnings.size() == 1);
        CHECK(contains(t.warnings[0], c.warning));
        CHECK(contains(t.warnings[0], "decoded as vkFormat"));
        CHECK(t.format == (c.name[0] == 'l' ? TEXDEC_FORMAT_ASTC_4x4_SRGB : f));
    }
    // A DFD that agrees says nothing; with vkFormat 0 there is nothing to decode by.
    CHECK(std::get<ktx2::Texture>(ktx2::parse(build(ktx2_spec(f, 16, 8)))).warnings.empty());
    const auto zero = ktx2::parse(with([](Ktx2Spec& s) { s.vk_format = 0, s.transfer = 7; }));
    REQUIRE(std::holds_alternative<ktx2::Error>(zero));
    CHECK(contains(std::get<ktx2::Error>(zero).message, "unknown vkFormat 0"));
}

TEST_CASE("CLI: KTX 2 BC4 and BC5 UNORM with an sRGB DFD (NVIDIA's tools) decode by vkFormat, with a warning",
          "[cli][gpu][ktx2][realfiles][item12]") {
    if (!cli_has_device()) return;
    const std::string d = dir("item12");
    // BC4: red0 = 200, red1 = 10, every index 0: every texel is red0 (spec: index 0 selects red0
    // exactly, in every rounding mode). BC5: the same for red, green0 = 77.
    const std::vector<uint8_t> bc4 = {200, 10, 0, 0, 0, 0, 0, 0};
    std::vector<uint8_t> bc5 = bc4;
    bc5.insert(bc5.end(), {77, 5, 0, 0, 0, 0, 0, 0});
    struct Case {
        texdec_format format;
        std::vector<uint8_t> block;
        std::vector<uint8_t> texel;  // NATIVE: R8 / R8G8
    };
    for (const Case& c : {Case{TEXDEC_FORMAT_BC4_UNORM, bc4, {200}}, Case{TEXDEC_FORMAT_BC5_UNORM, bc5, {200, 77}}}) {
        Ktx2Spec spec = ktx2_spec(c.format, 8, 8, 0, 0, 1, 1, 2);  // Zstandard, as nvtt_export writes
        spec.transfer = 2;
        const std::string in = d + "/nv.ktx2";
        write_binary_file(in, ktx2_bytes(spec, {repeat(c.block, 4)}).bytes);
        REQUIRE(run_cli("decode " + in + " " + d + "/nv.raw") == 0);
        const std::string err = last_cli_stderr();
        INFO(err);
        CHECK(contains(err, "warning: '" + in + "': the DFD's transferFunction is 2, but vkFormat"));
        CHECK(contains(err, "is not sRGB (decoded as vkFormat"));
        check_every_texel(d + "/nv.raw", c.texel, 64);
        REQUIRE(run_cli_command(cli_path() + " info --json " + in + " > " + d + "/info.json") == 0);
        const std::vector<uint8_t> json = read_binary_file(d + "/info.json");
        CHECK(contains(std::string(json.begin(), json.end()), "transferFunction is 2"));
    }
}

// ---- item 13 ---------------------------------------------------------------------------------------

TEST_CASE("CLI: DDS files with Compressonator's and Tacent's ETC FourCCs, RXGB and NVTT's ASTC DXGI values decode",
          "[cli][gpu][dds][realfiles][item13]") {
    if (!cli_has_device()) return;
    const std::string d = dir("item13");
    // ETC1 / ETC2 differential mode (bit 33 = 1; for RGB8A1 that bit is "opaque"), R = 31, G = 0,
    // B = 16 as 5-bit bases with zero deltas (no T/H/planar overflow), table 0 for both halves, every
    // pixel index 0 (modifier +2): R = 255 + 2 -> 255, G = 0 + 2, B = (16 << 3 | 16 >> 2) + 2 = 134.
    const std::vector<uint8_t> etc = {31 << 3, 0, 16 << 3, 0x02, 0, 0, 0, 0};
    // EAC alpha (RGBA8's first 8 bytes): base 0x80, multiplier 1, table 0, every index 4 (+2): 0x82.
    std::vector<uint8_t> etca = {0x80, 0x10, 0x92, 0x49, 0x24, 0x92, 0x49, 0x24};
    etca.insert(etca.end(), etc.begin(), etc.end());
    struct Case {
        const char* fourcc;
        std::vector<uint8_t> block;
        const char* format;
        std::vector<uint8_t> texel;
    };
    const Case cases[] = {
        {"ETC ", etc, "etc2-r8g8b8-unorm", {255, 2, 134, 255}},  {"ETC1", etc, "etc2-r8g8b8-unorm", {255, 2, 134, 255}},
        {"ETC2", etc, "etc2-r8g8b8-unorm", {255, 2, 134, 255}},  {"ETCP", etc, "etc2-r8g8b8a1-unorm", {255, 2, 134, 255}},
        {"ETCA", etca, "etc2-r8g8b8a8-unorm", {255, 2, 134, 0x82}}, {"ETCS", etc, "etc2-r8g8b8-srgb", {255, 2, 134, 255}},
        {"ETCT", etca, "etc2-r8g8b8a8-srgb", {255, 2, 134, 0x82}}, {"ETCU", etc, "etc2-r8g8b8a1-srgb", {255, 2, 134, 255}},
    };
    for (const Case& c : cases) {
        INFO(c.fourcc);
        const std::string in = d + "/etc.dds";
        LegacyDdsHeader h{{c.fourcc[0], c.fourcc[1], c.fourcc[2], c.fourcc[3]}, 8, 4};
        write_binary_file(in, legacy_dds(h, repeat(c.block, 2)));
        REQUIRE(run_cli("decode --verify --output rgba8 " + in + " " + d + "/etc.raw") == 0);
        CHECK(contains(last_cli_stderr(), std::string("decoded ") + c.format + " 8x4x1"));
        check_every_texel(d + "/etc.raw", c.texel, 32);
    }

    // RXGB: a DXT5 block (alpha0 = 0x40, every alpha index 0; colour0 = colour1 = 565 (8, 63, 31),
    // every colour index 0: RGB = (8 << 3 | 8 >> 2, 255, 255) = (66, 255, 255)), read with red and
    // alpha swapped back: (0x40, 255, 255, 66).
    const std::vector<uint8_t> dxt5 = {0x40, 0x00, 0, 0, 0, 0, 0, 0, 0xFF, 0x47, 0xFF, 0x47, 0, 0, 0, 0};
    const std::string rxgb = d + "/rxgb.dds";
    write_binary_file(rxgb, legacy_dds({{'R', 'X', 'G', 'B'}, 8, 8}, repeat(dxt5, 4)));
    REQUIRE(run_cli("decode --verify " + rxgb + " " + d + "/rxgb.raw") == 0);
    CHECK(contains(last_cli_stderr(), "decoded bc3-unorm 8x8x1"));
    check_every_texel(d + "/rxgb.raw", {0x40, 255, 255, 66}, 64);
    // RGBA16F: the same swap of whole halves (alpha = 66/255 in red's place, red = 0x40/255 in alpha's).
    REQUIRE(run_cli("decode --output rgba16f " + rxgb + " " + d + "/rxgb16.raw") == 0);
    write_binary_file(d + "/dxt5.dds", legacy_dds({{'D', 'X', 'T', '5'}, 8, 8}, repeat(dxt5, 4)));
    REQUIRE(run_cli("decode --output rgba16f " + d + "/dxt5.dds " + d + "/dxt5_16.raw") == 0);
    const std::vector<uint8_t> swapped = read_binary_file(d + "/rxgb16.raw"), plain = read_binary_file(d + "/dxt5_16.raw");
    REQUIRE((swapped.size() == 64 * 8 && plain.size() == 64 * 8));
    for (size_t t = 0; t < 64; ++t) {
        const uint8_t* s = &swapped[t * 8];
        const uint8_t* p = &plain[t * 8];
        REQUIRE((s[0] == p[6] && s[1] == p[7] && s[2] == p[2] && s[3] == p[3] && s[4] == p[4] && s[5] == p[5] &&
                 s[6] == p[0] && s[7] == p[1]));
    }

    // NVTT's DXGI values for ASTC: TYPELESS / UNORM / UNORM_SRGB per footprint, from 133 in fours
    // (4x4 first, 12x12 last), holding LDR void extents: every texel is the void extent's colour.
    struct Astc {
        uint32_t dxgi;
        uint32_t bw, bh;
        const char* format;
    };
    for (const Astc& a : {Astc{133, 4, 4, "astc-4x4-unorm"}, Astc{134, 4, 4, "astc-4x4-unorm"},
                          Astc{135, 4, 4, "astc-4x4-srgb"}, Astc{150, 6, 6, "astc-6x6-unorm"},
                          Astc{163, 8, 8, "astc-8x8-srgb"}, Astc{185, 12, 12, "astc-12x12-unorm"},
                          Astc{187, 12, 12, "astc-12x12-srgb"}}) {
        INFO("DXGI " << a.dxgi);
        const std::string in = d + "/astc.dds";
        write_binary_file(in, dx10_dds({a.dxgi, 2 * a.bw, a.bh}, repeat(ldr_void_extent(), 2)));
        REQUIRE(run_cli("decode --verify --output rgba8 " + in + " " + d + "/astc.raw") == 0);
        CHECK(contains(last_cli_stderr(), std::string("decoded ") + a.format + " "));
        check_every_texel(d + "/astc.raw", kLdrTexel, 2 * a.bw * a.bh);
    }
    // The unused fourth value of a run, and values past 12x12, are refused by number (exit 3).
    for (uint32_t dxgi : {136u, 188u}) {
        write_binary_file(d + "/bad.dds", dx10_dds({dxgi, 4, 4}, ldr_void_extent()));
        CHECK(run_cli("decode " + d + "/bad.dds " + d + "/bad.png") == 3);
        CHECK(contains(last_cli_stderr(), "DXGI format " + std::to_string(dxgi) +
                                              " is no format: NVTT's ASTC values "
                                              "run in fours from 133"));
    }
    // The parser names them as the header did.
    const auto parsed = dds::parse(dx10_dds({150, 6, 6}, ldr_void_extent()));
    REQUIRE(std::holds_alternative<dds::Texture>(parsed));
    CHECK(std::get<dds::Texture>(parsed).container_format == "DXGI format 150 (NVTT's DXGI_FORMAT_ASTC_6X6_UNORM)");
    const auto unknown = dds::parse(legacy_dds({{'A', 'T', 'C', ' '}, 4, 4}, std::vector<uint8_t>(8, 0)));
    REQUIRE(std::holds_alternative<dds::Error>(unknown));
    CHECK(contains(std::get<dds::Error>(unknown).message, "unknown FourCC 'ATC '"));
}

// ---- item 14 ---------------------------------------------------------------------------------------

TEST_CASE("CLI batch: a damaged file in a directory is named, failed files are counted, notes come once",
          "[cli][gpu][batch][realfiles][item14]") {
    if (!cli_has_device()) return;
    const std::string in = dir("item14_in");
    // Two good 8x8 BC1 files with two mip levels each (a note-worthy default selection).
    const std::vector<uint8_t> bc1 = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    LegacyDdsHeader h{{'D', 'X', 'T', '1'}, 8, 8};
    h.mip_count = 2;
    write_binary_file(in + "/b_good.dds", legacy_dds(h, repeat(bc1, 5)));
    write_binary_file(in + "/c_good.dds", legacy_dds(h, repeat(bc1, 5)));
    std::vector<uint8_t> damaged = legacy_dds(h, repeat(bc1, 5));
    damaged[0] = 'X';  // "XDS "
    write_binary_file(in + "/damaged.dds", damaged);
    std::vector<uint8_t> truncated = legacy_dds(h, repeat(bc1, 5));
    truncated.resize(truncated.size() - 8);
    write_binary_file(in + "/a_truncated.dds", truncated);
    write_binary_file(in + "/readme.txt", {'h', 'i', '\n'});

    const std::string out = dir("item14_out");
    CHECK(run_cli("decode --jobs 1 --out-dir " + out + " " + in) == 3);
    const std::string err = last_cli_stderr();
    INFO(err);
    // The damaged file: which, and why; the text file only counted (and listed with -v).
    CHECK(contains(err, "warning: skipped '" + in + "/damaged.dds': named like a texture file, but its first bytes "
                        "(58 44 53 20 7C 00 00 00) are no DDS, KTX, KTX 2, PKM or .astc magic"));
    CHECK_FALSE(contains(err, "readme.txt"));
    CHECK(contains(err, "2 skipped (not texture files)"));
    // Every file has its number, the failed one too (input order with --jobs 1).
    CHECK(contains(err, "[1/3] astc-gpu-decode: error: '" + in + "/a_truncated.dds': "));
    CHECK(contains(err, "[2/3] " + in + "/b_good.dds: "));
    CHECK(contains(err, "[3/3] " + in + "/c_good.dds: "));
    // The default-selection note once for the batch, not once per file.
    CHECK(occurrences(err, "note:") == 1);
    CHECK(contains(err, "note: 2 file(s) have more mip levels, layers or faces than the level 0, layer 0, face 0"));
    CHECK(run_cli("decode -v --jobs 1 --out-dir " + out + " " + in) == 3);
    CHECK(contains(last_cli_stderr(), "skipped '" + in + "/readme.txt': not a texture file: its first bytes (68 69 0A)"));
}

TEST_CASE("CLI messages: uncompressed and Basis Universal KTX 2 files by name, UASTC HDR 4x4 decoded, info's columns",
          "[cli][ktx2][realfiles][item14]") {
    const std::string d = dir("item14_msg");
    const std::string in = d + "/f.ktx2", out = d + "/f.png";
    const std::vector<uint8_t> level(16 * 4, 0);
    struct Named {
        uint32_t vk_format;
        const char* message;
    };
    for (const Named& n :
         {Named{37,
                "vkFormat 37 (VK_FORMAT_R8G8B8A8_UNORM) is an uncompressed format; texdec decodes block-compressed "
                "formats only"},
          Named{43, "vkFormat 43 (VK_FORMAT_R8G8B8A8_SRGB)"}, Named{97, "vkFormat 97 (VK_FORMAT_R16G16B16A16_SFLOAT)"},
          Named{64, "vkFormat 64 (VK_FORMAT_A2B10G10R10_UNORM_PACK32)"},
          Named{122, "vkFormat 122 (VK_FORMAT_B10G11R11_UFLOAT_PACK32)"},
          Named{109, "vkFormat 109 (VK_FORMAT_R32G32B32A32_SFLOAT)"},
          Named{1000054001, "(VK_FORMAT_PVRTC1_4BPP_UNORM_BLOCK_IMG) is a block-compressed format"}}) {
        INFO(n.vk_format);
        Ktx2Spec s = ktx2_spec(TEXDEC_FORMAT_ASTC_4x4_UNORM, 8, 8);
        s.vk_format = n.vk_format;
        write_binary_file(in, ktx2_bytes(s, {level}).bytes);
        CHECK(run_cli_command(cli_path() + " info " + in + " > /dev/null") == 3);
        CHECK(contains(last_cli_stderr(), n.message));
    }
    // Basis Universal, by the DFD's colour model: UASTC HDR 6x6 intermediate in the old BasisLZ
    // scheme (which was called ETC1S) and in its own scheme 4; ETC1S still ETC1S.
    struct Basis {
        uint32_t vk_format, scheme, model;
        const char* message;
    };
    for (const Basis& b : {Basis{0, 1, 168, "supercompressionScheme 1 (BasisLZ) with DFD colour model 168 (Basis Universal "
                                            "UASTC HDR 6x6 intermediate) is not supported"},
                           Basis{0, 4, 168, "supercompressionScheme 4 with DFD colour model 168 (Basis Universal UASTC HDR "
                                            "6x6 intermediate)"},
                           Basis{0, 5, 169, "(Basis Universal XUASTC LDR intermediate)"},
                           Basis{0, 0, 167, "vkFormat 0 with DFD colour model 167 (Basis Universal UASTC HDR 4x4)"},
                           Basis{0, 1, 163, "supercompressionScheme 1 (BasisLZ: Basis Universal ETC1S)"}}) {
        INFO(b.message);
        Ktx2Spec s = ktx2_spec(TEXDEC_FORMAT_ASTC_4x4_UNORM, 8, 8);
        s.vk_format = b.vk_format, s.scheme = b.scheme, s.color_model = b.model;
        std::vector<uint8_t> bytes = ktx2_bytes(s, {level}).bytes;
        if (b.scheme == 1 || b.scheme >= 4) put_u64(bytes, 96, 0);  // uncompressedByteLength 0, as Basis writes it
        write_binary_file(in, bytes);
        CHECK(run_cli_command(cli_path() + " info " + in + " > /dev/null") == 3);
        CHECK(contains(last_cli_stderr(), b.message));
        if (b.model != 163) CHECK_FALSE(contains(last_cli_stderr(), "ETC1S"));
    }
    // UASTC HDR 4x4 as Basis Universal writes it (vkFormat ASTC_4x4_SFLOAT, colour model 167) is
    // ASTC HDR 4x4 data: read without a word.
    Ktx2Spec uastc_hdr = ktx2_spec(TEXDEC_FORMAT_ASTC_4x4_SFLOAT, 8, 8, 0, 0, 1, 1, 2);
    uastc_hdr.color_model = 167;
    write_binary_file(in, ktx2_bytes(uastc_hdr, {repeat(hdr_void_extent(), 4)}).bytes);
    REQUIRE(run_cli_command(cli_path() + " info " + in + " > " + d + "/info.txt") == 0);
    CHECK_FALSE(contains(last_cli_stderr(), "warning"));

    // info: blocks and bytes per surface in their own columns (an 8x8 BC1 file with 2 levels: 4
    // blocks of 8 bytes, then 1).
    LegacyDdsHeader h{{'D', 'X', 'T', '1'}, 8, 8};
    h.mip_count = 2;
    write_binary_file(d + "/mips.dds", legacy_dds(h, std::vector<uint8_t>(40, 0)));
    REQUIRE(run_cli_command(cli_path() + " info " + d + "/mips.dds > " + d + "/info.txt") == 0);
    const std::string text = read_text(d + "/info.txt");
    INFO(text);
    CHECK(contains(text, "level  extent          blocks/surface  bytes/surface   decoded bytes/surface (rgba8)"));
    CHECK(contains(text, "  0      8x8             4               32              256\n"));
    CHECK(contains(text, "  1      4x4             1               8               64\n"));
    REQUIRE(run_cli_command(cli_path() + " info --json " + d + "/mips.dds > " + d + "/info.json") == 0);
    const std::string json = read_text(d + "/info.json");
    CHECK(contains(json, "\"surface_blocks\": 4"));
    CHECK(contains(json, "\"surface_bytes\": 32"));
}
