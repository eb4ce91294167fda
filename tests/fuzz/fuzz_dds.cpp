// libFuzzer target: dds::parse: DDS (legacy FourCC and DX10 headers).
#include "fuzz_target.h"

TEXDEC_FUZZ_TARGET(Dds)
