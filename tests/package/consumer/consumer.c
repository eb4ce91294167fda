/* A program built against the INSTALLED texdec (tests/package/run_consumer.sh builds it four
 * ways: find_package with texdec::texdec and with texdec::texdec_static, pkg-config shared and
 * --static).
 * It decodes BC1 blocks whose texels it computes itself from the spec and exits non-zero on any
 * mismatch. Exit 77: no Vulkan device and TEXDEC_ALLOW_NO_DEVICE=1 (skipped). */
#include <texdec/texdec.h>

/* The exported texdec::texdec_static target must carry TEXDEC_STATIC (a PUBLIC definition). */
#if defined(TEXDEC_EXPECT_STATIC) && !defined(TEXDEC_STATIC)
#error "texdec::texdec_static did not define TEXDEC_STATIC"
#endif
#if !defined(TEXDEC_EXPECT_STATIC) && defined(TEXDEC_STATIC)
#error "TEXDEC_STATIC is defined for a shared-library consumer"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int validation_messages = 0;

static void on_message(texdec_message_severity severity, const char* message, void* user_data) {
    (void)user_data;
    if (severity == TEXDEC_MESSAGE_VALIDATION) ++validation_messages;
    fprintf(stderr, "texdec [%d]: %s\n", (int)severity, message);
}

/* texdec.h, EXACT rounding: endpoint channels expand as round(c * 255 / 31) and round(c * 255 / 63),
 * ties up (no tie occurs: 31 and 63 are odd). */
static uint8_t expand5(unsigned c) { return (uint8_t)((c * 255u * 2u + 31u) / 62u); }
static uint8_t expand6(unsigned c) { return (uint8_t)((c * 255u * 2u + 63u) / 126u); }

static void put_u16(uint8_t* p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

int main(void) {
    if (texdec_version() != TEXDEC_VERSION) {
        fprintf(stderr, "FAIL: texdec_version() = 0x%06x, header TEXDEC_VERSION = 0x%06x\n",
                (unsigned)texdec_version(), (unsigned)TEXDEC_VERSION);
        return 1;
    }

    /* A 2x2-block (8x8 texel) BC1 image. Block k: colour0 = c0[k], colour1 = c1[k] (RGB565),
     * indices only 0 and 1, so every texel is one endpoint: no interpolation to model.
     * Block 3's channels (5-bit 3, 7, 24, 28; 6-bit 13, 50) are ones where round(c*255/31) differs
     * from bit replication, so a decoder with the IDEAL endpoints would fail here. */
    enum { W = 8, H = 8, BLOCKS = 4 };
    static const unsigned c0[BLOCKS] = {0xF800u, 0x07E0u, 0x001Fu, (24u << 11) | (13u << 5) | 7u};
    static const unsigned c1[BLOCKS] = {0xF800u, 0x0000u, 0x0841u, (3u << 11) | (50u << 5) | 28u};
    static const uint32_t indices[BLOCKS] = {0x00000000u, 0x55555555u, 0x11114444u, 0x01234567u & 0x55555555u};
    uint8_t blocks[BLOCKS * 8];
    for (int k = 0; k < BLOCKS; ++k) {
        put_u16(blocks + k * 8, c0[k]);
        put_u16(blocks + k * 8 + 2, c1[k]);
        for (int b = 0; b < 4; ++b) blocks[k * 8 + 4 + b] = (uint8_t)(indices[k] >> (8 * b));
    }

    texdec_backend_info gpu; /* the GPU backend explicitly: without it a context is AUTO */
    memset(&gpu, 0, sizeof gpu);
    gpu.type = TEXDEC_STRUCTURE_TYPE_BACKEND_INFO;
    gpu.backend = TEXDEC_BACKEND_GPU;
    texdec_context_create_info info;
    memset(&info, 0, sizeof info);
    /* TEXDEC_TEST_VALIDATION=host (Windows under Wine, .ci/windows.sh): the host's loader inserts
       the validation layer, which Wine does not list, so it is not asked for by name. */
    const char* host_layer = getenv("TEXDEC_TEST_VALIDATION");
    info.flags = host_layer && strcmp(host_layer, "host") == 0 ? 0u : (uint32_t)TEXDEC_CONTEXT_VALIDATION;
    info.message_callback = on_message;
    info.next = &gpu;
    texdec_context* ctx = NULL;
    texdec_status status = texdec_context_create(&info, &ctx);
    if (status == TEXDEC_ERROR_NO_DEVICE) {
        const char* allow = getenv("TEXDEC_ALLOW_NO_DEVICE");
        if (allow && strcmp(allow, "1") == 0) {
            fprintf(stderr, "*** SKIPPED: no Vulkan device (TEXDEC_ALLOW_NO_DEVICE=1) ***\n");
            return 77;
        }
        fprintf(stderr, "FAIL: no Vulkan device with the validation layer (%s); set TEXDEC_ALLOW_NO_DEVICE=1 to skip\n",
                texdec_status_string(status));
        return 1;
    }
    if (status != TEXDEC_SUCCESS) {
        fprintf(stderr, "FAIL: texdec_context_create: %s\n", texdec_status_string(status));
        return 1;
    }
    printf("device: %s\n", texdec_context_device_name(ctx));

    uint8_t texels[W * H * 4];
    memset(texels, 0xAA, sizeof texels);
    texdec_host_job job;
    memset(&job, 0, sizeof job);
    job.format = TEXDEC_FORMAT_BC1_RGB_UNORM;
    job.output = TEXDEC_OUTPUT_RGBA8;
    job.bc_rounding = TEXDEC_BC_ROUNDING_EXACT;
    job.width = W;
    job.height = H;
    job.depth = 1;
    job.src = blocks;
    job.src_size = sizeof blocks;
    job.dst = texels;
    job.dst_size = sizeof texels;
    status = texdec_decode(ctx, &job);
    texdec_context_destroy(ctx);
    if (status != TEXDEC_SUCCESS) {
        fprintf(stderr, "FAIL: texdec_decode: %s\n", texdec_status_string(status));
        return 1;
    }

    int mismatches = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int k = (y / 4) * 2 + x / 4;
            unsigned index = (indices[k] >> (2 * ((y % 4) * 4 + x % 4))) & 3u;
            unsigned c = index == 0 ? c0[k] : c1[k];
            uint8_t want[4] = {expand5(c >> 11), expand6((c >> 5) & 63u), expand5(c & 31u), 255};
            const uint8_t* got = texels + (y * W + x) * 4;
            if (memcmp(got, want, 4) != 0 && mismatches++ < 8)
                fprintf(stderr, "FAIL: texel (%d,%d) = (%u,%u,%u,%u), expected (%u,%u,%u,%u)\n", x, y, got[0],
                        got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
        }
    if (validation_messages) fprintf(stderr, "FAIL: %d validation messages\n", validation_messages);
    if (mismatches || validation_messages) return 1;
    printf("OK: %d texels match, texdec %u.%u.%u\n", W * H, (unsigned)(texdec_version() >> 16),
           (unsigned)(texdec_version() >> 8 & 0xFF), (unsigned)(texdec_version() & 0xFF));
    return 0;
}
