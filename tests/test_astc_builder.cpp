// The oracle side of the ASTC decoder tests, no Vulkan involved:
//   - the bit-level block builder (support/astc_block_builder) against libastcenc's own reading of
//     the blocks it builds (astcenc_get_block_info): legality, partition count and index, every
//     partition's CEM, dual plane and CCS, weight grid, weight and colour quantisation levels, and
//     for blocks whose weight grid is the footprint and whose CEM is 0/4/12 (no blue contraction)
//     the unquantised weights and colour endpoints themselves, computed here from the spec's
//     unquantisation tables. So every ISE range (trits, quints, bits) of both streams is proven
//     to be written where the spec says.
//   - the expected-output model (oracles/astc_expected): RGBA8 equal to astcenc_decode_unorm8,
//     linear RGBA16F equal to astcenc_decode_f16_spec, astcenc 4.2 showing none of the anomalies
//     the model assumes away, and half(v/255) against a brute-force search over every FP16 value.
#include <catch2/catch.hpp>

#define ASTCENC_DYNAMIC_LIBRARY 1
#include <astcenc.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include "oracles/astc_expected.h"
#include "oracles/astcenc_oracle.h"
#include "support/astc_block_builder.h"
#include "support/astc_block_info.h"
#include "support/astc_test_support.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

// ---- the spec's unquantisation, transcribed for this check only -----------------------------

// "Weight Unquantization": 0..64.
unsigned unquantize_weight(IseRange r, unsigned v) {
    unsigned unq;
    if (!r.trits && !r.quints) {
        // Bit replication of an n-bit value to 6 bits.
        unq = 0;
        for (int filled = 0; filled < 6; filled += int(r.bits)) unq = (unq << r.bits) | v;
        unq >>= (((6 + r.bits - 1) / r.bits) * r.bits - 6);
    } else if (r.bits == 0) {
        static const unsigned t3[3] = {0, 32, 63}, q5[5] = {0, 16, 32, 47, 63};
        unq = r.trits ? t3[v] : q5[v];
    } else {
        const unsigned D = v >> r.bits, a = v & 1u;
        const unsigned A = a ? 0x7Fu : 0u;
        unsigned B = 0, C = 0;
        const unsigned b = (v >> 1) & 1u, c = (v >> 2) & 1u;
        if (r.trits && r.bits == 1) C = 50;
        if (r.quints && r.bits == 1) C = 28;
        if (r.trits && r.bits == 2) C = 23, B = (b << 6) | (b << 2) | b;           // b000b0b
        if (r.quints && r.bits == 2) C = 13, B = (b << 6) | (b << 1);              // b0000b0
        if (r.trits && r.bits == 3) C = 11, B = (c << 6) | (b << 5) | (c << 1) | b;  // cb000cb
        unq = D * C + B;
        unq ^= A;
        unq = (A & 0x20u) | (unq >> 2);
    }
    if (unq > 32) unq += 1;
    return unq;
}

