// tinyexr's implementation, compiled from its header where no tinyexr library exists (a Windows
// cross-build: Debian ships libtinyexr for the host only). Over zlib, without threads.
#define TINYEXR_IMPLEMENTATION
#define TINYEXR_USE_MINIZ 0
#include <tinyexr.h>
