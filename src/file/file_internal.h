// What the two parts of libtexdec_file share beyond texdec_file.h: file.cpp (open, queries, reads,
// format mappings) and file_jobs.cpp (layouts, buffer copies, whole-texture decode and record,
// the file's upload plan). file_jobs.cpp uses the public queries plus these two.
#pragma once

#include <cstdint>
#include <span>

#include <texdec/texdec_file.h>

namespace texdec_file_internal {

// The bytes the file was opened from (the caller's, the file's copy, or a mapping): surface
// offsets of a file without supercompression are offsets into them.
std::span<const uint8_t> file_bytes(const texdec_file* file);

// Sends `message` to the open info's message callback (nothing without one).
void report(const texdec_file* file, texdec_message_severity severity, const char* message);

}  // namespace texdec_file_internal
