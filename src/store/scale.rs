//! How the text search scales: a million generated events, timed.

use crate::filter::Filter;
use crate::store::{Needle, Store};

/// A dump of `events` demo events written to a file and loaded the way the explorer loads it.
pub(crate) fn generated_dump_loaded(events: usize) -> Store {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("generated.ndjson");
    let file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    crate::generator::write_ndjson(file, events, crate::generator::DEMO_SEED).unwrap();
    let mut s = Store::new();
    let problems = crate::source::load_files(&[path.to_string_lossy().into_owned()], |_, batch| {
        s.merge(batch);
    });
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.len(), events);
    s
}

/// The store a scale test times: the dump at `SCALE_DUMP` when set (loaded as the explorer loads
/// it), else `SCALE_EVENTS` events of the generator (default `events`), generated and loaded.
pub(crate) fn scale_dump_loaded(events: usize) -> Store {
    if let Ok(path) = std::env::var("SCALE_DUMP") {
        let mut s = Store::new();
        let problems = crate::source::load_files(&[path], |_, batch| {
            s.merge(batch);
        });
        assert!(problems.is_empty(), "{problems:?}");
        return s;
    }
    let events = std::env::var("SCALE_EVENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(events);
    generated_dump_loaded(events)
}

/// `cargo test --release --lib store::scale -- --ignored --nocapture` (`SCALE_EVENTS=5000000`
/// or `SCALE_DUMP=path` for another size)
#[test]
#[ignore]
fn searching_a_million_events_is_interactive() {
    // The allocator as every callscope command sets it up (see `commands::main`).
    crate::memory::give_back_large_blocks();
    let s = scale_dump_loaded(1_000_000);
    println!(
        "{} events, {} distinct strings, {} sets of others, {} searched in their JSON",
        s.len(),
        s.strings().len(),
        s.sets().len(),
        s.rows().iter().filter(|r| r.search_raw()).count()
    );
    for text in [
        "sfu-prod-in2-07",
        "ice",
        "500",
        "no such text",
        "2026-11-18T09",
        "a6e7",
    ] {
        let filter = Filter {
            search: Some(text.to_string()),
            ..Filter::default()
        };
        let t = std::time::Instant::now();
        let n = s.filter(&filter).len();
        let first = t.elapsed();
        // Other work on the machine only ever adds time: the best of a few runs is the figure.
        let again = (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                s.filter(&filter);
                t.elapsed()
            })
            .min()
            .unwrap();
        println!("{text:>16}: {n:>7} events, first search {first:?}, again {again:?}");
    }
    // A search set and a find beside it, asked in turn as each refresh asks them: the answers
    // for the strings of each (the pass over every row aside), best of three.
    let texts = [Needle::new("sfu-prod-in2-07"), Needle::new("4006")];
    let mut best = [std::time::Duration::MAX; 2];
    for _ in 0..3 {
        for (needle, best) in texts.iter().zip(&mut best) {
            let t = std::time::Instant::now();
            s.search_bits(needle);
            *best = (*best).min(t.elapsed());
        }
    }
    println!("a search and a find in turn: their answers in {best:?}");
}

/// The find as the explorer runs it while its text is typed: `4` looks at every event, then
/// each longer text only at the events the text before found; before it, every event's numbers
/// read on this one thread, as the explorer reads them ahead once loaded.
///
/// `SCALE_DUMP=e5m.ndjson cargo test --release --lib store::scale::finding -- --ignored --nocapture`
#[test]
#[ignore]
fn finding_as_typed() {
    crate::memory::give_back_large_blocks();
    let s = scale_dump_loaded(1_000_000);
    let t = std::time::Instant::now();
    if let Some(work) = s.number_work(usize::MAX) {
        work.read();
    }
    println!(
        "{} events, their numbers read in {:?}",
        s.len(),
        t.elapsed()
    );
    for round in 1..=3 {
        let mut hits: Option<Vec<u32>> = None;
        let mut times = Vec::new();
        for text in ["4", "40", "400", "4006"] {
            let filter = Filter {
                search: Some(text.to_string()),
                ..Filter::default()
            };
            let t = std::time::Instant::now();
            let found = match &hits {
                None => s.filter(&filter),
                Some(before) => s.matching_among(&filter, before),
            };
            times.push(format!("{text} {:?} ({} events)", t.elapsed(), found.len()));
            hits = Some(found);
        }
        println!("round {round}: {}", times.join(", "));
    }
}

/// The processor time of the whole process so far (every thread's, user and system), from
/// `/proc/self/stat`, in clock ticks of 10 ms.
pub(crate) fn process_cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name (in parentheses, which may hold spaces): utime and
    // stime are the 12th and 13th of them.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Loads the dump at `SCALE_DUMP` (else `SCALE_EVENTS` generated events, 1M) `SCALE_RUNS` times
