//! What a stream's lines tell as its bytes come: whether it is line-delimited, and where a piece
//! of it may be cut.

use crate::source::dump::pieces::next_event_line;
use crate::source::dump::scan::is_json_ws;

/// Where the piece whose bytes so far are `bytes` may be cut: the first place past `size` (and
/// past where the last look ended, `looked`) where a new piece may start, among whole lines only
/// (the last one may go on in the next bytes). `None` when there is none yet; `looked` is then
/// where the next look goes on from.
pub(super) fn look_for_cut(bytes: &[u8], size: usize, looked: &mut usize) -> Option<usize> {
    let whole = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    let from = size.max(*looked).min(whole.saturating_sub(1));
    match next_event_line(&bytes[..whole], from) {
        Some(cut) if cut > 0 => Some(cut),
        _ => {
            *looked = whole.saturating_sub(1);
            None
        }
    }
}

/// Whether a file that comes a little at a time is line-delimited, said once its first line
/// (blank lines aside) has come whole. Each look reads only the bytes that came since the last.
#[derive(Default)]
pub(super) struct FirstLine {
    /// Where the first byte that is not blank is, once it has come.
    starts: Option<usize>,
    /// How many bytes were looked at.
    looked: usize,
    pub(super) said: Option<bool>,
}

impl FirstLine {
    /// Whether the file is line-delimited, once its first line is whole in `bytes`, its first
    /// bytes so far (those of the last look and more).
    pub(super) fn line_delimited(&mut self, bytes: &[u8]) -> Option<bool> {
        if self.said.is_none() {
            if self.starts.is_none() {
                let new = &bytes[self.looked..];
                self.starts = new
                    .iter()
                    .position(|b| !is_json_ws(*b))
                    .map(|i| self.looked + i);
            }
            if let Some(starts) = self.starts
                && memchr::memchr(b'\n', &bytes[starts.max(self.looked)..]).is_some()
            {
                self.said = Some(crate::source::ndjson::looks_line_delimited(bytes));
            }
            self.looked = bytes.len();
        }
        self.said
    }
}
