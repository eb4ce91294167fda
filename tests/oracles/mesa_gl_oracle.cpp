// See mesa_gl_oracle.h. Written from the EGL / GL specs and headers.
#include "oracles/mesa_gl_oracle.h"

#include "oracles/recorded_digests.h"
#include "support/job_builder.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace texdec_test {
namespace {

// Types from gl.h's own prototypes (decltype does not reference the symbols: nothing links
// against libGL; every entry point comes from eglGetProcAddress).
struct GlFunctions {
    decltype(&glGetError) GetError = nullptr;
    decltype(&glGetString) GetString = nullptr;
    PFNGLGETSTRINGIPROC GetStringi = nullptr;
    decltype(&glGetIntegerv) GetIntegerv = nullptr;
    decltype(&glGenTextures) GenTextures = nullptr;
    decltype(&glDeleteTextures) DeleteTextures = nullptr;
    decltype(&glBindTexture) BindTexture = nullptr;
    decltype(&glTexParameteri) TexParameteri = nullptr;
    decltype(&glPixelStorei) PixelStorei = nullptr;
    PFNGLCOMPRESSEDTEXIMAGE2DPROC CompressedTexImage2D = nullptr;
    decltype(&glGetTexImage) GetTexImage = nullptr;
};

struct State {
    std::mutex mutex;
    bool initialised = false;
    std::string unavailable;       // empty: usable
    std::string astc_unavailable;  // empty: ASTC LDR exposed too
    std::string description;
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    GlFunctions gl;
};

State& state() {
    static State s;
    return s;
}

std::string egl_error_text() {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%04X", unsigned(eglGetError()));
    return buf;
}

template <typename F>
bool load(F& f, const char* name) {
    f = reinterpret_cast<F>(eglGetProcAddress(name));
    return f != nullptr;
}

// Called with the mutex held. Leaves the context not current.
void initialise(State& s) {
    s.initialised = true;
    // Mesa's software decoder on every machine (NVIDIA's EGL vendor, or a hardware Mesa driver,
    // would be a different oracle). Only when the caller has not chosen otherwise.
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 0);
    if (std::FILE* f = std::fopen("/usr/share/glvnd/egl_vendor.d/50_mesa.json", "r")) {
        std::fclose(f);
        setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/usr/share/glvnd/egl_vendor.d/50_mesa.json", 0);
    }

    const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client_ext || !std::strstr(client_ext, "EGL_MESA_platform_surfaceless")) {
        s.unavailable = "EGL has no EGL_MESA_platform_surfaceless (client extensions: " +
                        std::string(client_ext ? client_ext : "none") +
                        "); install libegl-mesa0 (and libegl1, libgl1-mesa-dri)";
        return;
    }
    auto get_platform_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!get_platform_display) {
        s.unavailable = "eglGetPlatformDisplayEXT not found";
        return;
    }
    s.display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (s.display == EGL_NO_DISPLAY || !eglInitialize(s.display, &major, &minor)) {
        s.unavailable = "eglInitialize on the surfaceless platform failed (EGL error " + egl_error_text() +
                        "); install libegl-mesa0 and libgl1-mesa-dri";
        s.display = EGL_NO_DISPLAY;
        return;
    }
    const char* ext = eglQueryString(s.display, EGL_EXTENSIONS);
    if (!ext || !std::strstr(ext, "EGL_KHR_no_config_context") || !std::strstr(ext, "EGL_KHR_surfaceless_context")) {
        s.unavailable = "EGL display lacks EGL_KHR_no_config_context / EGL_KHR_surfaceless_context";
        return;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        s.unavailable = "eglBindAPI(EGL_OPENGL_API) failed (EGL error " + egl_error_text() + ")";
        return;
    }
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                              4,
                              EGL_CONTEXT_MINOR_VERSION,
                              5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK,
                              EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                              EGL_NONE};
    s.context = eglCreateContext(s.display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (s.context == EGL_NO_CONTEXT) {
        s.unavailable = "eglCreateContext (GL 4.5 compatibility, no config) failed (EGL error " + egl_error_text() + ")";
        return;
    }
    if (!eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, s.context)) {
        s.unavailable = "eglMakeCurrent (surfaceless) failed (EGL error " + egl_error_text() + ")";
        return;
    }
    GlFunctions& gl = s.gl;
    const bool loaded = load(gl.GetError, "glGetError") && load(gl.GetString, "glGetString") &&
                        load(gl.GetStringi, "glGetStringi") && load(gl.GetIntegerv, "glGetIntegerv") &&
                        load(gl.GenTextures, "glGenTextures") && load(gl.DeleteTextures, "glDeleteTextures") &&
                        load(gl.BindTexture, "glBindTexture") && load(gl.TexParameteri, "glTexParameteri") &&
                        load(gl.PixelStorei, "glPixelStorei") &&
                        load(gl.CompressedTexImage2D, "glCompressedTexImage2D") &&
                        load(gl.GetTexImage, "glGetTexImage");
    if (!loaded) {
        s.unavailable = "a GL entry point is missing from eglGetProcAddress";
    } else {
        const auto str = [&](GLenum name) {
            const GLubyte* v = gl.GetString(name);
            return std::string(v ? reinterpret_cast<const char*>(v) : "?");
        };
        s.description = str(GL_VENDOR) + " / " + str(GL_RENDERER) + " / " + str(GL_VERSION);
        GLint count = 0;
        gl.GetIntegerv(GL_NUM_EXTENSIONS, &count);
        bool astc = false;
        for (GLint i = 0; i < count; ++i) {
            const GLubyte* e = gl.GetStringi(GL_EXTENSIONS, GLuint(i));
            if (e && std::strcmp(reinterpret_cast<const char*>(e), "GL_KHR_texture_compression_astc_ldr") == 0)
                astc = true;
        }
        if (str(GL_VERSION).find("Mesa") == std::string::npos)
            s.unavailable = "the GL context is not Mesa's (" + s.description + ")";
        else if (!astc)
            s.astc_unavailable = "GL_KHR_texture_compression_astc_ldr is not exposed by " + s.description;
    }
    eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

