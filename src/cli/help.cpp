// astc-gpu-decode --help: the whole manual of the tool (the README's CLI section follows it).
#include "cli_common.h"

namespace cli {

const char* help_text() {
    return
        R"(astc-gpu-decode - decode block-compressed textures with texdec on the GPU (Vulkan compute) or CPU

Usage:
  astc-gpu-decode [global options] decode [options] IN OUT
  astc-gpu-decode [global options] decode [options] --out-dir DIR INPUT...
  astc-gpu-decode [global options] -dl|-ds|-dh IN.astc OUT      (astcenc-style: decode ldr, srgb, hdr)
  astc-gpu-decode info [--json[=FILE]] FILE...
  astc-gpu-decode [global options] bench [bench options]
  astc-gpu-decode list-devices | formats | --help | --version

Commands:
  decode       Decode texture files and write images. IN is a .dds, .ktx (KTX 1.1), .ktx2
               (KTX 2.0), .pkm or .astc file, recognised by its first bytes whatever its name,
               or raw blocks with --format and --extent. OUT's extension picks the writer:
                 .png   8-bit RGBA / grey / RGB; 16-bit for native EAC R11/RG11 texels
                 .tga   8-bit (uncompressed Truevision TGA, top-left origin)
                 .exr   OpenEXR, half-float R, G, B, A (the RGBA16F texels bit for bit)
                 .hdr   Radiance RGBE, float R, G, B (lossy: see below)
                 .ktx2  KTX 2.0, uncompressed, the output's vkFormat, every picked level, layer
                        and face in one file (default: all of them)
                 .raw   the texels only (the raw layout below)
  info         Container, format, extent, levels, layers, faces and sizes of each FILE, without
               decoding (no device needed).
  bench        Decode throughput on the GPU next to ceilings measured in the same run
               (memory-bound copy, the native sampler where the device has the format), the
               CPU backend's next to libastcenc's with the same threads, and the one-call
               path's end-to-end time.
  list-devices The Vulkan devices texdec can use: index, name, type, Vulkan version.
  formats      Every format name with its block size, bytes per block, and whether this build
               decodes it.

Global options:
  --backend B     What decode and bench run on: gpu (Vulkan; lavapipe included) | cpu (texdec's
                  CPU backend: the host's cores, no Vulkan needed) | auto (a GPU that is not
                  of CPU type where one is usable, else the CPU backend). Both backends give
                  the same bytes. Default: gpu when --device is given, else $TEXDEC_BACKEND
                  (same values), else auto. The device used and its backend are printed to
                  stderr, on each file's line and in --json.
  --threads N     The CPU backend's threads (the calling one included; default: one per
                  hardware thread); the bench gives libastcenc the same number. Not for a
                  decode on the GPU backend (--backend gpu, --device, TEXDEC_BACKEND=gpu: exit
                  code 2), as --device is not for the CPU backend.
  --device SEL    Device index (see list-devices) or a case-insensitive substring of its name
                  (the GPU backend; not with --backend cpu; not empty). Default:
                  $TEXDEC_DEVICE, else the first discrete GPU, integrated, virtual, then CPU
                  (lavapipe; passed over by --backend auto).
  -v, --verbose   Also print the library's informational messages, skipped files and where
                  each file's time went (the phases of --json).
  -h, --help      Show this help.
  --version       Show the version.

Decode options:
  --format NAME       IN holds raw blocks of format NAME (see 'formats'), tightly packed in
                      block order: x fastest, then y, then z. Requires --extent.
  --extent WxH[xD]    Extent in texels. For 2D formats D is a slice count: the blocks of each
                      slice are contiguous, slice after slice.
  --block-linear H[xD]
                      With --format: the raw blocks are in the Tegra X1 block-linear layout
                      (what Nintendo Switch textures are in), with blocks of H GOBs vertically
                      and D in depth (each 1, 2, 4, 8, 16 or 32; D defaults to 1). The surface
                      is --extent's: ceil(row bytes / 64) GOBs wide; the slices of a 3D
                      format or of a 2D stack are its depth. A file shorter than the surface
                      needs is an input error (exit code 3). Not for container files, whose
                      header says the layout (exit code 2).
  --output TYPE       rgba8 | rgba16f | native (the smallest format holding the exact result:
                      R8 for BC4, RG8 for BC5, R16 for EAC R11, RG16 for EAC RG11, RGBA8 for
                      BC1-BC3, BC7, ETC2 and ASTC LDR/sRGB, RGBA16F for ASTC HDR and BC6H).
                      Default: rgba8 where the format has it, else native, for .png and .tga;
                      rgba16f for .exr and .hdr (they take nothing else; native only where it is
                      RGBA16F); native for .ktx2 and .raw.
  --bc-rounding MODE  exact (default: the Direct3D reference result) | ideal (what nvtt,
                      libsquish and Pillow decode) | nvidia (what NVIDIA GPUs return; no
                      --verify for it yet). BC1-BC5 only.
  --profile P         How ASTC data is meant: ldr (astc-*-unorm, the default for .astc files,
                      which cannot say) | srgb (astc-*-srgb) | hdr (astc-*-sfloat). Overrides the
                      ASTC format a DDS, KTX or KTX 2 header names (with a note). An error with
                      formats that are not ASTC, except in a batch (--out-dir), which ignores it
                      for them. HDR data read as ldr or srgb decodes to magenta: a warning says so.
  -dl, -ds, -dh       Shortcuts for 'decode --profile ldr|srgb|hdr' (as astcenc spells them).
  --level N|all       The mip level(s) to decode (default 0).
  --layer N|all       The array layer(s) (default 0).
  --face N|all        The cube face(s), 0-5 = +X -X +Y -Y +Z -Z (default 0).
  --slice N|all       The depth slice(s) of a volume (3D texture, or a .astc / raw stack of
                      slices). Default: every slice in one output (stacked top to bottom in
                      .png, .tga, .exr and .hdr images; 3D in .raw and .ktx2).
                      With 'all', each picked surface gets its own output file, named by
                      suffixes before the extension, in this order: -mipN, -layerN, -faceN,
                      -sliceN, for each option given as 'all' (out.png -> out-mip0-face3.png).
                      A .ktx2 output holds every picked level, layer and face itself (no
                      suffixes; --slice does not apply).
  --out-dir DIR       Batch: every positional argument is an input - a file, a directory (its
                      files whose first bytes are a DDS, KTX, KTX 2, PKM or .astc magic; other
                      files are skipped and counted), or @LISTFILE (one input per line; blank
                      lines and # comments skipped) - and each is written to DIR/NAME.EXT, NAME
                      its file name without extension (two inputs with the same NAME keep their
                      whole file names: a.dds.png, a.ktx.png). Two inputs that would still
                      have one output (d1/a.dds and d2/a.dds, an input given twice) are
                      refused before anything is written (exit code 2): no name is made up.
  --to EXT            With --out-dir: png | tga | exr | hdr | ktx2 | raw. Default: png, or exr
                      for HDR formats (BC6H, ASTC sfloat).
  -r, --recursive     With --out-dir: also the files in subdirectories of a directory input
                      (written to the same relative paths under DIR).
  --jobs N            Files in flight at once (1-64; default: the CPU count, at most 4): reading,
                      parsing, writing and verifying of some overlap the GPU work of others.
  --verify            Decode every surface on the CPU too, with texdec's CPU reference
                      (libastcenc for ASTC; the project's CPU models of the spec for BC1-BC7,
                      ETC2 and EAC), and compare texel for texel: the count of mismatching
                      texels, the first one and the PSNR are reported; a mismatch is exit code 5.
                      On a mismatch the outputs are still written (the texels as decoded)
                      and kept, for inspection; --json gives the file status "mismatch".
  --json[=FILE]       Write machine-readable results as JSON (per file: input, status, exit code,
                      container, format, extent, outputs, backend, device, GPU or CPU decode
                      time, wall time, phases, verify) to FILE, or to standard output when no
                      FILE is given. Times are milliseconds of wall clock unless named gpu_*.
                      Top level and summary: context_ms (creating the device and context, on
                      its own thread while the first files are read and parsed), wall_ms (the
                      whole run from then on). Per file, "phases" says where its wall_ms went,
                      summed over its surfaces and outputs: read_ms (opening and mapping the
                      input; its pages are read while the decode copies the blocks), parse_ms
                      (headers, level index, KTX 2 inflating), context_wait_ms (waiting for the
                      device), alloc_ms (the decoded texels' memory), decode_ms (the library's
                      decode call) with its parts prepare_ms, upload_copy_ms (blocks into the
                      upload buffer), submit_wait_ms (submit until the GPU is done; within it
                      gpu_upload_ms, gpu_decode_ms, gpu_readback_ms from device timestamps, null
                      without them) and readback_copy_ms (texels out of the readback buffer),
                      verify_ms, encode_ms (the output's bytes in memory: PNG conversion,
                      filtering and compression on every CPU thread; TGA conversion; EXR planes
                      and ZIP compression; .hdr float conversion and RGBE; the KTX 2 header; 0
                      for .raw), write_ms (into a temporary file) and
                      sync_ms (fsync, then rename over the output). -v prints the same per file.
                      The text is UTF-8 that every strict JSON parser reads: control characters
                      are escaped, and a byte of a file name that is not valid UTF-8 is written
                      as U+FFFD (\ufffd); such a name's exact bytes are given beside it in base64
                      (RFC 4648) as input_base64 or path_base64 (and skipped_base64: an array with
                      null for the names that are UTF-8), so a script recovers the path, e.g.
                      base64.b64decode(file["input_base64"]) in Python.
  --timeout SEC       Give up if the device has not finished after SEC seconds (default 60;
                      the GPU backend only).
  --max-memory SIZE   The host memory a file may need (bytes, or 512M, 8G: binary units): its
                      data, the parser's surface table (DDS and KTX 1 keep one entry per layer,
                      face and mip level: a 64 MiB DDS can describe 8 million surfaces), inflated
                      KTX 2 levels, decoded texels, the --verify reference, the writer's copies
                      and the decode staging, checked from the header before anything is
                      allocated (exit code 3 above it, with both figures). Files in flight at
                      once share it. Default: half of the physical memory (or of the cgroup's
                      memory limit, or of ulimit -v, where smaller); 'info' holds the surface
                      table to that default.

Inputs and outputs: a texture input must be a regular file (a FIFO or a device such as /dev/zero
is refused); only its header and the blocks decoded are read. An output that is the same file as
any input (the same path, a symbolic or hard link to it; --json=FILE too) is refused before
anything is written (exit code 2). So are two outputs of one run that are the same file - two
inputs with one output name, an image output that is also the --json file, a --json file named as
--level/--layer/--face/--slice all name the images - whether the path is spelled alike or not
(out/a.png, ./out/a.png, a linked folder), a symbolic or a hard link; names that differ in case
are different files on Linux, not on Windows. Devices (/dev/null) are written in place, never
replaced, and may take several outputs. Outputs are replaced atomically: written to a temporary
file beside them (.NAME.tmp-PID-N), flushed, then renamed over NAME, so a failed or interrupted
run leaves the previous file as it was and removes its temporary file (after SIGKILL the temporary
file may stay, never a partial NAME). Interrupted by SIGINT (Ctrl-C), SIGTERM, SIGHUP or SIGPIPE
(the reader of its standard output or error went away), a run creates no further temporary file,
removes every one it made and ends killed by that signal (a shell shows 128 + its number: 130 for
Ctrl-C, 143 for SIGTERM); outputs finished before stay. A signal the caller ignores stays ignored.
An output that is a symbolic link is written through (the link stays, its target is replaced); a
device or FIFO (/dev/null) is written in place.
On Windows: flushed with FlushFileBuffers and renamed with MoveFileExW; Ctrl-C, Ctrl-Break or
closing the console removes the temporary files, then the run ends as Ctrl-C ends a console
program; an output that is a symbolic link is replaced by a file; NUL is written in place; file
names are Unicode (UTF-8 in --json and @LISTFILEs).

Progress: with several inputs, a progress bar (files, throughput, ETA) when stderr is a
terminal, otherwise one line per file; then a summary. A failed file does not stop the others.

Bench options:
  --format NAME       A format to measure; repeat for several. Default: those of bc1-rgba-unorm,
                      bc3-unorm, bc4-unorm, bc5-unorm, bc6h-ufloat, bc7-unorm, astc-4x4-unorm,
                      astc-6x6-unorm, astc-8x8-unorm, astc-12x12-unorm, astc-6x6-srgb that this
                      build decodes.
  --size WxH          Extent (default 8192x8192 on a GPU, 1024x1024 on a CPU device such as
                      lavapipe, 2048x2048 for the CPU backend alone), rounded up to whole
                      blocks per format (8196 for 6x6 and 12x12).
  --iterations N      Timed dispatches per measurement (default 30); median and best reported.
                      The CPU backend and libastcenc: at most 10 timed calls each.
  --warmup-ms MS      Back-to-back dispatches (or calls) before each measurement (default 300
                      on a GPU, 50 on a CPU device or for the CPU backend alone).
  --regions N         Instead of the table: N small regions (--region-size WxH, default 64x64)
                      in one texdec_record_regions call (batched with a scratch buffer, and
                      unbatched), and in N calls, into a buffer and into an image; GTexel/s, us
                      per region and the ratio to one --size region (default 4096x4096).
                      Formats: --format (default astc-4x4-unorm and bc1-rgba-unorm).
  --input FILE        The "real" blocks from FILE (any container 'decode' reads: its first
                      surface, 2D), tiled to the extent; the file's format is the one measured.
  --output TYPE       rgba8 (default where the format has it, else native) | rgba16f | native.
  --bc-rounding MODE  exact (default) | ideal | nvidia.
  --json=FILE         Also write every figure, the device, driver, date and command line as JSON.
  --validate          Run with VK_LAYER_KHRONOS_validation (synchronization validation too); any
                      message makes the exit code 1.
  --backend B         gpu: the GPU alone; cpu: the CPU backend alone (no Vulkan); auto (the
                      default): the CPU backend, and the GPU where the device is not of CPU type.
  --threads N         The CPU backend's and libastcenc's threads (default: one per hardware
                      thread).
  --block-linear H|off
                      The block height (GOBs: 1, 2, 4, 8, 16, 32; default 16) of the
                      block-linear rows: every format is also decoded from the same blocks in
                      the Tegra X1 block-linear layout (texdec on the GPU and the CPU backend),
                      next to the linear figures with the ratio block-linear / linear. off:
                      linear input only.
  The bench creates its own Vulkan device (--device / $TEXDEC_DEVICE select it) and times with
  timestamp queries; the CPU backend and libastcenc are timed with the host clock (best and
  median of the calls). Data: a procedural image encoded by libastcenc -fastest (ASTC) or a
  min/max BC encoder, tiled to the extent ("real"), and random blocks ("random").

Containers:
  .dds   legacy FourCC headers DXT1 (decoded as bc1-rgba-unorm, like Direct3D), DXT2/DXT3
         (bc2-unorm), DXT4/DXT5 (bc3-unorm), ATI1/BC4U/BC4S (bc4), ATI2/BC5U/BC5S (bc5), RXGB
         (Doom 3 / NVTT: bc3-unorm with red stored in alpha, swapped back after decoding), and
         the ETC FourCCs of Compressonator and Tacent: 'ETC ', ETC1, ETC2 (etc2-r8g8b8-unorm),
         ETCA (etc2-r8g8b8a8), ETCP (etc2-r8g8b8a1), ETCS, ETCT, ETCU (their sRGB forms); DX10
         headers with a DXGI BC1-BC7 format (70-84, 94-99; TYPELESS decodes as UNORM,
         BC6H_TYPELESS as UF16) or one of the ASTC values NVTT writes (133-187: TYPELESS, UNORM
         and UNORM_SRGB of each 2D footprint, 4x4 to 12x12, in fours; TYPELESS as UNORM); mip
         chains, arrays, cube maps (all six faces, square) and volume textures. Formats texdec
         does not decode (uncompressed DXGI formats, Direct3D 9 float FourCCs 111-116, ...) are
         refused by name, as are those of KTX and KTX 2 files.
  .ktx   KTX 1.1, little- or big-endian: ETC1 (as etc2-r8g8b8-unorm), every ETC2/EAC format,
         S3TC (incl. sRGB), RGTC, BPTC and ASTC (2D KHR and 3D OES) glInternalFormats; mips,
         arrays, cube maps, 3D.
  .ktx2  KTX 2.0: every BC1-BC7, ETC2/EAC and ASTC vkFormat (and the 3D ASTC ones of
         VK_EXT_texture_compression_astc_3d); mips, arrays, cube maps, 3D; supercompression none,
         Zstandard or zlib. Basis Universal (BasisLZ, UASTC, ETC1S) is refused: transcode it first.
  .pkm   etcpack / etc1tool: ETC1, ETC2 RGB8 / RGBA8 / RGB8A1 (+ sRGB), EAC R11 / RG11 (signed
         too); the active extent is decoded.
  .astc  astcenc's 16-byte header: every 2D footprint (4x4 .. 12x12) and 3D one (3x3x3 .. 6x6x6);
         a 2D footprint with zsize > 1 is a stack of zsize slices. The profile comes from
         --profile (or -dl/-ds/-dh), never from the file.
  Bytes after the data a header describes are ignored (a note says so). A malformed header, an
  inconsistent field or truncated data is an input error (exit code 3) naming what was found.

Outputs:
  .raw   texels tightly packed, x fastest, then y, then z, little-endian: 4 bytes per texel for
         rgba8, 8 (four halves) for rgba16f, the native format's size for native.
  .png   RGBA8 as RGBA (sRGB formats keep their encoded bytes, as PNG expects); native R8 as
         grey; native RG8 as RGB with blue 0; SNORM -1..1 maps to 0..255 (0 -> 128); rgba16f is
         clamped to 0..1. Native EAC (R16 / RG16) is a 16-bit PNG: R11 as grey, RG11 as RGB with
         blue 0, UNORM16 as is, SNORM -1..1 -> 0..65535. HDR formats are refused (exit code 2).
         Lossless; compressed on every CPU thread (bands of rows deflated in parallel, one
         ordinary zlib stream), zlib level 1 with the Up filter: fast, not the smallest.
  .tga   as .png, 8-bit only: 16-bit native values are rounded to 8 bits.
  .exr   four HALF channels R, G, B, A holding the RGBA16F texels bit for bit (sRGB formats keep
         their encoded values v/255; error colours stay as decoded: NaN for ASTC -unorm and
         -sfloat error blocks, magenta for -srgb).
  .hdr   RGBA16F converted to float R, G, B; alpha dropped. RGBE keeps an 8-bit mantissa per
         channel with a shared exponent (about 1 % relative error) and holds no negative
         values, NaN or infinity: negatives and NaN become 0, +infinity 65504.
  .ktx2  the output type's vkFormat (R8G8B8A8_UNORM/_SRGB, R16G16B16A16_SFLOAT, R8/R8G8/R16/
         R16G16 UNORM/SNORM) with its data format descriptor; levels, layers, faces, depth kept.

