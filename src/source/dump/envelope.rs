//! A large dump that is one envelope (`{"limit":..,"events":[...]}`, what the explorer's save and
//! `list --format json` write) read on every core: its events array is cut into pieces at event
//! boundaries by the fast path's walker (`ndjson::envelope`), each piece is walked on a core of
//! its own, and the batches are handed over in file order, as a line-delimited file's are.
//!
//! What is handed over is always what the full way (`scan`) reads first, in its order. A cut is
//! a guess, proven when the piece before ends exactly where it was made: a piece whose start is
//! not proven is dropped, and the array read on from where the piece before ended. Damage (an
//! event that is not one JSON value, anything but an object in the array, an array that does
//! not close) stops the pieces; the file is then read the full way, which skips the events
//! already handed over and reports every problem as it always has.
//!
//! Whether the envelope is sound past its events is told before the first piece is read, from
//! the end of the file (see [`closing_bracket`]), but for one case: when the events array is
//! followed by another array, the `]` found at the end is that array's, and the members between
//! the two are read only once every event is handed over. Should one of them be a second
//! `events` or a `type` (which makes the object an event, for the full way), the full way's
//! reading is added to what was handed over rather than put in its place.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::value::RawValue;

use super::pieces::{Batcher, Batches};
use super::scan::{ScanError, looks_binary, scan};
use crate::source::ndjson::NotLineDelimited;
use crate::source::ndjson::envelope::{PieceEnd, cuts, ends_soundly, events_array, walk_events};
use crate::store::{Batch, Blob};

/// How far from the end the `]` that closes the events array is looked for.
const TAIL_BYTES: usize = 64 << 10;

/// How long a first line may be for it to be told whether it is a whole object (a line-delimited
/// file), rather than the start of an envelope written on one line.
const FIRST_LINE_BYTES: usize = 1 << 20;

/// How many times the pieces may be cut again before the rest of the array is read in one.
const MOST_ROUNDS: usize = 8;

