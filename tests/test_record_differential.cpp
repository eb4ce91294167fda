// Randomized differential test (issue 34, "tests to keep"): random record jobs through
// texdec_record_regions into a VkBuffer with canary bytes around and between every region,
// compared byte for byte with the CPU backend's texdec_decode of each region into host memory laid
// out the same way; and each region through texdec_decode on that GPU context into host memory
// with canaries, compared with the CPU backend too. Random formats (every implemented one), outputs,
// BC rounding modes, extents (odd sizes, partial blocks), source row lengths and image heights,
// source and destination offsets, padded pitches, 2D slices as layers or depth, 3D footprints,
// mip-like runs of shrinking regions, batched (scratch) or one dispatch per region. Nothing is
// expected but equality: the audit's version found no difference, which is what this keeps
// proving. Seeded (TEXDEC_TEST_SEED); a mismatch prints the job (and the seed) to replay it.
// TEXDEC_TEST_DIFFERENTIAL_JOBS sets the number of jobs (default 40).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/external_setup.h"
#include "gpu/gpu_fixture.h"
#include "support/astc_random_blocks.h"
#include "support/compare.h"
#include "support/cpu_context.h"
#include "support/job_builder.h"
#include "support/random_blocks.h"

using namespace texdec_test;

namespace {

uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t align_up(uint64_t a, uint64_t b) { return div_up(a, b) * b; }

struct Variant {
    texdec_format_info info;
    texdec_output output;
    uint32_t texel;
};

// Every (implemented format, offered output).
std::vector<Variant> all_variants() {
    std::vector<Variant> out;
    for (int f = TEXDEC_FORMAT_UNDEFINED + 1; f < TEXDEC_FORMAT_COUNT; ++f) {
        Variant v{};
        REQUIRE(texdec_format_get_info(texdec_format(f), &v.info) == TEXDEC_SUCCESS);
        if (!(v.info.flags & TEXDEC_FORMAT_FLAG_IMPLEMENTED)) continue;
        for (texdec_output o : {TEXDEC_OUTPUT_RGBA8, TEXDEC_OUTPUT_RGBA16F, TEXDEC_OUTPUT_NATIVE}) {
            v.output = o;
            if (texdec_output_texel_size(v.info.format, o, &v.texel) == TEXDEC_SUCCESS) out.push_back(v);
        }
    }
    return out;
}

// One region of a job, and where its bytes are.
struct Region {
    texdec_region r{};
    uint64_t src_bytes = 0;  // from r.src_offset to the end of its last block
    uint64_t dst_bytes = 0;  // from r.dst_offset to the end of its last texel
    uint32_t slices() const { return r.extent.depth * (r.layer_count ? r.layer_count : 1); }
};

struct Job {
    Variant v{};
    texdec_bc_rounding rounding = TEXDEC_BC_ROUNDING_EXACT;
    bool batched = false;
    std::vector<Region> regions;
    uint64_t src_size = 0, dst_size = 0;  // buffers: every region, its gaps and canary ends