Exit codes (with several inputs: that of the first file, in input order, that failed):
  0  success
  1  decode or device error (the library's status and message are printed), or a format
     this build does not implement
  2  usage error (bad command line, an option that does not fit the file, an output that is
     an input or another output of the run)
  3  input file error (unreadable, malformed, truncated, unknown format in the file, not a
     regular file, or needing more memory than --max-memory)
  4  output file error (cannot be written)
  5  --verify found texels that differ from the CPU reference
  Interrupted by a signal: killed by it, after removing its temporary files (see above).

Examples:
  astc-gpu-decode decode samples/sample-bc3.dds sample.png
  astc-gpu-decode -ds samples/sample-astc-6x6.astc sample.png
  astc-gpu-decode info --json textures/*.ktx2
  astc-gpu-decode decode --level all --face all skybox-bc6h.dds sky.exr      (sky-mip0-face0.exr ...)
  astc-gpu-decode decode --layer 2 --level 1 array.ktx2 layer2-mip1.png
  astc-gpu-decode decode --slice all volume-astc-4x4x4.astc slice.png           (slice-slice0.png ...)
  astc-gpu-decode decode texture-array.ktx2 decoded.ktx2          (every level and layer, uncompressed)
  astc-gpu-decode decode --out-dir decoded --jobs 4 --verify assets/ @more-files.txt
  astc-gpu-decode decode --out-dir decoded --to tga -r --json=results.json assets/
  astc-gpu-decode decode --format astc-8x5-unorm --extent 100x30 blocks.bin texels.raw
  astc-gpu-decode decode --format bc7-unorm --extent 512x512 --block-linear 16 switch.bin out.png
  astc-gpu-decode decode --output rgba16f --bc-rounding ideal texture.dds texels.raw
  astc-gpu-decode decode --output native heightmap-r11.ktx heightmap16.png
  astc-gpu-decode --device llvmpipe decode normals.dds normals.png
  TEXDEC_BACKEND=cpu astc-gpu-decode decode texture.ktx2 texture.png
  astc-gpu-decode bench --backend cpu --threads 2 --format astc-6x6-unorm
  astc-gpu-decode bench --format astc-6x6-unorm --format bc1-rgba-unorm --json=bench.json
)";
}

}  // namespace cli
