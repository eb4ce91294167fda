/* package_install_consumer: a C99 program that reads a texture file with the INSTALLED
 * libtexdec_file through pkg-config texdec-file (tests/package/run_consumer.sh). It writes a
 * legacy DDS of one 8x4 DXT1 level (Microsoft's DDS_HEADER: "DDS ", dwSize 124, the pixel format's
 * dwSize 32 and DDPF_FOURCC 'DXT1'), opens it from memory, and checks what texdec_file answers:
 * the format, the extent, the one surface's range in the file and read_level's bytes. */
#include <stdio.h>
#include <string.h>

#include <texdec/texdec_file.h>

static void put32(unsigned char* at, unsigned v) {
    at[0] = (unsigned char)v;
    at[1] = (unsigned char)(v >> 8);
    at[2] = (unsigned char)(v >> 16);
    at[3] = (unsigned char)(v >> 24);
}

int main(void) {
    unsigned char file[128 + 16];
    unsigned char level[16];
    texdec_file* f = NULL;
    texdec_file_info info;
    texdec_file_surface surface;
    texdec_status status;
    unsigned i;
    memset(file, 0, sizeof file);
    memcpy(file, "DDS ", 4);
    put32(file + 4, 124);     /* dwSize */
    put32(file + 4 + 8, 4);   /* dwHeight */
    put32(file + 4 + 12, 8);  /* dwWidth */
    put32(file + 4 + 72, 32); /* ddspf.dwSize */
    put32(file + 4 + 76, 4);  /* ddspf.dwFlags: DDPF_FOURCC */
    memcpy(file + 4 + 80, "DXT1", 4);
    for (i = 0; i < 16; ++i) file[128 + i] = (unsigned char)(i * 37 + 1); /* two BC1 blocks */

    status = texdec_file_open(NULL, file, sizeof file, &f);
    if (status != TEXDEC_SUCCESS) {
        printf("texdec_file_open: %s\n", texdec_status_string(status));
        return 1;
    }
    if (texdec_file_get_info(f, &info) != TEXDEC_SUCCESS || info.container != TEXDEC_FILE_CONTAINER_DDS ||
        info.format != TEXDEC_FORMAT_BC1_RGBA_UNORM || info.width != 8 || info.height != 4 || info.levels != 1 ||
        info.blocks_size != 16 || strcmp(info.header_format_text, "FourCC 'DXT1'") != 0) {
        printf("texdec_file_get_info: not the DDS written\n");
        return 1;
    }
    if (texdec_file_get_surface(f, 0, 0, 0, &surface) != TEXDEC_SUCCESS || surface.offset != 128 ||
        surface.size != 16 || texdec_file_read_level(f, 0, level, sizeof level) != TEXDEC_SUCCESS ||
        memcmp(level, file + 128, 16) != 0) {
        printf("texdec_file: the surface is not where the DDS has it\n");
        return 1;
    }
    if (texdec_format_from_dds_fourcc(0x31545844u /* 'DXT1' */) != TEXDEC_FORMAT_BC1_RGBA_UNORM) {
        printf("texdec_format_from_dds_fourcc('DXT1') is not bc1-rgba-unorm\n");
        return 1;
    }
    /* header_format_text points into the file: print it before texdec_file_destroy. */
    printf("texdec_file: opened the written DDS (%s, %ux%u)\n", info.header_format_text, info.width, info.height);
    texdec_file_destroy(f);
    return 0;
}
