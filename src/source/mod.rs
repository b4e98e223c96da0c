//! Where events come from: saved dumps, the bundled demo, and the live API. The place is decided
//! once, from the command line and the profile, as a [`Source`]; every front end takes one. Every
//! source produces [`Batch`]es that a [`Store`] merges, so nothing downstream needs to know where
//! an event came from.

pub mod api;
pub mod demo;
pub mod dump;
pub mod live;
pub mod merge;
pub mod ndjson;
mod ordered;
pub mod pages;
pub mod recent;
pub mod related;
pub mod related_live;
pub mod token;
pub mod worker;

use std::sync::Arc;

use crate::filter::Filter;
use crate::store::{Batch, Blob, Store};
pub use dump::DumpProblem;
pub use live::LiveSource;

/// Where events come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The bundled demo dataset.
    Demo,
    /// Saved dumps: files, folders, or `-` for standard input, in the order given.
    Files(Vec<String>),
    /// The live API.
    Live(LiveSource),
}

impl Source {
    /// Whether standard input is read (`-` among the files).
    pub fn reads_stdin(&self) -> bool {
        matches!(self, Source::Files(files) if files.iter().any(|f| f == "-"))
    }

    /// Loads a dump or demo source into a store; the problems met are returned beside it.
    /// The live API loads through [`live::fetch_all`] instead: it gives nothing here.
    pub fn load_offline(&self) -> (Store, Vec<DumpProblem>) {
        let mut store = Store::new();
        match self {
            Source::Demo => {
                store.merge(demo::load());
                (store, Vec::new())
            }
            Source::Files(files) => {
                let problems = load_files(files, |_, batch| {
                    store.merge(batch);
                });
                (store, problems)
            }
            Source::Live(_) => (store, Vec::new()),
        }
    }

    /// The related data (rooms, sessions, quality stats) an offline source holds beside its
    /// events, with the problems met reading it.
    pub fn related(&self) -> crate::related::Related {
        let mut related = crate::related::Related::default();
        if let Source::Demo = self {
            return demo::related();
        }
        if let Source::Files(files) = self {
            for arg in files.iter().filter(|f| *f != "-") {
                for path in dump::expand(arg).unwrap_or_default() {
                    if let Some(Ok(objects)) = related::read_if_related(&path) {
                        related.add(objects);
                    }
                }
            }
        }
        related
    }

    /// Loads a dump or demo source and selects the events that match: line-delimited dumps and
    /// single envelopes take the fast path (only events that could match are parsed), everything
    /// else the full one. Beside the store, the problems and the rows: how many events that match
    /// were dropped as later copies of an id read before (see [`ndjson::matching_copies`]).
    pub fn select_offline(&self, filter: &Filter) -> (Store, Vec<DumpProblem>, Vec<u32>, usize) {
        if let Some(blobs) = self.line_delimited()
            && let Ok((store, rows, dropped)) = ndjson::select(blobs, filter)
        {
            return (store, Vec::new(), rows, dropped);
        }
        if let Some(selected) = self.select_streamed(filter) {
            return selected;
        }
        let (store, problems) = self.load_offline();
        let rows = store.filter(filter);
        let dropped = ndjson::matching_copies(store.dropped_raws(), filter);
        (store, problems, rows, dropped)
    }

    /// [`Source::select_offline`] of one stream (stdin, a pipe, a gzip'd file) read as it comes,
    /// keeping only the events that match; `None` for any other source. No filter is left to the
    /// full way.
    fn select_streamed(
        &self,
        filter: &Filter,
    ) -> Option<(Store, Vec<DumpProblem>, Vec<u32>, usize)> {
        let Source::Files(files) = self else {
            return None;
        };
        let [arg] = files.as_slice() else {
            return None;
        };
        // Without a filter every event is the answer: the full way holds no more, and reads
        // each event once rather than for the filter and again for the store.
        if filter.is_empty() {
            return None;
        }
        let [path] = dump::expand(arg).ok()?.try_into().ok()?;
        let name = dump::display_name(&path);
        if path == std::path::Path::new("-") {
            return Some(ndjson::select_stream(&name, std::io::stdin(), filter));
        }
        if dump::not_a_file(&path).is_some() {
            return None;
        }
        // A regular file that is not gzip'd is mapped (see `line_delimited`); a file of related
        // data holds no event.
        if dump::map_plain_file(&path).is_some() || related::read_if_related(&path).is_some() {
            return None;
        }
        let file = std::fs::File::open(&path).ok()?;
        Some(ndjson::select_stream(&name, file, filter))
    }

