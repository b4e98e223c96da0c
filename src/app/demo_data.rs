//! `callscope demo-data`: a generated dataset, its events as NDJSON on stdout, or the whole of it
//! (events, rooms, sessions, peer quality stats) as a folder that callscope reads.

use std::path::Path;

use super::{Ended, Failure};
use crate::generator::{Dataset, write_ndjson};
use crate::output::{FOLDER_EVENTS, FOLDER_ROOMS, FOLDER_SESSIONS, FOLDER_STATS};

pub fn run(events: usize, seed: u64, out: Option<&Path>) -> Result<Ended, Failure> {
    match out {
        Some(dir) => write_folder(dir, events, seed),
        None => {
            let stdout = std::io::stdout();
            let out =
                std::io::BufWriter::with_capacity(crate::output::OUTPUT_BUFFER, stdout.lock());
            match write_ndjson(out, events, seed) {
                Ok(()) => Ok(Ended::Done),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Ended::Done),
                Err(e) => Err(Failure::runtime(format!("cannot write the dataset: {e}"))),
            }
        }
    }
}

/// Writes one file of a dataset.
type Writer = fn(&Dataset, &mut dyn std::io::Write) -> std::io::Result<()>;

/// Writes the four files into `dir` (made if missing), each atomically (a file is either the
/// whole new one or whatever was there before), under the names `list --output DIR/` uses.
/// Other files callscope reads there stop it before it begins, as they stop `list`
/// ([`crate::output::refuse_others`]): they would be read as part of the dataset.
fn write_folder(dir: &Path, events: usize, seed: u64) -> Result<Ended, Failure> {
    crate::output::refuse_others(dir).map_err(Failure::Usage)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::runtime(format!("cannot make the folder {}: {e}", dir.display())))?;
    let dataset = Dataset::new(events, seed);
    let files: [(&str, Writer); 4] = [
        (FOLDER_EVENTS, |d, w| d.write_events(w)),
        (FOLDER_ROOMS, |d, w| d.write_rooms(w)),
        (FOLDER_SESSIONS, |d, w| d.write_sessions(w)),
        (FOLDER_STATS, |d, w| d.write_peer_stats(w)),
    ];
    for (name, write) in files {
        let path = dir.join(name);
        crate::output::write_atomically(&path, |w| write(&dataset, w))
            .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(Ended::Done)
}
