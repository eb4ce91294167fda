// Lookup tables the decoders read, built once per context from the pure functions in luts/ and
// kept in host-visible buffers (device-local where the device offers such memory) until the
// context is destroyed. They are written by the host before any command buffer that reads them
// is submitted, so recording a decode never submits, waits or copies anything. A table is built
// outside lut_mutex (which guards only the context's members), so that finding an existing table
// never waits behind another footprint's creation.
//
// ASTC: one shared table buffer (ISE, unquantization and colour range tables), created on first
// ASTC use, and one buffer per block footprint (block mode table + partition tables for 2, 3 and
// 4 partitions), created on first use of that footprint. Layouts: shaders/interface.h.
//
// BPTC (BC6H, BC7) and ETC (ETC2, EAC): one uniform texel buffer (R32_UINT view) holding
// luts::bptc_lut_words() followed by luts::etc_lut_words() (TEXDEC_ETC_LUT_BASE), created on first
// use of any of these formats. A texel buffer rather than a storage buffer: the tables are small
// and read-only, and texelFetch goes through the texture cache.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <vector>

#include "context.h"
#include "interface.h"
#include "luts/astc_tables.h"
#include "luts/bptc_tables.h"
#include "luts/etc_tables.h"

namespace texdec {

namespace {

// A host-visible buffer holding `words` (flushed when the memory is not coherent).
texdec_status upload_table(texdec_context* ctx, const std::vector<uint32_t>& words, const char* what, MappedBuffer& b,
                           VkBufferUsageFlags extra_usage = 0) {
    texdec_status s = create_buffer(ctx, words.size() * sizeof(uint32_t), VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, what, b,
                                    extra_usage);
    if (s != TEXDEC_SUCCESS) return s;
    std::memcpy(b.mapped, words.data(), words.size() * sizeof(uint32_t));
    if (!b.coherent) {
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, b.memory, 0, VK_WHOLE_SIZE};
        VkResult r = ctx->vkd.vkFlushMappedMemoryRanges(ctx->device, 1, &range);
        if (r != VK_SUCCESS) {
            destroy_buffer(ctx, b);
            return vk_failure(ctx, r, "vkFlushMappedMemoryRanges (lookup tables)");
        }
    }
    return TEXDEC_SUCCESS;
}

// The shared ASTC tables in the layout of interface.h (TEXDEC_ASTC_LUT_*).
std::vector<uint32_t> astc_shared_words() {
    std::vector<uint32_t> w(TEXDEC_ASTC_LUT_WORDS, 0);
    const auto trits = luts::trit_table();
    for (size_t i = 0; i < trits.size(); ++i)
        for (size_t j = 0; j < 5; ++j) w[TEXDEC_ASTC_LUT_TRITS + i] |= uint32_t{trits[i][j]} << (2 * j);
    const auto quints = luts::quint_table();
    for (size_t i = 0; i < quints.size(); ++i)
        for (size_t j = 0; j < 3; ++j) w[TEXDEC_ASTC_LUT_QUINTS + i] |= uint32_t{quints[i][j]} << (3 * j);
    const auto weights = luts::weight_unquantize_table();
    std::copy(weights.begin(), weights.end(), w.begin() + TEXDEC_ASTC_LUT_WEIGHT_UNQ);
    const auto colours = luts::color_unquantize_table();
    std::copy(colours.begin(), colours.end(), w.begin() + TEXDEC_ASTC_LUT_COLOUR_UNQ);
    for (uint32_t pairs = 1; pairs <= 16; ++pairs)
        for (int remaining = 0; remaining < 128; ++remaining) {
            const int range = luts::color_range_for(2 * pairs, remaining);
            w[TEXDEC_ASTC_LUT_COLOUR_RANGE + (pairs - 1) * 128 + uint32_t(remaining)] =
                range < 0 ? 0xFFu : uint32_t(range);
        }
    return w;
}

// astc.comp reads the ISE range table from interface.h's constants: they must be kIseRanges.
constexpr bool ise_constants_match_table() {
    const uint32_t bits_words[3] = {TEXDEC_ASTC_ISE_BITS_0_7, TEXDEC_ASTC_ISE_BITS_8_15, TEXDEC_ASTC_ISE_BITS_16_20};
    for (int r = 0; r < luts::kIseRangeCount; ++r) {
        const luts::IseRange& ir = luts::kIseRanges[size_t(r)];
        if (((bits_words[r / 8] >> (4 * (r % 8))) & 0xF) != ir.bits || ((TEXDEC_ASTC_ISE_TRIT_RANGES >> r) & 1) != ir.trits ||
            ((TEXDEC_ASTC_ISE_QUINT_RANGES >> r) & 1) != ir.quints)
            return false;
    }
    return (TEXDEC_ASTC_ISE_BITS_16_20 >> 20) == 0 && (TEXDEC_ASTC_ISE_TRIT_RANGES >> 21) == 0 &&
           (TEXDEC_ASTC_ISE_QUINT_RANGES >> 21) == 0;
}
static_assert(ise_constants_match_table(), "interface.h's TEXDEC_ASTC_ISE_* constants disagree with kIseRanges");

// The tables of one footprint: block modes, then partitions for 2, 3 and 4 partitions.
std::vector<uint32_t> astc_footprint_words(uint32_t bw, uint32_t bh, uint32_t bd) {
    const uint32_t words_per_seed = (bw * bh * bd + 15) / 16;
    std::vector<uint32_t> w(TEXDEC_ASTC_LUT_PARTITIONS + 3 * luts::kPartitionSeedCount * words_per_seed, 0);
    for (uint32_t mode = 0; mode < 2048; ++mode) {
        const luts::BlockMode m = luts::decode_block_mode(mode, bw, bh, bd);
        uint32_t kind = TEXDEC_ASTC_MODE_ERROR;
        if (m.kind == luts::BlockModeKind::weights) kind = TEXDEC_ASTC_MODE_WEIGHTS;
        if (m.kind == luts::BlockModeKind::void_extent) kind = TEXDEC_ASTC_MODE_VOID_EXTENT;
        uint32_t word = TEXDEC_FIELD_PUT(kind, TEXDEC_ASTC_MODE_KIND);
        if (kind == TEXDEC_ASTC_MODE_WEIGHTS)
            word |= TEXDEC_FIELD_PUT(uint32_t{m.grid_w}, TEXDEC_ASTC_MODE_GRID_W) |
                    TEXDEC_FIELD_PUT(uint32_t{m.grid_h}, TEXDEC_ASTC_MODE_GRID_H) |
                    TEXDEC_FIELD_PUT(uint32_t{m.grid_d}, TEXDEC_ASTC_MODE_GRID_D) |
                    TEXDEC_FIELD_PUT(uint32_t{m.weight_range}, TEXDEC_ASTC_MODE_WEIGHT_RANGE) |
                    TEXDEC_FIELD_PUT(uint32_t{m.dual_plane}, TEXDEC_ASTC_MODE_DUAL_PLANE) |
                    TEXDEC_FIELD_PUT(uint32_t{m.weight_bits}, TEXDEC_ASTC_MODE_WEIGHT_BITS);
        w[TEXDEC_ASTC_LUT_MODES + mode] = word;
    }
    for (uint32_t count = 2; count <= 4; ++count) {
        const luts::PartitionTable t = luts::partition_table(bw, bh, bd, count);
        std::copy(t.words.begin(), t.words.end(),
                  w.begin() + TEXDEC_ASTC_LUT_PARTITIONS + (count - 2) * luts::kPartitionSeedCount * words_per_seed);
    }
    return w;
}

// Stores `created` (and its view, where the table has one) in `slot` (one of ctx's tables, guarded
// by lut_mutex) unless another thread stored its own first; then `created` is destroyed: the first
// table finished wins. Returns what the slot holds.
struct KeptTable {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkBufferView view = VK_NULL_HANDLE;
};
KeptTable keep_first(texdec_context* ctx, MappedBuffer& slot, MappedBuffer& created, VkBufferView* slot_view = nullptr,
                     VkBufferView created_view = VK_NULL_HANDLE) {
    bool lost = false;
    KeptTable kept;
    {
        std::lock_guard<std::mutex> lock(ctx->lut_mutex);
        lost = slot.buffer != VK_NULL_HANDLE;
        if (!lost) {
            slot = created;
            if (slot_view) *slot_view = created_view;
        }
        kept = {slot.buffer, slot_view ? *slot_view : VK_NULL_HANDLE};
    }
    if (lost) {
        if (created_view) ctx->vkd.vkDestroyBufferView(ctx->device, created_view, ctx->allocator);
        destroy_buffer(ctx, created);
    }
    return kept;
}

}  // namespace