// "Endpoint Unquantization": 0..255.
unsigned unquantize_colour(IseRange r, unsigned v) {
    if (!r.trits && !r.quints) {
        unsigned unq = 0;
        for (int filled = 0; filled < 8; filled += int(r.bits)) unq = (unq << r.bits) | v;
        return unq >> (((8 + r.bits - 1) / r.bits) * r.bits - 8);
    }
    const unsigned D = v >> r.bits, a = v & 1u, A = a ? 0x1FFu : 0u;
    auto bt = [v](unsigned i) { return (v >> i) & 1u; };
    const unsigned b = bt(1), c = bt(2), d = bt(3), e = bt(4), f = bt(5);
    unsigned B = 0, C = 0;
    switch (r.bits + (r.quints ? 100 : 0)) {
    case 1: C = 204; break;
    case 101: C = 113; break;
    case 2: C = 93, B = (b << 8) | (b << 4) | (b << 2) | (b << 1); break;                            // b000b0bb0
    case 102: C = 54, B = (b << 8) | (b << 3) | (b << 2); break;                                      // b0000bb00
    case 3: C = 44, B = (c << 8) | (b << 7) | (c << 3) | (b << 2) | (c << 1) | b; break;              // cb000cbcb
    case 103: C = 26, B = (c << 8) | (b << 7) | (c << 2) | (b << 1) | c; break;                       // cb0000cbc
    case 4: C = 22, B = (d << 8) | (c << 7) | (b << 6) | (d << 2) | (c << 1) | b; break;              // dcb000dcb
    case 104: C = 13, B = (d << 8) | (c << 7) | (b << 6) | (d << 1) | c; break;                       // dcb0000dc
    case 5: C = 11, B = (e << 8) | (d << 7) | (c << 6) | (b << 5) | (e << 1) | d; break;              // edcb000ed
    case 105: C = 6, B = (e << 8) | (d << 7) | (c << 6) | (b << 5) | e; break;                        // edcb0000e
    case 6: C = 5, B = (f << 8) | (e << 7) | (d << 6) | (c << 5) | (b << 4) | f; break;               // fedcb000f
    default: throw std::logic_error("unquantize_colour: no such range");
    }
    unsigned unq = D * C + B;
    unq ^= A;
    return (A & 0x80u) | (unq >> 2);
}

struct Mismatches {
    size_t count = 0;
    std::vector<std::string> examples;
    void add(const std::string& s) {
        if (examples.size() < 8) examples.push_back(s);
        ++count;
    }
    void report(const char* what) {
        for (const auto& e : examples) UNSCOPED_INFO(e);
        INFO(what << ": " << count << " mismatches");
        CHECK(count == 0);
    }
};

}  // namespace

TEST_CASE("ASTC builder: block mode table and ISE sizes", "[astc-builder]") {
    // Worked examples from the spec's tables.
    // Bits 10..0 = DP P W W H H rho0 0 0 rho2 rho1 with W = H = 0 and rho = 2 (rho2 = 0, rho1 = 1,
    // rho0 = 0): 0b00000000001 -> 4x2 grid, range 0..1, single plane.
    auto m = astc_parse_block_mode_2d(0b00000000001);
    REQUIRE(m);
    CHECK(m->grid_w == 4);
    CHECK(m->grid_h == 2);
    CHECK(m->weight_range == 0);
    CHECK(!m->dual_plane);
    // The same with rho2 = 1 (rho = 4 -> 0..3) and W = 3, H = 1: 7x3.
    m = astc_parse_block_mode_2d(0b00110100010);
    REQUIRE(m);
    CHECK(m->grid_w == 7);
    CHECK(m->grid_h == 3);
    CHECK(m->weight_range == 2);
    // DP=1 P=1, "DP P 1 1 0 1 rho0 rho2 rho1 0 0" with rho = 7 (rho0=1, rho2=1, rho1=1): 10x6, 0..31.
    m = astc_parse_block_mode_2d(0b11110111100);
    REQUIRE(m);
    CHECK(m->grid_w == 10);
    CHECK(m->grid_h == 6);
    CHECK(m->weight_range == 11);
    CHECK(m->dual_plane);
    // "H H 1 0 W W rho0 rho2 rho1 0 0": H=3, W=2, rho=3 -> 8 x 9, 0..2, DP = P = 0.
    m = astc_parse_block_mode_2d(0b11101010100);
    REQUIRE(m);
    CHECK(m->grid_w == 8);
    CHECK(m->grid_h == 9);
    CHECK(m->weight_range == 1);
    CHECK(!m->dual_plane);
    CHECK(!astc_parse_block_mode_2d(0x1FC));          // void-extent pattern
    CHECK(!astc_parse_block_mode_2d(0b00111000000));  // 111xxxx00 reserved (rho = 0 here, too)
    CHECK(!astc_parse_block_mode_2d(0b00000010000));  // bits 3..0 = 0000: reserved
    // ISE sizes (Data Size Determination): 5 trit values with 2 bits = 8 + 10; 3 quints with 1 bit = 7 + 3.
    CHECK(ise_bit_count({1, 0, 2}, 5) == 18);
    CHECK(ise_bit_count({1, 0, 2}, 1) == 4);  // ceil(8/5) + 2
    CHECK(ise_bit_count({0, 1, 1}, 3) == 10);
    CHECK(ise_bit_count({0, 1, 1}, 2) == 7);  // ceil(14/3) + 2
    CHECK(ise_bit_count({0, 0, 5}, 7) == 35);
    // Every trit tuple and quint tuple has a code (243 and 125 distinct decodes).
    std::map<std::array<unsigned, 5>, int> trits;
    for (unsigned T = 0; T < 256; ++T) trits[ise_decode_trit_block(T)]++;
    CHECK(trits.size() == 243);
    std::map<std::array<unsigned, 3>, int> quints;
    for (unsigned Q = 0; Q < 128; ++Q) quints[ise_decode_quint_block(Q)]++;
    CHECK(quints.size() == 125);
    // Legal mode counts per footprint are sane and grow with the footprint.
    size_t previous = 0;
    for (AstcFootprint fp : {AstcFootprint{4, 4, 1}, AstcFootprint{8, 8, 1}, AstcFootprint{12, 12, 1}}) {
        const size_t n = astc_legal_block_modes_2d(fp.x, fp.y).size();
        INFO(astc_fp_name(fp) << ": " << n << " legal block modes");
        CHECK(n > previous);
        previous = n;
    }
}