/// Reads an envelope in pieces of about `piece_bytes` on `threads` cores, handing its events
/// over in batches in file order; the problems met, at their offsets, as [`scan`] gives them.
/// `None`, with nothing handed over, when the file does not look like one envelope (see
/// [`closing_bracket`]), or is line-delimited: the caller reads it another way.
pub(super) fn read_envelope(
    blob: &Arc<Blob>,
    batches: Batches,
    threads: usize,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Option<Vec<ScanError>> {
    let handed = Handed::default();
    read_envelope_after(blob, batches, threads, piece_bytes, handed, on_batch).ok()
}

/// The events of an envelope's first bytes, read and handed over before the rest had come (see
/// `head`): the events array's first events, in order.
#[derive(Default)]
pub(super) struct Handed(Read);

impl Handed {
    /// The items refused among them (not events), at their offsets.
    pub(super) fn refused(&self) -> &[ScanError] {
        &self.0.errors
    }

    /// How many events were handed over (the items refused aside).
    pub(super) fn events(&self) -> usize {
        self.0.events - self.0.errors.len()
    }

    /// Where the last item read ends: the events handed over are those of the bytes before.
    pub(super) fn through(&self) -> usize {
        self.0.through
    }
}

/// [`read_envelope`], the array's first events `handed` over already: they are walked again, not
/// read again, and the rest is read as `read_envelope` reads it. Gives `handed` back, with nothing
/// more handed over, when the file does not look like one envelope.
pub(super) fn read_envelope_after(
    blob: &Arc<Blob>,
    batches: Batches,
    threads: usize,
    piece_bytes: usize,
    handed: Handed,
    on_batch: &mut dyn FnMut(Batch),
) -> Result<Vec<ScanError>, Handed> {
    let bytes: &[u8] = blob;
    if looks_binary(bytes) || short_first_line_is_an_object(bytes) {
        return Err(handed);
    }
    let (Some(open), Some(close)) = (events_array(bytes), closing_bracket(bytes)) else {
        return Err(handed);
    };
    let mut read = handed.0;
    // Where the next round starts: an event the rounds before proved to start there.
    let mut from = open;
    let mut rounds = 0;
    let end = loop {
        // After a few rounds that had to start again, the rest is read in one piece: cuts keep
        // falling in strings.
        let n = if rounds < MOST_ROUNDS {
            (bytes.len() - from).div_ceil(piece_bytes).max(threads)
        } else {
            1
        };
        let round_batches = if rounds == 0 {
            batches
        } else {
            batches.later()
        };
        let cuts = cuts(bytes, from, n);
        match read_round(
            blob,
            round_batches,
            &cuts,
            from == open,
            threads,
            on_batch,
            &mut read,
        ) {
            Round::Closed(at) => break Some(at),
            Round::Again(at) => {
                from = at;
                rounds += 1;
            }
            Round::Damaged => break None,
        }
    };
    match end {
        Some(at) if at == close || ends_soundly(bytes, at) => Ok(read.errors),
        _ => Ok(read_on_the_full_way(blob, batches.later(), read, on_batch)),
    }
}

/// Reads the events of an envelope's first bytes, `head`, before the rest has come: the array's
/// events from its first, on this thread, handed over in batches up to the last whole one (the
/// bytes end inside the next, or damage stops them). What was handed over, for
/// [`read_envelope_after`] and [`read_rest_the_full_way`] once the whole file has come; `None`,
/// with nothing handed over, when `head` does not open as an envelope read this way.
pub(super) fn read_envelope_head(
    head: &Arc<Blob>,
    batches: Batches,
    on_batch: &mut dyn FnMut(Batch),
) -> Option<Handed> {
    let bytes: &[u8] = head;
    if looks_binary(bytes) || short_first_line_is_an_object(bytes) {
        return None;
    }
    let open = events_array(bytes)?;
    let mut read = Read::default();
    // Whatever it ends with (the array closed, damage, or the head's end inside an event), what
    // was handed over is the array's first events: the whole file is read on from there.
    read_round(head, batches, &[open], true, 1, on_batch, &mut read);
    Some(Handed(read))
}

/// Reads a whole file the full way, as [`read_on_the_full_way`] does, the events `handed` over
/// from its head not handed over again.
pub(super) fn read_rest_the_full_way(
    blob: &Arc<Blob>,
    batches: Batches,
    handed: Handed,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<ScanError> {
    read_on_the_full_way(blob, batches, handed.0, on_batch)
}

/// Whether the first line (blank ones aside) ends within [`FIRST_LINE_BYTES`], is one whole
/// object and is followed by more: a line-delimited file, even when its first line is an
/// envelope.
fn short_first_line_is_an_object(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .take(FIRST_LINE_BYTES)
        .position(|b| !super::scan::is_json_ws(*b));
    let Some(start) = start else {
        return false;
    };
    let head = &bytes[start..bytes.len().min(start + FIRST_LINE_BYTES)];
    match memchr::memchr(b'\n', head) {
        Some(end) => {
            let more = bytes[start + end..]
                .iter()
                .any(|b| !super::scan::is_json_ws(*b));
            more && crate::source::ndjson::looks_line_delimited(&head[..end])
        }
        None => false,
    }
}

/// The `]` that closes the last array among the envelope's members, found from the end: the
/// last `]` in the file's last [`TAIL_BYTES`] after which only sound members (none named
/// `events` or `type`) and the envelope's `}` follow, and that closes an array whose last item
/// is an object. Outside a string and at that depth no other `]` can be followed by such a tail,
/// so in an envelope that holds no array after its events, it is the one that closes them.
/// `None` when there is none: the file is read the full way.
fn closing_bracket(bytes: &[u8]) -> Option<usize> {
    let from = bytes.len().saturating_sub(TAIL_BYTES);
    let mut at = bytes.len();
    while let Some(i) = memchr::memrchr(b']', &bytes[from..at]) {
        let close = from + i;
        if ends_soundly(bytes, close) {
            let last = bytes[..close]
                .iter()
                .rposition(|b| !super::scan::is_json_ws(*b));
            return last.filter(|&l| bytes[l] == b'}').map(|_| close);
        }
        at = close;
    }
    None
}

/// What the rounds of reading have handed over so far.
#[derive(Default)]
struct Read {
    /// How many of the array's events, from its first: each either in a batch handed over or
    /// refused with a problem.
    events: usize,
    /// Where the first and the last of them start.
    starts: Option<(usize, usize)>,
    /// The events refused, in order.
    errors: Vec<ScanError>,
    /// Where the last item walked ends, refused or not (0 before any).
    through: usize,
}

/// How a round of pieces ended.
enum Round {
    /// The array closed at this `]`.
    Closed(usize),
    /// A piece was cut where no event starts: the array goes on from the event that starts
    /// here, after the last piece handed over.
    Again(usize),
    /// The array is damaged past what was handed over.
    Damaged,
}

/// What reading a piece on a worker thread gives, in order, with the piece's number.
enum Sent {
    Batch(usize, Box<Batch>),
    /// Sent last: how many events the walk took (see [`Read::events`]), where the first and
    /// the last start and where the last ends, the events refused, and where the walk ended
    /// (`Err` at damage).
    End {
        piece: usize,
        events: usize,
        starts: Option<(usize, usize)>,
        through: usize,
        errors: Vec<ScanError>,
        end: Result<PieceEnd, NotLineDelimited>,
    },
}

/// Reads the events of the array cut at `cuts` (the first of which an event, or the array's
/// content when `at_open`, is known to start at), on `threads` cores, handing over the batches of
/// the pieces whose start is proven, in order, and adding what they took to `read`.
fn read_round(
    blob: &Arc<Blob>,
    batches: Batches,
    cuts: &[usize],
    at_open: bool,
    threads: usize,
    on_batch: &mut dyn FnMut(Batch),
    read: &mut Read,
) -> Round {
    let bytes: &[u8] = blob;
    // The events handed over before (an envelope's head, read as it came) start up to here.
    let handed_through = read.starts.map(|(_, last)| last);
    // Set once the round's outcome is known: the pieces still being read stop.
    let stop = AtomicBool::new(false);
    // Where the piece being handed over must start for its events to be the array's: where the
    // piece before it ended.
    let mut expect = cuts[0];
    let mut outcome = None;
    crate::source::ordered::in_order(
        cuts.len(),
        threads,
        |k, send| {
            let (a, z) = (cuts[k], cuts.get(k + 1).copied().unwrap_or(bytes.len()));
            blob.prepare(a, z);
            let batches = if k == 0 { batches } else { batches.later() };
            let mut batcher = Batcher::new(batches, Arc::clone(blob));
            let (mut events, mut starts, mut through) = (0, None, 0);
            let mut errors = Vec::new();
            let mut send_batch = |batch: Batch| send(Sent::Batch(k, Box::new(batch)));
            let end = walk_events(bytes, a, z, at_open && k == 0, &mut |s, e| {
                if stop.load(Ordering::Relaxed) {
                    return Err(NotLineDelimited);
                }
                if handed_through.is_some_and(|last| s <= last) {
                    // Handed over already (or refused, and noted): its span proven again as
                    // one JSON value, as the walk first proved it, and not read again.
                    return match serde_json::from_slice::<&RawValue>(&bytes[s..e]) {
                        Ok(_) => Ok(()),
                        Err(_) => Err(NotLineDelimited),
                    };
                }
                if let Err(message) = batcher.push(s, e, &mut send_batch) {
                    // A span that is one JSON value is the whole event (a shorter one could not
                    // be, nor a longer one that holds two): refused as the full way refuses it.
                    // Any other is a guess the walker takes back, or damage.
                    if serde_json::from_slice::<&RawValue>(&bytes[s..e]).is_err() {
                        return Err(NotLineDelimited);
                    }
                    errors.push(ScanError { offset: s, message });
                }
                starts = Some((starts.map_or(s, |(first, _)| first), s));
                through = e;
                events += 1;
                Ok(())
            });
            let last = batcher.finish();
            if !last.is_empty() {
                send_batch(last);
            }
            send(Sent::End {
                piece: k,
                events,
                starts,
                through,
                errors,
                end,
            });
        },
        |sent| {
            if outcome.is_some() {
                return;
            }
            match sent {
                // Every value of a piece comes after the piece before has ended: whether its
                // start is proven is known by then.
                Sent::Batch(k, batch) => {
                    if cuts[k] == expect {
                        on_batch(*batch);
                    }
                }
                Sent::End {
                    piece: k,
                    events,
                    starts,
                    through,
                    errors,
                    end,
                } => {
                    outcome = if cuts[k] != expect {
                        // Cut in a string, or within an event: its batches were dropped.
                        Some(Round::Again(expect))
                    } else {
                        read.events += events;
                        read.starts = match (read.starts, starts) {
                            (Some((first, _)), Some((_, last))) => Some((first, last)),
                            (before, now) => before.or(now),
                        };
                        read.errors.extend(errors);
                        read.through = read.through.max(through);
                        match end {
                            Ok(PieceEnd::Next(at)) if k + 1 < cuts.len() => {
                                expect = at;
                                None
                            }
                            Ok(PieceEnd::Closed(at)) => Some(Round::Closed(at)),
                            // Damage, or the file ends inside the array.
                            _ => Some(Round::Damaged),
                        }
                    };
                    if outcome.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        },
    );
    outcome.unwrap_or(Round::Damaged)
}

/// Reads the file the full way ([`scan`]) once the pieces met damage (or an envelope that is
/// not sound past its events): its first `read.events` events, already handed over, are not
/// handed over again, and are refused again where they were, so that every problem is reported
/// as the full way reports it, in its order.
fn read_on_the_full_way(
    blob: &Arc<Blob>,
    batches: Batches,
    read: Read,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<ScanError> {
    let mut batcher = Batcher::new(batches, Arc::clone(blob));
    // The events handed over: those walked, less those refused.
    let handed_over = read.events - read.errors.len();
    let mut refused = read.errors.into_iter().peekable();
    let mut skip = read.events;
    let mut errors = Vec::new();
    let mut kept = None;
    scan(
        blob,
        &mut |s, e| {
            // The full way reads the array's events first, in its order: those handed over are
            // its first. Should it read others first (see the module's note), nothing more is
            // skipped.
            if skip > 0
                && read
                    .starts
                    .is_none_or(|(first, last)| s < first || s > last)
            {
                // Not hidden: the events handed over stay beside what the full way reads.
                kept = Some(ScanError {
                    offset: s,
                    message: format!(
                        "a `type` or a second `events` after the events array makes this \
                         object read another way, and it is read so; the {handed_over} events \
                         read from the array before that was known are kept as well"
                    ),
                });
                skip = 0;
            }
            if skip > 0 {
                skip -= 1;
                return match refused.next_if(|r| r.offset == s) {
                    Some(r) => Err(r.message),
                    None => Ok(()),
                };
            }
            batcher.push(s, e, on_batch)
        },
        &mut errors,
    );
    let last = batcher.finish();
    if !last.is_empty() {
        on_batch(last);
    }
    // Said where they are, with the full way's: that the events handed over are kept, and the
    // items refused among them, which the full way did not come to.
    if let Some(kept) = kept {
        for said in std::iter::once(kept).chain(refused) {
            let at = errors.partition_point(|e| e.offset <= said.offset);
            errors.insert(at, said);
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::dump::tests::event;
    use crate::store::{Reading, Store};

    /// What a reading gave: the events kept in order, the copies dropped, the problems, and how
    /// many batches.
    #[derive(Debug, PartialEq)]
    struct Got {
        events: Vec<Vec<u8>>,
        duplicates: usize,
        errors: Vec<ScanError>,
    }

    fn got(batches: Vec<Batch>, errors: Vec<ScanError>) -> Got {
        let mut store = Store::new();
        for b in batches {
            store.merge(b);
        }
        Got {
            events: (0..store.len()).map(|i| store.raw(i).to_vec()).collect(),
            duplicates: store.duplicates(),
            errors,
        }
    }

    fn batches(reading: &Reading) -> Batches<'_> {
        Batches { reading, first: 20 }
    }

    /// The full way, on one thread.
    fn scanned(bytes: &[u8]) -> Got {
        let blob = Arc::new(Blob::Owned(bytes.to_vec()));
        let reading = Reading::start();
        let mut out = Vec::new();
        let mut errors = Vec::new();
        let mut batcher = Batcher::new(batches(&reading), Arc::clone(&blob));
        scan(
            &blob,
            &mut |s, e| batcher.push(s, e, &mut |b| out.push(b)),
            &mut errors,
        );
        out.push(batcher.finish());
        got(out, errors)
    }

    /// Read in pieces when [`read_envelope`] takes the file; `None` when it leaves it.
    fn in_pieces(bytes: &[u8], threads: usize, piece_bytes: usize) -> Option<(Got, usize)> {
        let blob = Arc::new(Blob::Owned(bytes.to_vec()));
        let reading = Reading::start();
        let mut out = Vec::new();
        let errors = read_envelope(&blob, batches(&reading), threads, piece_bytes, &mut |b| {
            out.push(b)
        })?;
        let count = out.len();
        Some((got(out, errors), count))
    }

    fn envelope(items: &[String], layout: &str, tail: &str) -> String {
        format!(
            "{{\"limit\":{},\"events\":[{layout}{}{layout}]{tail}}}\n",
            items.len(),
            items.join(&format!(",{layout}"))
        )
    }

    /// The envelopes read in pieces, each with how it is damaged or odd: `None` for sound.
    fn cases(layout: &str) -> Vec<(&'static str, String)> {
        let events: Vec<String> = (0..400).map(event).collect();
        let with = |at: usize, item: &str| {
            let mut items = events.clone();
            items.insert(at, item.to_string());
            items
        };
        let mut cases = vec![
            ("sound", envelope(&events, layout, "")),
            (
                "members after the events",
                envelope(&events, layout, r#","next":"","total":400"#),
            ),
            (
                "an array after the events",
                envelope(&events, layout, r#","other":[{"id":"o"}],"next":"""#),
            ),
            (
                "a later copy of an id",
                envelope(&with(330, &event(3)), layout, ""),
            ),
            (
                "objects that are not events, late",
                envelope(&with(300, r#"{"x":1}"#), layout, ""),
            ),
            (
                "an event that is not JSON, late",
                envelope(&with(290, r#"{"id":"bad","data":{,"x":1}}"#), layout, ""),
            ),
            (
                "a raw control character in a string, late",
                envelope(
                    &with(310, "{\"id\":\"c\",\"data\":{\"m\":\"a\u{1}b\"}}"),
                    layout,
                    "",
                ),
            ),
            (
                "a number among the events, late",
                envelope(&with(350, "7"), layout, ""),
            ),
            (
                "a type after the events",
                envelope(&events, layout, r#","type":"x""#),
            ),
            (
                "a type between two arrays",
                envelope(
                    &with(2, r#"{"x":1}"#),
                    layout,
                    r#","type":"x","other":[{"id":"o"}]"#,
                ),
            ),
            (
                "damage after the events",
                envelope(&events, layout, r#","next":nul"#),
            ),
        ];
        let sound = envelope(&events, layout, "");
        cases.push(("cut short", sound[..sound.len() * 4 / 5].to_string()));
        cases
    }

    #[test]
    fn an_envelope_read_in_pieces_gives_what_the_full_way_gives() {
        for layout in ["\n", "", " \r\n  "] {
            for (what, text) in cases(layout) {
                let want = scanned(text.as_bytes());
                for (threads, piece_bytes) in [(2, 4096), (3, 1500), (3, 1 << 20)] {
                    let read = in_pieces(text.as_bytes(), threads, piece_bytes);
                    // Told from the end of the file: the full way reads them.
                    if [
                        "a type after the events",
                        "damage after the events",
                        "cut short",
                    ]
                    .contains(&what)
                    {
                        assert!(read.is_none(), "{what}: left to the full way");
                        continue;
                    }
                    let (read, batches) = read.unwrap_or_else(|| panic!("{what}: not taken"));
                    if what == "a type between two arrays" {
                        // Told only once every event is handed over (see the module's note).
                        a_type_found_late(&read, &want, layout);
                        continue;
                    }
                    assert_eq!(read, want, "{what}, {layout:?}, {threads} threads");
                    // One event a line, cuts fall between events (not in the strings that
                    // hold what a cut looks for).
                    if piece_bytes < 8192 && layout == "\n" {
                        assert!(batches > 5, "{what}: {batches} batches");
                    }
                }
            }
        }
    }

    /// What reading in pieces gives for an envelope with a `type` between its events (an item
    /// not an event among them) and another array, which the full way reads as one event
    /// (`whole`): the array's events handed over stay before it, and a problem says so, with how
    /// many (the item refused aside), and the item refused is said as without the `type`.
    fn a_type_found_late(read: &Got, whole: &Got, layout: &str) {
        let mut items: Vec<String> = (0..400).map(event).collect();
        items.insert(2, r#"{"x":1}"#.to_string());
        let without_type = scanned(envelope(&items, layout, "").as_bytes());
        assert_eq!(whole.events.len(), 1, "the full way reads one event");
        assert_eq!(read.events[..400], without_type.events[..]);
        assert_eq!(read.events[400..], whole.events[..]);
        let [kept, refused] = read.errors.as_slice() else {
            panic!("two problems expected: {:?}", read.errors);
        };
        assert_eq!(std::slice::from_ref(refused), without_type.errors);
        assert_eq!(kept.offset, 0);
        let said = "a `type` or a second `events` after the events array makes this object read \
                    another way, and it is read so; the 400 events read from the array before \
                    that was known are kept as well";
        assert_eq!(kept.message, said);
    }

    #[test]
    fn damage_in_a_later_piece_is_reported_where_the_full_way_reports_it() {
        let (_, text) = cases("\n")
            .into_iter()
            .find(|(what, _)| *what == "an event that is not JSON, late")
            .unwrap();
        let (read, _) = in_pieces(text.as_bytes(), 2, 4096).unwrap();
        // The 291st event, on its line, after the envelope's first line.
        let at = text.find(r#"{"id":"bad""#).unwrap();
        assert_eq!(super::super::line_col(text.as_bytes(), at).0, 292);
        assert_eq!(read.errors.len(), 1, "{:?}", read.errors);
        assert_eq!(read.errors, scanned(text.as_bytes()).errors);
        let (line, col) = super::super::line_col(text.as_bytes(), read.errors[0].offset);
        assert_eq!(line, 292);
        assert!(col > 1, "within the event, at column {col}");
        // The events before the damage, every one.
        assert_eq!(read.events.len(), 290);
    }

    #[test]
    fn a_file_that_is_not_one_envelope_is_left_to_the_other_ways() {
        let lines: Vec<String> = (0..50).map(event).collect();
        let ndjson = lines.join("\n");
        assert!(in_pieces(ndjson.as_bytes(), 2, 512).is_none());
        // Line-delimited, its first line an envelope.
        let pages = format!("{}\n{}", envelope(&lines, "", "").trim_end(), lines[0]);
        assert!(in_pieces(pages.as_bytes(), 2, 512).is_none());
        let array = format!("[{}]", lines.join(","));
        assert!(in_pieces(array.as_bytes(), 2, 512).is_none());
    }
}
