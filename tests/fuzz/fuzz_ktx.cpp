// libFuzzer target: ktx::parse: KTX 1.1.
#include "fuzz_target.h"

TEXDEC_FUZZ_TARGET(Ktx)
