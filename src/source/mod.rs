//! Where events come from: saved dumps, the bundled demo, and the live API. Every source
//! produces [`Batch`]es that a [`Store`](crate::store::Store) merges, so nothing downstream needs
//! to know where an event came from.

pub mod api;
pub mod demo;
pub mod dump;
pub mod live;
pub mod merge;
pub mod ndjson;
mod ordered;
pub mod token;
pub mod worker;

use crate::store::Batch;
pub use dump::DumpProblem;

/// Events in the first batch of a file: enough for a first screen, small enough to be read at once.
const FIRST_BATCH: usize = 2_000;

/// Reads every file named by the arguments (folders expanded, `-` for stdin), in order, handing
/// each file's batch to `on_batch` as soon as it is read. Returns the problems met; a file that
/// cannot be opened is a problem and the others are still read.
pub fn load_files(args: &[String], mut on_batch: impl FnMut(&str, Batch)) -> Vec<DumpProblem> {
    // One read for all the files, so that the next file's batches fill the spares of the last.
    let reading = crate::store::Reading::start();
    let mut problems = Vec::new();
    for arg in args {
        let paths = match dump::expand(arg) {
            Ok(paths) => paths,
            Err(p) => {
                problems.push(p);
                continue;
            }
        };
        for path in paths {
            let name = dump::display_name(&path);
            problems.extend(dump::read_path_in_batches(
                &path,
                &reading,
                FIRST_BATCH,
                &mut |batch| on_batch(&name, batch),
            ));
        }
    }
    problems
}
