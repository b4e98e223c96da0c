//! What the reading of a stream's pieces met besides their events: the problems of its lines,
//! told at their places in the whole stream, and what is said when its temporary file is lost.

use std::sync::Arc;

use crate::source::dump::envelope::Handed;
use crate::source::dump::scan::damage_in_first_bytes;
use crate::source::dump::{
    DumpProblem, MAX_PROBLEMS_PER_FILE, ScanError, positioned, problem, report,
};
use crate::store::Blob;

/// What a piece held besides its events.
pub(in crate::source) struct PieceRead {
    /// Its first problems, at their lines (from 1) and columns in the piece: no more than a file
    /// reports.
    pub(in crate::source) errors: Vec<((usize, usize), String)>,
    pub(in crate::source) total_errors: usize,
    /// How many line ends it holds.
    pub(in crate::source) lines: usize,
}

impl PieceRead {
    pub(in crate::source) fn of(bytes: &[u8], found: Vec<ScanError>) -> PieceRead {
        PieceRead {
            total_errors: found.len(),
            errors: positioned(bytes, found),
            lines: memchr::memchr_iter(b'\n', bytes).count(),
        }
    }
}

/// The problems of a stream's lines, told as its pieces are handed over in order: each piece's
/// lines numbered on from the lines of the pieces before it, the first few kept.
#[derive(Debug, Default)]
pub(in crate::source) struct LineProblems {
    errors: Vec<((usize, usize), String)>,
    total: usize,
    lines: usize,
}

impl LineProblems {
    /// Adds what the reading of the next piece met.
    pub(in crate::source) fn add(&mut self, piece: PieceRead) {
        for ((line, col), message) in piece.errors {
            if self.errors.len() < MAX_PROBLEMS_PER_FILE {
                self.errors.push(((self.lines + line, col), message));
            }
        }
        self.total += piece.total_errors;
        self.lines += piece.lines;
    }

    /// The problems of the stream named `name`: what `stopped` it (its temporary file lost, the
    /// damage met), if anything, then those of its lines.
    pub(in crate::source) fn into_problems(
        self,
        name: &str,
        stopped: Vec<DumpProblem>,
    ) -> Vec<DumpProblem> {
        let mut problems = stopped;
        report(name, self.errors, self.total, &mut problems);
        problems
    }
}

/// What is said of a stream whose bytes from `from` on went to its temporary file, which failed
/// (`e`), and could not be read back: the events of the pieces before `from` are kept.
pub(in crate::source) fn spool_lost(name: &str, from: u64, e: &std::io::Error) -> DumpProblem {
    let failed = format!("the temporary file that held it failed ({e})");
    let msg = match from {
        0 => format!("{failed}: none of its events could be read"),
        _ => format!("{failed}: the events of its first {from} bytes were kept"),
    };
    problem(name, None, msg)
}

/// What the reading of an envelope's head ([`Cut::Head`](super::Cut::Head)) kept, for what is
/// said when its whole never comes (its temporary file lost): the whole's reading says it all
/// otherwise. Only that is worked out then.
pub(super) struct HeadKept {
    head: Arc<Blob>,
    /// How many events were handed over, and where the last item read ends.
    events: usize,
    through: usize,
    /// The items refused among them, at their offsets.
    refused: Vec<ScanError>,
}

impl HeadKept {
    pub(super) fn of(head: &Arc<Blob>, handed: &Handed) -> HeadKept {
        HeadKept {
            head: Arc::clone(head),
            events: handed.events(),
            through: handed.through(),
            refused: handed.refused().to_vec(),
        }
    }

    /// What is said of the stream named `name` whose whole was lost (`e`): the events the head's
    /// reading handed over were kept, those of its first bytes up to the last item it read.
    pub(super) fn lost(&self, name: &str, e: &std::io::Error) -> DumpProblem {
        let failed = format!("the temporary file that held it failed ({e})");
        let msg = match self.events {
            0 => format!("{failed}: none of its events could be read"),
            1 => format!(
                "{failed}: the 1 event read from its first {} bytes as it came was kept",
                self.through
            ),
            n => format!(
                "{failed}: the {n} events read from its first {} bytes as they came were kept",
                self.through
            ),
        };
        problem(name, None, msg)
    }

    /// The problems of the head's lines: the items it refused, and the damage that stopped its
    /// reading, if that is what did.
    pub(super) fn read(self) -> PieceRead {
        let mut found = self.refused;
        if let Some(damage) = damage_in_first_bytes(&self.head) {
            let at = found.partition_point(|e| e.offset <= damage.offset);
            found.insert(at, damage);
        }
        PieceRead::of(&self.head, found)
    }
}
