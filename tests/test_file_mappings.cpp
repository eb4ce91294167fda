// texdec_file's format mappings (include/texdec/texdec_file.h, "format numbers of the
// containers"), both ways, over the whole texdec_format enum and over each scheme's numbers,
// against tables written here from the public sources: DXGI_FORMAT values from Microsoft's
// "DXGI_FORMAT enumeration" page, GL enums from the Khronos OpenGL registry (glext.h / gl2ext.h),
// VkFormat values from the Vulkan registry, DDS FourCCs from Microsoft's "DDS_PIXELFORMAT" page
// and the writers that use them, ASTC footprints from the ASTC specification (KDFS 1.3 section 23).
// No expected value comes from texdec.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <texdec/texdec.h>
#include <texdec/texdec_file.h>

namespace {

constexpr uint32_t kFirst = TEXDEC_FORMAT_BC1_RGB_UNORM;
constexpr uint32_t kCount = TEXDEC_FORMAT_COUNT;

texdec_format fmt(uint32_t v) { return texdec_format(v); }

std::string name_of(texdec_format f) {
    texdec_format_info info{};
    if (texdec_format_get_info(f, &info) != TEXDEC_SUCCESS) return "format " + std::to_string(int(f));
    return info.name;
}

// ASTC footprints in texdec_format order (2D: KHR_texture_compression_astc_ldr's order; 3D:
// OES_texture_compression_astc's), each with UNORM, SRGB, SFLOAT.
struct Footprint {
    uint32_t x, y, z;
};
const Footprint kFootprints2d[14] = {{4, 4, 1},  {5, 4, 1},   {5, 5, 1},   {6, 5, 1},  {6, 6, 1},
                                     {8, 5, 1},  {8, 6, 1},   {8, 8, 1},   {10, 5, 1}, {10, 6, 1},
                                     {10, 8, 1}, {10, 10, 1}, {12, 10, 1}, {12, 12, 1}};
const Footprint kFootprints3d[10] = {{3, 3, 3}, {4, 3, 3}, {4, 4, 3}, {4, 4, 4}, {5, 4, 4},
                                     {5, 5, 4}, {5, 5, 5}, {6, 5, 5}, {6, 6, 5}, {6, 6, 6}};

bool is_astc(texdec_format f) { return f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_6x6x6_SFLOAT; }
// 0 UNORM, 1 SRGB, 2 SFLOAT of an ASTC format; its footprint.
uint32_t astc_kind(texdec_format f) { return uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) % 3; }
Footprint astc_footprint(texdec_format f) {
    const uint32_t i = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) / 3;
    return i < 14 ? kFootprints2d[i] : kFootprints3d[i - 14];
}

// ---- DXGI_FORMAT (Microsoft, "DXGI_FORMAT enumeration") ------------------------------------------
// BC1_TYPELESS 70, BC1_UNORM 71, BC1_UNORM_SRGB 72, BC2 73-75, BC3 76-78, BC4_TYPELESS 79,
// BC4_UNORM 80, BC4_SNORM 81, BC5 82-84, BC6H_TYPELESS 94, BC6H_UF16 95, BC6H_SF16 96,
// BC7_TYPELESS 97, BC7_UNORM 98, BC7_UNORM_SRGB 99; ASTC_4X4_TYPELESS 133, _UNORM 134,
// _UNORM_SRGB 135, then 4 values per footprint in KHR order up to ASTC_12X12_UNORM_SRGB 187.
const std::map<uint32_t, texdec_format>& dxgi_reads() {
    static const std::map<uint32_t, texdec_format> table = [] {
        std::map<uint32_t, texdec_format> t = {
            {70, TEXDEC_FORMAT_BC1_RGBA_UNORM}, {71, TEXDEC_FORMAT_BC1_RGBA_UNORM}, {72, TEXDEC_FORMAT_BC1_RGBA_SRGB},
            {73, TEXDEC_FORMAT_BC2_UNORM},      {74, TEXDEC_FORMAT_BC2_UNORM},      {75, TEXDEC_FORMAT_BC2_SRGB},
            {76, TEXDEC_FORMAT_BC3_UNORM},      {77, TEXDEC_FORMAT_BC3_UNORM},      {78, TEXDEC_FORMAT_BC3_SRGB},
            {79, TEXDEC_FORMAT_BC4_UNORM},      {80, TEXDEC_FORMAT_BC4_UNORM},      {81, TEXDEC_FORMAT_BC4_SNORM},
            {82, TEXDEC_FORMAT_BC5_UNORM},      {83, TEXDEC_FORMAT_BC5_UNORM},      {84, TEXDEC_FORMAT_BC5_SNORM},
            {94, TEXDEC_FORMAT_BC6H_UFLOAT},    {95, TEXDEC_FORMAT_BC6H_UFLOAT},    {96, TEXDEC_FORMAT_BC6H_SFLOAT},
            {97, TEXDEC_FORMAT_BC7_UNORM},      {98, TEXDEC_FORMAT_BC7_UNORM},      {99, TEXDEC_FORMAT_BC7_SRGB},
        };
        for (uint32_t i = 0; i < 14; ++i) {
            const texdec_format unorm = fmt(TEXDEC_FORMAT_ASTC_4x4_UNORM + 3 * i);
            t[133 + 4 * i] = unorm;           // TYPELESS reads as UNORM
            t[134 + 4 * i] = unorm;           // UNORM
            t[135 + 4 * i] = fmt(unorm + 1);  // UNORM_SRGB
        }
        return t;
    }();
    return table;
}

