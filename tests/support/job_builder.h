// The texdec_host_job most tests fill: format, output and extent, blocks and texels tightly
// packed, every other field (BC rounding EXACT, row length, pitches, timeout, next) at its zero
// default until a chained setter says otherwise. Converts to the job where one is expected:
//   REQUIRE(ctx.decode(JobBuilder(format, output, w, h).blocks(blocks).texels(out)) == TEXDEC_SUCCESS);
//   texdec_host_job job = JobBuilder(format, output, w, h, d).blocks(blocks).texels(out).pitches(row, slice);
#pragma once

#include <texdec/texdec.h>

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace texdec_test {

class JobBuilder {
public:
    JobBuilder(texdec_format format, texdec_output output, uint32_t width, uint32_t height, uint32_t depth = 1)
        : job_{.format = format, .output = output, .width = width, .height = height, .depth = depth} {}

    // The compressed blocks: a pointer and a byte count, or a whole contiguous container.
    JobBuilder& blocks(const void* src, size_t bytes) {
        job_.src = src;
        job_.src_size = bytes;
        return *this;
    }
    template <class Container>
    JobBuilder& blocks(const Container& c) {
        return blocks(std::data(c), std::size(c) * sizeof(*std::data(c)));
    }

    // The destination texels: a pointer and a byte count, or a whole contiguous container.
    JobBuilder& texels(void* dst, size_t bytes) {
        job_.dst = dst;
        job_.dst_size = bytes;
        return *this;
    }
    template <class Container>
    JobBuilder& texels(Container& c) {
        return texels(std::data(c), std::size(c) * sizeof(*std::data(c)));
    }

    JobBuilder& rounding(texdec_bc_rounding rounding) {
        job_.bc_rounding = rounding;
        return *this;
    }
    // Source row length and image height in texels (0 = the extent), like VkBufferImageCopy.
    JobBuilder& source_rows(uint32_t row_length, uint32_t image_height = 0) {
        job_.src_row_length = row_length;
        job_.src_image_height = image_height;
        return *this;
    }
    // Destination bytes between rows and between slices (0 = tight).
    JobBuilder& pitches(size_t row_pitch, size_t slice_pitch = 0) {
        job_.dst_row_pitch = row_pitch;
        job_.dst_slice_pitch = slice_pitch;
        return *this;
    }
    JobBuilder& timeout(uint64_t ns) {
        job_.timeout_ns = ns;
        return *this;
    }
    JobBuilder& next(const void* chain) {
        job_.next = chain;
        return *this;
    }

    const texdec_host_job& job() const { return job_; }
    operator const texdec_host_job&() const { return job_; }

private:
    texdec_host_job job_{};
};

// The same for texdec_regions_job: format, output, the source buffer (src_size bytes from offset
// 0) and the regions; the destination, barriers and the rest by chained setters.
class RegionsJobBuilder {
public:
    RegionsJobBuilder(texdec_format format, texdec_output output, VkBuffer src, VkDeviceSize src_size,
                      const texdec_region* regions, uint32_t region_count = 1)
        : job_{.format = format,
               .output = output,
               .src_buffer = src,
               .src_size = src_size,
               .region_count = region_count,
               .regions = regions} {}
    RegionsJobBuilder& into_buffer(VkBuffer dst, VkDeviceSize dst_size) {
        job_.dst_buffer = dst;
        job_.dst_size = dst_size;
        return *this;
    }
    RegionsJobBuilder& into_image(const texdec_image_target* target) {
        job_.dst_image = target;
        return *this;
    }
    RegionsJobBuilder& barriers(const texdec_record_barriers* barriers) {
        job_.barriers = barriers;
        return *this;
    }
    RegionsJobBuilder& flags(uint32_t flags) {
        job_.flags = flags;
        return *this;
    }
    RegionsJobBuilder& max_texels_per_dispatch(uint32_t texels) {
        job_.max_texels_per_dispatch = texels;
        return *this;
    }

    const texdec_regions_job& job() const { return job_; }
    operator const texdec_regions_job&() const { return job_; }

private:
    texdec_regions_job job_{};
};

// A texdec_variant (EXACT rounding) for texdec_prepare, texdec_variant_ready, texdec_query_support.
inline texdec_variant make_variant(texdec_format format, texdec_output output,
                                   texdec_destination_kind destination = TEXDEC_DESTINATION_BUFFER,
                                   VkFormat image_format = VK_FORMAT_UNDEFINED) {
    return texdec_variant{.format = format, .output = output, .destination = destination, .image_format = image_format};
}

}  // namespace texdec_test
