//! texdec from Rust through its C ABI: no crates, no bindgen; the declarations below mirror
//! include/texdec/texdec.h by hand (only what this program uses). Decodes one BC1 and one BC3
//! block (the blocks of samples/c/decode_blocks.c) and checks every texel against the values
//! the BC spec gives (EXACT rounding, texdec.h).
//!
//!   rustc --edition 2021 -L native=/path/to/texdec/lib texdec_sample.rs
//!   LD_LIBRARY_PATH=/path/to/texdec/lib ./texdec_sample [C-LAYOUT-FILE]
//!
//! C-LAYOUT-FILE: the output of the project's texdec_abi_layout (tests/package/abi_layout.c);
//! with it the program first compares every size, alignment, field offset, field size and
//! constant below with the C compiler's, and stops before any call on a difference.
//! TEXDEC_SAMPLE_VALIDATION=1 turns the Vulkan validation layer on (any validation message then
//! fails the program).
#![allow(non_camel_case_types)]

use std::ffi::{c_void, CStr};
use std::mem::{align_of, size_of, MaybeUninit};
use std::os::raw::c_char;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---- texdec.h, by hand -------------------------------------------------------------------
// C enums are 4-byte integers here: u32 type aliases + constants (a Rust enum would be UB for
// values the library might return that this file does not list).
type texdec_status = u32;
type texdec_format = u32;
type texdec_output = u32;
type texdec_bc_rounding = u32;
type texdec_message_severity = u32;
type texdec_structure_type = u32;
type texdec_backend = u32;

const TEXDEC_VERSION: u32 = (1 << 16) | (5 << 8) | 0;
const TEXDEC_SUCCESS: texdec_status = 0;
const TEXDEC_ERROR_SOURCE_TOO_SMALL: texdec_status = 8;
const TEXDEC_ERROR_NO_DEVICE: texdec_status = 11;
const TEXDEC_FORMAT_BC1_RGBA_UNORM: texdec_format = 3;
const TEXDEC_FORMAT_BC3_UNORM: texdec_format = 7;
const TEXDEC_OUTPUT_RGBA8: texdec_output = 0;
const TEXDEC_BC_ROUNDING_EXACT: texdec_bc_rounding = 0;
const TEXDEC_CONTEXT_VALIDATION: u32 = 1 << 0;
const TEXDEC_MESSAGE_INFO: texdec_message_severity = 0;
const TEXDEC_STRUCTURE_TYPE_BACKEND_INFO: texdec_structure_type = 0x54440001;
const TEXDEC_BACKEND_GPU: texdec_backend = 0;
const TEXDEC_MESSAGE_VALIDATION: texdec_message_severity = 3;

#[repr(C)]
struct texdec_context {
    _opaque: [u8; 0],
}

type texdec_message_callback =
    Option<unsafe extern "C" fn(severity: texdec_message_severity, message: *const c_char, user_data: *mut c_void)>;

#[repr(C)]
struct texdec_context_create_info {
    next: *const c_void,
    flags: u32,
    allocator: *const c_void, // const VkAllocationCallbacks*
    pipeline_cache: u64,      // VkPipelineCache: a non-dispatchable handle, 64 bits everywhere
    device_selector: *const c_char,
    message_callback: texdec_message_callback,
    user_data: *mut c_void,
    max_texels_per_dispatch: u32,
}

// Chained on texdec_context_create_info::next; without it a context is AUTO (a GPU that is not a
// CPU-type device, else the CPU backend). This sample asks for the GPU backend, so that its
// validation run checks the Vulkan path even on lavapipe.
#[repr(C)]
struct texdec_backend_info {
    type_: texdec_structure_type, // `type` in C
    next: *const c_void,
    backend: texdec_backend,
    cpu_threads: u32,
    run_tasks: *const c_void, // texdec_run_tasks_function (NULL here)
    run_tasks_user_data: *mut c_void,
}