// What to_dxgi gives: the UNORM / UNORM_SRGB / SNORM / UF16 / SF16 value; BC1 RGB -> BC1_UNORM
// (one-way); ASTC sfloat, ETC2, EAC: 0.
uint32_t expected_to_dxgi(texdec_format f) {
    static const uint32_t bc[16] = {71, 72, 71, 72, 74, 75, 77, 78, 80, 81, 83, 84, 95, 96, 98, 99};
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_BC7_SRGB) {
        // BC1_RGB_UNORM, BC1_RGB_SRGB, BC1_RGBA_UNORM, BC1_RGBA_SRGB, then BC2.. in pairs.
        return bc[f - TEXDEC_FORMAT_BC1_RGB_UNORM];
    }
    if (f >= TEXDEC_FORMAT_ASTC_4x4_UNORM && f <= TEXDEC_FORMAT_ASTC_12x12_SFLOAT) {
        const uint32_t i = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) / 3, kind = astc_kind(f);
        return kind == 2 ? 0 : 134 + 4 * i + kind;
    }
    return 0;  // ETC2, EAC, ASTC 3D (DXGI has none), undefined
}

// ---- GL (Khronos OpenGL registry) ----------------------------------------------------------------
// GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0, RGBA_S3TC_DXT1 0x83F1, DXT3 0x83F2, DXT5 0x83F3;
// GL_COMPRESSED_SRGB_S3TC_DXT1_EXT 0x8C4C, SRGB_ALPHA_S3TC_DXT1 0x8C4D, DXT3 0x8C4E, DXT5 0x8C4F;
// GL_COMPRESSED_RED_RGTC1 0x8DBB, SIGNED_RED_RGTC1 0x8DBC, RG_RGTC2 0x8DBD, SIGNED_RG_RGTC2 0x8DBE;
// GL_COMPRESSED_RGBA_BPTC_UNORM 0x8E8C, SRGB_ALPHA_BPTC_UNORM 0x8E8D, RGB_BPTC_SIGNED_FLOAT 0x8E8E,
// RGB_BPTC_UNSIGNED_FLOAT 0x8E8F; GL_COMPRESSED_R11_EAC 0x9270, SIGNED_R11_EAC 0x9271, RG11_EAC
// 0x9272, SIGNED_RG11_EAC 0x9273, RGB8_ETC2 0x9274, SRGB8_ETC2 0x9275, RGB8_PUNCHTHROUGH_ALPHA1_ETC2
// 0x9276, SRGB8_PUNCHTHROUGH_ALPHA1_ETC2 0x9277, RGBA8_ETC2_EAC 0x9278, SRGB8_ALPHA8_ETC2_EAC 0x9279;
// GL_ETC1_RGB8_OES 0x8D64; GL_COMPRESSED_RGBA_ASTC_4x4_KHR 0x93B0 .. 12x12 0x93BD,
// GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR 0x93D0 .. 0x93DD; GL_COMPRESSED_RGBA_ASTC_3x3x3_OES
// 0x93C0 .. 6x6x6 0x93C9, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_3x3x3_OES 0x93E0 .. 0x93E9.
uint32_t expected_to_gl(texdec_format f) {
    static const std::map<texdec_format, uint32_t> bc_etc = {
        {TEXDEC_FORMAT_BC1_RGB_UNORM, 0x83F0},       {TEXDEC_FORMAT_BC1_RGB_SRGB, 0x8C4C},
        {TEXDEC_FORMAT_BC1_RGBA_UNORM, 0x83F1},      {TEXDEC_FORMAT_BC1_RGBA_SRGB, 0x8C4D},
        {TEXDEC_FORMAT_BC2_UNORM, 0x83F2},           {TEXDEC_FORMAT_BC2_SRGB, 0x8C4E},
        {TEXDEC_FORMAT_BC3_UNORM, 0x83F3},           {TEXDEC_FORMAT_BC3_SRGB, 0x8C4F},
        {TEXDEC_FORMAT_BC4_UNORM, 0x8DBB},           {TEXDEC_FORMAT_BC4_SNORM, 0x8DBC},
        {TEXDEC_FORMAT_BC5_UNORM, 0x8DBD},           {TEXDEC_FORMAT_BC5_SNORM, 0x8DBE},
        {TEXDEC_FORMAT_BC6H_UFLOAT, 0x8E8F},         {TEXDEC_FORMAT_BC6H_SFLOAT, 0x8E8E},
        {TEXDEC_FORMAT_BC7_UNORM, 0x8E8C},           {TEXDEC_FORMAT_BC7_SRGB, 0x8E8D},
        {TEXDEC_FORMAT_ETC2_R8G8B8_UNORM, 0x9274},   {TEXDEC_FORMAT_ETC2_R8G8B8_SRGB, 0x9275},
        {TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM, 0x9276}, {TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB, 0x9277},
        {TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM, 0x9278}, {TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB, 0x9279},
        {TEXDEC_FORMAT_EAC_R11_UNORM, 0x9270},       {TEXDEC_FORMAT_EAC_R11_SNORM, 0x9271},
        {TEXDEC_FORMAT_EAC_R11G11_UNORM, 0x9272},    {TEXDEC_FORMAT_EAC_R11G11_SNORM, 0x9273},
    };
    if (const auto it = bc_etc.find(f); it != bc_etc.end()) return it->second;
    if (!is_astc(f)) return 0;
    const uint32_t i = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) / 3;
    const bool srgb = astc_kind(f) == 1;  // sfloat: the linear enum (GL cannot say HDR)
    return i < 14 ? (srgb ? 0x93D0 : 0x93B0) + i : (srgb ? 0x93E0 : 0x93C0) + (i - 14);
}

