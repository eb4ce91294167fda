// The CPU backend's per-family block decoders: the contract between the driver
// (src/cpu/cpu_backend.cpp: job checks, threads, clipping, pitches) and the decoders
// (one file per family group: bc1_5.cpp, etc.cpp, bptc.cpp, astc.cpp).
//
// Each decoder gives, for every block, exactly the texels the family's GPU shader writes (the
// same spec constants below select the same arithmetic), so that a CPU context and a GPU context
// return the same bytes. The decoders are written for speed (integer arithmetic, tables from
// luts/, no per-texel branches on the variant where a template can hoist them); the scalar models
// in src/reference stay the independent verifier and are never called from here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "formats.h"
#include "interface.h"

namespace texdec::cpu {

// What selects the arithmetic: the GPU pipeline's specialization constants (interface.h), for a
// buffer destination.
struct Variant {
    const FormatEntry* format;  // block size, bytes per block, family, flags
    uint32_t variant;           // TEXDEC_SC_VARIANT: format->shader_variant (TEXDEC_BC1_RGB, TEXDEC_ASTC_HDR, ...)
    bool is_signed;             // TEXDEC_SC_SIGNED: SNORM / signed float format
    uint32_t store;             // TEXDEC_SC_STORE: TEXDEC_STORE_* of the output
    uint32_t texel_bytes;       // bytes of one output texel (1, 2, 4 or 8)
    uint32_t rounding;          // TEXDEC_SC_ROUNDING: TEXDEC_ROUNDING_* (BC1-BC5; 0 for other families)
    bool srgb;                  // TEXDEC_SC_SRGB: as record.cpp sets it (sRGB format and, unless the
                                // family's traits say srgb_in_decode, an RGBA16F store)
    const void* tables;         // what the family's make_tables built for this variant (nullptr if none)
};

// `count` consecutive blocks of one block row, decoded side by side: texel (x, y, z) of block i
// goes to texels + z * slice_pitch + y * row_pitch + (i * block_width + x) * texel_bytes.
// Every texel of every block is written (the driver clips to the extent afterwards), so the
// buffer holds count * block_width texels per row, block_height rows, block_depth slices.
struct BlockRun {
    const uint8_t* blocks;  // count * bytes_per_block bytes (no alignment promised)
    uint32_t count;         // 1 .. kMaxRunBlocks
    uint8_t* texels;        // 16-byte aligned
    size_t row_pitch;
    size_t slice_pitch;
};
constexpr uint32_t kMaxRunBlocks = 32;

// One family's CPU decoder. decode() is called from several threads at once with the same
// variant; it must not write anything but run.texels.
struct FamilyDecoder {
    // Optional (nullptr: none): builds what decode() reads for this variant (e.g. ASTC's
    // per-footprint tables) once per context and (family, block size, variant, srgb); the
    // driver keeps the result until the context is destroyed and passes it as Variant::tables.
    // nullptr result = out of memory.
    std::shared_ptr<const void> (*make_tables)(const Variant& variant);
    void (*decode)(const Variant& variant, const BlockRun& run);
};

// The decoders, one per texdec_family.
extern const FamilyDecoder kBc1_3Decoder;  // bc1_5.cpp
extern const FamilyDecoder kBc4_5Decoder;  // bc1_5.cpp
extern const FamilyDecoder kBc6hDecoder;   // bptc.cpp
extern const FamilyDecoder kBc7Decoder;    // bptc.cpp
extern const FamilyDecoder kEtc2Decoder;   // etc.cpp
extern const FamilyDecoder kEacDecoder;    // etc.cpp
extern const FamilyDecoder kAstcDecoder;   // astc.cpp

// The CPU backend's decoder of `family` (cpu_backend.cpp's table: the CPU backend maps families
// to decoders itself; the format table knows nothing of it). nullptr: the backend lacks it.
const FamilyDecoder* family_decoder(texdec_family family);

}  // namespace texdec::cpu
