//! What the reading of a stream's pieces met besides their events: the problems of its lines,
//! told at their places in the whole stream, and what is said when its temporary file is lost.

use crate::source::dump::envelope::Handed;
use crate::source::dump::scan::{damage_in_first_bytes, is_json_ws};
use crate::source::dump::{
    DumpProblem, MAX_PROBLEMS_PER_FILE, ScanError, positioned, problem, report,
};

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

/// What the reading of an envelope's head handed over: taken before the whole's reading is let
/// go on with it.
pub(super) struct HandedOver {
    events: usize,
    through: usize,
    refused: Vec<ScanError>,
}

impl HandedOver {
    pub(super) fn of(handed: &Handed) -> HandedOver {
        HandedOver {
            events: handed.events(),
            through: handed.through(),
            refused: handed.refused().to_vec(),
        }
    }
}

/// What the reading of an envelope's head ([`Cut::Head`](super::Cut::Head)) kept, for what is
/// said when its whole never comes (its temporary file lost): the whole's reading says it all
/// otherwise.
pub(super) struct HeadKept {
    /// How many events were handed over, and where the last item read ends.
    events: usize,
    through: usize,
    /// The problems of the head's lines, worked out as the head was read (a pass over its 4 MB at
    /// most, once a stream): its bytes may be mapped from the temporary file, which cannot be
    /// read safely once it has failed.
    problems: PieceRead,
}

impl HeadKept {
    /// What the reading of `head` handed over (`read`), and the problems of its lines: the
    /// items it refused and, when its reading stopped at an object it could not read, the damage
    /// there.
    pub(super) fn of(head: &[u8], read: HandedOver) -> HeadKept {
        let HandedOver {
            events,
            through,
            refused: mut found,
        } = read;
        // Where the item after the last one read starts. Reading stops before an item that is
        // not an object too, which is no damage: what is past it is not said.
        let next = head
            .get(through..)
            .and_then(|rest| rest.iter().position(|b| !is_json_ws(*b) && *b != b','))
            .map(|at| through + at);
        let stopped_at_an_object = next.is_none_or(|at| head[at] == b'{');
        if stopped_at_an_object
            && let Some(damage) = damage_in_first_bytes(head).filter(|d| d.offset >= through)
        {
            let at = found.partition_point(|e| e.offset <= damage.offset);
            found.insert(at, damage);
        }
        HeadKept {
            events,
            through,
            problems: PieceRead::of(head, found),
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

    /// The problems of the head's lines.
    pub(super) fn read(self) -> PieceRead {
        self.problems
    }
}
