// The portable branches of src/common/portable.h and src/cpu/astc.cpp (what MSVC compiles: no __int128,
// no vector extensions) give the bytes the GCC/Clang branches give. Built twice (tests/CMakeLists.txt):
// texdec_cpu_digest against the library as built here, texdec_cpu_digest_portable against the
// library compiled with TEXDEC_PORTABLE_SCALAR; ctest compares their output, which is:
//   - the 128-bit helpers against the compiler's __int128 on random operands (in the portable
//     build, the two differ; in the other, they are the same type and the check is trivially met),
//   - for every implemented format, output and (BC1-BC5) rounding, a digest of what the CPU
//     backend decodes from random blocks (ASTC: block modes the decoder accepts, random bits
//     above, void extents) at an extent with partial blocks, or the status if it is refused.
#include <texdec/texdec.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "portable.h"

namespace {

struct SplitMix64 {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

uint64_t fnv1a(const std::vector<uint8_t>& bytes) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001B3ull;
    return h;
}

int failures = 0;

void expect(bool ok, const char* what, uint64_t a, uint64_t b) {
    if (ok) return;
    if (++failures <= 10) std::printf("MISMATCH %s (operands %016" PRIx64 " %016" PRIx64 ")\n", what, a, b);
}

#ifdef __SIZEOF_INT128__
// portable::U128 / I128 (the classes in the portable build) against unsigned __int128 / __int128.
__extension__ typedef unsigned __int128 native_u128;
__extension__ typedef __int128 native_i128;

bool same(texdec::portable::U128 p, native_u128 n) {
    return uint64_t(p >> 64) == uint64_t(n >> 64) && uint64_t(p) == uint64_t(n);
}
bool same(texdec::portable::I128 p, native_i128 n) {
    native_i128 q = 0;  // the two's complement bits of p, from its value
    std::memcpy(&q, &p, sizeof q);
    return q == n;
}
#endif

void check_int128() {
#ifdef __SIZEOF_INT128__
    using texdec::portable::I128;
    using texdec::portable::U128;
    SplitMix64 rng{12345};
    int checks = 0;
    for (int i = 0; i < 20000; ++i) {
        // Operands of every size: a random word shifted by a random amount (zero included).
        const uint64_t a = rng.next() >> (rng.next() % 64), b = rng.next() >> (rng.next() % 64), c = rng.next();
        const unsigned s = unsigned(rng.next() % 128);
        const U128 pb = U128(b) + 1;
        const native_u128 nb = native_u128(b) + 1;
        const U128 x = U128(a) << 64 | c;
        const native_u128 nx = native_u128(a) << 64 | c;
        expect(same(x * pb, nx * nb), "U128 *", a, b);
        expect(same(x + pb, nx + nb), "U128 +", a, b);
        expect(same(U128(b) - x, native_u128(b) - nx), "U128 -", a, b);
        expect(same(x / pb, nx / nb), "U128 /", a, b);
        expect(same(x % pb, nx % nb), "U128 %", a, b);
        expect(same(x / (x >> s | 1), nx / (nx >> s | 1)), "U128 / U128", a, s);
        expect(same(x << s, nx << s) && same(x >> s, nx >> s), "U128 shifts", a, s);
        expect(same(~x & pb, ~nx & nb) && same(x | pb, nx | nb), "U128 bits", a, b);
        expect((x < pb) == (nx < nb) && (x == pb) == (nx == nb) && (pb <= x) == (nb <= nx), "U128 order", a, b);
#if !TEXDEC_HAVE_INT128
        expect(same(U128::mul64(a, b), native_u128(a) * b), "U128 mul64", a, b);
#endif
        const I128 sx = I128(int64_t(a)) * int64_t(c), sy = I128(int64_t(b)) - 3;
        const native_i128 nsx = native_i128(int64_t(a)) * int64_t(c), nsy = native_i128(int64_t(b)) - 3;
        expect(same(sx, nsx), "I128 *", a, c);
        if (nsy != 0) {
            expect(same(sx / sy, nsx / nsy) && same(sx % sy, nsx % nsy), "I128 / %", a, b);
            expect(same(-sx / sy, -nsx / nsy) && same(-sx % sy, -nsx % nsy), "I128 -/ %", a, b);
        }
        expect((sx < sy) == (nsx < nsy) && (sy >= sx) == (nsy >= nsx), "I128 order", a, b);
        expect(same(sy << int(s % 60), nsy << int(s % 60)), "I128 <<", b, s);
        uint64_t out = 0, native = 0;
        const bool fits = texdec::portable::mul_add_fits(a, b, c, &out);
        const native_u128 v = native_u128(a) * b + c;
        expect(fits == (v <= UINT64_MAX) && (!fits || out == uint64_t(v)), "mul_add_fits", a, b);
        expect(texdec::portable::mul_overflow(a, b, &out) == (native_u128(a) * b > UINT64_MAX) && out == a * b,
               "mul_overflow", a, b);
        expect(texdec::portable::add_overflow(a, c, &native) == (native_u128(a) + c > UINT64_MAX) && native == a + c,
               "add_overflow", a, c);
        expect(texdec::portable::byte_swap64(a) == __builtin_bswap64(a) &&
                   texdec::portable::byte_swap32(uint32_t(a)) == __builtin_bswap32(uint32_t(a)),
               "byte_swap", a, 0);
        ++checks;
    }
    std::printf("128-bit helpers: %d random cases, %d mismatches\n", checks, failures);
#else
    std::printf("128-bit helpers: no __int128 to compare with\n");
#endif
}


texdec_context* g_cpu = nullptr;

// One decode of `blocks` (cols x rows x slices of them) at an extent that ends inside the last
// block of each dimension: the digest of the destination, or the status.
void decode_line(const texdec_format_info& f, texdec_output output, texdec_bc_rounding rounding,
                 const std::vector<uint8_t>& blocks, uint32_t cols, uint32_t rows, uint32_t slices) {
    texdec_host_job job = {};
    job.format = f.format, job.output = output, job.bc_rounding = rounding;
    job.width = cols * f.block_width - (f.block_width > 1 ? 1 : 0);
    job.height = rows * f.block_height - (f.block_height > 1 ? 1 : 0);
    job.depth = slices * f.block_depth - (f.block_depth > 1 ? 1 : 0);
    job.src = blocks.data(), job.src_size = blocks.size();
    uint32_t texel = 0;
    texdec_status status = texdec_output_texel_size(f.format, output, &texel);
    std::vector<uint8_t> dst;
    if (status == TEXDEC_SUCCESS) {
        dst.assign(size_t(job.width) * job.height * job.depth * texel, 0xA5);
        job.dst = dst.data(), job.dst_size = dst.size();
        status = texdec_decode(g_cpu, &job);
    }
    if (status == TEXDEC_SUCCESS)
        std::printf("%s output %d rounding %d: %016" PRIx64 "\n", f.name, int(output), int(rounding), fnv1a(dst));
    else
        std::printf("%s output %d rounding %d: %s\n", f.name, int(output), int(rounding), texdec_status_string(status));
}

// The ASTC block modes (low 11 bits) whose block of zeros above does not decode to the error
// colour (magenta) at this footprint: what the random blocks draw from.
std::vector<uint32_t> astc_accepted_modes(const texdec_format_info& f) {
    std::vector<uint32_t> modes;
    for (uint32_t mode = 0; mode < 2048; ++mode) {
        uint8_t block[16] = {};
        block[0] = uint8_t(mode), block[1] = uint8_t(mode >> 8);
        std::vector<uint8_t> texel(size_t(f.block_width) * f.block_height * f.block_depth * 4);
        texdec_host_job job = {};
        job.format = f.format, job.output = TEXDEC_OUTPUT_RGBA8;
        job.width = f.block_width, job.height = f.block_height, job.depth = f.block_depth;
        job.src = block, job.src_size = sizeof block;
        job.dst = texel.data(), job.dst_size = texel.size();
        if (texdec_decode(g_cpu, &job) != TEXDEC_SUCCESS) return modes;
        if (!(texel[0] == 0xFF && texel[1] == 0 && texel[2] == 0xFF && texel[3] == 0xFF)) modes.push_back(mode);
    }
    return modes;
}

}  // namespace

