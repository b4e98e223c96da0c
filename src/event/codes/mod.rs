//! What an error code means and what to check, per SDK platform (shared/spec/error-codes.md).
//!
//! Every row of the spec's tables is kept here as data, one file per table: the web table, which
//! is also the general table every platform falls back to (`web`), and the Android, iOS,
//! Flutter and React Native tables. A code is looked up in the table of the event's platform
//! ([`Platform`], read from its agent), then in the general table, and is otherwise an unknown
//! code: nothing is guessed, and a code whose meaning differs between platforms
//! ([`DIFFERS_BY_PLATFORM`]) is never given another platform's meaning.

mod android;
mod explanation;
mod flutter;
mod ios;
mod platform;
mod react_native;
mod web;

pub use explanation::{Answer, Explanation, RETRIES, Said, Unknown};
pub use platform::{Native, Platform};

use crate::event::Event;

/// The codes of a row's code column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// One code.
    One(i64),
    /// Every code from the first to the second, both included (`501–511`, `5xx`).
    Span(i64, i64),
    /// Whatever code the server answered with, passed through by the SDK: such a row is found by
    /// the event's `error_name`, never by its code.
    FromServer,
}

/// How a row's `error_name` was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// As the table's note says (checked against the source for web; the public case name for
    /// iOS; docs only where there is no name).
    Plain,
    /// † From a decompiled copy of the Android SDK: a secondary source.
    Secondary,
    /// ‡ Only the constant's name in the Android API reference: the string sent was not seen.
    ConstantOnly,
}

/// What a row says of its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// What happened, when the code is raised.
    Meaning,
    /// The SDK declares the code but no code path raised it in the version read.
    DefinedNotRaised,
    /// The row names the code only to say it has no meaning of its own here (a server code passed
    /// through; a docs wording copied from another platform).
    NoMeaning,
}

/// A Flutter or React Native row that gives no meaning of its own but the native SDK's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refers {
    /// "as Android".
    Android,
    /// "as Android / iOS", "as native".
    Native,
}

/// One row of a table, its cells as the spec words them (shortened where a cell is long; a cell
/// that only pointed at another row is written out).
#[derive(Debug, PartialEq, Eq)]
pub struct Row {
    pub codes: &'static [Code],
    /// The `error_name` strings the SDK writes for this code, as they are compared with an
    /// event's; empty when no source names one.
    pub names: &'static [&'static str],
    pub mark: Mark,
    /// The rest of the `error_name` cell ("uncertain which", "as Android"), or empty.
    pub name_note: &'static str,
    /// The action(s) the error is reported with; empty when no source shows them.
    pub actions: &'static str,
    pub what: &'static str,
    /// What to check, or tell the user; empty when the cell is empty.
    pub check: &'static str,
    /// Whether the SDK retries, and when the error is terminal; empty when the cell is empty.
    pub retried: &'static str,
    pub kind: Kind,
    /// Some fact of the row (marked †) rests on a secondary source.
    pub secondary: bool,
    /// A wrapper's row that stands for the native SDK's row.
    pub refers: Option<Refers>,
    /// A wrapper's row that holds on one native SDK only.
    pub only: Option<Native>,
}