// ---- VkFormat (Vulkan registry) ------------------------------------------------------------------
// VK_FORMAT_BC1_RGB_UNORM_BLOCK 131 .. VK_FORMAT_EAC_R11G11_SNORM_BLOCK 156 (texdec's order);
// VK_FORMAT_ASTC_4x4_UNORM_BLOCK 157, _SRGB 158 .. 12x12 183/184; ASTC_4x4_SFLOAT_BLOCK 1000066000
// .. 12x12 1000066013 (VK_EXT_texture_compression_astc_hdr); VK_EXT_texture_compression_astc_3d:
// 1000288000 + 3 x footprint + (UNORM 0, SRGB 1, SFLOAT 2).
uint32_t expected_vk(texdec_format f) {
    if (f >= TEXDEC_FORMAT_BC1_RGB_UNORM && f <= TEXDEC_FORMAT_EAC_R11G11_SNORM) return 131 + (f - 1);
    const uint32_t i = uint32_t(f - TEXDEC_FORMAT_ASTC_4x4_UNORM) / 3, kind = astc_kind(f);
    if (i < 14) return kind == 2 ? 1000066000u + i : 157u + 2 * i + kind;
    return 1000288000u + 3 * (i - 14) + kind;
}

}  // namespace

TEST_CASE("file mappings: the tables here cover the whole texdec_format enum", "[file][mappings]") {
    // Guards the tables above: the enum the header declares has 98 formats, 16 BC, 10 ETC2/EAC, 42
    // 2D ASTC and 30 3D ASTC, each family in the order the tables assume (names checked).
    REQUIRE(kCount == 99);
    CHECK(name_of(TEXDEC_FORMAT_BC1_RGB_UNORM) == "bc1-rgb-unorm");
    CHECK(name_of(fmt(16)) == "bc7-srgb");
    CHECK(name_of(TEXDEC_FORMAT_BC6H_UFLOAT) == "bc6h-ufloat");
    CHECK(name_of(TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB) == "etc2-r8g8b8a1-srgb");
    CHECK(name_of(TEXDEC_FORMAT_EAC_R11G11_SNORM) == "eac-r11g11-snorm");
    for (uint32_t v = TEXDEC_FORMAT_ASTC_4x4_UNORM; v < kCount; ++v) {
        const Footprint p = astc_footprint(fmt(v));
        std::string want = "astc-" + std::to_string(p.x) + "x" + std::to_string(p.y);
        if (v >= TEXDEC_FORMAT_ASTC_3x3x3_UNORM) want += "x" + std::to_string(p.z);
        want += astc_kind(fmt(v)) == 0 ? "-unorm" : astc_kind(fmt(v)) == 1 ? "-srgb" : "-sfloat";
        CHECK(name_of(fmt(v)) == want);
    }
}

