// Random texdec_decode jobs from bytes, and the checks every decode of one must pass: shared by the
// libFuzzer target fuzz_decode (the bytes are the fuzzer's input; the CPU backend) and the ctest
// cases "decode fuzz jobs: ..." (tests/test_decode_fuzz.cpp: the bytes come from a fixed
// pseudo-random sequence; each job on a GPU context and a CPU context, compared byte for byte).
//
// An input is a header of kJobHeaderBytes bytes (missing bytes read as 0), then the blocks:
//   - the header picks the job: any texdec_format (a few percent of the time a value outside the
//     enum), output, BC rounding (sometimes unknown), width / height / depth (mostly small,
//     sometimes 0 or huge), src_row_length / src_image_height (0, past the extent, short of it or
//     huge), dst_row_pitch / dst_slice_pitch (0, padded, unaligned, short, huge), a
//     texdec_source_layout_info (block-linear with every block height and depth and layer strides,
//     and malformed ones), src_size and dst_size exact, a bit short or a bit long, the offsets of
//     src and dst from an aligned address, the byte the destination starts filled with, and the
//     CPU context (1 or 2 threads, or a run_tasks hook);
//   - the blocks fill the source: block i of the job (x fastest, then y, then z) takes bytes
//     [i * block bytes, ...) of them, wrapping around, at the place the job's layout puts it.
// The job's source and destination are heap blocks of exactly src_size and dst_size bytes (after
// the offset's bytes), so AddressSanitizer sees any access outside them.
//
// The checks (run_and_check), each independent of texdec's own planning code:
//   - the status is a texdec_status, texdec_status_string names it, and a refusal reported an ERROR
//     message; texdec_decode_scratch_size gives the same status (and 0 bytes on a CPU context);
//   - a model of the job written here from texdec.h (sizes in 64 bits with overflow, the
//     block-linear address formula, the rules of each field) lists the problems the job has, each
//     with the status it calls for: no problem -> SUCCESS (on a GPU context also SIZE_OVERFLOW,
//     where a block row needs more than 2^27 bytes: texdec.h's maxStorageBufferRange rule);
//     problems -> one of their statuses;
//   - on SUCCESS: every byte of dst_size outside the texels of the extent (row and slice padding,
//     the bytes past the last texel) still holds the fill byte, and so do the bytes before dst;
//     every texel equals the decode of the same blocks gathered (by the model's addresses) into a
//     tight linear source and decoded with tight pitches into exactly texdec_decoded_size bytes,
//     on the same context, from the opposite fill byte (so a texel the decode skipped shows),
//     and with one byte less of that source or destination the twin is refused;
//     texdec_decoded_size / texdec_encoded_size / texdec_output_texel_size answer the model's sizes.
#pragma once

#include <texdec/texdec.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace texdec_fuzz {

constexpr size_t kJobHeaderBytes = 32;

// Work bounds per job: a job over max_texels texels is given a destination smaller than it
// needs (it must be refused without decoding); sources and destinations are at most these sizes.
struct JobLimits {
    uint64_t max_texels = 1u << 15;
    uint64_t max_src_bytes = 4u << 20;
    uint64_t max_dst_bytes = 8u << 20;
};

// What one decode gave: its status and the destination's bytes (dst_size of them).
struct DecodeOutcome {
    texdec_status status = TEXDEC_SUCCESS;
    std::vector<uint8_t> dst;
};

// Returns the ERROR messages the context reported since the last call (joined), and forgets them.
using TakeErrors = std::function<std::string()>;

class DecodeCase {
public:
    DecodeCase(std::span<const uint8_t> input, const JobLimits& limits = {});
    ~DecodeCase();
    DecodeCase(const DecodeCase&) = delete;
    DecodeCase& operator=(const DecodeCase&) = delete;

    // 0: one thread, 1: two threads, 2: a run_tasks hook (fuzz_decode's three CPU contexts).
    uint32_t cpu_context_choice() const;
    // The job in one line: "bc7-unorm rgba8 exact 13x7x1 row_length 16 ... src_size 128 (needs 128) ...".
    std::string describe() const;
    // The status the model expects when the job has no problem at all (SUCCESS), else the
    // problems' statuses (any may come); for the report.
    std::string expectation() const;
    bool expects_success() const;
    // A valid job that a GPU context may refuse with SIZE_OVERFLOW (a block row over the smallest
    // maxStorageBufferRange Vulkan allows, 2^27 bytes); a CPU context decodes it.
    bool gpu_may_refuse_row() const;

    // texdec_decode of the job on `context` with every check above; "" or what broke (one line
    // with the job). `outcome` (optional) gets the status and the destination's bytes.
    std::string run_and_check(texdec_context* context, const TakeErrors& take_errors, DecodeOutcome* outcome = nullptr);
    // texdec_decode of the job on `context`, no checks (the other backend of a comparison).
    DecodeOutcome run(texdec_context* context);

    struct Model;

private:
    struct Impl;
    Impl* impl_;
};

// Inputs that start fuzz_decode on every format (valid jobs of small extents, linear and
// block-linear), written by write_seeds into its decode/ folder.
std::vector<std::vector<uint8_t>> decode_seed_inputs();

// `size` bytes of a fixed pseudo-random sequence (splitmix64 of `seed`): the ctest's job inputs.
std::vector<uint8_t> pseudo_random_bytes(uint64_t seed, size_t size);

// A job input whose length (header and 0 to 4 KiB of blocks) and bytes come from `seed`.
std::vector<uint8_t> pseudo_random_job_input(uint64_t seed);

}  // namespace texdec_fuzz