/// (3) the way `scale_dump_loaded` does, merging each batch on this thread as it comes, and
/// prints for each load its time, the processor time of the whole process, the time spent
/// merging, and `RssAnon` once loaded and at its largest, sampled every 2 ms meanwhile.
///
/// `SCALE_DUMP=e1m.ndjson cargo test --release --lib store::scale::loading -- --ignored --nocapture`
#[test]
#[ignore]
fn loading_timed() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};
    crate::memory::give_back_large_blocks();
    let runs: usize = std::env::var("SCALE_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let generated;
    let path = match std::env::var("SCALE_DUMP") {
        Ok(path) => path,
        Err(_) => {
            let events = std::env::var("SCALE_EVENTS")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(1_000_000);
            generated = tempfile::tempdir().unwrap();
            let path = generated.path().join("generated.ndjson");
            let file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
            crate::generator::write_ndjson(file, events, crate::generator::DEMO_SEED).unwrap();
            path.to_string_lossy().into_owned()
        }
    };
    let size = std::fs::metadata(&path).unwrap().len() as f64;
    for run in 1..=runs {
        let sampling = AtomicBool::new(true);
        let peak = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while sampling.load(Ordering::Relaxed) {
                    peak.fetch_max(rss_anon_kib().unwrap_or(0), Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(2));
                }
            });
            let cpu = process_cpu_ticks();
            let t = Instant::now();
            let mut merging = Duration::ZERO;
            let mut s = Store::new();
            let trace = std::env::var_os("SCALE_TRACE").is_some();
            let problems = crate::source::load_files(std::slice::from_ref(&path), |_, batch| {
                let m = Instant::now();
                let batch_bytes = trace.then(|| batch.heap());
                s.merge(batch);
                merging += m.elapsed();
                if let Some(batch_bytes) = batch_bytes {
                    // Where the memory is after each merge: the store's, a batch's, the rest.
                    let store: super::footprint::Bytes =
                        s.footprint().iter().map(|(_, b)| *b).sum();
                    println!(
                        "{} events: RssAnon {:.1} MiB, the store's {:.1} MiB in use ({:.1} allocated), a batch {:.1} MiB",
                        s.len(),
                        rss_anon_kib().unwrap_or(0) as f64 / 1024.0,
                        store.used as f64 / 1048576.0,
                        store.allocated as f64 / 1048576.0,
                        batch_bytes.allocated as f64 / 1048576.0,
                    );
                }
            });
            let took = t.elapsed();
            let cpu = process_cpu_ticks().zip(cpu).map(|(b, a)| b - a);
            sampling.store(false, Ordering::Relaxed);
            assert!(problems.is_empty(), "{problems:?}");
            let loaded = rss_anon_kib().unwrap_or(0);
            let peak = peak.load(Ordering::Relaxed).max(loaded);
            let share = |kib: usize| kib as f64 * 1024.0 / size * 100.0;
            println!(
                "run {run}: {} events in {:.3} s, processor {:.2} s, merging {:.3} s; RssAnon \
                 {:.1} MiB loaded ({:.1}%), {:.1} MiB at most ({:.1}%)",
                s.len(),
                took.as_secs_f64(),
                cpu.map_or(f64::NAN, |c| c as f64 / 100.0),
                merging.as_secs_f64(),
                loaded as f64 / 1024.0,
                share(loaded),
                peak as f64 / 1024.0,
                share(peak),
            );
            drop(s);
            crate::memory::release_freed();
        });
    }
}

/// The processor time this thread has had so far, from `/proc/thread-self/schedstat`: other
/// work on the machine delays it but does not add to it.
fn thread_cpu() -> std::time::Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns = stat.split(' ').next().and_then(|n| n.parse().ok());
    std::time::Duration::from_nanos(ns.unwrap_or(0))
}