GLenum gl_format(AstcProfile profile, AstcFootprint fp) {
    const auto& list = astc_2d_footprints();
    for (size_t i = 0; i < list.size(); ++i)
        if (list[i].x == fp.x && list[i].y == fp.y && list[i].z == fp.z)
            // The 14 enums of each kind are consecutive in footprint order (KHR_texture_compression_astc_ldr).
            return GLenum((profile == AstcProfile::ldr ? GL_COMPRESSED_RGBA_ASTC_4x4_KHR
                                                       : GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR) +
                          i);
    throw std::runtime_error("Mesa GL oracle: not a 2D ASTC footprint: " + std::to_string(fp.x) + "x" +
                             std::to_string(fp.y) + "x" + std::to_string(fp.z));
}

static_assert(GL_COMPRESSED_RGBA_ASTC_12x12_KHR - GL_COMPRESSED_RGBA_ASTC_4x4_KHR == 13);
static_assert(GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12x12_KHR - GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR == 13);
static_assert(GL_COMPRESSED_RGBA_ASTC_10x5_KHR - GL_COMPRESSED_RGBA_ASTC_4x4_KHR == 8);

// TEXDEC_MESA_ETC_REPLAY, or nullptr when unset or empty (see "replay" below).
const char* replay_path() {
    const char* v = std::getenv("TEXDEC_MESA_ETC_REPLAY");
    return v && *v ? v : nullptr;
}

}  // namespace

std::string mesa_gl_astc_unavailable_reason() {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised) initialise(s);
    return s.unavailable.empty() ? s.astc_unavailable : s.unavailable;
}

std::string mesa_gl_etc_unavailable_reason() {
    if (const char* replay = replay_path()) {
        try {
            recorded_digest_count(replay);
            return "";
        } catch (const std::exception& e) {
            return e.what();
        }
    }
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised) initialise(s);
    return s.unavailable;  // ETC2/EAC are core in GL 4.3: a 4.5 Mesa context has them
}

std::string mesa_gl_description() {
    if (const char* replay = replay_path())
        return std::string("replayed: Mesa's recorded ETC2/EAC answers from ") + replay + " (" +
               std::to_string(recorded_digest_count(replay)) + ")";
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised) initialise(s);
    return s.description;
}

namespace {

// Uploads `need` bytes of blocks as `internal_format` (w x h, level 0) and reads the texture back
// as `read_format` / `read_type` into `out_bytes` bytes at GL_PACK_ALIGNMENT 1.
std::vector<uint8_t> upload_and_read(GLenum internal_format, unsigned w, unsigned h, const uint8_t* data, size_t need,
                                     GLenum read_format, GLenum read_type, size_t out_bytes, const std::string& what) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised) initialise(s);
    if (!s.unavailable.empty()) throw std::runtime_error("Mesa GL oracle unavailable: " + s.unavailable);
    if (!eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, s.context))
        throw std::runtime_error("Mesa GL oracle: eglMakeCurrent failed (EGL error " + egl_error_text() + ")");
    const GlFunctions& gl = s.gl;
    while (gl.GetError() != GL_NO_ERROR) {
    }
    std::vector<uint8_t> out(out_bytes, 0xCD);
    GLuint tex = 0;
    gl.GenTextures(1, &tex);
    gl.BindTexture(GL_TEXTURE_2D, tex);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl.CompressedTexImage2D(GL_TEXTURE_2D, 0, internal_format, GLsizei(w), GLsizei(h), 0, GLsizei(need), data);
    const GLenum upload_error = gl.GetError();
    GLenum read_error = GL_NO_ERROR;
    if (upload_error == GL_NO_ERROR) {
        gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
        gl.GetTexImage(GL_TEXTURE_2D, 0, read_format, read_type, out.data());
        read_error = gl.GetError();
    }
    gl.BindTexture(GL_TEXTURE_2D, 0);
    gl.DeleteTextures(1, &tex);
    eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (upload_error != GL_NO_ERROR || read_error != GL_NO_ERROR) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "glCompressedTexImage2D error 0x%04X, glGetTexImage error 0x%04X",
                      upload_error, read_error);
        throw std::runtime_error(std::string("Mesa GL oracle: ") + buf + " (" + std::to_string(w) + "x" +
                                 std::to_string(h) + ", " + what + ")");
    }
    return out;
}

}  // namespace

