//! `callscope demo-data`: a generated dataset as NDJSON on stdout.

use super::{Ended, Failure};

pub fn run(events: usize, seed: u64) -> Result<Ended, Failure> {
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::with_capacity(crate::output::OUTPUT_BUFFER, stdout.lock());
    match crate::generator::write_ndjson(out, events, seed) {
        Ok(()) => Ok(Ended::Done),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Ended::Done),
        Err(e) => Err(Failure::runtime(format!("cannot write the dataset: {e}"))),
    }
}
