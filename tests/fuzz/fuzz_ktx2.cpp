// libFuzzer target: ktx2::parse and ktx2::level_data for every level (Zstandard, zlib): KTX 2.0.
#include "fuzz_target.h"

TEXDEC_FUZZ_TARGET(Ktx2)
