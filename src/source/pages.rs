//! What saved API pages say of the query they came from: a page's `total` counts every event the
//! query matched, and a non-empty `next` says more pages followed. A folder of five saved pages of
//! a 2,400-event query is 5% of the answer, and must not read as the whole of it.

use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A file larger than this (inflated, when gzip'd) is not read whole: a saved page of at most
/// 100 events is about 150 KB, so a larger envelope is an export (`list --format json`) rather
/// than a page, and reading it a second time would cost as much as loading it. Its head is read
/// instead (see [`of_export_head`]).
pub const MOST_BYTES: u64 = 16 * 1024 * 1024;

/// How much of a larger file's head is read: the envelope's fields before its events, the
/// service's cursor among them.
const HEAD_BYTES: u64 = 4096;

/// What the saved pages among some files say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SavedPages {
    /// Envelopes (`{"limit", "total", "next", "events"}`) read.
    pub pages: usize,
    /// Events their `events` arrays hold, duplicates included.
    pub events: u64,
    /// The largest `total` among them: how many events their query matched.
    pub total: Option<u64>,
    /// Some page's `next` was empty: the query's last page is among them.
    pub last_page: bool,
}

impl SavedPages {
    fn add(&mut self, other: SavedPages) {
        self.pages += other.pages;
        self.events += other.events;
        self.total = self.total.max(other.total);
        self.last_page |= other.last_page;
    }

    /// Whether the pages say that more events exist than the `loaded` ones: their total is
    /// larger, or (without a total) none of them is the query's last page.
    pub fn say_more_than(&self, loaded: usize) -> bool {
        self.pages > 0
            && match self.total {
                Some(total) => total > loaded as u64,
                None => !self.last_page,
            }
    }
}

/// What the saved pages among the files and folders named on the command line say (standard
/// input, read once already, is not read again).
pub fn of_args(args: &[String]) -> SavedPages {
    let paths: Vec<std::path::PathBuf> = args
        .iter()
        .filter(|a| *a != "-")
        .filter_map(|a| super::dump::expand(a).ok())
        .flatten()
        .collect();
    of_paths(paths.iter().map(|p| p.as_path()))
}

/// What the saved pages among `paths` say (files that hold no envelope add nothing).
pub fn of_paths<'a>(paths: impl IntoIterator<Item = &'a Path>) -> SavedPages {
    let mut all = SavedPages::default();
    for path in paths {
        if let Some(pages) = of_file(path) {
            all.add(pages);
        }
    }
    all
}

/// How much of a file is read before its values are first looked at: an event dump is told by
/// its first event, most often far smaller than this. A file not told by it is read on, four
/// times as much at each step, and looked at again from its start (the steps' looks together
/// cost at most a third more than one look at the whole).
const FIRST_READ: usize = 8 * 1024;

/// What the envelopes of one file say, when the file is made of envelopes (one, several one
/// after another, or an array of them), gzip'd or not. `None` for anything else: a dump of
/// events is told by its first value, and the file is read no further than that value (or the
/// first of its events) needs.
pub fn of_file(path: &Path) -> Option<SavedPages> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    // Stored larger than a page, a file is larger still inflated (JSON inflates to several
    // times what gzip stores of it): told by its head alone.
    if meta.len() > MOST_BYTES {
        let mut head = Vec::new();
        super::dump::open_inflated(path)
            .ok()?
            .take(HEAD_BYTES)
            .read_to_end(&mut head)
            .ok()?;
        return of_export_head(&head);
    }
    // A byte past the most a page holds tells a gzip'd file that inflates to more than that.
    let most = MOST_BYTES as usize + 1;
    let mut reader = super::dump::open_inflated(path).ok()?.take(most as u64);
    // Read in steps, each looked at whole (parsing a slice is several times faster than a
    // reader), until the bytes read tell.
    let mut bytes = Vec::new();
    let mut want = FIRST_READ;
    loop {
        // Room for the step (a buffer grown from nothing reads in small steps).
        bytes.reserve_exact(want - bytes.len());
        let step = (want - bytes.len()) as u64;
        (&mut reader).take(step).read_to_end(&mut bytes).ok()?;
        if bytes.len() == most {
            // Larger than a page once inflated: told by its head, as a larger file is (the
            // bytes read end at the cap, not at the file's end).
            return of_export_head(&bytes[..HEAD_BYTES as usize]);
        }
        let whole = bytes.len() < want;
        if let Some(told) = of_start(&bytes, whole) {
            tracing::debug!(
                path = %path.display(),
                read = bytes.len(),
                pages = told.map_or(0, |p| p.pages),
                "looked for saved pages"
            );
            return told;
        }
        want = want.saturating_mul(4).min(most);
    }
}

