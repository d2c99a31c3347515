// Calls libsha from Rust with no crates: declare the C functions, link the shared library.
//   rustc main.rs -L <libdir> -l sha -C link-arg=-Wl,-rpath,<libdir>
//   ./main abc
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

extern "C" {
    fn libsha_sha256(data: *const u8, len: usize, out: *mut u8) -> c_int;
    fn libsha_implementation() -> *const c_char;
}

fn main() {
    let message = std::env::args().nth(1).unwrap_or_default();
    let mut digest = [0u8; 32];
    // Safety: libsha reads exactly `len` bytes of `data` and writes 32 bytes to `out`.
    let rc = unsafe { libsha_sha256(message.as_ptr(), message.len(), digest.as_mut_ptr()) };
    assert_eq!(rc, 0, "libsha_sha256 failed");
    let hex: String = digest.iter().map(|b| format!("{:02x}", b)).collect();
    let implementation = unsafe { CStr::from_ptr(libsha_implementation()) }.to_string_lossy();
    println!("{}  ({})", hex, implementation);
}