std::vector<uint8_t> mesa_gl_decode_astc_rgba8(AstcProfile profile, AstcFootprint fp, unsigned w, unsigned h,
                                                const uint8_t* data, size_t size) {
    const GLenum format = gl_format(profile, fp);
    if (w == 0 || h == 0) throw std::runtime_error("Mesa GL oracle: empty extent");
    const size_t need = astc_encoded_size(fp, w, h, 1);
    if (size < need)
        throw std::runtime_error("Mesa GL oracle: short input: need " + std::to_string(need) + " bytes, got " +
                                 std::to_string(size));
    {
        State& s = state();
        std::lock_guard<std::mutex> lock(s.mutex);
        if (!s.initialised) initialise(s);
        if (s.unavailable.empty() && !s.astc_unavailable.empty())
            throw std::runtime_error("Mesa GL oracle unavailable: " + s.astc_unavailable);
    }
    return upload_and_read(format, w, h, data, need, GL_RGBA, GL_UNSIGNED_BYTE, size_t(w) * h * 4,
                           "footprint " + std::to_string(fp.x) + "x" + std::to_string(fp.y));
}

namespace {

struct EtcGl {
    GLenum internal = 0;
    size_t block_bytes = 8;
    unsigned channels = 4;  // EAC: 1 or 2 channels of 16 bits; ETC2 colour: RGBA8
    bool is_signed = false;
};

EtcGl etc_gl(texdec_format format) {
    switch (format) {
    case TEXDEC_FORMAT_ETC2_R8G8B8_UNORM: return {GL_COMPRESSED_RGB8_ETC2, 8, 4, false};
    case TEXDEC_FORMAT_ETC2_R8G8B8_SRGB: return {GL_COMPRESSED_SRGB8_ETC2, 8, 4, false};
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_UNORM: return {GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, 8, 4, false};
    case TEXDEC_FORMAT_ETC2_R8G8B8A1_SRGB: return {GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, 8, 4, false};
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_UNORM: return {GL_COMPRESSED_RGBA8_ETC2_EAC, 16, 4, false};
    case TEXDEC_FORMAT_ETC2_R8G8B8A8_SRGB: return {GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, 16, 4, false};
    case TEXDEC_FORMAT_EAC_R11_UNORM: return {GL_COMPRESSED_R11_EAC, 8, 1, false};
    case TEXDEC_FORMAT_EAC_R11_SNORM: return {GL_COMPRESSED_SIGNED_R11_EAC, 8, 1, true};
    case TEXDEC_FORMAT_EAC_R11G11_UNORM: return {GL_COMPRESSED_RG11_EAC, 16, 2, false};
    case TEXDEC_FORMAT_EAC_R11G11_SNORM: return {GL_COMPRESSED_SIGNED_RG11_EAC, 16, 2, true};
    default: throw std::runtime_error("Mesa GL oracle: not an ETC2/EAC format: " + std::to_string(int(format)));
    }
}

std::vector<uint8_t> live_decode_etc(const EtcGl& g, unsigned w, unsigned h, const uint8_t* data, size_t need) {
    char what[32];
    std::snprintf(what, sizeof what, "GL format 0x%04X", unsigned(g.internal));
    if (g.channels == 4)
        return upload_and_read(g.internal, w, h, data, need, GL_RGBA, GL_UNSIGNED_BYTE, size_t(w) * h * 4, what);
    return upload_and_read(g.internal, w, h, data, need, g.channels == 1 ? GL_RED : GL_RG,
                           g.is_signed ? GL_SHORT : GL_UNSIGNED_SHORT, size_t(w) * h * g.channels * 2, what);
}

// ---- replay (recorded_digests.h) ----------------------------------------------------------------
// TEXDEC_MESA_ETC_RECORD=FILE: every decode by Mesa also records its digest in FILE.
// TEXDEC_MESA_ETC_REPLAY=FILE: Mesa is not used. texdec decodes the input on a context of its own
// (NATIVE output: RGBA8 for ETC2, 16-bit R / RG for EAC, which is the layout of Mesa's readback) and
// that answer is returned only if its digest equals Mesa's recorded digest for the same input.

std::string etc_key_tag(texdec_format format, unsigned w, unsigned h) {
    return "mesa-etc " + std::to_string(int(format)) + " " + std::to_string(w) + "x" + std::to_string(h);
}

struct ReplayDecoder {
    std::mutex mutex;
    texdec_context* ctx = nullptr;
    std::string messages;  // validation messages and errors
};

ReplayDecoder& replay_decoder() {
    static ReplayDecoder d;
    return d;
}

void replay_callback(texdec_message_severity severity, const char* message, void* user_data) {
    if (severity == TEXDEC_MESSAGE_INFO) return;
    auto* d = static_cast<ReplayDecoder*>(user_data);
    d->messages += std::string(d->messages.empty() ? "" : "; ") + message;  // called under d->mutex
}

std::vector<uint8_t> texdec_native_decode(texdec_format format, const EtcGl& g, unsigned w, unsigned h,
                                          const uint8_t* data, size_t need) {
    ReplayDecoder& d = replay_decoder();
    std::lock_guard<std::mutex> lock(d.mutex);
    if (!d.ctx) {
        // The GPU backend explicitly (a zero info is AUTO, which takes the CPU backend on lavapipe).
        const texdec_backend_info gpu{
            TEXDEC_STRUCTURE_TYPE_BACKEND_INFO, nullptr, TEXDEC_BACKEND_GPU, 0, nullptr, nullptr};
        texdec_context_create_info info{};
        info.next = &gpu;
        info.flags = TEXDEC_CONTEXT_VALIDATION;
        info.message_callback = &replay_callback;
        info.user_data = &d;
        const texdec_status status = texdec_context_create(&info, &d.ctx);
        if (status != TEXDEC_SUCCESS) {
            d.ctx = nullptr;
            throw std::runtime_error(std::string("Mesa replay: texdec_context_create: ") + texdec_status_string(status) +
                                     " (" + d.messages + ")");
        }
    }
    std::vector<uint8_t> out(size_t(w) * h * (g.channels == 4 ? 4 : 2 * g.channels));
    const texdec_host_job job = JobBuilder(format, TEXDEC_OUTPUT_NATIVE, w, h).blocks(data, need).texels(out);
    d.messages.clear();
    const texdec_status status = texdec_decode(d.ctx, &job);
    if (status != TEXDEC_SUCCESS || !d.messages.empty())
        throw std::runtime_error(std::string("Mesa replay: texdec_decode: ") + texdec_status_string(status) + " " +
                                 d.messages);
    return out;
}

}  // namespace

