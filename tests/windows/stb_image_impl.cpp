// stb_image's implementation for the Windows slice (test_writers.cpp reads the written images back
// with it; in tests/ the implementation comes with test_cli.cpp, which is not in the slice).
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
