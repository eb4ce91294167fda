// The CPU backend's driver (being written; see src/cpu/cpu_decoders.h).
#include "cpu/cpu_decoders.h"