texdec_status get_astc_luts(texdec_context* ctx, uint32_t block_w, uint32_t block_h, uint32_t block_d, Creation creation,
                            VkDescriptorBufferInfo* shared, VkDescriptorBufferInfo* footprint) {
    const uint32_t key = block_w | (block_h << 8) | (block_d << 16);
    try {
        VkBuffer shared_buffer = VK_NULL_HANDLE, footprint_buffer = VK_NULL_HANDLE;
        MappedBuffer* footprint_slot = nullptr;  // a std::map element: its address stays valid
        {
            std::lock_guard<std::mutex> lock(ctx->lut_mutex);
            shared_buffer = ctx->astc_shared_lut.buffer;
            if (creation == Creation::create_missing) {
                footprint_slot = &ctx->astc_footprint_luts[key];  // empty until some thread fills it
                footprint_buffer = footprint_slot->buffer;
            } else if (auto it = ctx->astc_footprint_luts.find(key); it != ctx->astc_footprint_luts.end()) {
                footprint_buffer = it->second.buffer;
            }
        }
        if ((!shared_buffer || !footprint_buffer) && creation == Creation::lookup_only) return TEXDEC_ERROR_NOT_READY;
        if (!shared_buffer) {
            MappedBuffer b;
            texdec_status s = upload_table(ctx, astc_shared_words(), "ASTC lookup tables", b);
            if (s != TEXDEC_SUCCESS) return s;
            shared_buffer = keep_first(ctx, ctx->astc_shared_lut, b).buffer;
        }
        if (!footprint_buffer) {
            MappedBuffer b;
            char what[64];
            snprintf(what, sizeof what, "ASTC %ux%ux%u footprint lookup tables", block_w, block_h, block_d);
            texdec_status s = upload_table(ctx, astc_footprint_words(block_w, block_h, block_d), what, b);
            if (s != TEXDEC_SUCCESS) return s;
            footprint_buffer = keep_first(ctx, *footprint_slot, b).buffer;
        }
        *shared = {shared_buffer, 0, VK_WHOLE_SIZE};
        *footprint = {footprint_buffer, 0, VK_WHOLE_SIZE};
        return TEXDEC_SUCCESS;
    } catch (const std::bad_alloc&) {
        return ctx->report(TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR, "out of host memory building ASTC tables");
    } catch (const std::exception& e) {  // a table generator rejected the footprint
        return ctx->report(TEXDEC_ERROR_INVALID_ARGUMENT, TEXDEC_MESSAGE_ERROR, "building ASTC tables failed: %s", e.what());
    }
}