TEST_CASE("file mappings: VkFormat both ways over the enum", "[file][mappings]") {
    for (uint32_t v = kFirst; v < kCount; ++v) {
        INFO(name_of(fmt(v)));
        texdec_format_info info{};
        REQUIRE(texdec_format_get_info(fmt(v), &info) == TEXDEC_SUCCESS);
        CHECK(uint32_t(info.vk_format) == expected_vk(fmt(v)));
        CHECK(texdec_format_from_vk(VkFormat(expected_vk(fmt(v)))) == fmt(v));
    }
    // Numbers around the ranges are no texdec format.
    for (const uint32_t vk : {0u, 37u, 130u, 185u, 1000054000u, 1000066014u, 1000288030u, 0x97000001u}) {
        INFO("VkFormat " << vk);
        CHECK(texdec_format_from_vk(VkFormat(vk)) == TEXDEC_FORMAT_UNDEFINED);
    }
}

TEST_CASE("file mappings: DXGI_FORMAT both ways over the enum and every DXGI value", "[file][mappings]") {
    // to_dxgi over the whole enum (and outside it), and from(to(f)) == f except the BC1 RGB pair.
    for (uint32_t v = 0; v < kCount; ++v) {
        const texdec_format f = fmt(v);
        INFO(name_of(f));
        const uint32_t want = v == 0 ? 0 : expected_to_dxgi(f);
        CHECK(texdec_format_to_dxgi(f) == want);
        if (want == 0) continue;
        if (f == TEXDEC_FORMAT_BC1_RGB_UNORM || f == TEXDEC_FORMAT_BC1_RGB_SRGB) {
            // The documented one-way pair: DXGI has one BC1, which reads back as bc1-rgba-*.
            CHECK(texdec_format_from_dxgi(want) ==
                  (f == TEXDEC_FORMAT_BC1_RGB_UNORM ? TEXDEC_FORMAT_BC1_RGBA_UNORM : TEXDEC_FORMAT_BC1_RGBA_SRGB));
        } else {
            CHECK(texdec_format_from_dxgi(want) == f);
        }
    }
    for (const uint32_t v : {uint32_t(TEXDEC_FORMAT_COUNT), 0x7FFFFFFFu, 1000u})
        CHECK(texdec_format_to_dxgi(fmt(v)) == 0);
    // from_dxgi over every DXGI value 0..255 (and a few beyond): exactly the table, UNDEFINED elsewhere
    // (the uncompressed, video and palette formats, the unused 136, 140, ..., 188).
    for (uint32_t d = 0; d < 256; ++d) {
        INFO("DXGI " << d);
        const auto it = dxgi_reads().find(d);
        CHECK(texdec_format_from_dxgi(d) == (it == dxgi_reads().end() ? TEXDEC_FORMAT_UNDEFINED : it->second));
    }
    for (const uint32_t d : {0x7FFFFFFFu, 0xFFFFFFFFu, 1000u, 0x10000u + 98u})
        CHECK(texdec_format_from_dxgi(d) == TEXDEC_FORMAT_UNDEFINED);
    // ASTC sfloat has no DXGI value: to 0, and an ASTC value reads as -unorm (one way).
    CHECK(texdec_format_to_dxgi(TEXDEC_FORMAT_ASTC_6x6_SFLOAT) == 0);
    CHECK(texdec_format_from_dxgi(150) == TEXDEC_FORMAT_ASTC_6x6_UNORM);
    CHECK(texdec_format_from_dxgi(187) == TEXDEC_FORMAT_ASTC_12x12_SRGB);  // DXGI_FORMAT_ASTC_12X12_UNORM_SRGB
}