impl Row {
    /// Whether the row's code column holds `code` as a code of its own (2) or in a span (1).
    fn holds(&self, code: i64) -> u8 {
        self.codes
            .iter()
            .map(|c| match *c {
                Code::One(c) if c == code => 2,
                Code::Span(lo, hi) if (lo..=hi).contains(&code) => 1,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    fn named(&self, name: Option<&str>) -> bool {
        name.is_some_and(|n| self.names.contains(&n))
    }

    /// The `error_name` cell as shown: the names, each with its mark, and the cell's note.
    pub fn name_text(&self) -> String {
        let mark = match self.mark {
            Mark::Plain => "",
            Mark::Secondary => "†",
            Mark::ConstantOnly => "‡",
        };
        let names: Vec<String> = self.names.iter().map(|n| format!("{n}{mark}")).collect();
        match (names.is_empty(), self.name_note.is_empty()) {
            (false, true) => names.join(" or "),
            (false, false) => format!("{} ({})", names.join(" or "), self.name_note),
            (true, _) => self.name_note.to_string(),
        }
    }
}

/// The retry cell of rows whose sources do not say.
const NOT_SHOWN: &str = "Not shown.";

/// A row that gives its code a meaning, its name as the table's note says (unmarked), no wrapper
/// notes; the builders below set the rest.
const fn row(
    codes: &'static [Code],
    names: &'static [&'static str],
    actions: &'static str,
    what: &'static str,
    check: &'static str,
    retried: &'static str,
) -> Row {
    Row {
        codes,
        names,
        mark: Mark::Plain,
        name_note: "",
        actions,
        what,
        check,
        retried,
        kind: Kind::Meaning,
        secondary: false,
        refers: None,
        only: None,
    }
}

impl Row {
    /// The name comes from the decompiled Android SDK (†): a secondary source.
    const fn dagger(self) -> Row {
        Row {
            mark: Mark::Secondary,
            secondary: true,
            ..self
        }
    }

    /// The name is only a constant of the Android API reference (‡).
    const fn constant_only(self) -> Row {
        Row {
            mark: Mark::ConstantOnly,
            ..self
        }
    }

    const fn name_note(self, name_note: &'static str) -> Row {
        Row { name_note, ..self }
    }

    const fn not_raised(self) -> Row {
        Row {
            kind: Kind::DefinedNotRaised,
            ..self
        }
    }

    const fn no_meaning(self) -> Row {
        Row {
            kind: Kind::NoMeaning,
            ..self
        }
    }

    const fn refers(self, refers: Refers) -> Row {
        Row {
            refers: Some(refers),
            ..self
        }
    }

    const fn only(self, native: Native) -> Row {
        Row {
            only: Some(native),
            ..self
        }
    }
}

/// Each of the spec's tables (section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// 2.1, the web table, which is also the general one every platform falls back to.
    General,
    /// 2.2.
    Android,
    /// 2.3.
    Ios,
    /// 2.4.
    Flutter,
    /// 2.5.
    ReactNative,
}

impl Table {
    pub const ALL: [Table; 5] = [
        Table::General,
        Table::Android,
        Table::Ios,
        Table::Flutter,
        Table::ReactNative,
    ];

    pub fn rows(self) -> &'static [Row] {
        match self {
            Table::General => web::ROWS,
            Table::Android => android::ROWS,
            Table::Ios => ios::ROWS,
            Table::Flutter => flutter::ROWS,
            Table::ReactNative => react_native::ROWS,
        }
    }

    /// The table's name in a sentence; the general table is the web one for a web event.
    pub fn name(self, platform: Platform) -> &'static str {
        match self {
            Table::General if platform == Platform::Web => "web table",
            Table::General => "general table",
            Table::Android => "Android table",
            Table::Ios => "iOS table",
            Table::Flutter => "Flutter table",
            Table::ReactNative => "React Native table",
        }
    }

    /// The SDK version the table's "defined, not raised" rows were read in, where it names one.
    pub fn version_read(self) -> Option<&'static str> {
        match self {
            Table::General => Some("web SDK 0.15.2"),
            _ => None,
        }
    }

    fn of_native(native: Native) -> Table {
        match native {
            Native::Android => Table::Android,
            Native::Ios => Table::Ios,
        }
    }
}

/// The codes whose meaning differs between platforms (spec section 3): a platform's table that
/// lacks one of them does not fall back to the general table for it.
pub const DIFFERS_BY_PLATFORM: &[i64] = &[
    1000, 1004, 1006, 2000, 2001, 2002, 3002, 3004, 3008, 3011, 3012, 3013, 3014, 3015, 3016, 3017,
    4006, 4007, 4008, 5000, 5002, 6000, 6004, 6008, 6009, 6010, 6012, 6013, 7005, 7006, 8001, 8002,
    8003, 9001, 6002,
];

/// What `code` means on `platform`, from its table, else the general one, else unknown.
pub fn explain(platform: Platform, code: i64) -> Explanation {
    Explanation {
        code: Some(code),
        platform,
        answer: answer(platform, code, None),
        said: Said::default(),
    }
}

