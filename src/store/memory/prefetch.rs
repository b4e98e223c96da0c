//! Asking the processor for memory ahead of its use.

/// Asks the processor to bring the cache line holding `value` into its cache, without waiting
/// for it.
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the prefetch instruction is part of SSE, which every x86_64 processor has; it is
    // only a hint: it reads nothing into the program and cannot fault, and the address is a live
    // reference's anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
