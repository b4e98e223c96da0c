//! Where the events' bytes are kept and how the store's memory is used: a dump mapped or read
//! into one buffer ([`Blob`]), buffers kept for the next batches while a dump is read
//! ([`spares`]), and memory asked for ahead of its use ([`prefetch`]).

mod blob;
pub(super) mod prefetch;
pub(super) mod spares;

pub use blob::Blob;