int main() {
    check_int128();
    texdec_backend_info backend = {
        TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_CPU, 2, nullptr, nullptr};
    texdec_context_create_info info = {};
    info.next = &backend;
    if (texdec_context_create(&info, &g_cpu) != TEXDEC_SUCCESS) {
        std::printf("no CPU context\n");
        return 1;
    }
    int lines = 0;
    std::vector<uint32_t> modes;  // ASTC: of the footprint of the formats being decoded
    for (int fi = 1; fi < TEXDEC_FORMAT_COUNT; ++fi) {
        texdec_format_info f;
        if (texdec_format_get_info(texdec_format(fi), &f) != TEXDEC_SUCCESS ||
            !(f.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED))
            continue;
        const uint32_t cols = 16, rows = f.block_depth > 1 ? 8 : 16, slices = f.block_depth > 1 ? 4 : 1;
        SplitMix64 rng{0x5EED0000ull + uint64_t(fi)};
        std::vector<uint8_t> blocks(size_t(cols) * rows * slices * f.bytes_per_block);
        for (size_t i = 0; i < blocks.size(); i += 8) {
            const uint64_t v = rng.next();
            std::memcpy(&blocks[i], &v, 8);
        }
        if (f.family == TEXDEC_FAMILY_ASTC) {
            // Block modes are the footprint's: found on its UNORM format, the first of the three.
            if (!(f.flags & (TEXDEC_FORMAT_FLAG_HDR | TEXDEC_FORMAT_FLAG_SRGB))) {
                modes = astc_accepted_modes(f);
                std::printf("%s: %zu block modes accepted\n", f.name, modes.size());
            }
            for (size_t i = 0; i < blocks.size() && !modes.empty(); i += 16) {
                const uint64_t r = rng.next();
                uint16_t low;
                std::memcpy(&low, &blocks[i], 2);
                if (r % 16 == 0) low = uint16_t((low & ~0x1FFu) | 0x1FCu);  // a void extent
                else if (r % 16 < 13) low = uint16_t((low & ~0x7FFu) | modes[(r >> 8) % modes.size()]);
                std::memcpy(&blocks[i], &low, 2);
            }
        }
        const bool rounds = f.family == TEXDEC_FAMILY_BC1_3 || f.family == TEXDEC_FAMILY_BC4_5;
        for (int output = 0; output < 3; ++output)
            for (int rounding = 0; rounding < (rounds ? 3 : 1); ++rounding, ++lines)
                decode_line(f, texdec_output(output), texdec_bc_rounding(rounding), blocks, cols, rows, slices);
    }
    texdec_context_destroy(g_cpu);
    std::printf("%d decodes\n", lines);
    return failures == 0 ? 0 : 1;
}