texdec_status get_tables_lut(texdec_context* ctx, Creation creation, VkBufferView* view) {
    {
        std::lock_guard<std::mutex> lock(ctx->lut_mutex);
        if (ctx->tables_lut_view) {
            *view = ctx->tables_lut_view;
            return TEXDEC_SUCCESS;
        }
    }
    if (creation == Creation::lookup_only) return TEXDEC_ERROR_NOT_READY;
    try {
        std::vector<uint32_t> words = luts::bptc_lut_words();
        words.resize(TEXDEC_ETC_LUT_BASE, 0);
        const std::vector<uint32_t> etc = luts::etc_lut_words();
        words.insert(words.end(), etc.begin(), etc.end());
        // An R32_UINT uniform texel buffer of TEXDEC_TABLES_WORDS texels: check_device_needs
        // (support.cpp) made sure the device has one before any caller gets here.
        MappedBuffer b;
        texdec_status s = upload_table(ctx, words, "BPTC/ETC lookup tables", b, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
        if (s != TEXDEC_SUCCESS) return s;
        VkBufferViewCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
        ci.buffer = b.buffer;
        ci.format = VK_FORMAT_R32_UINT;
        ci.offset = 0;
        ci.range = VK_WHOLE_SIZE;
        VkBufferView created = VK_NULL_HANDLE;
        VkResult r = ctx->vkd.vkCreateBufferView(ctx->device, &ci, ctx->allocator, &created);
        if (r != VK_SUCCESS) {
            destroy_buffer(ctx, b);
            return vk_failure(ctx, r, "vkCreateBufferView (BPTC/ETC lookup tables)");
        }
        name_object(ctx, VK_OBJECT_TYPE_BUFFER_VIEW, handle_bits(created), "texdec BPTC/ETC lookup tables (R32_UINT view)");
        *view = keep_first(ctx, ctx->tables_lut, b, &ctx->tables_lut_view, created).view;
        return TEXDEC_SUCCESS;
    } catch (const std::bad_alloc&) {
        return ctx->report(TEXDEC_ERROR_OUT_OF_MEMORY, TEXDEC_MESSAGE_ERROR, "out of host memory building BPTC/ETC tables");
    }
}

uint64_t lut_bytes(texdec_context* ctx) {
    std::lock_guard<std::mutex> lock(ctx->lut_mutex);
    uint64_t bytes = ctx->tables_lut.size + ctx->astc_shared_lut.size;
    for (const auto& [key, buffer] : ctx->astc_footprint_luts) bytes += buffer.size;
    return bytes;
}

void destroy_luts(texdec_context* ctx) {
    if (ctx->tables_lut_view) ctx->vkd.vkDestroyBufferView(ctx->device, ctx->tables_lut_view, ctx->allocator);
    ctx->tables_lut_view = VK_NULL_HANDLE;
    destroy_buffer(ctx, ctx->tables_lut);
    destroy_buffer(ctx, ctx->astc_shared_lut);
    for (auto& [key, buffer] : ctx->astc_footprint_luts) destroy_buffer(ctx, buffer);
    ctx->astc_footprint_luts.clear();
}

}  // namespace texdec
