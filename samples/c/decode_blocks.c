/* decode_blocks.c: the smallest texdec program in C. Creates a context (its own Vulkan device),
 * decodes one BC1 and one BC3 block (4x4 texels each) with texdec_decode, prints the texels and
 * the status of each call, and shows what a bad call returns.
 *
 *   cc decode_blocks.c $(pkg-config --cflags --libs texdec) -o decode_blocks && ./decode_blocks
 *
 * TEXDEC_SAMPLE_VALIDATION=1 turns the Vulkan validation layer on (the project's test does);
 * any validation message then fails the program. */
#include <texdec/texdec.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int validation_messages = 0;

static void on_message(texdec_message_severity severity, const char* message, void* user_data) {
    (void)user_data;
    if (severity == TEXDEC_MESSAGE_VALIDATION) validation_messages++;
    if (severity != TEXDEC_MESSAGE_INFO) fprintf(stderr, "texdec: %s\n", message);
}

/* Decodes one 4x4 block to RGBA8 and prints its rows. Returns the status. */
static texdec_status decode_and_print(texdec_context* ctx, texdec_format format, const uint8_t* block,
                                      size_t block_size) {
    uint8_t texels[4 * 4 * 4];
    texdec_host_job job;
    memset(&job, 0, sizeof job); /* zero = defaults: EXACT rounding, tight pitches, 10 s timeout per submission */
    job.format = format;
    job.output = TEXDEC_OUTPUT_RGBA8;
    job.width = 4;
    job.height = 4;
    job.depth = 1;
    job.src = block;
    job.src_size = block_size;
    job.dst = texels;
    job.dst_size = sizeof texels;
    texdec_status status = texdec_decode(ctx, &job);

    texdec_format_info info;
    texdec_format_get_info(format, &info);
    printf("%s: %s\n", info.name, texdec_status_string(status));
    if (status != TEXDEC_SUCCESS) return status;
    for (int y = 0; y < 4; ++y) {
        printf("  row %d:", y);
        for (int x = 0; x < 4; ++x) {
            const uint8_t* t = texels + (y * 4 + x) * 4;
            printf(" (%u,%u,%u,%u)", t[0], t[1], t[2], t[3]);
        }
        printf("\n");
    }
    return status;
}

int main(void) {
    /* BC1: colour0 = red (RGB565 0xF800), colour1 = blue (0x001F); colour0 > colour1, so four
     * colours: red, blue, (2*red + blue)/3, (red + 2*blue)/3. Each row uses indices 0, 1, 2, 3. */
    static const uint8_t bc1[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
    /* BC3: alpha0 = 255, alpha1 = 0 (alpha0 > alpha1: eight alphas, 255, 0 and six between), 3-bit
     * alpha indices 0, 1, 2, 3 in every row; colour: solid green (0x07E0 twice, indices 0). */
    static const uint8_t bc3[16] = {0xFF, 0x00, 0x88, 0x86, 0x68, 0x88, 0x86, 0x68,
                                    0xE0, 0x07, 0xE0, 0x07, 0x00, 0x00, 0x00, 0x00};

    texdec_context_create_info info;
    memset(&info, 0, sizeof info);
    info.message_callback = on_message;
    const char* validate = getenv("TEXDEC_SAMPLE_VALIDATION");
    if (validate && strcmp(validate, "1") == 0) info.flags |= TEXDEC_CONTEXT_VALIDATION;
    /* The backend: GPU unless TEXDEC_BACKEND says cpu (the host's cores, no Vulkan needed) or
     * auto (a real GPU if there is one, else the CPU). The texels are the same on both. */
    texdec_backend_info backend;
    memset(&backend, 0, sizeof backend);
    backend.type = TEXDEC_STRUCTURE_TYPE_BACKEND_INFO;
    const char* backend_name = getenv("TEXDEC_BACKEND");
    if (backend_name && strcmp(backend_name, "cpu") == 0) backend.backend = TEXDEC_BACKEND_CPU;
    if (backend_name && strcmp(backend_name, "auto") == 0) backend.backend = TEXDEC_BACKEND_AUTO;
    backend.cpu_threads = 0; /* all of them */
    info.next = &backend;

    texdec_context* ctx = NULL;
    texdec_status status = texdec_context_create(&info, &ctx);
    printf("texdec_context_create: %s\n", texdec_status_string(status));
    if (status != TEXDEC_SUCCESS) {
        const char* allow = getenv("TEXDEC_ALLOW_NO_DEVICE"); /* for the project's CI */
        return status == TEXDEC_ERROR_NO_DEVICE && allow && strcmp(allow, "1") == 0 ? 77 : 1;
    }
    printf("device: %s\n", texdec_context_device_name(ctx));

    int failed = 0;
    failed |= decode_and_print(ctx, TEXDEC_FORMAT_BC1_RGBA_UNORM, bc1, sizeof bc1) != TEXDEC_SUCCESS;
    failed |= decode_and_print(ctx, TEXDEC_FORMAT_BC3_UNORM, bc3, sizeof bc3) != TEXDEC_SUCCESS;
    /* Errors are values: a BC3 block is 16 bytes, so 8 are too few. */
    status = decode_and_print(ctx, TEXDEC_FORMAT_BC3_UNORM, bc3, 8);
    failed |= status != TEXDEC_ERROR_SOURCE_TOO_SMALL;

    texdec_context_destroy(ctx);
    if (validation_messages) printf("%d validation messages\n", validation_messages);
    return failed || validation_messages ? 1 : 0;
}