/// What the event's `error_code` means on the event's platform, with the event's own
/// `error_name`, `error_message` and `error_description` kept to quote and compare. A row told
/// apart from another of the same code by its name (a wrapper's own error) is found by the
/// event's name. An event without a code (or with `null`), or with one that is not a whole
/// number, is an unknown code; a float with no fraction is a whole number, as the store reads it.
pub fn explain_event(e: &Event) -> Explanation {
    let platform = Platform::of(e);
    let said = Said::of(e);
    let sent = e.data_value("error_code").filter(|v| !v.is_null());
    let code = sent.and_then(|v| {
        v.as_i64().or_else(|| {
            v.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        })
    });
    let answer = match (code, sent) {
        (Some(code), _) => answer(platform, code, said.name.as_deref()),
        (None, None) => Answer::Unknown(Unknown::NoCode),
        (None, Some(_)) => Answer::Unknown(Unknown::NotAWholeNumber),
    };
    Explanation {
        code,
        platform,
        answer,
        said,
    }
}

/// The tables of a platform, in the order they are asked.
fn tables_of(platform: Platform) -> Vec<Table> {
    match platform {
        Platform::Web => vec![Table::General],
        Platform::Android => vec![Table::Android],
        Platform::Ios => vec![Table::Ios],
        // The native SDK underneath emits the events: its table first.
        Platform::Flutter(native) => native
            .map(Table::of_native)
            .into_iter()
            .chain([Table::Flutter])
            .collect(),
        Platform::ReactNative(native) => native
            .map(Table::of_native)
            .into_iter()
            .chain([Table::ReactNative])
            .collect(),
        Platform::Unknown => Vec::new(),
    }
}

/// Whether a row of `table` may answer on `platform`: a wrapper's row that stands for the native
/// SDK's is asked only when the native SDK is not known (otherwise its table was asked), and a
/// wrapper's row of one native SDK only on that one or when it is not known.
fn applies(row: &Row, platform: Platform) -> bool {
    let native = platform.native();
    (row.refers.is_none() || native.is_none())
        && match (row.only, native) {
            (Some(only), Some(native)) => only == native,
            _ => true,
        }
}

/// The first row of `tables` that holds `code`: a row that also carries the event's name first
/// (a wrapper's own error beside the SDK's of the same code), then a code of its own before a
/// span, table by table; then a row of a code passed through from the server, by name.
fn find(
    tables: &[Table],
    platform: Platform,
    code: i64,
    name: Option<&str>,
) -> Option<(Table, &'static Row)> {
    let rows = || {
        tables.iter().flat_map(move |&t| {
            t.rows()
                .iter()
                .filter(move |r| applies(r, platform))
                .map(move |r| (t, r))
        })
    };
    for (degree, by_name) in [(2, true), (1, true), (2, false), (1, false)] {
        if let Some(found) =
            rows().find(|(_, r)| r.holds(code) == degree && (!by_name || r.named(name)))
        {
            return Some(found);
        }
    }
    rows().find(|(_, r)| r.codes.contains(&Code::FromServer) && r.named(name))
}

fn answer(platform: Platform, code: i64, name: Option<&str>) -> Answer {
    let found = |table: Table, row: &'static Row, fallback: bool| match row.kind {
        Kind::NoMeaning => Answer::NoMeaning { table, row },
        _ => Answer::Meaning {
            table,
            row,
            fallback,
        },
    };
    let tables = tables_of(platform);
    if let Some((table, row)) = find(&tables, platform, code, name) {
        // A wrapper's "as Android" row, asked only when the native SDK is not known, stands for
        // the Android row of the code.
        if row.refers == Some(Refers::Android)
            && let Some((table, row)) = find(&[Table::Android], platform, code, name)
        {
            return found(table, row, false);
        }
        return found(table, row, false);
    }
    if platform == Platform::Web {
        return Answer::Unknown(Unknown::NotInTables);
    }
    if DIFFERS_BY_PLATFORM.contains(&code) {
        return Answer::Unknown(Unknown::DiffersByPlatform);
    }
    match find(&[Table::General], platform, code, name) {
        Some((table, row)) => found(table, row, true),
        None => Answer::Unknown(Unknown::NotInTables),
    }
}

#[cfg(test)]
mod tests;
