// png_equal A.png B.png: exit 0 when both PNGs have the same size and the same RGBA8 pixels
// (tolerance 0; both read as 8-bit RGBA), else 1 with the first differing pixel. Test tool for
// the samples' ctests (samples/CMakeLists.txt).
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 3) return std::fprintf(stderr, "usage: png_equal A.png B.png\n"), 2;
    int w[2], h[2], n;
    stbi_uc* px[2];
    for (int i = 0; i < 2; ++i)
        if (!(px[i] = stbi_load(argv[1 + i], &w[i], &h[i], &n, 4)))
            return std::fprintf(stderr, "cannot read %s: %s\n", argv[1 + i], stbi_failure_reason()), 1;
    if (w[0] != w[1] || h[0] != h[1]) return std::fprintf(stderr, "sizes differ: %dx%d and %dx%d\n", w[0], h[0], w[1], h[1]), 1;
    long differing = 0, first = -1;
    for (long i = 0; i < long(w[0]) * h[0]; ++i)
        for (int c = 0; c < 4; ++c)
            if (px[0][4 * i + c] != px[1][4 * i + c]) {
                if (first < 0) first = i;
                ++differing;
                break;
            }
    if (differing) {
        const stbi_uc *a = px[0] + 4 * first, *b = px[1] + 4 * first;
        std::fprintf(stderr, "%ld of %d pixels differ; first at (%ld, %ld): %u,%u,%u,%u vs %u,%u,%u,%u\n", differing, w[0] * h[0],
                     first % w[0], first / w[0], a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
        return 1;
    }
    std::printf("%dx%d: all pixels equal\n", w[0], h[0]);
    return 0;
}
