#![no_main]

// The checks of every target, of which this one runs one.
#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::dump_reader(data));
