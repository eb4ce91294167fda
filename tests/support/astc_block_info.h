// astcenc's own parse of a block (astcenc_get_block_info), which the block builder's 2D and 3D
// tables are checked against (test_astc_builder.cpp, test_astc_3d.cpp). No GPU.
#pragma once

#include <catch2/catch.hpp>

#include <astcenc.h>

#include <memory>

#include "../oracles/astcenc_oracle.h"  // AstcFootprint
#include "astc_block_builder.h"         // AstcBlock

namespace texdec_test {

// An LDR decompress-only astcenc context for one footprint (2D footprints have z = 1).
struct AstcBlockInfoReader {
    astcenc_context* ctx = nullptr;
    explicit AstcBlockInfoReader(AstcFootprint fp) {
        astcenc_config config{};
        REQUIRE(astcenc_config_init(ASTCENC_PRF_LDR, fp.x, fp.y, fp.z, ASTCENC_PRE_FASTEST, ASTCENC_FLG_DECOMPRESS_ONLY,
                                    &config) == ASTCENC_SUCCESS);
        REQUIRE(astcenc_context_alloc(&config, 1, &ctx) == ASTCENC_SUCCESS);
    }
    AstcBlockInfoReader(const AstcBlockInfoReader&) = delete;
    AstcBlockInfoReader& operator=(const AstcBlockInfoReader&) = delete;
    ~AstcBlockInfoReader() { astcenc_context_free(ctx); }
    std::unique_ptr<astcenc_block_info> read(const AstcBlock& b) {
        auto info = std::make_unique<astcenc_block_info>();
        REQUIRE(astcenc_get_block_info(ctx, b.data(), info.get()) == ASTCENC_SUCCESS);
        return info;
    }
};

}  // namespace texdec_test
