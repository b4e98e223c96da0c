//! How the insight computations scale: a million generated events, timed.

use crate::insight::Groups;
use crate::insight::testing::all;
use crate::insight::{GroupKey, GroupSort};

/// `cargo test --release --lib insight::scale -- --ignored --nocapture` (`SCALE_EVENTS=5000000`
/// or `SCALE_DUMP=path` for another size)
#[test]
#[ignore]
fn grouping_a_million_events_is_interactive() {
    // The allocator as every callscope command sets it up (see `commands::main`).
    crate::memory::give_back_large_blocks();
    let s = crate::store::scale::scale_dump_loaded(1_000_000);
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
    // What the groups view draws besides: the sparklines of a page of groups (16 buckets).
    for key in [GroupKey::Error, GroupKey::Peer] {
        let (t, _) = best(&mut || {
            let g = Groups::compute(&s, &shown, key, GroupSort::Count);
            let drawn = (0..g.len().min(40))
                .map(|k| g.sparkline(&s, k, 16).len())
                .sum::<usize>();
            g.len() + drawn
        });
        println!("{:>6} with a page of sparklines: {t:?}", key.name());
    }
    let (t, _) = best(&mut || crate::insight::facets(&s, &shown, 5).len());
    println!("facets: {t:?}");
    // What key `e` counts besides the groups: the facets of the largest group by error.
    let by_error = Groups::compute(&s, &shown, GroupKey::Error, GroupSort::Count);
    let largest = by_error.members(0);
    let (t, _) = best(&mut || crate::insight::facets(&s, largest, 5).len());
    println!(
        "facets of the largest group ({} events): {t:?}",
        largest.len()
    );
    drop(by_error);
    // What keys 3 and t filter, and key o sorts, over every event.
    use crate::event::EventType;
    use crate::filter::Filter;
    let joins = Filter {
        types: vec![EventType::Join],
        ..Filter::default()
    };
    let (t, n) = best(&mut || s.filter(&joins).len());
    println!("filter by type: {n} events in {t:?}");
    let finals = Filter {
        terminal: Some(true),
        ..Filter::default()
    };
    let (t, n) = best(&mut || s.filter(&finals).len());
    println!("filter final errors: {n} events in {t:?}");
    let mut index = crate::insight::OrderIndex::default();
    index.extend(&s);
    // What keys 3 and t arrange in the list's order: the join type off (most events kept), and
    // the final errors only; against one loop that watches for the anchor at every row.
    let not_joins = Filter {
        types: EventType::KNOWN
            .iter()
            .filter(|t| **t != EventType::Join)
            .cloned()
            .collect(),
        ..Filter::default()
    };
    let oldest = crate::insight::Order::default();
    let all_rows = index.ordered(&s, oldest).to_vec();
    let anchor = all_rows[all_rows.len() / 2];
    for (what, filter) in [("the join type off", &not_joins), ("final errors", &finals)] {
        let members = s.filter(filter);
        let mut out = Vec::new();
        let (t, n) = best(&mut || {
            index.arrange_around(&s, oldest, &members, Some(anchor), &mut out);
            out.len()
        });
        let (one_loop, _) = best(&mut || {
            let mut member = vec![0u64; all_rows.len().div_ceil(64)];
            for &i in &members {
                member[i as usize / 64] |= 1 << (i % 64);
            }
            out.clear();
            let (mut at, mut passed) = (None, false);
            for &i in &all_rows {
                passed = passed || i == anchor;
                if member[i as usize / 64] & (1 << (i % 64)) != 0 {
                    if passed && at.is_none() {
                        at = Some(out.len());
                    }
                    out.push(i);
                }
            }
            at.unwrap_or(0)
        });
        println!("the list arranged, {what}: {n} rows in {t:?}, in one loop {one_loop:?}");
    }
    for key in [crate::insight::SortKey::Type, crate::insight::SortKey::Time] {
        // Key o's first sort (by type, oldest first), and key O (by time, newest first).
        let order = crate::insight::Order {
            key,
            newest_first: key == crate::insight::SortKey::Time,
        };
        // Afresh each time, as when the key changes (a copy made before the clock starts).
        let (t, n) = (0..5)
            .map(|_| {
                let mut index = index.clone();
                let t = std::time::Instant::now();
                let n = index.ordered(&s, order).len();
                (t.elapsed(), n)
            })
            .min()
            .unwrap();
        println!("{}: {n} rows in {t:?}", order.describe());
    }
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

/// What keys `e` and Shift-Tab group (every event by error, then by peer in the memory of the
/// grouping by error), each with what the groups view then reads (a page of sparklines, the
/// largest group's events), as `recompute` does it and with every grouping put in lists (the
/// way before a grouping of few groups was counted in one pass), in turn:
/// `SCALE_DUMP=path cargo test --release --lib insight::scale::keys_e -- --ignored --nocapture`.
#[test]
#[ignore]
fn keys_e_and_shift_tab_against_lists() {
    crate::memory::give_back_large_blocks();
    let s = crate::store::scale::scale_dump_loaded(1_000_000);
    let shown = all(&s);
    let parts = rayon::current_num_threads();
    let group = |old: Groups, key: GroupKey, in_lists: bool| {
        if in_lists {
            Groups::in_lists(old, &s, &shown, key, GroupSort::Count, parts)
        } else {
            Groups::recompute(old, &s, &shown, key, GroupSort::Count)
        }
    };
    let viewed = |g: &Groups| {
        let drawn: usize = (0..g.len().min(40))
            .map(|k| g.sparkline(&s, k, 16).len())
            .sum();
        drawn + g.members(0).len()
    };
    let mut times = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
    for _ in 0..5 {
        for (way, in_lists) in [false, true].into_iter().enumerate() {
            let t = std::time::Instant::now();
            let errors = group(Groups::default(), GroupKey::Error, in_lists);
            viewed(&errors);
            times[way][0].push(t.elapsed());
            let t = std::time::Instant::now();
            let peers = group(errors, GroupKey::Peer, in_lists);
            viewed(&peers);
            times[way][1].push(t.elapsed());
        }
    }
    for (way, times) in ["now", "in lists"].iter().zip(&mut times) {
        for (key, times) in ["e", "Shift-Tab"].iter().zip(times.iter_mut()) {
            times.sort();
            println!(
                "{way:>8} {key:>9}: best {:?}, median {:?}",
                times[0],
                times[times.len() / 2]
            );
        }
    }
}

/// What the first `e` on a folder with its related data spends beside the grouping: the
/// outcome of every chain (did they get through), as the groups view's GOT THROUGH column
/// counts it. `callscope demo-data --events 1000000 --seed 1 --out DIR`, then
/// `SCALE_DIR=DIR cargo test --release --lib insight::scale::outcomes -- --ignored --nocapture`.
#[test]
#[ignore]
fn outcomes_of_every_chain_in_a_folder() {
    crate::memory::give_back_large_blocks();
    let Ok(dir) = std::env::var("SCALE_DIR") else {
        panic!("SCALE_DIR names the folder `callscope demo-data --out DIR` wrote");
    };
    let source = crate::source::Source::Files(vec![dir]);
    let (store, problems) = source.load_offline();
    assert!(problems.is_empty(), "{problems:?}");
    let related = source.related();
    let now = store.rows().iter().map(|r| r.ts).max().unwrap_or(0);
    let fetched = crate::insight::Fetched::default();
    // Beside the time, the processor time of all threads, which other work on the machine
    // disturbs less.
    let cpu = crate::store::scale::process_cpu_ticks;
    let (mut times, mut ticks) = (Vec::new(), Vec::new());
    let mut told = 0;
    // The chains alone, which the outcomes find first.
    let kinds = crate::insight::Kinds::of(&store);
    let chains = (0..5)
        .map(|_| {
            let t = std::time::Instant::now();
            let n = crate::insight::chains::every_chain(&store, &kinds)
                .chains
                .len();
            (t.elapsed(), n)
        })
        .min()
        .unwrap();
    println!("every chain: {} chains in best {:?}", chains.1, chains.0);
    for _ in 0..5 {
        let (t, before) = (std::time::Instant::now(), cpu());
        let table = crate::insight::outcomes(&store, &related, &fetched, now);
        times.push(t.elapsed());
        ticks.extend(cpu().zip(before).map(|(after, before)| after - before));
        told = table.iter().filter(|o| o.is_some()).count();
    }
    times.sort();
    ticks.sort();
    println!(
        "{} events, {} sessions: the outcomes of {told} events' chains in best {:?}, median {:?}; \
         processor time best {} ms, median {} ms",
        store.len(),
        related.sessions.len(),
        times[0],
        times[times.len() / 2],
        ticks.first().map_or(0, |t| t * 10),
        ticks.get(ticks.len() / 2).map_or(0, |t| t * 10),
    );
}
