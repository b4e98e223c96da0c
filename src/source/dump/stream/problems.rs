//! What the reading of a stream's pieces met besides their events: the problems of its lines,
//! told at their places in the whole stream.

use crate::source::dump::{DumpProblem, MAX_PROBLEMS_PER_FILE, ScanError, positioned, report};

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