bool mesa_gl_etc_replaying() { return replay_path() != nullptr; }

std::vector<uint8_t> mesa_gl_decode_etc(texdec_format format, unsigned w, unsigned h, const uint8_t* data,
                                        size_t size) {
    const EtcGl g = etc_gl(format);
    if (w == 0 || h == 0) throw std::runtime_error("Mesa GL oracle: empty extent");
    const size_t need = size_t((w + 3) / 4) * ((h + 3) / 4) * g.block_bytes;
    if (size < need)
        throw std::runtime_error("Mesa GL oracle: short input: need " + std::to_string(need) + " bytes, got " +
                                 std::to_string(size));
    const uint64_t key = oracle_input_key(etc_key_tag(format, w, h), data, need);
    if (const char* replay = replay_path()) {
        OracleDigest want;
        if (!find_recorded_digest(replay, key, &want))
            throw std::runtime_error("Mesa replay: no recorded answer for this input in " + std::string(replay) +
                                     " (record it where Mesa runs with TEXDEC_MESA_ETC_RECORD and the same "
                                     "TEXDEC_TEST_SEED / TEXDEC_TEST_RANDOM_BLOCKS)");
        std::vector<uint8_t> ours = texdec_native_decode(format, g, w, h, data, need);
        const OracleDigest got = oracle_answer_digest(ours.data(), ours.size());
        if (!(got == want))
            throw std::runtime_error("Mesa replay: texdec's decode (digest " + to_string(got) +
                                     ") differs from Mesa's recorded answer (" + to_string(want) + ") for a " +
                                     std::to_string(w) + "x" + std::to_string(h) +
                                     " image: run this test where Mesa GL runs to see the texels");
        return ours;
    }
    std::vector<uint8_t> out = live_decode_etc(g, w, h, data, need);
    if (const char* record = std::getenv("TEXDEC_MESA_ETC_RECORD"); record && *record)
        record_oracle_digest(record, key, oracle_answer_digest(out.data(), out.size()));
    return out;
}

}  // namespace texdec_test
