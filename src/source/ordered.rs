//! Work on every core, handed over in order: the pieces of a large dump are read in parallel,
//! and their batches reach the store in file order (so the first copy of an id is the one kept,
//! as on one thread).

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

/// How many threads read a source's pieces side by side: one per thread of rayon's pool, at
/// most 8. Each holds a piece (up to 32 MiB of a stream) and its batches in memory while it
/// reads: on a machine of more cores, the bound keeps that memory to what eight threads hold.
pub fn threads() -> usize {
    rayon::current_num_threads().min(8)
}

/// How many items, counting the one being handed over, may be started: one more than the
/// threads, so that a worker whose item finished early rarely idles, and few values wait in
/// memory.
fn window(threads: usize) -> usize {
    threads + 1
}

/// Runs `work` on items `0..count` on `threads` threads, and hands the values each sends to
/// `take` on the calling thread in item order: every value of item `k` (in the order sent)
/// before any of item `k + 1`. A worker starts item `k` only once the items before
/// `k - threads` are handed over, so that however slow `take` or one item is, few values wait.
///
/// A panic in `work` or `take` stops every worker (none waits for an item that will never be
/// handed over) and is raised again on the calling thread.
pub fn in_order<T: Send>(
    count: usize,
    threads: usize,
    work: impl Fn(usize, &mut dyn FnMut(T)) + Sync,
    take: impl FnMut(T),
) {
    in_order_from(0..count, threads, |k, _, send| work(k, send), take);
}

