// A build configured with -DTEXDEC_BUILD_BENCH=OFF: the decoder without volk and the bench's
// encoders; `bench` says so (a usage error, exit code 2).
#include "cli_common.h"

namespace cli {

int run_bench(const Options&) {
    usage_error("this build has no 'bench' (it was configured with -DTEXDEC_BUILD_BENCH=OFF)");
}

}  // namespace cli
