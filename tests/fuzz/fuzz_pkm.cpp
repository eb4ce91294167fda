// libFuzzer target: pkm::parse: .pkm.
#include "fuzz_target.h"

TEXDEC_FUZZ_TARGET(Pkm)
