// ASTC oracle #2: Mesa's desktop GL decode of 2D ASTC LDR / sRGB to RGBA8 (docs/EXACTNESS.md "ASTC"), and
// the ETC1/ETC2/EAC oracle (docs/EXACTNESS.md "ETC1, ETC2 ..."): ETC2 colour formats read back as
// GL_RGBA / GL_UNSIGNED_BYTE (sRGB bytes encoded; ETC1 data is decoded as GL_COMPRESSED_RGB8_ETC2),
// EAC as GL_RED / GL_RG with GL_UNSIGNED_SHORT (unsigned) or GL_SHORT (signed): the 16-bit
// bit-replicated values.
//
// EGL surfaceless (EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY), a 4.5 compatibility
// context with EGL_NO_CONFIG_KHR, glCompressedTexImage2D with GL_COMPRESSED_RGBA_ASTC_WxH_KHR /
// GL_COMPRESSED_SRGB8_ALPHA8_ASTC_WxH_KHR, read back with glGetTexImage(GL_RGBA, GL_UNSIGNED_BYTE)
// at GL_PACK_ALIGNMENT 1 (GL_RGB returns zeros: always GL_RGBA). sRGB bytes come back encoded.
//
// Mesa's software rasteriser is forced (LIBGL_ALWAYS_SOFTWARE=1 and the Mesa EGL vendor, each only
// when the variable is not already set) so the oracle is the same decoder on every machine.
// HDR and 3D ASTC are not exposed by Mesa; this oracle is 2D LDR/sRGB only.
//
// Replay (oracles/recorded_digests.h), for machines without Mesa (the H100): a run with
// TEXDEC_MESA_ETC_RECORD=FILE where Mesa runs records a digest of each ETC2/EAC answer; a run with
// TEXDEC_MESA_ETC_REPLAY=FILE (same TEXDEC_TEST_SEED / TEXDEC_TEST_RANDOM_BLOCKS) does not use Mesa:
// mesa_gl_decode_etc decodes with texdec on a context of its own (NATIVE output, Mesa's layout) and
// returns that answer only if its digest equals Mesa's recorded one, else throws. The ETC tests then
// compare every output and path against it as against Mesa's bytes. ASTC is not replayed.
//
// One display and context per process, created on first use, used under a mutex (made current on
// the calling thread for each call, released afterwards).
#pragma once

#include "oracles/astcenc_oracle.h"
#include "texdec/texdec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace texdec_test {

// Empty when the oracle is usable; otherwise why not (EGL missing, no surfaceless platform, no
// context, no GL_KHR_texture_compression_astc_ldr, ...). Initialises on first call.
std::string mesa_gl_astc_unavailable_reason();
// Empty when the ETC2/EAC oracle is usable (a Mesa GL 4.5 context; ETC2/EAC are core GL 4.3).
std::string mesa_gl_etc_unavailable_reason();
// True when TEXDEC_MESA_ETC_REPLAY is set (the ETC oracle answers from recorded digests).
bool mesa_gl_etc_replaying();
// GL_RENDERER / GL_VERSION of the context (for messages); empty when unavailable.
std::string mesa_gl_description();

// w*h*4 bytes of RGBA8. Throws std::runtime_error when the oracle is unavailable, the footprint
// is not a 2D one, the input is short or GL reports an error.
std::vector<uint8_t> mesa_gl_decode_astc_rgba8(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h,
                                                const uint8_t* data, size_t size);

// Mesa's decode of a w x h image of ETC2/EAC blocks (row-major blocks, ceil(w/4) x ceil(h/4)):
// ETC2 colour formats: w*h*4 bytes RGBA8 (RGB formats alpha 255); EAC R11/RG11: w*h*channels
// 16-bit values (uint16_t unsigned, int16_t signed, host byte order) as bytes. Throws
// std::runtime_error when unavailable, for another format, on short input or a GL error.
std::vector<uint8_t> mesa_gl_decode_etc(texdec_format format, unsigned w, unsigned h, const uint8_t* data,
                                        size_t size);

}  // namespace texdec_test
