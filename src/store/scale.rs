//! How the text search scales: a million generated events, timed.

use crate::filter::Filter;
use crate::store::Store;

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