    /// [`Source::group_offline`] of one stream (stdin, a pipe, a gzip'd file) read as it comes,
    /// holding the groups rather than the events, with the problems met; `None` for any other
    /// source.
    pub fn group_streamed(
        &self,
        filter: &Filter,
        fields: ndjson::group::GroupFields,
        max: Option<usize>,
    ) -> Option<(ndjson::group::Grouped, Vec<DumpProblem>)> {
        let (name, stream) = self.one_stream()?;
        Some(ndjson::group_stream(&name, stream, filter, fields, max))
    }

    /// Every event of one stream (stdin, a pipe, a gzip'd file) handed to `each` as it comes (the
    /// first `max`), de-duplicated as the full way does: what was read (see
    /// [`ndjson::Streamed`]), the problems met and `each`'s error; `None` for any other source
    /// (see [`ndjson::each_of_stream`]).
    pub fn each_streamed(
        &self,
        max: Option<usize>,
        each: impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> Option<(ndjson::Streamed, Vec<DumpProblem>, std::io::Result<()>)> {
        let (name, stream) = self.one_stream()?;
        Some(ndjson::each_of_stream(&name, stream, max, each))
    }

    /// Whether the source is one stream (stdin, a pipe, a gzip'd file), which
    /// [`Source::each_streamed`] and [`Source::group_streamed`] read as it comes. Nothing is
    /// opened: a named pipe opened to look at it would lose what its writer wrote to that
    /// opening, and leave the next one waiting for a writer.
    pub fn reads_one_stream(&self) -> bool {
        self.stream_path().is_some()
    }

    /// The path of the one stream a file source names (stdin as `-`, a pipe, a gzip'd file);
    /// `None` for any other source. A regular file is read only when it is not mapped: a gzip'd
    /// one.
    fn stream_path(&self) -> Option<std::path::PathBuf> {
        let Source::Files(files) = self else {
            return None;
        };
        let [arg] = files.as_slice() else {
            return None;
        };
        let [path] = dump::expand(arg).ok()?.try_into().ok()?;
        if path == std::path::Path::new("-") {
            return Some(path);
        }
        // A folder's entry that is no file is said so by the full way.
        if dump::not_a_file(&path).is_some() {
            return None;
        }
        // A regular file that is not gzip'd is mapped (see `line_delimited`); a file of related
        // data holds no event. Neither looks at what is not a regular file.
        if dump::map_plain_file(&path).is_some() || related::read_if_related(&path).is_some() {
            return None;
        }
        Some(path)
    }

    /// The one stream a file source names, opened (once), with the name messages give it;
    /// `None` for any other source.
    fn one_stream(&self) -> Option<(String, Box<dyn std::io::Read + Send>)> {
        let path = self.stream_path()?;
        let name = dump::display_name(&path);
        if path == std::path::Path::new("-") {
            return Some((name, Box::new(std::io::stdin())));
        }
        let file = std::fs::File::open(&path).ok()?;
        Some((name, Box::new(file)))
    }

    /// The events of a line-delimited dump or an envelope that match, chosen without a store (for the formats
    /// that copy each event's JSON); `None` when the source is not one the fast path can read.
    pub fn select_offline_spans(&self, filter: &Filter) -> Option<ndjson::Spans> {
        ndjson::select_spans(self.line_delimited()?, filter).ok()
    }

    /// The groups of the events that match (the first `max` of them, when given), counted
    /// without a store of every event; `None` when the source is not one the fast path reads
    /// (see [`ndjson::group`]).
    pub fn group_offline(
        &self,
        filter: &Filter,
        fields: ndjson::group::GroupFields,
        max: Option<usize>,
    ) -> Option<ndjson::group::Grouped> {
        ndjson::group::group(self.line_delimited()?, filter, fields, max).ok()
    }

    /// The files of a file source that hold nothing but whitespace (most often: none at all, a
    /// dump whose writer failed), gzip'd or not, by the names messages give them. Standard input
    /// and what cannot be read are left to the loader.
    pub fn empty_files(&self) -> Vec<String> {
        /// Past this size a file is taken to hold something: it is not read here.
        const SMALL: u64 = 64 * 1024;
        let Source::Files(files) = self else {
            return Vec::new();
        };
        let blanks = |b: &[u8]| b.iter().all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
        // Read inflated, and no further than the size a file is read to here.
        let inflated_blank = |path: &std::path::Path| {
            use std::io::Read;
            let mut bytes = Vec::new();
            dump::open_inflated(path)
                .and_then(|r| r.take(SMALL + 1).read_to_end(&mut bytes))
                .is_ok_and(|n| n as u64 <= SMALL && blanks(&bytes))
        };
        let mut empty = Vec::new();
        for arg in files.iter().filter(|f| *f != "-") {
            for path in dump::expand(arg).unwrap_or_default() {
                let blank = std::fs::metadata(&path).is_ok_and(|m| {
                    m.is_file() && m.len() <= SMALL && (m.len() == 0 || inflated_blank(&path))
                });
                if blank {
                    empty.push(dump::display_name(&path));
                }
            }
        }
        empty
    }

    /// The contents of a file source whose every file looks line-delimited or opens as an
    /// envelope, and opened cleanly.
    fn line_delimited(&self) -> Option<Vec<Arc<Blob>>> {
        let Source::Files(files) = self else {
            return None;
        };
        // stdin can be read only once: it is read as a stream (see `select_streamed`).
        if files.is_empty() || self.reads_stdin() {
            return None;
        }
        let mut blobs = Vec::new();
        for arg in files {
            for path in dump::expand(arg).ok()? {
                // A file of related data holds no event.
                if related::read_if_related(&path).is_some() {
                    continue;
                }
                // Nor does a pipe named by its path (`<(zcat dump.gz)`, /dev/stdin), nor a
                // gzip'd dump: the fast path reads a file whole, and the full one reads it as it
                // decompresses, keeping what does not fit in memory in a temporary file.
                let blob = dump::map_plain_file(&path)?;
                // The fast path reads lines as they are: a byte order mark before the first
                // would be read as part of it (and is left to the full way in an envelope).
                if blob.starts_with(dump::BYTE_ORDER_MARK)
                    || !(ndjson::looks_line_delimited(&blob) || ndjson::looks_like_envelope(&blob))
                {
                    return None;
                }
                blobs.push(Arc::new(blob));
            }
        }
        Some(blobs)
    }
}

/// Events in the first batch of a file: enough for a first screen, small enough to be read at once.
const FIRST_BATCH: usize = 2_000;

/// Reads every file named by the arguments (folders expanded, `-` for stdin), in order, handing
/// each file's batch to `on_batch` as soon as it is read. Returns the problems met; a file that
/// cannot be opened is a problem and the others are still read.
pub fn load_files(args: &[String], on_batch: impl FnMut(&str, Batch)) -> Vec<DumpProblem> {
    load_with_related(args, dump::Holding::WhileItFits, on_batch, |_| {})
}

/// [`load_files`], handing the related data of the files that hold it (rooms, sessions, quality
/// stats, told by their content) to `on_related` instead of reading them as events, and holding
/// in memory what `holding` says of a dump read as it comes.
pub fn load_with_related(
    args: &[String],
    holding: dump::Holding,
    mut on_batch: impl FnMut(&str, Batch),
    mut on_related: impl FnMut(Vec<crate::related::Object>),
) -> Vec<DumpProblem> {
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
            if let Some(related) = related::read_if_related(&path) {
                match related {
                    Ok(objects) => on_related(objects),
                    Err(p) => problems.push(p),
                }
                continue;
            }
            let name = dump::display_name(&path);
            problems.extend(dump::read_path_in_batches(
                &path,
                &reading,
                FIRST_BATCH,
                holding,
                &mut |batch| on_batch(&name, batch),
            ));
        }
    }
    problems
}