#[repr(C)]
struct texdec_host_job {
    next: *const c_void,
    format: texdec_format,
    output: texdec_output,
    bc_rounding: texdec_bc_rounding,
    width: u32,
    height: u32,
    depth: u32,
    src: *const c_void,
    src_size: usize,
    src_row_length: u32,
    src_image_height: u32,
    dst: *mut c_void,
    dst_size: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    timeout_ns: u64,
}

#[link(name = "texdec")]
extern "C" {
    fn texdec_version() -> u32;
    fn texdec_status_string(status: texdec_status) -> *const c_char;
    fn texdec_context_create(info: *const texdec_context_create_info, out: *mut *mut texdec_context) -> texdec_status;
    fn texdec_context_destroy(context: *mut texdec_context);
    fn texdec_context_device_name(context: *const texdec_context) -> *const c_char;
    fn texdec_decode(context: *mut texdec_context, job: *const texdec_host_job) -> texdec_status;
}

// Compile-time layout checks for 64-bit targets (the C sizes: x86-64 / AArch64 Linux).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(size_of::<texdec_context_create_info>() == 64);
    assert!(size_of::<texdec_host_job>() == 96);
    assert!(size_of::<texdec_backend_info>() == 40);
    assert!(size_of::<texdec_message_callback>() == size_of::<usize>());
};

// ---- layout comparison with the C compiler's (texdec_abi_layout's output) -----------------
fn size_of_pointee<T>(_: *const T) -> usize {
    size_of::<T>()
}
// The offset and size of each named field of the struct.
macro_rules! fields {
    ($t:ty: $($f:ident),+ $(,)?) => {{
        let value = MaybeUninit::<$t>::uninit();
        let base = value.as_ptr();
        let mut out = Vec::new();
        $(
            // addr_of! takes the address without reading (or creating a reference to) the field.
            let field = unsafe { ptr::addr_of!((*base).$f) };
            out.push((concat!("offset ", stringify!($t), ".", stringify!($f)).to_string(), field as usize - base as usize));
            out.push((concat!("fieldsize ", stringify!($t), ".", stringify!($f)).to_string(), size_of_pointee(field)));
        )+
        out
    }};
}
macro_rules! sizes {
    ($t:ty) => {
        [(concat!("size ", stringify!($t)).to_string(), size_of::<$t>()),
         (concat!("align ", stringify!($t)).to_string(), align_of::<$t>())]
    };
}
macro_rules! constant {
    ($c:ident) => {
        (concat!("const ", stringify!($c)).to_string(), $c as usize)
    };
}

fn rust_layout() -> Vec<(String, usize)> {
    let mut v = Vec::new();
    v.extend(sizes!(texdec_context_create_info));
    v.extend(fields!(texdec_context_create_info: next, flags, allocator, pipeline_cache, device_selector,
                     message_callback, user_data, max_texels_per_dispatch));
    v.extend(sizes!(texdec_backend_info));
    v.extend(fields!(texdec_backend_info: type_, next, backend, cpu_threads, run_tasks, run_tasks_user_data));
    v.extend(sizes!(texdec_host_job));
    v.extend(fields!(texdec_host_job: next, format, output, bc_rounding, width, height, depth, src, src_size,
                     src_row_length, src_image_height, dst, dst_size, dst_row_pitch, dst_slice_pitch, timeout_ns));
    v.extend(sizes!(texdec_status));
    v.extend(sizes!(texdec_format));
    v.extend(sizes!(texdec_output));
    v.extend(sizes!(texdec_bc_rounding));
    v.extend(sizes!(texdec_message_severity));
    v.push(constant!(TEXDEC_VERSION));
    v.push(constant!(TEXDEC_SUCCESS));
    v.push(constant!(TEXDEC_ERROR_SOURCE_TOO_SMALL));
    v.push(constant!(TEXDEC_ERROR_NO_DEVICE));
    v.push(constant!(TEXDEC_FORMAT_BC1_RGBA_UNORM));
    v.push(constant!(TEXDEC_FORMAT_BC3_UNORM));
    v.push(constant!(TEXDEC_OUTPUT_RGBA8));
    v.push(constant!(TEXDEC_BC_ROUNDING_EXACT));
    v.push(constant!(TEXDEC_CONTEXT_VALIDATION));
    v.push(constant!(TEXDEC_MESSAGE_INFO));
    v.push(constant!(TEXDEC_MESSAGE_VALIDATION));
    v.push(constant!(TEXDEC_STRUCTURE_TYPE_BACKEND_INFO));
    v.push(constant!(TEXDEC_BACKEND_GPU));
    v
}