/// Builds the batches of the first `SCALE_PIECES` (8) pieces of 32 MiB of the dump at
/// `SCALE_DUMP`, one after the other on this thread as a reading's worker builds them, merging
/// each into a store after it is built; `SCALE_RUNS` (5) times, and prints the processor time
/// this thread took building and merging in each run (the least of them is the figure: other
/// work on the machine only adds to it, through the caches it shares).
///
/// `SCALE_DUMP=e1m.ndjson cargo test --release --lib store::scale::building -- --ignored --nocapture`
#[test]
#[ignore]
fn building_and_merging_timed() {
    use crate::store::{Blob, Reading};
    use std::sync::Arc;
    use std::time::Duration;
    crate::memory::give_back_large_blocks();
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(default)
    };
    let (runs, pieces) = (env("SCALE_RUNS", 5), env("SCALE_PIECES", 8));
    let path = std::env::var("SCALE_DUMP").expect("SCALE_DUMP names a line-delimited dump");
    let piece = 32 << 20;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(
            std::fs::File::open(&path).unwrap(),
            (pieces as u64 + 1) * piece as u64,
        ),
        &mut bytes,
    )
    .unwrap();
    bytes.truncate(memchr::memrchr(b'\n', &bytes).map_or(0, |i| i + 1));
    let mut ends = vec![0];
    while ends.len() <= pieces && *ends.last().unwrap() < bytes.len() {
        let at = (ends.last().unwrap() + piece).min(bytes.len());
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        ends.push(end);
    }
    let blob = Arc::new(Blob::Owned(bytes));
    let (mut building, mut merging) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let reading = Reading::start();
        let mut store = Store::new();
        let (mut built, mut merged) = (Duration::ZERO, Duration::ZERO);
        for w in ends.windows(2) {
            let t = thread_cpu();
            let mut builder = reading.builder(Arc::clone(&blob)).events_only();
            let mut start = w[0];
            for line in blob[w[0]..w[1]].split_inclusive(|&b| b == b'\n') {
                let end = start + line.len();
                let trimmed = line.strip_suffix(b"\n").unwrap_or(line);
                if !trimmed.is_empty() {
                    builder.push(start, start + trimmed.len()).unwrap();
                }
                start = end;
            }
            let batch = builder.finish();
            let m = thread_cpu();
            store.merge(batch);
            built += m - t;
            merged += thread_cpu() - m;
        }
        println!(
            "{} events: building {:.3} s, merging {:.3} s",
            store.len(),
            built.as_secs_f64(),
            merged.as_secs_f64()
        );
        building.push(built);
        merging.push(merged);
    }
    building.sort();
    merging.sort();
    println!(
        "least of {runs}: building {:.3} s, merging {:.3} s; median building {:.3} s, merging {:.3} s",
        building[0].as_secs_f64(),
        merging[0].as_secs_f64(),
        building[runs / 2].as_secs_f64(),
        merging[runs / 2].as_secs_f64()
    );
}

/// The RssAnon line of `/proc/self/status`, in KiB, where there is one.
fn rss_anon_kib() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("RssAnon:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

/// What each structure of a loaded store holds, per event, then once the numbers are read. The
/// dump is `SCALE_DUMP` when set, else generated (`SCALE_EVENTS`, 5M): see [`scale_dump_loaded`].
///
/// `cargo test --release --lib store::scale::footprint -- --ignored --nocapture`
#[test]
#[ignore]
fn footprint_of_each_structure() {
    crate::memory::give_back_large_blocks();
    let s = scale_dump_loaded(5_000_000);
    crate::memory::release_freed();
    let n = s.len();
    let mib = |b: usize| b as f64 / 1048576.0;
    let table = |s: &Store| {
        println!(
            "| structure | MiB in use | MiB allocated | bytes an event |\n|---|---:|---:|---:|"
        );
        let parts = s.footprint();
        for (name, bytes) in &parts {
            println!(
                "| {name} | {:.1} | {:.1} | {:.1} |",
                mib(bytes.used),
                mib(bytes.allocated),
                bytes.used as f64 / n as f64
            );
        }
        let all: super::footprint::Bytes = parts.iter().map(|(_, b)| *b).sum();
        println!(
            "| all | {:.1} | {:.1} | {:.1} |",
            mib(all.used),
            mib(all.allocated),
            all.used as f64 / n as f64
        );
        if let Some(kib) = rss_anon_kib() {
            println!("RssAnon of the process: {:.1} MiB", kib as f64 / 1024.0);
        }
    };
    println!(
        "{n} events; a row {} bytes, located {} bytes, a batch's row {} bytes and id {} bytes",
        std::mem::size_of::<super::Row>(),
        std::mem::size_of::<super::Located>(),
        std::mem::size_of::<(super::Row, super::Located)>(),
        std::mem::size_of::<super::IdKey>(),
    );
    println!(
        "{} not located (search_raw), {} track rows",
        s.rows().iter().filter(|r| r.search_raw()).count(),
        s.track_rows().len()
    );
    table(&s);
    let work = s.number_work(usize::MAX).expect("numbers not read yet");
    println!(
        "the numbers' read-ahead holds {:.1} MiB of where each event is",
        mib(work.places.heap().allocated)
    );
    work.read();
    crate::memory::release_freed();
    println!("numbers read:");
    table(&s);
}
