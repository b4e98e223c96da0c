//! Giving freed memory back to the operating system.

/// Returns the heap's free pages to the system. Loading a large dump builds and drops many
/// buffers on several threads; the C allocator keeps what they freed for reuse, which would
/// otherwise count as the process's own memory for as long as it runs.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; it takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}
