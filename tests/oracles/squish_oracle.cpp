#include "squish_oracle.h"

#include <squish.h>

namespace texdec_test::squish_oracle {

void decode_bc1(const uint8_t block[8], uint8_t rgba[64]) { squish::Decompress(rgba, block, squish::kDxt1); }
void decode_bc2(const uint8_t block[16], uint8_t rgba[64]) { squish::Decompress(rgba, block, squish::kDxt3); }
void decode_bc3(const uint8_t block[16], uint8_t rgba[64]) { squish::Decompress(rgba, block, squish::kDxt5); }

}  // namespace texdec_test::squish_oracle
