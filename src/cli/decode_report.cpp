// astc-gpu-decode decode / info: what they report: per-file lines or a progress bar, the batch
// notes, and the --json results.
#include <algorithm>
#include <cstdio>

#include "decode_command.h"
#include "platform.h"
#include "safe_output.h"

namespace cli {

// ---- progress ----------------------------------------------------------------------------------

Reporter::Reporter(size_t total, bool batch, bool verbose)
    : total_(total), batch_(batch), tty_(batch && platform::is_terminal(stderr)), verbose_(verbose) {}

void Reporter::print(const std::string& line) {
    std::lock_guard lock(mutex_);
    clear_bar();
    std::fprintf(stderr, "%s\n", line.c_str());
    draw_bar();
}

void Reporter::file_done(const FileResult& r) {
    std::lock_guard lock(mutex_);
    ++done_;
    if (r.exit_code != kExitOk) ++failed_;
    texels_ += r.texels;
    clear_bar();
    for (const std::string& note : r.notes) std::fprintf(stderr, "%s: note: %s\n", kToolName, note.c_str());
    for (const std::string& warning : r.warnings) std::fprintf(stderr, "%s: warning: %s\n", kToolName, warning.c_str());
    if (r.exit_code != kExitOk) {
        // A batch numbers failed files too, so the count on the lines reaches the total.
        if (batch_) std::fprintf(stderr, "[%zu/%zu] %s: error: %s\n", done_, total_, kToolName, r.message.c_str());
        else std::fprintf(stderr, "%s: error: %s\n", kToolName, r.message.c_str());
    } else if (!tty_) {
        std::string outputs = r.outputs.size() == 1 ? r.outputs[0].path : std::to_string(r.outputs.size()) + " files";
        // The outputs' extent when they share one (one level picked), else the file's level 0.
        Extent e = r.outputs.empty() ? r.extent : r.outputs[0].extent;
        for (const OutputRecord& o : r.outputs)
            if (o.extent.width != e.width || o.extent.height != e.height || o.extent.depth != e.depth) e = r.extent;
        std::string line = r.format + " " + std::to_string(e.width) + "x" + std::to_string(e.height) + "x" +
                           std::to_string(e.depth) + " (" + r.output_type + ") in " + fixed(r.wall_ms, 1) + " ms [" +
                           r.backend + ": " + r.device + "] -> " + outputs;
        if (r.verify.ran) line += "; verify: " + verify_text(r.verify);
        if (batch_) std::fprintf(stderr, "[%zu/%zu] %s: %s\n", done_, total_, r.input.c_str(), line.c_str());
        else std::fprintf(stderr, "decoded %s\n", line.c_str());
    }
    if (verbose_ && r.exit_code == kExitOk) std::fprintf(stderr, "%s: %s\n", r.input.c_str(), phases_text(r).c_str());
    draw_bar();
}

void Reporter::finish() {
    std::lock_guard lock(mutex_);
    clear_bar();
}

std::string Reporter::fixed(double v, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}
std::string Reporter::verify_text(const VerifyStats& v) {
    if (v.mismatched == 0) return "0 of " + std::to_string(v.texels) + " texels differ from the CPU reference";
    return std::to_string(v.mismatched) + " of " + std::to_string(v.texels) +
           " texels differ from the CPU reference, PSNR " + fixed(v.psnr_db(), 2) + " dB; first: " + v.first_mismatch;
}

void Reporter::clear_bar() {
    if (bar_shown_) std::fputs("\r\033[K", stderr);
    bar_shown_ = false;
}
void Reporter::draw_bar() {
    if (!tty_ || done_ == total_) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    constexpr int kWidth = 24;
    const int filled = int(kWidth * done_ / std::max<size_t>(total_, 1));
    std::string bar(size_t(filled), '#');
    bar.append(size_t(kWidth - filled), '.');
    std::string eta = "--:--";
    if (done_ > 0) {
        const int left = int(seconds / double(done_) * double(total_ - done_) + 0.5);
        char text[16];
        std::snprintf(text, sizeof text, "%d:%02d", left / 60, left % 60);
        eta = text;
    }
    std::fprintf(stderr, "[%s] %zu/%zu files, %zu failed, %s MTexel/s, ETA %s", bar.c_str(), done_, total_, failed_,
                 fixed(seconds > 0 ? double(texels_) / seconds / 1e6 : 0.0, 1).c_str(), eta.c_str());
    std::fflush(stderr);
    bar_shown_ = true;
}

std::string extent_text(const Extent& e) {
    return std::to_string(e.width) + "x" + std::to_string(e.height) +
           (e.depth > 1 ? "x" + std::to_string(e.depth) : "");
}

std::string phases_text(const FileResult& r) {
    const Phases& p = r.phases;
    const auto ms = [](double v) { return Reporter::fixed(v, 1) + " ms"; };
    std::string text = "time: read " + ms(p.read) + ", parse " + ms(p.parse) + ", waiting for the device " +
                       ms(p.context_wait) + ", alloc " + ms(p.alloc) + ", decode " + ms(p.decode) + " (prepare " +
                       ms(p.prepare) + ", upload copy " + ms(p.upload_copy) + ", submit+wait " + ms(p.submit_wait);
    if (r.gpu_timed)
        text += " [GPU upload " + Reporter::fixed(p.gpu_upload, 2) + ", decode " + Reporter::fixed(p.gpu_decode, 2) +
                ", readback " + Reporter::fixed(p.gpu_readback, 2) + " ms]";
    text += ", readback copy " + ms(p.readback_copy) + ")";
    if (r.verify.ran) text += ", verify " + ms(p.verify);
    text += ", encode " + ms(p.encode) + ", write " + ms(p.write) + ", fsync+rename " + ms(p.sync) + "; file total " +
            ms(r.wall_ms);
    return text;
}

// ---- JSON --------------------------------------------------------------------------------------

void extent_json(Json& json, const char* name, const Extent& e) {
    json.key(name).begin_array().value(e.width).value(e.height).value(e.depth).end_array();
}

void file_json(Json& json, const FileResult& r) {
    json.begin_object();
    json.path_field("input", r.input).field("backend", r.backend).field("device", r.device);
    json.field("status", r.exit_code == kExitOk ? "ok" : r.exit_code == kExitMismatch ? "mismatch" : "failed");
    json.field("exit_code", int(r.exit_code));
    if (r.exit_code != kExitOk) json.field("message", r.message);
    json.key("warnings").begin_array();
    for (const std::string& w : r.warnings) json.value(w);
    json.end_array();
    if (r.opened) {
        json.field("container", r.container).field("container_format", r.container_format).field("format", r.format);
        extent_json(json, "extent", r.extent);
        json.field("levels", r.levels).field("layers", r.layers).field("faces", r.faces);
    }
    if (!r.output_type.empty()) json.field("output_type", r.output_type);
    json.key("outputs").begin_array();
    for (const OutputRecord& o : r.outputs) {
        json.begin_object()
            .path_field("path", o.path)
            .field("level", o.level)
            .field("layer", o.layer)
            .field("face", o.face);
        if (o.slice >= 0) json.field("slice", o.slice);
        else json.key("slice").null();
        extent_json(json, "extent", o.extent);
        json.end_object();
    }
    json.end_array();
    json.field("texels", r.texels);
    if (r.gpu_timed) json.field("gpu_ms", r.gpu_ms);
    else json.key("gpu_ms").null();
    if (r.backend == "cpu") json.field("cpu_ms", r.cpu_ms);
    else json.key("cpu_ms").null();
    json.field("wall_ms", r.wall_ms);
    const Phases& p = r.phases;
    json.key("phases").begin_object();
    json.field("read_ms", p.read).field("parse_ms", p.parse).field("context_wait_ms", p.context_wait);
    json.field("alloc_ms", p.alloc).field("decode_ms", p.decode).field("prepare_ms", p.prepare);
    json.field("upload_copy_ms", p.upload_copy).field("submit_wait_ms", p.submit_wait);
    json.field("readback_copy_ms", p.readback_copy);
    if (r.gpu_timed)
        json.field("gpu_upload_ms", p.gpu_upload)
            .field("gpu_decode_ms", p.gpu_decode)
            .field("gpu_readback_ms", p.gpu_readback);
    else json.key("gpu_upload_ms").null().key("gpu_decode_ms").null().key("gpu_readback_ms").null();
    json.field("verify_ms", p.verify).field("encode_ms", p.encode).field("write_ms", p.write).field("sync_ms", p.sync);
    json.end_object();
    if (r.verify.ran) {
        json.key("verify")
            .begin_object()
            .field("texels", r.verify.texels)
            .field("mismatched_texels", r.verify.mismatched);
        if (r.verify.mismatched) json.field("first_mismatch", r.verify.first_mismatch);
        else json.key("first_mismatch").null();
        json.field("psnr_db", r.verify.psnr_db());  // null when identical (infinite)
        json.end_object();
    }
    json.end_object();
}

// What a batch says once instead of for every file: files with more surfaces than the default
// selection decoded, and files --profile did not apply to.
void print_batch_notes(const std::vector<FileResult>& results, const Options& options) {
    size_t more = 0, ignored = 0;
    for (const FileResult& r : results) {
        more += r.more_surfaces;
        ignored += !r.profile_ignored.empty();
    }
    if (more)
        std::fprintf(stderr,
                     "%s: note: %zu file(s) have more mip levels, layers or faces than the level 0, layer 0, "
                     "face 0 decoded by default (--level, --layer, --face N|all choose others; a .ktx2 output keeps "
                     "them all)\n",
                     kToolName, more);
    if (ignored)
        std::fprintf(stderr,
                     "%s: note: --profile %s ignored for %zu file(s) whose format is not ASTC (their headers "
                     "name it)\n",
                     kToolName, options.profile ? options.profile->c_str() : "", ignored);
}

void write_json(const std::string& where, const std::string& text) {
    if (where == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
        return;
    }
    const safe_output::Result written = safe_output::write_file(where, text + "\n");
    if (!written.ok)
        throw CliError{written.same_as_input ? kExitUsage : kExitOutput,
                       "cannot write the JSON results: " + written.message};
}

}  // namespace cli
