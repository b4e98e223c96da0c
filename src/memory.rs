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

/// Large blocks (a batch's rows and strings, the store's own) are taken from the system and given
/// back to it when freed, rather than kept on the heap for reuse. The C allocator decides alone
/// otherwise: after the first large block is freed it keeps every later one of up to that size,
/// and a large dump's batches, built on one thread and freed on another, leave the heap holding
/// tens of megabytes no batch uses. A block grown in place by the system also moves without
/// being copied.
pub fn give_back_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets one of the allocator's parameters; it takes no pointer, and a value it
    // refuses leaves the parameter as it was.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE_BLOCK);
    }
}

/// The size from which a block is the system's (see [`give_back_large_blocks`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const LARGE_BLOCK: libc::c_int = 1 << 20;
