// astc-gpu-decode bench: throughput of texdec's decoders next to ceilings measured in the same
// run on the same device. See bench.cpp for the method.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <texdec/texdec.h>

namespace bench {

// --input FILE: the "real" blocks of the file's first surface (level 0, layer 0, face 0), tiled to
// the bench's extent instead of the bench's own encoded image.
struct InputBlocks {
    std::string path;         // as given
    std::string description;  // "DDS, DXGI 98 (BC7_UNORM), 512x512"
    texdec_format format = TEXDEC_FORMAT_UNDEFINED;
    uint32_t width = 0, height = 0;  // texels of the surface
    uint32_t bx = 0, by = 0;         // its blocks
    std::vector<uint8_t> blocks;     // bx * by blocks in block order
};

struct Options {
    std::vector<texdec_format> formats;     // empty: the default representative set
    std::optional<uint32_t> width, height;  // --size; default by device type
    uint32_t iterations = 30;               // timed dispatches per measurement
    std::optional<uint32_t> warmup_ms;      // default by device type (300 ms on GPUs)
    std::optional<texdec_output> output;    // default RGBA8 (where the format offers it, else NATIVE)
    texdec_bc_rounding bc_rounding = TEXDEC_BC_ROUNDING_EXACT;
    std::string json_path;        // --json FILE ("" = none)
    bool validate = false;        // VK_LAYER_KHRONOS_validation; any message fails the run
    std::string device_selector;  // --device / $TEXDEC_DEVICE ("" = by type)
    // What is measured: GPU = texdec on the bench's Vulkan device (with its ceilings); CPU = texdec's
    // CPU backend (no Vulkan at all); AUTO = the CPU backend, and the GPU where the device chosen is
    // not of CPU type (lavapipe is measured with GPU only).
    texdec_backend backend = TEXDEC_BACKEND_AUTO;
    uint32_t threads = 0;  // the CPU backend's and libastcenc's threads (0: one per hardware thread)
    // --block-linear H: every format is also decoded from its blocks laid out in the Tegra X1
    // block-linear layout with this block height (GOBs); 0 (--block-linear off): linear input only.
    uint32_t block_linear_height = 16;
    // --regions N (0: off): the many-small-regions bench (bench_regions.cpp) instead of the table,
    // N regions of --region-size (default 64x64) texels.
    uint32_t regions = 0;
    uint32_t region_width = 64, region_height = 64;
    std::optional<InputBlocks> input;  // --input FILE (its format is the one format measured)
    std::string command_line;          // for the report
    bool verbose = false;
};

// The formats benchmarked when none is asked for.
std::vector<texdec_format> default_formats();

// Runs the benchmark, prints the table on stdout (progress on stderr), writes the JSON.
// Returns the exit code: 0, or 1 on a device/decode failure or any validation message.
// Throws std::runtime_error with a message for failures that stop the run.
int run(const Options& options);

// --regions: the many-small-regions bench (bench_regions.cpp), same conventions as run().
int run_regions(const Options& options);

}  // namespace bench