/// What an envelope as `list --format json` writes it says, from its head alone: its `limit`,
/// `total` and `next` come first, in that order, and its `limit` counts its events (as a page's
/// does). `None` for anything else.
pub fn of_export_head(head: &[u8]) -> Option<SavedPages> {
    static HEAD: std::sync::LazyLock<regex::bytes::Regex> = std::sync::LazyLock::new(|| {
        regex::bytes::Regex::new(concat!(
            r#"^\s*\{"limit":([0-9]{1,20}),"total":([0-9]{1,20}|null),"#,
            r#""next":("(?:[^"\\]|\\.)*"),"events":\["#,
        ))
        .expect("a valid pattern")
    });
    let caps = HEAD.captures(head)?;
    let number = |i: usize| std::str::from_utf8(&caps[i]).ok()?.parse::<u64>().ok();
    let next: String = serde_json::from_slice(&caps[3]).ok()?;
    Some(SavedPages {
        pages: 1,
        events: number(1)?,
        total: number(2),
        last_page: next.is_empty(),
    })
}

/// [`of_file`] over a file's bytes.
pub fn of_bytes(bytes: &[u8]) -> Option<SavedPages> {
    of_start(bytes, true).flatten()
}

/// What the saved pages that `bytes` start with say: `Some(None)` for what is no saved pages
/// (an event dump is told by its first value: an event, or an array that starts with one),
/// `Some(pages)` when `whole` (the bytes are the whole file) and they are pages, and `None`
/// when the bytes end before they tell.
fn of_start(bytes: &[u8], whole: bool) -> Option<Option<SavedPages>> {
    let mut all = SavedPages::default();
    let values = serde_json::Deserializer::from_slice(bytes).into_iter::<Pages>();
    for value in values {
        match value {
            Ok(pages) => all.add(pages.0),
            // A value that is no page (an event) tells, wherever the bytes end.
            Err(e) if e.is_data() => return Some(None),
            // Bad JSON where the bytes read end may be no more than the cut (a number cut
            // after its `-`, `.` or `e` is a syntax error, not an early end): what follows
            // tells.
            Err(_) if !whole => return None,
            Err(_) => return Some(None),
        }
    }
    // Every value read is a page; when the bytes are not the whole file, one that is not may
    // follow.
    whole.then_some((all.pages > 0).then_some(all))
}

/// One top-level value that is an envelope or an array of envelopes; anything else fails to
/// read, at its first event.
struct Pages(SavedPages);

impl<'de> de::Deserialize<'de> for Pages {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pages, D::Error> {
        d.deserialize_any(PagesVisitor).map(Pages)
    }
}

struct PagesVisitor;

impl<'de> Visitor<'de> for PagesVisitor {
    type Value = SavedPages;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an envelope of events, or an array of them")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SavedPages, A::Error> {
        let mut all = SavedPages::default();
        while let Some(Envelope(page)) = seq.next_element::<Envelope>()? {
            all.add(page);
        }
        Ok(all)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SavedPages, A::Error> {
        EnvelopeVisitor.visit_map(map)
    }
}

/// One envelope; an event (or any other object) fails.
struct Envelope(SavedPages);

impl<'de> de::Deserialize<'de> for Envelope {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Envelope, D::Error> {
        d.deserialize_map(EnvelopeVisitor).map(Envelope)
    }
}

struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = SavedPages;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an envelope of events")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SavedPages, A::Error> {
        let mut events = None;
        let mut total = None;
        let mut next: Option<String> = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                // An event: not a page.
                "type" => return Err(de::Error::custom("an event")),
                "events" => events = Some(map.next_value::<Count>()?.0),
                "total" => total = map.next_value::<serde_json::Value>()?.as_u64(),
                "next" => {
                    next = map
                        .next_value::<serde_json::Value>()?
                        .as_str()
                        .map(str::to_string)
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let events = events.ok_or_else(|| de::Error::custom("no events"))?;
        Ok(SavedPages {
            pages: 1,
            events,
            total,
            last_page: next.is_none_or(|n| n.is_empty()),
        })
    }
}

/// How many values an array holds.
struct Count(u64);

