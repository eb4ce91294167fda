// decode_to_png: the one-call API. Reads a 2D .astc file, decodes it with every default (info
// NULL: backend AUTO, a GPU if there is one, else texdec's CPU backend) to RGBA8 and writes a PNG.
//   decode_to_png [--srgb] in.astc out.png
// A .astc file does not say whether its colours are sRGB: pass --srgb for files made with
// `astcenc -cs` (the RGBA8 output then holds the encoded sRGB bytes, as a PNG expects).
#include <texdec/texdec.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
    const bool srgb = argc == 4 && std::strcmp(argv[1], "--srgb") == 0;
    if (argc != 3 + srgb) return std::fprintf(stderr, "usage: decode_to_png [--srgb] in.astc out.png\n"), 2;
    std::ifstream in(argv[1 + srgb], std::ios::binary);
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Header: magic 0x5CA1AB13, block x/y/z, then x/y/z sizes as 24-bit little-endian numbers.
    const uint8_t* h = file.data();
    if (file.size() < 16 || h[0] != 0x13 || h[1] != 0xAB || h[2] != 0xA1 || h[3] != 0x5C)
        return std::fprintf(stderr, "%s is not a .astc file\n", argv[1 + srgb]), 1;
    const uint32_t w = h[7] | h[8] << 8 | h[9] << 16, ht = h[10] | h[11] << 8 | h[12] << 16, d = h[13] | h[14] << 8 | h[15] << 16;
    if (h[6] != 1 || d != 1) return std::fprintf(stderr, "only 2D images (block depth 1, one slice)\n"), 1;
    char name[32];
    std::snprintf(name, sizeof name, "astc-%ux%u-%s", h[4], h[5], srgb ? "srgb" : "unorm");
    const texdec_format format = texdec_format_from_name(name);
    if (format == TEXDEC_FORMAT_UNDEFINED) return std::fprintf(stderr, "no such ASTC format: %s\n", name), 1;

    texdec_context* ctx = nullptr;
    texdec_status s = texdec_context_create(nullptr, &ctx);
    if (s != TEXDEC_SUCCESS) return std::fprintf(stderr, "texdec_context_create: %s\n", texdec_status_string(s)), 1;
    std::vector<uint8_t> rgba(size_t(w) * ht * 4);
    texdec_host_job job = {};
    job.format = format;
    job.output = TEXDEC_OUTPUT_RGBA8;
    job.width = w, job.height = ht, job.depth = 1;
    job.src = file.data() + 16, job.src_size = file.size() - 16;  // texdec checks it is enough
    job.dst = rgba.data(), job.dst_size = rgba.size();
    s = texdec_decode(ctx, &job);
    texdec_context_destroy(ctx);
    if (s != TEXDEC_SUCCESS) return std::fprintf(stderr, "texdec_decode: %s\n", texdec_status_string(s)), 1;
    if (!stbi_write_png(argv[2 + srgb], int(w), int(ht), 4, rgba.data(), int(w) * 4))
        return std::fprintf(stderr, "cannot write %s\n", argv[2 + srgb]), 1;
    std::printf("%s: %ux%u %s -> %s\n", argv[1 + srgb], w, ht, name, argv[2 + srgb]);
    return 0;
}