    std::string describe() const {
        std::ostringstream s;
        s << v.info.name << " output " << texdec_output_name(v.output) << " rounding " << int(rounding)
          << (batched ? ", batched" : ", one dispatch per region") << ", src_size " << src_size << ", dst_size "
          << dst_size << "\n";
        for (size_t i = 0; i < regions.size(); ++i) {
            const texdec_region& r = regions[i].r;
            s << "  region " << i << ": extent " << r.extent.width << "x" << r.extent.height << "x" << r.extent.depth
              << " layer_count " << r.layer_count << ", src_offset " << r.src_offset << " row_length "
              << r.src_row_length << " image_height " << r.src_image_height << ", dst_offset " << r.dst_offset
              << " row_pitch " << r.dst_row_pitch << " slice_pitch " << r.dst_slice_pitch << "\n";
        }
        return s.str();
    }
};

uint32_t pick(SplitMix64& rng, uint32_t n) { return uint32_t(rng.next() % n); }

// A random job: 1-4 regions, the later ones often smaller (a mip chain's shape), each with its own
// source rows and destination pitches; a random gap (0 to 40 bytes, whole granules) of canary
// between neighbours and 64 bytes before and after.
Job random_job(const std::vector<Variant>& variants, SplitMix64& rng) {
    Job job;
    job.v = variants[pick(rng, uint32_t(variants.size()))];
    const texdec_format_info& fi = job.v.info;
    job.rounding = texdec_bc_rounding(pick(rng, 3));
    job.batched = pick(rng, 2) == 0;
    const bool is3d = fi.block_depth > 1;
    const uint32_t count = 1 + pick(rng, 4);
    uint32_t w = 1 + pick(rng, 45), h = 1 + pick(rng, 45);
    const uint32_t granule = job.v.texel >= 4 ? 4 : job.v.texel;  // texdec.h: offsets and pitches
    uint64_t src = 4 * pick(rng, 16), dst = 64;
    for (uint32_t i = 0; i < count; ++i) {
        Region reg;
        texdec_region& r = reg.r;
        r.extent = {w, h, 1};
        const uint32_t slices = is3d ? 1 + pick(rng, 9) : (pick(rng, 3) == 0 ? 1 + pick(rng, 3) : 1);
        if (is3d || pick(rng, 2)) r.extent.depth = slices;
        else r.layer_count = slices;
        if (pick(rng, 3) == 0) r.layer_count = std::max(r.layer_count, 1u);  // explicit 1
        // Source rows and slices: tight (0) or whole blocks more, sometimes a partial block more.
        const uint32_t bw = fi.block_width, bh = fi.block_height;
        if (pick(rng, 2)) r.src_row_length = uint32_t(align_up(w, bw)) + bw * pick(rng, 3) + (pick(rng, 4) == 0);
        if (pick(rng, 2)) r.src_image_height = uint32_t(align_up(h, bh)) + bh * pick(rng, 3) + (pick(rng, 4) == 0);
        const uint64_t row_blocks = div_up(r.src_row_length ? r.src_row_length : w, bw);
        const uint64_t rows = div_up(r.src_image_height ? r.src_image_height : h, bh);
        const uint64_t bx = div_up(w, bw), by = div_up(h, bh), bz = div_up(reg.slices(), fi.block_depth);
        reg.src_bytes = ((bz - 1) * rows + (by - 1)) * row_blocks * fi.bytes_per_block + bx * fi.bytes_per_block;
        r.src_offset = src;
        src = align_up(src + reg.src_bytes + 4 * pick(rng, 8), 4);
        // Destination: padded pitches (whole granules), a canary gap before.
        const uint64_t row = uint64_t(w) * job.v.texel;
        if (pick(rng, 2)) r.dst_row_pitch = align_up(row, granule) + granule * pick(rng, 5);
        const uint64_t row_pitch = r.dst_row_pitch ? r.dst_row_pitch : row;
        if (pick(rng, 2)) r.dst_slice_pitch = align_up(row_pitch * h, granule) + granule * pick(rng, 7);
        const uint64_t slice_pitch = r.dst_slice_pitch ? r.dst_slice_pitch : row_pitch * h;
        reg.dst_bytes = (reg.slices() - 1) * slice_pitch + (h - 1) * row_pitch + row;
        dst = align_up(dst + granule * pick(rng, 11), granule);
        r.dst_offset = dst;
        dst += reg.dst_bytes;
        job.regions.push_back(reg);
        if (pick(rng, 3)) w = std::max(1u, w / 2), h = std::max(1u, h / 2);  // the next mip, mostly
    }
    job.src_size = src + 64;
    job.dst_size = align_up(dst, 4) + 64;
    return job;
}

// The source buffer's bytes: random blocks (ASTC: the LDR test mix, mostly legal blocks and void
// extents besides random bits; every other family decodes any bit pattern).
std::vector<uint8_t> random_source(const Job& job, SplitMix64& rng) {
    std::vector<uint8_t> bytes(job.src_size);
    for (uint8_t& b : bytes) b = uint8_t(rng.next());
    const texdec_format_info& fi = job.v.info;
    if (fi.family != TEXDEC_FAMILY_ASTC) return bytes;
    const AstcFootprint fp{fi.block_width, fi.block_height, fi.block_depth};
    const std::vector<uint32_t> modes = fi.block_depth > 1
                                            ? astc_legal_block_modes_3d(fi.block_width, fi.block_height, fi.block_depth)
                                            : astc_legal_block_modes_2d(fi.block_width, fi.block_height);
    for (size_t at = 0; at + 16 <= bytes.size(); at += 16) {
        const AstcBlock b = astc_random_ldr_test_block(fp, modes, rng);
        std::memcpy(bytes.data() + at, b.data(), 16);
    }
    return bytes;
}

// The region as a host job: blocks at src + its offset, texels at dst + its offset.
texdec_host_job host_job(const Job& job, const Region& reg, const uint8_t* src, uint8_t* dst) {
    const texdec_region& r = reg.r;
    texdec_host_job h = JobBuilder(job.v.info.format, job.v.output, r.extent.width, r.extent.height, reg.slices())
                            .blocks(src + r.src_offset, size_t(reg.src_bytes))
                            .texels(dst + r.dst_offset, size_t(reg.dst_bytes))
                            .source_rows(r.src_row_length, r.src_image_height)
                            .pitches(size_t(r.dst_row_pitch), size_t(r.dst_slice_pitch))
                            .rounding(job.rounding);
    return h;
}

// Whether byte i of the destination buffer is a texel of some region.
std::vector<bool> texel_mask(const Job& job) {
    std::vector<bool> mask(job.dst_size, false);
    for (const Region& reg : job.regions) {
        const texdec_region& r = reg.r;
        const uint64_t row = uint64_t(r.extent.width) * job.v.texel;
        const uint64_t row_pitch = r.dst_row_pitch ? r.dst_row_pitch : row;
        const uint64_t slice_pitch = r.dst_slice_pitch ? r.dst_slice_pitch : row_pitch * r.extent.height;
        for (uint32_t z = 0; z < reg.slices(); ++z)
            for (uint32_t y = 0; y < r.extent.height; ++y) {
                const uint64_t at = r.dst_offset + z * slice_pitch + y * row_pitch;
                std::fill(mask.begin() + long(at), mask.begin() + long(at + row), true);
            }
    }
    return mask;
}

// The first byte where a and b differ ("" if none), or where a non-texel byte is not canary.
std::string first_problem(const std::vector<uint8_t>& got, const std::vector<uint8_t>& expected,
                          const std::vector<bool>& mask) {
    for (size_t i = 0; i < expected.size(); ++i) {
        if (!mask[i] && expected[i] != canary_byte(i))
            return "the CPU backend wrote byte " + std::to_string(i) + ", outside every region";
        if (got[i] != expected[i])
            return std::string(mask[i] ? "texel" : "canary") + " byte " + std::to_string(i) + ": got " +
                   std::to_string(got[i]) + ", expected " + std::to_string(expected[i]);
    }
    return "";
}

uint32_t job_count() {
    const char* v = std::getenv("TEXDEC_TEST_DIFFERENTIAL_JOBS");
    return v && *v ? uint32_t(std::strtoul(v, nullptr, 10)) : 40u;
}

}  // namespace

