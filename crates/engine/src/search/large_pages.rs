//! Transparent huge pages for the search's large tables.
//!
//! A table of many megabytes probed at random misses the processor's TLB at almost
//! every probe when it lies on 4 KiB pages; on 2 MiB pages the page walk goes away.
//! Linux backs an anonymous region with huge pages when the system allows it for
//! every region (`/sys/kernel/mm/transparent_hugepage/enabled` = `always`) or for
//! regions marked with `madvise(MADV_HUGEPAGE)` (`madvise`, the common default).
//! Stockfish marks its transposition table this way (`aligned_large_pages_alloc`,
//! `memory.cpp`). Elsewhere [`advise`] does nothing.

use std::mem::MaybeUninit;

/// Where the system allows it, asks Linux to back `region` with huge pages when it
/// is first touched. Call it on memory not yet written (a vector's spare capacity
/// before it is filled): pages already present are only merged later, if ever.
/// Only the whole 2 MiB-aligned blocks inside `region` can get a huge page.
pub fn advise<T>(region: &mut [MaybeUninit<T>]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = region.as_mut_ptr() as usize;
        let first = start.next_multiple_of(PAGE);
        let end = (start + std::mem::size_of_val(region)) / PAGE * PAGE;
        if end > first {
            // SAFETY: [first, end) lies inside `region`, memory this process owns;
            // MADV_HUGEPAGE changes how the kernel backs the pages, never their
            // contents, and its failure (no huge page support) leaves them as they
            // were, so the result is ignored.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = region;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advised_memory_keeps_what_is_written_to_it() {
        let n = 3 << 20;
        let mut v: Vec<u64> = Vec::with_capacity(n);
        advise(v.spare_capacity_mut());
        v.extend((0..n as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        assert_eq!(v.len(), n);
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &x)| x == (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        // An empty region is no error.
        advise::<u8>(&mut []);
    }
}
