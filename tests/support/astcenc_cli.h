// The `astcenc` command-line encoder (Debian package astcenc, ARM's astc-encoder 4.2) as a test
// tool: a procedural test image, encoding it at any footprint, and reading the .astc file back.
// Shared by the ASTC tests (support/astc_test_support.cpp) and test_cli.cpp. What the encoded
// blocks decode to is always asked of the oracles (oracles/astcenc_oracle.h), never of this file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "oracles/astcenc_oracle.h"  // AstcProfile, AstcFootprint

namespace texdec_test {

// Empty when `astcenc` can be run, else why not (tests fail with this message).
std::string astcenc_cli_unavailable_reason();

// A 32-bit uncompressed TGA (top-left origin), w x h: red and green gradients, blue stripes with
// hard edges, random colours in the bottom-right corner, an alpha ramp (opaque in the top 10 rows).
void write_procedural_tga(const std::filesystem::path& file, unsigned w, unsigned h, uint64_t seed = 12345);

// An HDR test image as an OpenEXR file (RGBA, FP16 channels, through tinyexr), w x h: grey and
// coloured rows whose brightness spans 2^-12 .. 2^15 across the image, hard edges, noise over
// 2^-14 .. 2^16 with some zeros, a constant-colour area (void extents), and an alpha that is 1,
// a ramp 0..1, or 2^-4 .. 2^6 (HDR alpha) by thirds of the width. Returns "" or why it failed.
std::string write_procedural_exr(const std::filesystem::path& file, unsigned w, unsigned h, uint64_t seed = 12345);

// Runs `astcenc -cl|-cs IN OUT WxH[xD] EXTRA -silent` (profile ldr / ldr_srgb; hdr runs -cH, see
// astcenc_cli_encode_hdr). Returns "" on success, else a message with the command that failed.
std::string astcenc_cli_encode(AstcProfile profile, const std::filesystem::path& in, const std::filesystem::path& out,
                               AstcFootprint fp, const std::string& extra = "-fast");
// The HDR profile's two encoders: `-ch` (HDR RGB, LDR alpha) or, with hdr_alpha, `-cH` (HDR RGBA).
std::string astcenc_cli_encode_hdr(bool hdr_alpha, const std::filesystem::path& in, const std::filesystem::path& out,
                                   AstcFootprint fp, const std::string& extra = "-fast");

// A .astc file: 16-byte header (magic 13 AB A1 5C, block x/y/z, x/y/z size as 24-bit little-endian),
// then the blocks. `error` is set (and the rest unspecified) when the file is not one, or when the
// block data is not exactly what the header describes.
struct AstcFileContents {
    AstcFootprint fp;
    unsigned w = 0, h = 0, d = 0;
    std::vector<uint8_t> blocks;
    std::string error;
};
AstcFileContents read_astc_file(const std::filesystem::path& file);

// The 16-byte .astc header for a footprint and an extent (as astcenc writes it).
std::vector<uint8_t> astc_file_header(AstcFootprint fp, unsigned w, unsigned h, unsigned d);

}  // namespace texdec_test