TEST_CASE("differential: random record jobs equal the CPU backend with canaries intact", "[regions][gpu][random]") {
    ExternalSetup setup;
    TEXDEC_OPEN_OR_RETURN(setup, dev);
    MessageLog cpu_log;
    texdec_context* cpu = create_cpu_context(cpu_log, 2);

    const std::vector<Variant> variants = all_variants();
    const uint64_t seed = test_seed() ^ 0xD1FF;
    const uint32_t jobs = job_count();
    SplitMix64 rng(seed);
    uint64_t texels = 0;
    for (uint32_t n = 0; n < jobs; ++n) {
        const Job job = random_job(variants, rng);
        const std::vector<uint8_t> source = random_source(job, rng);
        INFO("TEXDEC_TEST_SEED " << test_seed() << ", job " << n << " of " << jobs << ": " << job.describe());
        const std::vector<bool> mask = texel_mask(job);

        // The CPU backend, region by region, into host memory shaped like the buffer.
        std::vector<uint8_t> expected(job.dst_size);
        fill_canary(expected.data(), expected.size());
        for (const Region& reg : job.regions) {
            const texdec_host_job h = host_job(job, reg, source.data(), expected.data());
            const texdec_status st = texdec_decode(cpu, &h);
            INFO("CPU backend: " << texdec_status_string(st));
            REQUIRE(st == TEXDEC_SUCCESS);
            texels += uint64_t(reg.r.extent.width) * reg.r.extent.height * reg.slices();
        }

        // texdec_record_regions of every region in one call into one buffer.
        HostBuffer src = dev.create_buffer(job.src_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        std::memcpy(src.mapped, source.data(), source.size());
        HostBuffer dst = dev.create_buffer(job.dst_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        fill_canary(dst.mapped, size_t(job.dst_size));
        const VkDeviceSize scratch_offset = 4 * pick(rng, 4);
        HostBuffer scratch;
        std::vector<texdec_region> regions;
        for (const Region& reg : job.regions) regions.push_back(reg.r);
        texdec_record_barriers barriers{};
        barriers.src_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
        barriers.src_access_mask = VK_ACCESS_HOST_WRITE_BIT;
        barriers.dst_stage_mask = VK_PIPELINE_STAGE_HOST_BIT;
        barriers.dst_access_mask = VK_ACCESS_HOST_READ_BIT;
        texdec_regions_job rj = RegionsJobBuilder(job.v.info.format, job.v.output, src.buffer, job.src_size,
                                                  regions.data(), uint32_t(regions.size()))
                                    .into_buffer(dst.buffer, job.dst_size)
                                    .barriers(&barriers);
        rj.bc_rounding = job.rounding;
        texdec_regions_scratch_info si{};
        if (job.batched) {
            VkDeviceSize bytes = 0;
            REQUIRE(texdec_regions_scratch_size(setup.ctx, &rj, &bytes) == TEXDEC_SUCCESS);
            scratch = dev.create_buffer(scratch_offset + bytes,
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            si.type = TEXDEC_STRUCTURE_TYPE_REGIONS_SCRATCH_INFO;
            si.buffer = scratch.buffer;
            si.offset = scratch_offset;
            si.size = bytes;
            rj.next = &si;
        }
        VkCommandBuffer cmd = dev.begin_commands();
        const texdec_status st = texdec_record_regions(setup.ctx, cmd, &rj);
        std::string errors;
        for (const auto& e : setup.context_log.take_errors()) errors += e + "; ";
        INFO("texdec_record_regions: " << texdec_status_string(st) << " " << errors);
        REQUIRE(st == TEXDEC_SUCCESS);
        dev.submit_and_wait(cmd);
        check_no_validation_messages(dev.log(), "a random record job");
        const std::vector<uint8_t> recorded(dst.mapped, dst.mapped + job.dst_size);
        const std::string record_problem = first_problem(recorded, expected, mask);
        INFO("recorded into a buffer: " << record_problem);
        CHECK(record_problem.empty());
        dev.destroy(src);
        dev.destroy(dst);
        if (job.batched) dev.destroy(scratch);

        // texdec_decode on the same (external) GPU context, region by region, into host memory with
        // canaries: its pipelines are the record call's, so nothing is compiled twice.
        std::vector<uint8_t> host(job.dst_size);
        fill_canary(host.data(), host.size());
        for (const Region& reg : job.regions) {
            const texdec_host_job h = host_job(job, reg, source.data(), host.data());
            const texdec_status hs = texdec_decode(setup.ctx, &h);
            INFO("texdec_decode on the GPU: " << texdec_status_string(hs));
            REQUIRE(hs == TEXDEC_SUCCESS);
        }
        check_no_validation_messages(dev.log(), "texdec_decode of a random job's regions");
        const std::string host_problem = first_problem(host, expected, mask);
        INFO("texdec_decode on the GPU: " << host_problem);
        CHECK(host_problem.empty());
    }
    std::printf("differential: %u random jobs (seed %llu), %llu texels, record and one-call vs the CPU backend\n", jobs,
                (unsigned long long)test_seed(), (unsigned long long)texels);
    CHECK(cpu_log.take_errors().empty());
    texdec_context_destroy(cpu);
    setup.close();
}
