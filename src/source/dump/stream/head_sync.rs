//! What the reading of an envelope's head hands the reading of the whole file, which waits for
//! it: the two are read on different threads.

use crate::source::dump::envelope::Handed;

/// What the reading of an envelope's head ([`Cut::Head`](super::Cut::Head)) handed over, given
/// to the reading of the whole, which waits for it.
#[derive(Default)]
pub(super) struct HeadRead {
    /// `None` until the head is read; then what it handed over, if anything.
    read: std::sync::Mutex<Option<Option<Handed>>>,
    ready: std::sync::Condvar,
}

impl HeadRead {
    /// What the head's reading handed over, once it has ended.
    pub(super) fn wait(&self) -> Option<Handed> {
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(handed) = read.take() {
                return handed;
            }
            read = self.ready.wait(read).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// What says the head's reading has ended: when dropped unset (a panic), with nothing
    /// handed over, so that no reading waits for it forever.
    pub(super) fn done(&self) -> HeadDone<'_> {
        HeadDone {
            head: self,
            handed: None,
        }
    }
}

/// See [`HeadRead::done`].
pub(super) struct HeadDone<'h> {
    head: &'h HeadRead,
    handed: Option<Handed>,
}

impl HeadDone<'_> {
    /// What the head's reading handed over, told when this is dropped.
    pub(super) fn set(&mut self, handed: Option<Handed>) {
        self.handed = handed;
    }
}

impl Drop for HeadDone<'_> {
    fn drop(&mut self) {
        let mut read = self.head.read.lock().unwrap_or_else(|e| e.into_inner());
        *read = Some(self.handed.take());
        self.head.ready.notify_all();
    }
}