/// [`in_order`] over the items `items` yields, numbered from 0, as they come: a worker takes the
/// next item only when it may start it, so an item that comes from a channel waits there, not in
/// memory, while the items before it are handed over. `work` is given each item with its number.
/// A worker waiting for the next item (a channel's next message) is stopped by a panic only once
/// that item has come.
pub fn in_order_from<I: Send, T: Send>(
    items: impl Iterator<Item = I> + Send,
    threads: usize,
    work: impl Fn(usize, I, &mut dyn FnMut(T)) + Sync,
    mut take: impl FnMut(T),
) {
    enum Sent<T> {
        Value(usize, T),
        Done(usize),
    }
    let most = items.size_hint().1.unwrap_or(usize::MAX);
    let threads = threads.clamp(1, most.max(1));
    // The items, and the number of the next one.
    let source = Mutex::new((items.fuse(), 0usize));
    // The number of items handed over, or `None` once a thread has panicked.
    let handed = Mutex::new(Some(0usize));
    let moved = Condvar::new();
    // Whether item `k` may start now; `None` to stop.
    let may_start = |k: usize| -> Option<()> {
        let mut handed = handed.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match *handed {
                None => return None,
                Some(h) if k < h + window(threads) => return Some(()),
                Some(_) => handed = moved.wait(handed).unwrap_or_else(|e| e.into_inner()),
            }
        }
    };
    // The next item and its number, once it may start; `None` when there are no more or the
    // workers are to stop. The items are taken one at a time, in their order.
    let next = || -> Option<(usize, I)> {
        let mut source = source.lock().unwrap_or_else(|e| e.into_inner());
        let k = source.1;
        may_start(k)?;
        let item = source.0.next()?;
        source.1 += 1;
        Some((k, item))
    };
    /// Stops every worker when dropped during a panic of its thread.
    struct StopOnPanic<'a>(&'a Mutex<Option<usize>>, &'a Condvar);
    impl Drop for StopOnPanic<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
                self.1.notify_all();
            }
        }
    }
    let (tx, rx) = mpsc::channel::<Sent<T>>();
    std::thread::scope(|scope| {
        let mut workers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, work) = (&next, &work);
            let guard = (&handed, &moved);
            workers.push(scope.spawn(move || {
                let _stop = StopOnPanic(guard.0, guard.1);
                while let Some((k, item)) = next() {
                    work(k, item, &mut |value| drop(tx.send(Sent::Value(k, value))));
                    if tx.send(Sent::Done(k)).is_err() {
                        break;
                    }
                }
            }));
        }
        drop(tx);
        let _stop = StopOnPanic(&handed, &moved);
        // The item being handed over, and what later items sent before their turn.
        let mut current = 0;
        let mut waiting: BTreeMap<usize, Vec<Sent<T>>> = BTreeMap::new();
        let finish = |current: &mut usize| {
            *current += 1;
            let mut handed = handed.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(h) = handed.as_mut() {
                *h = *current;
            }
            moved.notify_all();
        };
        for sent in rx {
            let k = match &sent {
                Sent::Value(k, _) | Sent::Done(k) => *k,
            };
            if k != current {
                waiting.entry(k).or_default().push(sent);
                continue;
            }
            match sent {
                Sent::Value(_, value) => {
                    take(value);
                    continue;
                }
                Sent::Done(_) => finish(&mut current),
            }
            // A worker sends an item's `Done` last: a later item is handed over whole when it
            // is done, else as far as it has come.
            while let Some(sent) = waiting.remove(&current) {
                let mut done = false;
                for s in sent {
                    match s {
                        Sent::Value(_, value) => take(value),
                        Sent::Done(_) => done = true,
                    }
                }
                if !done {
                    break;
                }
                finish(&mut current);
            }
        }
        // A worker's panic, raised as it was (the scope would raise one of its own).
        for worker in workers {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn values_are_handed_over_in_item_order_whatever_order_they_are_made_in() {
        for threads in [1, 2, 3, 8] {
            let mut got = Vec::new();
            in_order(
                40,
                threads,
                |k, send| {
                    for part in 0..(k % 4) {
                        send((k, part));
                    }
                },
                |v| got.push(v),
            );
            let want: Vec<(usize, usize)> = (0..40)
                .flat_map(|k| (0..k % 4).map(move |p| (k, p)))
                .collect();
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn an_item_made_before_its_turn_waits_for_the_items_before_it() {
        // Item 0 is made only once item 1 has sent everything: item 1's values arrive first.
        let one_sent = (Mutex::new(false), Condvar::new());
        let mut got = Vec::new();
        in_order(
            4,
            2,
            |k, send| {
                if k == 0 {
                    let mut sent = one_sent.0.lock().unwrap();
                    while !*sent {
                        sent = one_sent.1.wait(sent).unwrap();
                    }
                }
                send((k, 'a'));
                send((k, 'b'));
                if k == 1 {
                    *one_sent.0.lock().unwrap() = true;
                    one_sent.1.notify_all();
                }
            },
            |v| got.push(v),
        );
        let want: Vec<(usize, char)> = (0..4).flat_map(|k| [(k, 'a'), (k, 'b')]).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn no_item_starts_further_ahead_than_allowed_of_the_one_being_handed_over() {
        // Two threads: while item 0's value is being taken, items 1 and 2 may run (one per
        // thread, one more waiting), and item 3 must wait until item 0 is handed over.
        let finished = (Mutex::new(0usize), Condvar::new());
        let zero_handed = std::sync::atomic::AtomicBool::new(false);
        let mut got = Vec::new();
        in_order(
            10,
            2,
            |k, send| {
                if k >= 3 {
                    assert!(zero_handed.load(Ordering::SeqCst), "item {k} ran ahead");
                }
                send(k);
                *finished.0.lock().unwrap() += 1;
                finished.1.notify_all();
            },
            |v| {
                if v == 0 {
                    let mut n = finished.0.lock().unwrap();
                    while *n < 3 {
                        n = finished.1.wait(n).unwrap();
                    }
                    zero_handed.store(true, Ordering::SeqCst);
                }
                got.push(v);
            },
        );
        assert_eq!(got, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn items_of_an_iterator_are_taken_from_it_only_when_they_may_start() {
        for threads in [1, 2, 3] {
            let pulled = std::sync::atomic::AtomicUsize::new(0);
            let items = (100..130).inspect(|_| {
                pulled.fetch_add(1, Ordering::SeqCst);
            });
            let mut got = Vec::new();
            in_order_from(
                items,
                threads,
                |k, item, send| {
                    assert_eq!(item, 100 + k, "items are numbered in the order they come");
                    send(k);
                },
                |k| {
                    // Items before k are handed over: no more than a window past them is taken.
                    let pulled = pulled.load(Ordering::SeqCst);
                    assert!(pulled <= k + window(threads), "{pulled} taken at item {k}");
                    got.push(k);
                },
            );
            assert_eq!(got, (0..30).collect::<Vec<_>>(), "{threads} threads");
        }
    }

    /// Runs `f` on a thread of its own and gives what it panicked with, failing if it has not
    /// ended within a minute (a hang would otherwise stop the tests).
    fn panic_of(f: impl FnOnce() + Send + 'static) -> String {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let _ = tx.send(result);
        });
        let result = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("in_order neither returned nor panicked: it hangs");
        let panic = result.expect_err("no panic");
        panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default()
    }

    #[test]
    fn a_panic_in_an_item_stops_the_others_and_is_raised_as_it_was() {
        let message = panic_of(|| {
            in_order(
                100,
                2,
                |k, send| {
                    if k == 1 {
                        panic!("item 1 failed");
                    }
                    send(k);
                },
                |_| {},
            )
        });
        assert_eq!(message, "item 1 failed");
    }

    #[test]
    fn a_panic_while_taking_a_value_stops_the_workers_waiting_their_turn() {
        // Workers are waiting for item 0 to be handed over when its taking panics.
        let message = panic_of(|| {
            in_order(
                20,
                2,
                |k, send| send(k),
                |v| {
                    if v == 0 {
                        panic!("taking item 0 failed");
                    }
                },
            )
        });
        assert_eq!(message, "taking item 0 failed");
    }
}
