//! Sapper's WebAssembly entry point (`wasm32-unknown-unknown`), for a Web Worker.
//!
//! The JavaScript side (`web/src/engine-worker.js`) talks to this module through a
//! handful of plain exports, without wasm-bindgen:
//!
//! - `sapper_buffer(len)` returns a pointer to `len` writable bytes in the module's
//!   memory; the caller copies a UTF-8 request there.
//! - `sapper_uci(len)` runs those bytes as one UCI command line, through the same
//!   [`sapper_engine::uci::Uci`] front end as the native binary, or as one of the
//!   browser build's own commands ([`commands`]: `pass` for the threat, `review`).
//!   Each output line goes out through the import `sapper.emit(ptr, len)` as soon as
//!   it is written (so `info` lines arrive while a search runs). Returns 0 after
//!   `quit`, else 1.
//! - `sapper_rules(len)` answers a rules request ([`rules`]) and returns the length
//!   of the answer, which `sapper_result()` points to.
//!
//! The imports the engine itself needs (clock, stop flag, pause) are described in
//! `sapper_engine::host`; `sapper.random(ptr, len)` fills bytes from
//! `crypto.getRandomValues` (the seed of weakened play and of mine layouts).

pub mod commands;
pub mod rules;

use sapper_engine::uci::{Output, Uci};
use std::cell::RefCell;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "sapper")]
extern "C" {
    /// Delivers one output line (UTF-8, no newline).
    fn emit(ptr: *const u8, len: usize);
    /// Fills `len` bytes at `ptr` with random bytes.
    fn random(ptr: *mut u8, len: usize);
}

/// Sends one line to JavaScript (natively, for tests: to stdout).
fn send_line(line: &[u8]) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: `line` is a live slice for the duration of the call; the import only
    // reads `len` bytes from `ptr` and keeps no reference.
    unsafe {
        emit(line.as_ptr(), line.len())
    };
    #[cfg(not(target_arch = "wasm32"))]
    println!("{}", String::from_utf8_lossy(line));
}

#[cfg(target_arch = "wasm32")]
fn fill_random(dest: &mut [u8]) -> Result<(), getrandom::Error> {
    // SAFETY: `dest` is a live, writable slice; the import writes exactly
    // `dest.len()` bytes at its start.
    unsafe { random(dest.as_mut_ptr(), dest.len()) };
    Ok(())
}

#[cfg(target_arch = "wasm32")]
getrandom::register_custom_getrandom!(fill_random);

/// A `Write` that passes on each complete line when flushed (the UCI front end
/// flushes after every line).
#[derive(Default)]
struct LineSink {
    pending: Vec<u8>,
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            send_line(&line[..end]);
        }
        Ok(())
    }
}

thread_local! {
    /// The UCI front end, made on the first command (its 16 MiB table is allocated
    /// then, not when the module loads).
    static UCI: RefCell<Option<Uci>> = const { RefCell::new(None) };
    /// The request bytes `sapper_buffer` hands out.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last answer of `sapper_rules`.
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A pointer to `len` bytes where the caller writes its next request. Valid until
/// the next call into the module.
#[no_mangle]
pub extern "C" fn sapper_buffer(len: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// The request in the input buffer, its first `len` bytes, as text.
fn request(len: usize) -> String {
    INPUT.with(|b| {
        let b = b.borrow();
        String::from_utf8_lossy(&b[..len.min(b.len())]).into_owned()
    })
}

/// Runs the first `len` bytes of the input buffer as one UCI command. Returns 0
/// after `quit`, 1 otherwise.
#[no_mangle]
pub extern "C" fn sapper_uci(len: usize) -> i32 {
    let line = request(len);
    UCI.with(|cell| {
        let mut cell = cell.borrow_mut();
        let uci = cell.get_or_insert_with(|| {
            let out: Output = Arc::new(Mutex::new(LineSink::default()));
            Uci::new(out)
        });
        if commands::handle(uci, &line, &mut |l| send_line(l.as_bytes())) {
            return 1;
        }
        i32::from(uci.handle_line(&line))
    })
}

/// Answers the rules request in the first `len` bytes of the input buffer (see
/// [`rules::answer`]); returns the answer's length in bytes.
#[no_mangle]
pub extern "C" fn sapper_rules(len: usize) -> usize {
    let answer = rules::answer(&request(len));
    RESULT.with(|r| {
        let mut r = r.borrow_mut();
        *r = answer.into_bytes();
        r.len()
    })
}

/// Where the last answer of [`sapper_rules`](fn@sapper_rules) starts. Valid until the next call.
#[no_mangle]
pub extern "C" fn sapper_result() -> *const u8 {
    RESULT.with(|r| r.borrow().as_ptr())
}
