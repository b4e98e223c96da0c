//! The fuzz targets' checks (`fuzz/checks.rs`) run on the stable toolchain over their seed
//! corpora (`fuzz/corpus/TARGET/`), the test fixtures, and for the NDJSON differential, every
//! cut of each seed and every place of a byte that changes JSON's structure: what a fuzzing run
//! starts from holds in every `cargo test`, and a crash a run finds can be added as a seed.

use std::path::{Path, PathBuf};

#[path = "../fuzz/checks.rs"]
mod checks;

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The seeds of `target`, and the fixtures every target starts from too.
fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_in(&root.join("fuzz/corpus").join(target));
    assert!(!files.is_empty(), "{target} has seeds");
    files.extend(files_in(&root.join("tests/fixtures")));
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

fn each_seed(target: &str, check: fn(&[u8])) {
    for (path, bytes) in seeds(target) {
        let result = std::panic::catch_unwind(|| check(&bytes));
        assert!(result.is_ok(), "{target} fails on {}", path.display());
    }
}

#[test]
fn the_dump_reader_holds_on_its_seeds() {
    each_seed("dump_reader", checks::dump_reader);
}

#[test]
fn the_event_model_holds_on_its_seeds() {
    each_seed("event_model", checks::event_model);
}

#[test]
fn the_filter_parsers_hold_on_their_seeds() {
    each_seed("filter_parsers", checks::filter_parsers);
}

#[test]
fn the_fast_path_and_the_full_path_agree_on_every_seed_cut_and_damaged() {
    let mut inputs = 0;
    for (path, bytes) in seeds("ndjson_differential") {
        checks::ndjson_differential(&bytes);
        if bytes.len() > 600 {
            continue;
        }
        for cut in 1..bytes.len() {
            let result = std::panic::catch_unwind(|| checks::ndjson_differential(&bytes[..cut]));
            assert!(
                result.is_ok(),
                "{} cut at {cut}: {:?}",
                path.display(),
                String::from_utf8_lossy(&bytes[..cut])
            );
            inputs += 1;
        }
        for at in 0..bytes.len() {
            for &b in br#""\{}[]:,x"# {
                let mut damaged = bytes.clone();
                damaged[at] = b;
                let result = std::panic::catch_unwind(|| checks::ndjson_differential(&damaged));
                assert!(
                    result.is_ok(),
                    "{}: byte {at} as {:?}: {:?}",
                    path.display(),
                    b as char,
                    String::from_utf8_lossy(&damaged)
                );
                inputs += 1;
            }
        }
    }
    assert!(inputs > 1000, "{inputs}");
}