impl<'de> de::Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = u64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(n)
            }
        }
        d.deserialize_seq(V).map(Count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(text: &str) -> Option<SavedPages> {
        of_bytes(text.as_bytes())
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    const EVENT: &str = r#"{"id":"a","type":"client.join.failed","data":{"n":-1.25e-3}}"#;

    #[test]
    fn saved_pages_say_their_total_and_whether_the_last_page_is_among_them() {
        let first =
            format!(r#"{{"limit":2,"total":2400,"next":"c:1~a=","events":[{EVENT},{EVENT}]}}"#);
        let last = format!(r#"{{"limit":1,"total":2400,"next":"","events":[{EVENT}]}}"#);
        let one = pages(&first).unwrap();
        assert_eq!(
            one,
            SavedPages {
                pages: 1,
                events: 2,
                total: Some(2400),
                last_page: false
            }
        );
        assert!(one.say_more_than(2));
        assert!(!one.say_more_than(2400));
        // Two pages one after another, and the same in an array.
        let both = pages(&format!("{first}\n{last}\n")).unwrap();
        assert_eq!((both.pages, both.events, both.last_page), (2, 3, true));
        assert_eq!(pages(&format!("[{first},{last}]")), Some(both));
        // Without a total, a page with a next cursor says more follow; the last one, not.
        let untotalled = format!(r#"{{"next":"x","events":[{EVENT}]}}"#);
        assert!(pages(&untotalled).unwrap().say_more_than(1));
        let whole = format!(r#"{{"next":"","events":[{EVENT}]}}"#);
        assert!(!pages(&whole).unwrap().say_more_than(1));
    }

    #[test]
    fn the_start_of_an_event_dump_tells_it_and_the_start_of_pages_does_not() {
        let dump = format!("{EVENT}\n{EVENT}\n");
        // Numbers of every form, which a cut may leave as bad JSON rather than cut short.
        let page = format!(
            r#"{{"limit":2,"score":-12.5e3,"total":9,"next":"c","events":[{EVENT},{EVENT}]}}"#
        );
        // The first event tells a dump, wherever its bytes are cut after its type.
        let typed = EVENT.find("type").unwrap() + "type\"".len();
        for cut in typed..dump.len() {
            assert_eq!(
                of_start(&dump.as_bytes()[..cut], false),
                Some(None),
                "{cut}"
            );
        }
        // A page cut anywhere is not told until it is whole, nor are whole pages that more
        // bytes may follow.
        for cut in 0..page.len() {
            assert_eq!(of_start(&page.as_bytes()[..cut], false), None, "{cut}");
        }
        assert_eq!(of_start(page.as_bytes(), false), None);
        assert_eq!(of_start(page.as_bytes(), true), Some(pages(&page)));
        assert!(pages(&page).is_some());
        // Pages followed by an event are no saved pages.
        let mixed = format!("{page}\n{EVENT}\n");
        assert_eq!(of_start(mixed.as_bytes(), false), Some(None));
    }

    #[test]
    fn a_saved_page_larger_than_the_first_read_is_read_whole() {
        let events: Vec<&str> = vec![EVENT; 3 * FIRST_READ / EVENT.len()];
        let page = format!(r#"{{"total":99999,"events":[{}]}}"#, events.join(","));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("page.json");
        std::fs::write(&path, &page).unwrap();
        let read = of_file(&path).unwrap();
        assert_eq!((read.pages, read.events), (1, events.len() as u64));
        assert_eq!(read.total, Some(99999));
    }

    #[test]
    fn an_export_larger_than_a_page_is_told_by_its_head() {
        let export = |total: &str, next: &str| {
            let events: Vec<&str> = vec![EVENT; MOST_BYTES as usize / EVENT.len() + 1];
            format!(
                "{{\"limit\":{},\"total\":{total},\"next\":{next},\"events\":[\n{}\n]}}\n",
                events.len(),
                events.join(",\n")
            )
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("export.json");
        let gzipped = dir.path().join("export.json.gz");
        let held = MOST_BYTES / EVENT.len() as u64 + 1;
        for (total, next, told) in [
            ("999999", r#""o:6""#, (Some(999_999), false, true)),
            ("null", r#""c:1~a=\"b""#, (None, false, true)),
            (&held.to_string(), r#""""#, (Some(held), true, false)),
        ] {
            let export = export(total, next);
            std::fs::write(&path, &export).unwrap();
            // Gzip'd, it is stored in far less than it inflates to: told the same.
            std::fs::write(&gzipped, gzip(export.as_bytes())).unwrap();
            assert!(std::fs::metadata(&gzipped).unwrap().len() < MOST_BYTES);
            for path in [&path, &gzipped] {
                let read = of_file(path).unwrap();
                assert_eq!((read.pages, read.events), (1, held));
                assert_eq!((read.total, read.last_page), (told.0, told.1));
                assert_eq!(read.say_more_than(held as usize), told.2, "{total} {next}");
            }
        }
        // A head of another form tells nothing.
        assert_eq!(
            of_export_head(br#"{"total":5,"limit":3,"next":"","events":["#),
            None
        );
        assert_eq!(of_export_head(EVENT.as_bytes()), None);
    }

    proptest::proptest! {
        /// The head of an envelope as `list --format json` writes it says what reading the
        /// whole envelope says, whatever its total and cursor.
        #[test]
        fn the_head_of_an_export_says_what_the_whole_says(
            n in 0usize..4,
            total in proptest::option::of(0u64..u64::MAX),
            next in "[ -~\u{80}-\u{10ffff}]{0,12}",
        ) {
            let head = crate::output::Head { total, next };
            let mut written = Vec::new();
            crate::output::write_envelope(
                std::iter::repeat_n(EVENT.as_bytes(), n),
                n,
                &head,
                &mut written,
            )
            .unwrap();
            proptest::prop_assert_eq!(of_export_head(&written), pages(std::str::from_utf8(&written).unwrap()));
        }
    }

    #[test]
    fn a_dump_of_events_is_no_pages() {
        assert_eq!(pages(&format!("{EVENT}\n{EVENT}\n")), None);
        assert_eq!(pages(&format!("[{EVENT},{EVENT}]")), None);
        assert_eq!(pages(""), None);
        assert_eq!(pages("not json"), None);
    }
}
