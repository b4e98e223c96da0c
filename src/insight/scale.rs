//! How the insight computations scale: a million generated events, timed.

use crate::insight::Groups;
use crate::insight::testing::all;
use crate::insight::{GroupKey, GroupSort};

/// `cargo test --release --lib insight::scale -- --ignored --nocapture`
#[test]
#[ignore]
fn grouping_a_million_events_is_interactive() {
    // The allocator as every callscope command sets it up (see `commands::main`).
    crate::memory::give_back_large_blocks();
    let s = crate::store::scale::generated_dump_loaded(1_000_000);
    let shown = all(&s);
    // Other work on the machine only ever adds time: the best of a few runs is the figure.
    let best = |f: &mut dyn FnMut() -> usize| {
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                let n = f();
                (t.elapsed(), n)
            })
            .min()
            .unwrap()
    };
    let (t, _) = best(&mut || {
        shown.iter().fold(0usize, |a, &i| {
            a.wrapping_add(s.row(i as usize).ts as usize)
        })
    });
    println!("one pass over the rows: {t:?}");
    // Afresh, as `callscope groups` does, and in the memory of the grouping before, as the
    // explorer does when the key changes.
    let mut old = Groups::default();
    for key in GroupKey::ALL {
        let (t, n) = best(&mut || Groups::compute(&s, &shown, key, GroupSort::Count).len());
        let (again, _) = best(&mut || {
            old = Groups::recompute(std::mem::take(&mut old), &s, &shown, key, GroupSort::Count);
            old.len()
        });
        println!(
            "{:>6}: {n:>7} groups in {t:?}, in the memory of the last {again:?}",
            key.name()
        );
    }
    let (t, _) = best(&mut || crate::insight::facets(&s, &shown, 5).len());
    println!("facets: {t:?}");
    let (t, n) = best(&mut || {
        crate::insight::Timeline::compute(&s, &shown, 120)
            .buckets
            .len()
    });
    println!("timeline: {n} buckets in {t:?}");
    let last = s.len() - 1;
    let (t, n) = best(&mut || crate::insight::chain_at(&s, last).map_or(0, |c| c.chain.attempts()));
    println!("one event's chain (the detail pane): {n} attempts in {t:?}");
    let peer = s.row(last).peer_id;
    let (t, n) = best(&mut || crate::insight::story(&s, peer).events.len());
    println!("one peer's story: {n} events in {t:?}");
}
