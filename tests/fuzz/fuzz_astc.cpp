// libFuzzer target: astc_file::parse: .astc.
#include "fuzz_target.h"

TEXDEC_FUZZ_TARGET(Astc)