TEST_CASE("ASTC builder: blocks read back by astcenc_get_block_info as built", "[astc-builder]") {
    const auto& fps = astc_2d_footprints();
    for (size_t fi = 0; fi < fps.size(); ++fi) {
        const AstcFootprint fp = fps[fi];
        INFO(astc_fp_name(fp));
        AstcBlockInfoReader reader(fp);
        SplitMix64 rng(test_seed() ^ (0xB111D ^ fi << 20));
        const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
        REQUIRE(!modes.empty());
        Mismatches bad;
        size_t checked = 0, values_checked = 0, illegal_checked = 0;
        std::map<std::string, size_t> ranges_seen;
        auto describe = [&](const AstcBlock& b, const AstcBlockSpec& s) {
            std::ostringstream os;
            os << astc_fp_name(fp) << " block " << astc_hex(b.data()) << " mode " << s.block_mode << " partitions "
               << s.partitions << " seed " << s.partition_seed << " cem " << s.cem[0] << "," << s.cem[1] << ","
               << s.cem[2] << "," << s.cem[3] << (s.shared_cem ? " shared" : " per-partition") << " ccs " << s.ccs;
            return os.str();
        };
        // Every legal mode several times, random partitionings and CEMs (HDR ones included).
        for (uint32_t mode : modes)
            for (int k = 0; k < 6; ++k) {
                AstcSpecRequest req;
                req.block_mode = int(mode);
                if (k == 0) req.partitions = 1, req.cem = 0;  // always legal
                if (k == 1) req.cem = int(rng.next() % 3) * 4;  // 0, 4, 8: also check the values below
                if (k == 2) req.cem = 12;
                const auto spec = astc_random_legal_spec(modes, fp.x, fp.y, req, rng);
                if (!spec) {
                    REQUIRE(k != 0);
                    continue;
                }
                AstcBlockSpec s = *spec;
                const AstcBlockPlan plan = astc_plan_block(s, fp.x, fp.y);
                const IseRange wr = astc_weight_range(plan.mode.weight_range);
                s.weights.resize(plan.weight_count);
                for (auto& w : s.weights) w = unsigned(rng.next() % wr.levels());
                s.colours.resize(plan.colour_value_count);
                for (auto& c : s.colours) c = unsigned(rng.next() % plan.colour_range.levels());
                const AstcBlock b = astc_build_block(s, fp.x, fp.y, &rng);
                const auto info = reader.read(b);
                ++checked;
                ranges_seen[std::to_string(plan.colour_range.levels())]++;
                if (info->is_error_block || info->is_constant_block) {
                    bad.add(describe(b, s) + ": astcenc says error/constant");
                    continue;
                }
                bool same = info->partition_count == s.partitions && info->is_dual_plane_block == plan.mode.dual_plane &&
                            info->weight_x == plan.mode.grid_w && info->weight_y == plan.mode.grid_h &&
                            info->weight_level_count == wr.levels() &&
                            info->color_level_count == plan.colour_range.levels();
                if (s.partitions > 1) same = same && info->partition_index == s.partition_seed;
                if (plan.mode.dual_plane) same = same && info->dual_plane_component == s.ccs;
                for (unsigned p = 0; p < s.partitions; ++p) same = same && info->color_endpoint_modes[p] == s.cem[p];
                if (!same) {
                    std::ostringstream os;
                    os << describe(b, s) << ": astcenc reads partitions " << info->partition_count << " index "
                       << info->partition_index << " cem " << info->color_endpoint_modes[0] << ","
                       << info->color_endpoint_modes[1] << "," << info->color_endpoint_modes[2] << ","
                       << info->color_endpoint_modes[3] << " dual " << info->is_dual_plane_block << " ccs "
                       << info->dual_plane_component << " grid " << info->weight_x << "x" << info->weight_y
                       << " levels w" << info->weight_level_count << " c" << info->color_level_count;
                    bad.add(os.str());
                    continue;
                }
                // Values: the weight grid is the footprint (no infill) -> the texel weights are the
                // unquantised grid weights. astcenc 4.2 reports a weight w (0..64) as w / 16
                // (its WEIGHTS_TEXEL_SUM; measured: 64 -> 4.0).
                if (plan.mode.grid_w == fp.x && plan.mode.grid_h == fp.y) {
                    const unsigned planes = plan.mode.dual_plane ? 2 : 1;
                    for (unsigned t = 0; t < fp.x * fp.y; ++t)
                        for (unsigned pl = 0; pl < planes; ++pl) {
                            const float got = pl ? info->weight_values_plane2[t] : info->weight_values_plane1[t];
                            const unsigned want = unquantize_weight(wr, s.weights[t * planes + pl]);
                            if (std::fabs(got * 16.0f - float(want)) > 1e-3f) {
                                bad.add(describe(b, s) + ": texel " + std::to_string(t) + " plane " + std::to_string(pl) +
                                        " weight " + std::to_string(got * 16.0f) + ", spec " + std::to_string(want));
                                break;
                            }
                            ++values_checked;
                        }
                }
                // Colour endpoints of CEM 0 (L, L, L, 255), 4 (L, L, L, A) and 12 without blue
                // contraction, as astcenc reports them (UNORM16 after C << 8 | C expansion, / 65535).
                unsigned first_value = 0;
                for (unsigned p = 0; p < s.partitions; ++p) {
                    const unsigned cem = s.cem[p];
                    std::vector<unsigned> v;
                    for (unsigned i = 0; i < astc_cem_value_count(cem); ++i)
                        v.push_back(unquantize_colour(plan.colour_range, s.colours[first_value + i]));
                    first_value += astc_cem_value_count(cem);
                    unsigned e[2][4];
                    if (cem == 0) {
                        for (int i = 0; i < 2; ++i) e[i][0] = e[i][1] = e[i][2] = v[i], e[i][3] = 255;
                    } else if (cem == 4) {
                        for (int i = 0; i < 2; ++i) e[i][0] = e[i][1] = e[i][2] = v[i], e[i][3] = v[2 + i];
                    } else if (cem == 12 && v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
                        for (int i = 0; i < 2; ++i)
                            for (int c = 0; c < 4; ++c) e[i][c] = v[2 * c + i];
                    } else {
                        continue;
                    }
                    for (int i = 0; i < 2; ++i)
                        for (int c = 0; c < 4; ++c) {
                            // astcenc reports the UNORM16 value C << 8 | C through FP16 (measured:
                            // 5140 comes back as 5139.92), so allow FP16's relative precision; that
                            // still tells every 8-bit endpoint value (257 apart) from its neighbours.
                            const double got = double(info->color_endpoints[p][i][c]) * 65535.0;
                            const double want = double(e[i][c] * 257);
                            if (std::fabs(got - want) > want / 1024.0 + 1.0) {
                                bad.add(describe(b, s) + ": partition " + std::to_string(p) + " endpoint " +
                                        std::to_string(i) + " channel " + std::to_string(c) + " astcenc " +
                                        std::to_string(got) + ", spec " + std::to_string(e[i][c] * 257));
                                i = 2;
                                break;
                            }
                            ++values_checked;
                        }
                }
            }
        // Illegal blocks the builder writes on purpose are error blocks for astcenc too.
        for (uint32_t mode = 0; mode < 2048; ++mode) {
            const auto m = astc_parse_block_mode_2d(mode);
            if (!m || astc_block_mode_fits(*m, fp.x, fp.y)) continue;
            AstcBlockSpec s;
            s.block_mode = mode;
            const AstcBlock b = astc_build_block(s, fp.x, fp.y, &rng, true);
            ++illegal_checked;
            if (!reader.read(b)->is_error_block) bad.add(describe(b, s) + ": illegal mode, astcenc says not an error");
        }
        INFO(checked << " legal blocks, " << values_checked << " values, " << illegal_checked << " illegal blocks");
        bad.report("builder vs astcenc_get_block_info");
        CHECK(checked >= modes.size() * 4);
        CHECK(values_checked > 0);
        // Every colour range got used somewhere (17 ranges; the small footprints leave little room for
        // the narrowest ones, so ask for most of them).
        CHECK(ranges_seen.size() >= 12);
    }
}