TEST_CASE("file mappings: legacy DDS FourCCs", "[file][mappings]") {
    // Microsoft "DDS_PIXELFORMAT" / "Programming Guide for DDS" (DXT1-DXT5, BC4U/S, BC5U/S, ATI1, ATI2
    // as D3DX and DirectXTex write them), the Doom 3 / NVTT 'RXGB', and the ETC codes the header names.
    const auto cc = [](const char(&s)[5]) {
        return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
               uint32_t(uint8_t(s[3])) << 24;
    };
    CHECK(cc("DXT5") == 0x35545844u);  // the header's example
    struct Row {
        const char name[5];
        texdec_format format;
    };
    const Row rows[] = {
        {"DXT1", TEXDEC_FORMAT_BC1_RGBA_UNORM}, {"DXT2", TEXDEC_FORMAT_BC2_UNORM}, {"DXT3", TEXDEC_FORMAT_BC2_UNORM},
        {"DXT4", TEXDEC_FORMAT_BC3_UNORM},      {"DXT5", TEXDEC_FORMAT_BC3_UNORM}, {"ATI1", TEXDEC_FORMAT_BC4_UNORM},
        {"BC4U", TEXDEC_FORMAT_BC4_UNORM},      {"BC4S", TEXDEC_FORMAT_BC4_SNORM}, {"ATI2", TEXDEC_FORMAT_BC5_UNORM},
        {"BC5U", TEXDEC_FORMAT_BC5_UNORM},      {"BC5S", TEXDEC_FORMAT_BC5_SNORM}, {"RXGB", TEXDEC_FORMAT_BC3_UNORM},
    };
    for (const Row& r : rows) {
        INFO(r.name);
        CHECK(texdec_format_from_dds_fourcc(cc(r.name)) == r.format);
    }
    // Not block formats texdec reads: DX10 (a header follows, not a format), D3DFMT numbers, zero,
    // lower-case or byte-swapped codes.
    for (const uint32_t v : {cc("DX10"), cc("dxt1"), cc("1TXD"), cc("PTC2"), cc("UYVY"), 0u, 111u, 113u, 0xFFFFFFFFu}) {
        INFO("FourCC 0x" << std::hex << v);
        CHECK(texdec_format_from_dds_fourcc(v) == TEXDEC_FORMAT_UNDEFINED);
    }
}

TEST_CASE("file mappings: GL internal formats both ways over the enum and the GL ranges", "[file][mappings]") {
    std::map<uint32_t, texdec_format> reads;  // every enum texdec reads, and what it reads as
    for (uint32_t v = kFirst; v < kCount; ++v) {
        const texdec_format f = fmt(v);
        INFO(name_of(f));
        const uint32_t gl = expected_to_gl(f);
        CHECK(texdec_format_to_gl_internal_format(f) == gl);
        REQUIRE(gl != 0);
        // from(to(f)) == f, except ASTC sfloat (GL's ASTC enums say linear or sRGB: reads as -unorm).
        const texdec_format back = is_astc(f) && astc_kind(f) == 2 ? fmt(v - 2) : f;
        CHECK(texdec_format_from_gl_internal_format(gl) == back);
        if (!(is_astc(f) && astc_kind(f) == 2)) reads[gl] = f;
    }
    CHECK(texdec_format_to_gl_internal_format(TEXDEC_FORMAT_UNDEFINED) == 0);
    CHECK(texdec_format_to_gl_internal_format(fmt(kCount)) == 0);
    // ETC1 (OES_compressed_ETC1_RGB8_texture): reads as etc2-r8g8b8-unorm; to_gl gives the ETC2 enum (one way).
    reads[0x8D64] = TEXDEC_FORMAT_ETC2_R8G8B8_UNORM;
    CHECK(texdec_format_to_gl_internal_format(TEXDEC_FORMAT_ETC2_R8G8B8_UNORM) == 0x9274);
    // Every GL enum in the compressed ranges (and 0, and uncompressed ones): the table or UNDEFINED.
    std::vector<uint32_t> probe = {0,      0x1908, 0x8058, 0x8C00, 0x8C02, 0x8C40,    0x8C4B, 0x8D63,
                                   0x8D65, 0x8E8B, 0x8E90, 0x926F, 0x927A, 0x93AF,    0x93BE, 0x93BF,
                                   0x93CA, 0x93CF, 0x93DE, 0x93DF, 0x93EA, 0xFFFFFFFF};
    for (uint32_t g = 0x83F0; g <= 0x83F3; ++g) probe.push_back(g);
    for (uint32_t g = 0x8C4C; g <= 0x8C4F; ++g) probe.push_back(g);
    for (uint32_t g = 0x8DBB; g <= 0x8DBE; ++g) probe.push_back(g);
    for (uint32_t g = 0x8E8C; g <= 0x8E8F; ++g) probe.push_back(g);
    for (uint32_t g = 0x9270; g <= 0x9279; ++g) probe.push_back(g);
    for (uint32_t g = 0x93B0; g <= 0x93E9; ++g) probe.push_back(g);
    probe.push_back(0x8D64);
    for (const uint32_t g : probe) {
        INFO("GL 0x" << std::hex << g);
        const auto it = reads.find(g);
        CHECK(texdec_format_from_gl_internal_format(g) == (it == reads.end() ? TEXDEC_FORMAT_UNDEFINED : it->second));
    }
}

