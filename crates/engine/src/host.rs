//! What the search needs from the platform it runs on: a monotonic clock, a short
//! pause, and a stop request from outside.
//!
//! Natively these are `std::time::Instant`, `std::thread::sleep`, and nothing (the
//! UCI thread sets `SearchShared::stop` itself). On `wasm32` (the browser build in
//! `web/`) the standard library has no clock (`Instant::now` panics) and no threads:
//! the search runs on the Web Worker's only thread, which cannot read the `stop`
//! message while it searches. There the three come from JavaScript imports (module
//! `sapper`, provided by `web/src/core.js`): `now_ms` is
//! `performance.now()`, `stop_requested` reads a shared flag that the outer worker
//! writes when `stop` arrives (`Atomics.load` on a `SharedArrayBuffer`), and
//! `sleep_ms` waits on that flag (`Atomics.wait`), so `go infinite` idles without
//! spinning and wakes as soon as `stop` is sent.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use wasm::Instant;

use std::time::Duration;

/// Whether someone outside the engine asked the running search to stop. Natively
/// always `false`: there the UCI thread sets `SearchShared::stop` directly.
#[inline(always)]
pub fn stop_requested() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        wasm::stop_requested()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        false
    }
}

/// Pauses the search thread for about `duration` (less if a stop request comes).
pub fn sleep(duration: Duration) {
    #[cfg(target_arch = "wasm32")]
    wasm::sleep(duration);
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(duration);
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::time::Duration;

    #[link(wasm_import_module = "sapper")]
    extern "C" {
        /// Milliseconds since an arbitrary origin, monotonic (`performance.now()`).
        fn now_ms() -> f64;
        /// 1 if a stop was requested since the current command started, else 0.
        #[link_name = "stop_requested"]
        fn js_stop_requested() -> i32;
        /// Blocks for up to `ms` milliseconds or until a stop is requested.
        fn sleep_ms(ms: f64);
    }

    /// A point in time, milliseconds from `performance.now()`'s origin: the subset of
    /// `std::time::Instant` that the engine uses.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes no arguments and returns a plain number; the
            // worker script provides it before the module is instantiated.
            Instant(unsafe { now_ms() })
        }

        /// Time since `self` (zero if the clock went backwards).
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// Time from `earlier` to `self` (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
    }

    pub fn stop_requested() -> bool {
        // SAFETY: as for `now_ms`: no arguments, an integer result.
        unsafe { js_stop_requested() != 0 }
    }

    pub fn sleep(duration: Duration) {
        // SAFETY: as for `now_ms`: a number in, nothing out.
        unsafe { sleep_ms(duration.as_secs_f64() * 1000.0) }
    }
}