TEST_CASE("ASTC expected outputs: half(v/255) is the nearest FP16, ties to even", "[astc-builder]") {
    // Brute force: every finite non-negative FP16 value (exact in double), distance to v/255 scaled
    // by 255 (exact in double: 11-bit significand times 255).
    for (unsigned v = 0; v < 256; ++v) {
        uint16_t best = 0;
        double best_d = 1e300;
        for (unsigned h = 0; h < 0x7C00; ++h) {
            const unsigned e = h >> 10, m = h & 0x3FF;
            const double value = e ? std::ldexp(1024.0 + m, int(e) - 25) : std::ldexp(double(m), -24);
            const double d = std::fabs(value * 255.0 - double(v));
            if (d < best_d || (d == best_d && (h & 1) == 0)) best = uint16_t(h), best_d = d;
        }
        INFO("v = " << v);
        CHECK(half_from_unorm8(uint8_t(v)) == best);
    }
    CHECK(half_from_unorm8(0) == 0x0000);
    CHECK(half_from_unorm8(255) == 0x3C00);
    CHECK(half_from_unorm8(128) == 0x3804);  // 0.50196...: 1.00390625 * 2^-1 -> fraction 4/1024
}

TEST_CASE("ASTC expected outputs agree with the astcenc oracle functions", "[astc-builder]") {
    // Random blocks (a third uniformly random, a third built by the builder with any CEM, a third
    // void extents): the one-pass model equals astcenc_decode_unorm8 / astcenc_decode_f16_spec,
    // and astcenc 4.2 shows none of the anomalies the model assumes away.
    for (AstcFootprint fp : {AstcFootprint{4, 4, 1}, AstcFootprint{6, 5, 1}, AstcFootprint{12, 12, 1}}) {
        SplitMix64 rng(test_seed() ^ 0xE3E3 ^ (fp.x * 16 + fp.y));
        const std::vector<uint32_t> modes = astc_legal_block_modes_2d(fp.x, fp.y);
        const unsigned bw = 64, bh = 32, w = bw * fp.x - 3, h = bh * fp.y - 1;
        std::vector<uint8_t> blocks(size_t(bw) * bh * 16);
        for (size_t i = 0; i < size_t(bw) * bh; ++i) {
            AstcBlock b;
            for (auto& byte : b) byte = uint8_t(rng.next());
            if (i % 3 == 1) {
                const auto s = astc_random_legal_spec(modes, fp.x, fp.y, {}, rng);
                REQUIRE(s);
                b = astc_build_random_block(*s, fp.x, fp.y, rng);
            } else if (i % 3 == 2) {
                AstcVoidExtent v;
                v.hdr = rng.next() % 4 == 0;
                v.reserved = rng.next() % 4 == 0 ? unsigned(rng.next() % 4) : 3u;
                for (auto& c : v.rgba) c = uint16_t(rng.next());
                b = astc_build_void_extent(v);
            }
            std::memcpy(&blocks[i * 16], b.data(), 16);
        }
        for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::ldr_srgb}) {
            INFO(astc_profile_name(profile) << " " << astc_fp_name(fp));
            const AstcExpected e = astc_expected_outputs(profile, fp, w, h, blocks.data(), blocks.size());
            for (const auto& a : e.anomalies) UNSCOPED_INFO(a);
            CHECK(e.anomalies.empty());
            CHECK(e.rgba8 == astcenc_decode_unorm8(profile, fp, w, h, 1, blocks.data(), blocks.size()));
            if (profile == AstcProfile::ldr)
                CHECK(e.rgba16f == astcenc_decode_f16_spec(profile, fp, w, h, 1, blocks.data(), blocks.size()));
            CHECK(e.error_blocks > 0);
            CHECK(e.void_extents > 0);
            CHECK(e.hdr_endpoint_blocks > 0);
            CHECK(e.mixed_hdr_ldr_blocks > 0);
            // Every sRGB texel, error texels included, is half(byte / 255) of the RGBA8 bytes
            // (docs/EXACTNESS.md: RGBA16F == RGBA8 / 255 for sRGB formats), and every texel of an error
            // block is magenta (1.0, 0, 1.0, 1.0), never NaN: KDFS "ASTC error colors" gives
            // magenta in sRGB operation mode for every decode mode, while astcenc 4.2's FP16
            // output has 0xFFFF there (the model replaces it).
            if (profile == AstcProfile::ldr_srgb) {
                size_t error_texels = 0;
                for (size_t t = 0; t < e.rgba8.size(); t += 4) {
                    bool ok = true;
                    for (int c = 0; c < 4; ++c) ok &= e.rgba16f[t + c] == half_from_unorm8(e.rgba8[t + c]);
                    if (!ok) {
                        FAIL_CHECK("sRGB texel " << t / 4 << " RGBA16F is not half(v/255)");
                        break;
                    }
                    const size_t x = t / 4 % w, y = t / 4 / w;
                    if (e.kind[(y / fp.y) * bw + x / fp.x] != AstcBlockKind::error) continue;
                    ++error_texels;
                    if (!(e.rgba16f[t] == 0x3C00 && e.rgba16f[t + 1] == 0 && e.rgba16f[t + 2] == 0x3C00 &&
                          e.rgba16f[t + 3] == 0x3C00)) {
                        FAIL_CHECK("sRGB error texel " << t / 4 << " RGBA16F is not (0x3C00, 0, 0x3C00, 0x3C00)");
                        break;
                    }
                }
                CHECK(error_texels > 0);
            }
        }
    }
}
