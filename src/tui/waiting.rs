//! How many batches the loader has sent that the explorer has not merged yet, bounded: the
//! loader reads on every core while the explorer merges on one thread, between frames, and
//! batches it sends faster than they are merged wait in the channel, each a few megabytes of
//! rows and tables. At five million events they added tens of megabytes to the peak.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// The most batches sent and not merged yet.
const MOST: usize = 4;

/// Shared by the loader, which waits before sending a batch, and the explorer's loop, which
/// notes each batch merged.
#[derive(Debug, Clone, Default)]
pub struct Waiting(Arc<(Mutex<usize>, Condvar)>);

impl Waiting {
    /// Waits until fewer than [`MOST`] batches sent are not merged yet, then counts one more;
    /// gives up waiting once `gone` says the explorer stopped taking them (it quit).
    pub fn before_send(&self, gone: impl Fn() -> bool) {
        let (count, merged) = &*self.0;
        let mut n = count.lock().unwrap_or_else(PoisonError::into_inner);
        while *n >= MOST && !gone() {
            n = merged
                .wait_timeout(n, Duration::from_millis(100))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        *n += 1;
    }

    /// Notes a batch merged.
    pub fn merged(&self) {
        let (count, merged) = &*self.0;
        let mut n = count.lock().unwrap_or_else(PoisonError::into_inner);
        *n = n.saturating_sub(1);
        merged.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sender_waits_for_a_merge_once_the_most_are_waiting() {
        let waiting = Waiting::default();
        for _ in 0..MOST {
            waiting.before_send(|| false);
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let sender = {
            let waiting = waiting.clone();
            std::thread::spawn(move || {
                waiting.before_send(|| false);
                tx.send(()).unwrap();
            })
        };
        // Not sent while the most are waiting (the sender waits on the merge, not on time)...
        assert!(
            rx.recv_timeout(Duration::from_millis(300)).is_err(),
            "sent past the bound"
        );
        // ...and sent once one is merged.
        waiting.merged();
        rx.recv().unwrap();
        sender.join().unwrap();
    }

    #[test]
    fn the_sender_stops_waiting_when_the_explorer_is_gone() {
        let waiting = Waiting::default();
        for _ in 0..MOST {
            waiting.before_send(|| false);
        }
        waiting.before_send(|| true);
    }
}