// Every key on both sides, equal values. Returns the number of differences.
fn compare_layout(c_layout: &str) -> usize {
    let mut c: Vec<(String, usize)> = Vec::new();
    for line in c_layout.lines().filter(|l| !l.trim().is_empty()) {
        let (key, value) = line.rsplit_once(' ').expect("layout line: KEY VALUE");
        c.push((key.to_string(), value.parse().expect("layout value")));
    }
    let rust = rust_layout();
    let mut differences = 0;
    for (key, value) in &c {
        match rust.iter().find(|(k, _)| k == key) {
            Some((_, r)) if r == value => {}
            Some((_, r)) => { eprintln!("layout: {} is {} in C, {} in Rust", key, value, r); differences += 1; }
            None => { eprintln!("layout: {} (C) is not checked on the Rust side", key); differences += 1; }
        }
    }
    for (key, _) in &rust {
        if !c.iter().any(|(k, _)| k == key) { eprintln!("layout: {} (Rust) is not in the C layout", key); differences += 1; }
    }
    println!("layout: {} keys compared with C, {} differences", c.len(), differences);
    differences
}

// ---- the sample ------------------------------------------------------------------------------
static VALIDATION_MESSAGES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn on_message(severity: texdec_message_severity, message: *const c_char, _user: *mut c_void) {
    if severity == TEXDEC_MESSAGE_VALIDATION {
        VALIDATION_MESSAGES.fetch_add(1, Ordering::Relaxed);
    }
    if severity != TEXDEC_MESSAGE_INFO {
        eprintln!("texdec: {}", CStr::from_ptr(message).to_string_lossy());
    }
}

fn status_string(status: texdec_status) -> String {
    unsafe { CStr::from_ptr(texdec_status_string(status)) }.to_string_lossy().into_owned()
}

// Decodes one 4x4 block to RGBA8.
fn decode_block(ctx: *mut texdec_context, format: texdec_format, block: &[u8]) -> Result<[[u8; 4]; 16], texdec_status> {
    let mut texels = [[0u8; 4]; 16];
    let job = texdec_host_job {
        next: ptr::null(),
        format,
        output: TEXDEC_OUTPUT_RGBA8,
        bc_rounding: TEXDEC_BC_ROUNDING_EXACT,
        width: 4,
        height: 4,
        depth: 1,
        src: block.as_ptr() as *const c_void,
        src_size: block.len(),
        src_row_length: 0,
        src_image_height: 0,
        dst: texels.as_mut_ptr() as *mut c_void,
        dst_size: std::mem::size_of_val(&texels),
        dst_row_pitch: 0,
        dst_slice_pitch: 0,
        timeout_ns: 0,
    };
    match unsafe { texdec_decode(ctx, &job) } {
        TEXDEC_SUCCESS => Ok(texels),
        status => Err(status),
    }
}

