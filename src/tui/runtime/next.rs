//! What the explorer's loop answers next, of everything that can be ready at once: a signal,
//! the terminal, the clocks, the background results and idle work, in that order.

use futures::StreamExt;
use tokio::sync::mpsc;

use crate::tui::action::Action;

/// What the loop answers next.
#[derive(Debug)]
pub(super) enum Next<E> {
    /// A signal asked it to stop, with its number.
    Stop(i32),
    /// From the terminal: an event, a failure to read one, or `None` once it is closed.
    Input(Option<std::io::Result<E>>),
    /// Follow mode's next run of the query is due.
    Follow,
    /// The header's clock is due.
    Tick,
    /// A background task's result (boxed: an action is hundreds of bytes, the other answers a few).
    Result(Box<Action>),
    /// Nothing waits, and `idle` work does: a turn of it (what is left of a find).
    Idle,
}

/// The next thing to answer, asked in order: a signal, the keyboard, the clocks, the background
/// results, and, when nothing else is ready and `idle` says work is left, an idle turn. A
/// signal and the clocks are ready once each; the results come before the idle turns, and a
/// key before both, so that a key typed while a find goes on in turns is answered within a
/// turn's time, and a load ahead of the merging (its batches always ready) holds neither a
/// signal nor a key.
pub(super) async fn next<E, I>(
    stop: &mut (impl Future<Output = i32> + Unpin),
    input: &mut I,
    follow_due: impl Future<Output = ()>,
    tick_due: impl Future<Output = ()>,
    results: &mut mpsc::UnboundedReceiver<Action>,
    idle: bool,
) -> Next<E>
where
    I: futures::Stream<Item = std::io::Result<E>> + Unpin,
{
    tokio::select! {
        biased;
        signal = stop => Next::Stop(signal),
        ev = input.next() => Next::Input(ev),
        () = follow_due => Next::Follow,
        () = tick_due => Next::Tick,
        Some(action) = results.recv() => Next::Result(Box::new(action)),
        () = std::future::ready(()), if idle => Next::Idle,
    }
}

#[cfg(test)]
mod tests {
    use std::future::{pending, ready};

    use futures::FutureExt;
    use futures::stream;

    use super::*;

    /// What the loop answers when the signal, the terminal, the two clocks, a result and idle
    /// work are each ready or not; `None` when it would wait.
    fn answered(
        signal: bool,
        key: bool,
        follow: bool,
        tick: bool,
        result: bool,
        idle: bool,
    ) -> Option<Next<u32>> {
        let (tx, mut rx) = mpsc::unbounded_channel();
        if result {
            tx.send(Action::Idle).unwrap();
        }
        let mut stop: std::pin::Pin<Box<dyn Future<Output = i32>>> = if signal {
            Box::pin(ready(15))
        } else {
            Box::pin(pending())
        };
        let mut input: std::pin::Pin<Box<dyn futures::Stream<Item = std::io::Result<u32>>>> = if key
        {
            Box::pin(stream::iter([Ok(7)]))
        } else {
            Box::pin(stream::pending())
        };
        let due = |on: bool| async move {
            if !on {
                pending::<()>().await;
            }
        };
        next(&mut stop, &mut input, due(follow), due(tick), &mut rx, idle).now_or_never()
    }

    fn name(next: Option<Next<u32>>) -> &'static str {
        match next {
            Some(Next::Stop(15)) => "stop",
            Some(Next::Input(Some(Ok(7)))) => "input",
            Some(Next::Follow) => "follow",
            Some(Next::Tick) => "tick",
            Some(Next::Result(action)) if matches!(*action, Action::Idle) => "result",
            Some(Next::Idle) => "idle",
            None => "wait",
            Some(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_signal_comes_first_then_a_key_then_the_clocks_then_the_results_then_idle_work() {
        // Of everything ready at once, each answer in turn once the ones before it are not.
        let order = [
            ((true, true, true, true, true, true), "stop"),
            ((false, true, true, true, true, true), "input"),
            ((false, false, true, true, true, true), "follow"),
            ((false, false, false, true, true, true), "tick"),
            ((false, false, false, false, true, true), "result"),
            ((false, false, false, false, false, true), "idle"),
            ((false, false, false, false, false, false), "wait"),
        ];
        for ((signal, key, follow, tick, result, idle), expected) in order {
            let got = name(answered(signal, key, follow, tick, result, idle));
            assert_eq!(
                got,
                expected,
                "{:?}",
                (signal, key, follow, tick, result, idle)
            );
        }
    }

    #[test]
    fn closed_results_with_nothing_else_ready_wait_rather_than_end_or_turn() {
        // Every background task ended (their senders dropped): the results' branch is left
        // out, and with no idle work the loop waits for a key, a signal or a clock.
        let (tx, mut rx) = mpsc::unbounded_channel::<Action>();
        drop(tx);
        let mut stop = pending::<i32>();
        let mut input = stream::pending::<std::io::Result<u32>>();
        let waits = next(
            &mut stop,
            &mut input,
            pending::<()>(),
            pending::<()>(),
            &mut rx,
            false,
        )
        .now_or_never();
        assert_eq!(name(waits), "wait");
        // With idle work left, a turn of it.
        let turn = next(
            &mut stop,
            &mut input,
            pending::<()>(),
            pending::<()>(),
            &mut rx,
            true,
        )
        .now_or_never();
        assert_eq!(name(turn), "idle");
    }
}