TEST_CASE("file mappings: ASTC footprint and profile both ways", "[file][mappings]") {
    const texdec_astc_profile profiles[3] = {TEXDEC_ASTC_PROFILE_LDR, TEXDEC_ASTC_PROFILE_SRGB,
                                             TEXDEC_ASTC_PROFILE_HDR};
    for (uint32_t v = 0; v < kCount + 2; ++v) {
        const texdec_format f = fmt(v);
        INFO(name_of(f));
        uint32_t x = 77, y = 77, z = 77;
        texdec_astc_profile profile = TEXDEC_ASTC_PROFILE_MAX_ENUM;
        const texdec_status s = texdec_format_to_astc_footprint(f, &x, &y, &z, &profile);
        if (v == 0 || v >= kCount || !is_astc(f)) {
            CHECK(s == TEXDEC_ERROR_UNKNOWN_FORMAT);
            continue;
        }
        REQUIRE(s == TEXDEC_SUCCESS);
        const Footprint p = astc_footprint(f);
        CHECK((x == p.x && y == p.y && z == p.z));
        CHECK(profile == profiles[astc_kind(f)]);
        CHECK(texdec_format_from_astc_footprint(p.x, p.y, p.z, profiles[astc_kind(f)]) == f);
        if (astc_kind(f) == 0)
            CHECK(texdec_format_from_astc_footprint(p.x, p.y, p.z, TEXDEC_ASTC_PROFILE_DEFAULT) == f);
    }
    uint32_t x = 0, y = 0, z = 0;
    texdec_astc_profile profile{};
    CHECK(texdec_format_to_astc_footprint(TEXDEC_FORMAT_ASTC_4x4_UNORM, nullptr, &y, &z, &profile) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    CHECK(texdec_format_to_astc_footprint(TEXDEC_FORMAT_ASTC_4x4_UNORM, &x, &y, &z, nullptr) ==
          TEXDEC_ERROR_INVALID_ARGUMENT);
    // Every footprint 0..13 in each dimension: exactly the 14 + 10 that exist give a format.
    int found = 0;
    for (uint32_t bx = 0; bx <= 13; ++bx)
        for (uint32_t by = 0; by <= 13; ++by)
            for (uint32_t bz = 0; bz <= 7; ++bz) {
                const texdec_format got = texdec_format_from_astc_footprint(bx, by, bz, TEXDEC_ASTC_PROFILE_LDR);
                bool exists = false;
                for (const Footprint& p : kFootprints2d) exists |= p.x == bx && p.y == by && bz == 1;
                for (const Footprint& p : kFootprints3d) exists |= p.x == bx && p.y == by && p.z == bz;
                INFO(bx << "x" << by << "x" << bz);
                CHECK((got != TEXDEC_FORMAT_UNDEFINED) == exists);
                found += got != TEXDEC_FORMAT_UNDEFINED;
            }
    CHECK(found == 24);
    CHECK(texdec_format_from_astc_footprint(1u << 31, 4, 1, TEXDEC_ASTC_PROFILE_LDR) == TEXDEC_FORMAT_UNDEFINED);
}
