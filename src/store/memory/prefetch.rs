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

/// [`prefetch`] of the cache line holding the last byte of `value`: with the first, every line
/// of a value that spans two.
#[inline]
pub fn prefetch_end<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as for `prefetch`; the address is within the live value.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let last = std::ptr::from_ref(value)
            .cast::<i8>()
            .wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
        _mm_prefetch::<_MM_HINT_T0>(last);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