fn main() {
    let mut failures = 0;
    if let Some(path) = std::env::args().nth(1) {
        let text = std::fs::read_to_string(&path).expect("reading the C layout file");
        if compare_layout(&text) > 0 {
            std::process::exit(1); // calling with mismatched structs would be undefined behaviour
        }
    }
    let version = unsafe { texdec_version() };
    // Any later 1.x library serves a program written for this one (the ABI only grows within a major).
    if version >> 16 != TEXDEC_VERSION >> 16 || version < TEXDEC_VERSION {
        eprintln!("texdec_version() is {:#x}, this program was written for {:#x}", version, TEXDEC_VERSION);
        failures += 1;
    }

    let backend = texdec_backend_info {
        type_: TEXDEC_STRUCTURE_TYPE_BACKEND_INFO,
        next: ptr::null(),
        backend: TEXDEC_BACKEND_GPU,
        cpu_threads: 0,
        run_tasks: ptr::null(),
        run_tasks_user_data: ptr::null_mut(),
    };
    let info = texdec_context_create_info {
        next: &backend as *const texdec_backend_info as *const c_void,
        flags: if std::env::var("TEXDEC_SAMPLE_VALIDATION").as_deref() == Ok("1") { TEXDEC_CONTEXT_VALIDATION } else { 0 },
        allocator: ptr::null(),
        pipeline_cache: 0,
        device_selector: ptr::null(),
        message_callback: Some(on_message),
        user_data: ptr::null_mut(),
        max_texels_per_dispatch: 0,
    };
    let mut ctx: *mut texdec_context = ptr::null_mut();
    let status = unsafe { texdec_context_create(&info, &mut ctx) };
    println!("texdec_context_create: {}", status_string(status));
    if status != TEXDEC_SUCCESS {
        let allow = std::env::var("TEXDEC_ALLOW_NO_DEVICE").as_deref() == Ok("1"); // for the project's CI
        std::process::exit(if status == TEXDEC_ERROR_NO_DEVICE && allow { 77 } else { 1 });
    }
    println!("device: {}", unsafe { CStr::from_ptr(texdec_context_device_name(ctx)) }.to_string_lossy());

    // BC1: red (0xF800) and blue (0x001F) endpoints, indices 0, 1, 2, 3 in every row: red, blue,
    // (2 red + blue) / 3 = (170, 0, 85), (red + 2 blue) / 3 = (85, 0, 170).
    let bc1: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4];
    let bc1_row = [[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]];
    // BC3: alphas 255 and 0 (eight-alpha mode), 3-bit indices 0, 1, 2, 3 per row: 255, 0,
    // round(6 * 255 / 7) = 219, round(5 * 255 / 7) = 182; colour solid green (0x07E0).
    let bc3: [u8; 16] = [0xFF, 0x00, 0x88, 0x86, 0x68, 0x88, 0x86, 0x68, 0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0];
    let bc3_row = [[0, 255, 0, 255], [0, 255, 0, 0], [0, 255, 0, 219], [0, 255, 0, 182]];

    for (name, format, block, row) in [("bc1-rgba-unorm", TEXDEC_FORMAT_BC1_RGBA_UNORM, &bc1[..], bc1_row),
                                       ("bc3-unorm", TEXDEC_FORMAT_BC3_UNORM, &bc3[..], bc3_row)] {
        match decode_block(ctx, format, block) {
            Ok(texels) => {
                println!("{}: success, row 0: {:?}", name, &texels[0..4]);
                for (i, texel) in texels.iter().enumerate() {
                    if *texel != row[i % 4] {
                        eprintln!("{}: texel {} is {:?}, expected {:?}", name, i, texel, row[i % 4]);
                        failures += 1;
                    }
                }
            }
            Err(status) => {
                eprintln!("{}: {}", name, status_string(status));
                failures += 1;
            }
        }
    }
    // Errors are values: 8 bytes cannot hold a 16-byte BC3 block.
    match decode_block(ctx, TEXDEC_FORMAT_BC3_UNORM, &bc3[..8]) {
        Err(TEXDEC_ERROR_SOURCE_TOO_SMALL) => println!("short source: {}", status_string(TEXDEC_ERROR_SOURCE_TOO_SMALL)),
        other => {
            eprintln!("short source: expected 'source data too small', got {:?}", other.map(|_| ()).map_err(status_string));
            failures += 1;
        }
    }
    unsafe { texdec_context_destroy(ctx) };

    let validation = VALIDATION_MESSAGES.load(Ordering::Relaxed);
    if failures > 0 || validation > 0 {
        eprintln!("FAILED: {} mismatches, {} validation messages", failures, validation);
        std::process::exit(1);
    }
    println!("OK");
}
