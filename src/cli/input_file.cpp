#include "input_file.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "cli_common.h"
#include "platform.h"
#include "safe_output.h"

namespace input_file {
namespace {

using cli::CliError;
using cli::kExitInput;

constexpr uint64_t kMaxListBytes = uint64_t(64) << 20;

using platform::Kind;

const char* kind_of(Kind kind) {
    switch (kind) {
    case Kind::Directory: return "a directory";
    case Kind::Fifo: return "a FIFO (named pipe)";
    case Kind::CharDevice: return "a character device";
    case Kind::BlockDevice: return "a block device";
    case Kind::Socket: return "a socket";
    default: return "not a regular file";
    }
}

CliError not_regular(const std::string& path, Kind kind) {
    return CliError{kExitInput, "'" + path + "' is " + kind_of(kind) +
                                    ", not a regular file: texture files are read from regular files only (save the "
                                    "data to a file first)"};
}

uint64_t add_saturating(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t mul_saturating(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

std::string short_size(uint64_t bytes) {
    static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    double v = double(bytes);
    int unit = 0;
    while (v >= 1024 && unit < 6) {
        v /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", v, units[unit]);
    return text;
}

MemoryLimit default_limit() {
    const platform::MemoryCeiling base = platform::memory_ceiling();
    return {base.bytes / 2,
            "the default: half of " + base.what + ", " + short_size(base.bytes) + "; --max-memory SIZE sets it"};
}

}  // namespace

texture_file::FileBytes map_texture_file(const std::string& path) {
    // no_wait: opening a FIFO must not wait for a writer (it is refused below).
    platform::Handle file;
    if (const int error = platform::open_read(path, true, file))
        throw CliError{kExitInput, "cannot open '" + path + "': " + platform::error_text(error)};
    platform::FileInfo info;
    if (const int error = platform::stat(file, info)) {
        platform::close(file);
        throw CliError{kExitInput, "cannot read '" + path + "': " + platform::error_text(error)};
    }
    if (info.kind != Kind::Regular) {
        platform::close(file);
        throw not_regular(path, info.kind);
    }
    const uint64_t size = info.size;
    if (size == 0) {
        platform::close(file);
        return {};
    }
    safe_output::install_signal_handlers();  // SIGBUS: the file shrinking under the mapping
    int error = 0;
    const void* memory = platform::map_read(file, size, error);
    platform::close(file);  // the mapping keeps the file
    if (!memory)
        throw CliError{kExitInput, "cannot map '" + path + "' (" + size_text(size) +
                                       ") into memory: " + platform::error_text(error)};
    std::shared_ptr<const void> owner(memory, [size](const void* p) { platform::unmap(p, size); });
    return {std::span<const uint8_t>(static_cast<const uint8_t*>(memory), size_t(size)), std::move(owner)};
}

void refuse_special_file(const std::string& path) {
    const std::optional<platform::FileInfo> info = platform::stat(path);
    if (info && info->kind != Kind::Regular) throw not_regular(path, info->kind);
}

std::string read_list_file(const std::string& path) {
    platform::Handle file;
    if (const int error = platform::open_read(path, false, file))
        throw CliError{kExitInput, "cannot open '" + path + "': " + platform::error_text(error)};
    platform::FileInfo info;
    if (platform::stat(file, info) == 0 && info.kind == Kind::Directory) {
        platform::close(file);
        throw CliError{kExitInput, "list file '" + path + "' is a directory"};
    }
    std::string text;
    char chunk[1 << 16];
    for (;;) {
        size_t got = 0;
        if (const int error = platform::read(file, chunk, sizeof chunk, got)) {
            platform::close(file);
            throw CliError{kExitInput, "cannot read '" + path + "': " + platform::error_text(error)};
        }
        if (got == 0) break;
        if (text.size() + got > kMaxListBytes) {
            platform::close(file);
            throw CliError{kExitInput, "list file '" + path + "' is longer than " + short_size(kMaxListBytes)};
        }
        text.append(chunk, got);
    }
    platform::close(file);
    return text;
}

std::string size_text(uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    return std::to_string(bytes) + " bytes (" + short_size(bytes) + ")";
}

MemoryLimit memory_limit(const std::optional<std::string>& option) {
    if (!option) return default_limit();
    const std::string& text = *option;
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    std::string unit(end, text.data() + text.size());
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    int shift = -1;
    for (const auto& [names, s] : {std::pair{"|B", 0}, {"K|KB|KIB", 10}, {"M|MB|MIB", 20}, {"G|GB|GIB", 30}, {"T|TB|TIB", 40}}) {
        std::string list = std::string("|") + names + "|";
        if (list.find("|" + unit + "|") != std::string::npos) shift = s;
    }
    if (error != std::errc() || end == text.data() || shift < 0 || value == 0 || value > (UINT64_MAX >> shift))
        cli::usage_error("--max-memory '" + text + "' is not a size (bytes, or a number with K, M, G or T: 512M, 8G)");
    return {value << shift, "--max-memory " + text};
}

uint64_t MemoryNeed::total() const {
    uint64_t sum = 0;
    for (uint64_t part : {input, table, inflated, decoded, verify, writer, staging}) sum = add_saturating(sum, part);
    return sum;
}

std::string MemoryNeed::text() const {
    std::string text = "input " + short_size(input);
    const auto add = [&](const char* name, uint64_t bytes) {
        if (bytes) text += std::string(" + ") + name + " " + short_size(bytes);
    };
    add("surface table", table);
    add("inflated levels", inflated);
    add("decoded texels", decoded);
    add("--verify reference", verify);
    add("writer", writer);
    add("decode staging", staging);
    return text;
}

MemoryNeed estimate_need(const DecodePlan& plan, texdec_context* context) {
    const texture_file::TextureFile& file = *plan.file;
    MemoryNeed need;
    need.input = file.file_bytes - std::min(file.trailing_bytes, file.file_bytes);
    need.table = file.table_bytes;
    const bool supercompressed = !file.supercompression.empty() && file.supercompression != "none";
    uint64_t largest = 0, all = 0;
    const texture_file::LevelInfo* largest_level = nullptr;
    for (uint32_t level : plan.levels) {
        const texture_file::LevelInfo& l = file.level_info[level];
        // A supercompressed level is inflated whole (every layer and face) and kept.
        if (supercompressed)
            need.inflated = add_saturating(need.inflated, mul_saturating(l.surface_bytes, uint64_t(file.layers) * file.faces));
        uint64_t size = 0;
        if (texdec_decoded_size(plan.format, plan.output, l.width, l.height, l.depth, &size) != TEXDEC_SUCCESS)
            size = UINT64_MAX;
        if (!largest_level || size > largest) largest_level = &l;
        largest = std::max(largest, size);
        all = add_saturating(all, mul_saturating(size, plan.layer_faces));
    }
    // One surface at a time, or (.ktx2) every surface collected plus the one being decoded.
    need.decoded = plan.one_output_file ? add_saturating(all, largest) : largest;
    need.verify = plan.verify ? largest : 0;
    if (plan.source_layout && largest_level) {  // the blocks again, in linear order
        uint64_t linear = 0;
        if (texdec_encoded_size(plan.format, largest_level->width, largest_level->height, largest_level->depth,
                                &linear) == TEXDEC_SUCCESS)
            need.input = add_saturating(need.input, linear);
    }
    need.writer = mul_saturating(largest, plan.writer_copies);
    if (largest_level && largest != UINT64_MAX && context) {
        static const uint8_t kAnyBlock = 0;  // only the sizes matter to the query
        texdec_host_job job{};
        job.format = plan.format;
        job.output = plan.output;
        job.bc_rounding = plan.rounding;
        job.width = largest_level->width;
        job.height = largest_level->height;
        job.depth = largest_level->depth;
        job.next = plan.source_layout;
        job.src = &kAnyBlock;
        job.src_size = size_t(largest_level->surface_bytes);
        job.dst_size = size_t(largest);
        uint64_t host = 0, device = 0;
        if (texdec_decode_scratch_size(context, &job, &host, &device) == TEXDEC_SUCCESS) need.staging = host;
    }
    return need;
}

MemoryBudget::Reservation::~Reservation() {
    if (!budget_) return;
    std::lock_guard lock(budget_->mutex_);
    budget_->in_use_ -= bytes_;
    budget_->freed_.notify_all();
}

MemoryBudget::Reservation MemoryBudget::reserve(const std::string& input, const MemoryNeed& need) {
    const uint64_t bytes = need.total();
    if (bytes > limit_.bytes)
        throw CliError{kExitInput, "'" + input + "' needs " + size_text(bytes) + " of memory to decode (" + need.text() +
                                       "), more than the memory limit of " + size_text(limit_.bytes) + " (" +
                                       limit_.source + ")"};
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [&] { return in_use_ == 0 || in_use_ + bytes <= limit_.bytes; });
    in_use_ += bytes;
    return Reservation(this, bytes);
}

}  // namespace input_file
