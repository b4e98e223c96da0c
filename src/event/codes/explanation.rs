//! The answer for one code on one platform, and its wording for a pane or for one line.

use super::{Kind, Mark, NOT_SHOWN, Platform, Row, Table};
use crate::event::{Event, value_text};

/// The event's own words: quoted when its code is unknown, and its name compared with the
/// table's. Absent fields are `None`; a field that is not a string is kept as compact JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Said {
    pub name: Option<String>,
    pub message: Option<String>,
    pub description: Option<String>,
}

impl Said {
    pub fn of(e: &Event) -> Said {
        let text = |field| e.data_value(field).map(value_text);
        Said {
            name: text("error_name"),
            message: text("error_message"),
            description: text("error_description"),
        }
    }

    /// `the event says error_name "…", error_message "…"`: the fields present, as they are.
    fn quoted(&self) -> String {
        let quotes: Vec<String> = [
            ("error_name", &self.name),
            ("error_message", &self.message),
            ("error_description", &self.description),
        ]
        .into_iter()
        .filter_map(|(field, v)| v.as_ref().map(|v| format!("{field} \"{v}\"")))
        .collect();
        if quotes.is_empty() {
            "the event gives no error_name, error_message or error_description".to_string()
        } else {
            format!("the event says {}", quotes.join(", "))
        }
    }
}

/// Why a code has no meaning here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unknown {
    /// The event has no `error_code`.
    NoCode,
    /// The event's `error_code` is not a whole number.
    NotAWholeNumber,
    /// Neither the platform's table(s) nor the general one holds the code.
    NotInTables,
    /// The platform's table(s) lack the code, and its meaning differs between platforms (spec
    /// section 3): none is borrowed.
    DiffersByPlatform,
}

/// What the tables answer for a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A row gives the code's meaning: a row of the platform's table(s), or of the general
    /// table when `fallback`.
    Meaning {
        table: Table,
        row: &'static Row,
        fallback: bool,
    },
    /// A row names the code only to say it means nothing of its own here: an unknown code, with
    /// what the row says.
    NoMeaning { table: Table, row: &'static Row },
    /// No row holds the code.
    Unknown(Unknown),
}

/// What a code means on a platform, and where that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub code: Option<i64>,
    pub platform: Platform,
    pub answer: Answer,
    pub said: Said,
}

impl Explanation {
    /// The row that answered, if one did.
    pub fn row(&self) -> Option<&'static Row> {
        match self.answer {
            Answer::Meaning { row, .. } | Answer::NoMeaning { row, .. } => Some(row),
            Answer::Unknown(_) => None,
        }
    }

    /// The table that answered, if one did.
    pub fn table(&self) -> Option<Table> {
        match self.answer {
            Answer::Meaning { table, .. } | Answer::NoMeaning { table, .. } => Some(table),
            Answer::Unknown(_) => None,
        }
    }

    /// Whether the code is unknown here: no row, or a row that gives it no meaning.
    pub fn is_unknown(&self) -> bool {
        !matches!(self.answer, Answer::Meaning { .. })
    }

    /// Where the answer was read: `web table`, `Android table; general table for this code`,
    /// `Android table (Flutter on Android)`, or why no table holds the code.
    pub fn source(&self) -> String {
        let p = self.platform;
        match self.answer {
            Answer::Meaning { fallback: true, .. } => {
                format!("{}; general table for this code", p.tables_label())
            }
            Answer::Meaning { table, .. } | Answer::NoMeaning { table, .. } => match p {
                Platform::Flutter(None) | Platform::ReactNative(None)
                    if table == Table::Android =>
                {
                    format!("Android table, as the {} says", p.tables_label())
                }
                _ if p.native().is_some() && matches!(table, Table::Android | Table::Ios) => {
                    format!("{} ({})", table.name(p), p.label())
                }
                _ => table.name(p).to_string(),
            },
            Answer::Unknown(Unknown::NoCode) if p == Platform::Web => {
                "no error_code: a plain browser error (web then sends only the name, message \
                 and description)"
                    .to_string()
            }
            Answer::Unknown(Unknown::NoCode) => "no error_code".to_string(),
            Answer::Unknown(Unknown::NotAWholeNumber) => {
                "the error_code is not a whole number".to_string()
            }
            Answer::Unknown(Unknown::NotInTables) if p == Platform::Web => {
                "not in the web table".to_string()
            }
            Answer::Unknown(Unknown::NotInTables) if p == Platform::Unknown => {
                "platform not known; not in the general table".to_string()
            }
            Answer::Unknown(Unknown::NotInTables) => {
                format!("not in the {} nor in the general table", p.tables_label())
            }
            Answer::Unknown(Unknown::DiffersByPlatform) if p == Platform::Unknown => {
                "platform not known, and this code means different things on different \
                 platforms"
                    .to_string()
            }
            Answer::Unknown(Unknown::DiffersByPlatform) => format!(
                "not in the {}; this code means other things on other platforms, and their \
                 meaning is not borrowed",
                p.tables_label()
            ),
        }
    }

    /// Where the answer was read, in the pane's words: `the web SDK's table`, `the general
    /// table: this code is not in the Android SDK's table`, `the Android SDK's table (Flutter on
    /// Android)`. `None` when no table answered ([`Explanation::source`] says why).
    pub fn read_in(&self) -> Option<String> {
        let p = self.platform;
        let (Answer::Meaning { table, .. } | Answer::NoMeaning { table, .. }) = self.answer else {
            return None;
        };
        Some(match self.answer {
            Answer::Meaning { fallback: true, .. } => format!(
                "the general table: this code is not in {}",
                sdks_table(p.tables_label())
            ),
            _ => match p {
                Platform::Flutter(None) | Platform::ReactNative(None)
                    if table == Table::Android =>
                {
                    format!(
                        "{}, as {} says",
                        sdks_table(table.name(p)),
                        sdks_table(p.tables_label())
                    )
                }
                _ if p.native().is_some() && matches!(table, Table::Android | Table::Ios) => {
                    format!("{} ({})", sdks_table(table.name(p)), p.label())
                }
                _ => sdks_table(table.name(p)),
            },
        })
    }

    /// The table's `error_name` when it names the code and the event's (or its absence) is
    /// none of the table's names: `iOS table: iceFailure, the iOS case name; ...`.
    pub fn table_name_if_differs(&self) -> Option<String> {
        let (table, row) = (self.table()?, self.row()?);
        let differs = !row.names.is_empty()
            && !self
                .said
                .name
                .as_deref()
                .is_some_and(|n| row.names.contains(&n));
        differs.then(|| {
            let note = if table == Table::Ios {
                ", the iOS case name; the string iOS sends was not seen"
            } else {
                ""
            };
            format!("{}: {}{note}", table.name(self.platform), row.name_text())
        })
    }

    /// The explanation as labelled lines for a pane: what it means, what to check, whether the
    /// SDK retries, where it was read, and the row's notes.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = Vec::new();
        match self.answer {
            Answer::Meaning { table, row, .. } => {
                let not_raised = row.kind == Kind::DefinedNotRaised;
                if row.what.is_empty() && not_raised {
                    lines.push(("means", not_raised_text(table)));
                } else {
                    lines.push(("means", row.what.to_string()));
                }
                if !row.check.is_empty() {
                    lines.push(("check", row.check.to_string()));
                }
                if !row.retried.is_empty() {
                    lines.push((RETRIES, retried_text(row.retried).to_string()));
                }
                lines.push(self.where_read());
                if not_raised && !row.what.is_empty() {
                    lines.push(("note", not_raised_text(table)));
                }
                if row.secondary {
                    lines.push(("note", SECONDARY.to_string()));
                }
                if row.mark == Mark::ConstantOnly {
                    lines.push(("note", CONSTANT_ONLY.to_string()));
                }
            }
            Answer::NoMeaning { row, .. } => {
                lines.push((
                    "means",
                    format!(
                        "unknown code: {} {}",
                        row.what,
                        sentence(&self.said.quoted())
                    ),
                ));
                if !row.check.is_empty() {
                    lines.push(("check", row.check.to_string()));
                }
                lines.push(self.where_read());
            }
            Answer::Unknown(_) => {
                lines.push(("means", format!("unknown code: {}", self.said.quoted())));
                lines.push(self.where_read());
            }
        }
        lines
    }

    /// The pane's line of where the answer was read: `read in` a table, or why no `table` holds
    /// the code.
    fn where_read(&self) -> (&'static str, String) {
        match self.read_in() {
            Some(read_in) => ("read in", read_in),
            None => ("table", self.source()),
        }
    }

    /// The explanation in one line, for a front end that has one:
    /// `4006 ICEDisconnected (web): The media connection dropped ... The SDK retries this code: Yes`.
    pub fn line(&self) -> String {
        let code = self
            .code
            .map_or_else(|| "no code".to_string(), |c| c.to_string());
        let label = match self.answer {
            Answer::Meaning { fallback: true, .. } => {
                format!("{}, general table", self.platform.label())
            }
            _ => self.platform.label().to_string(),
        };
        match self.answer {
            Answer::Meaning { table, row, .. } => {
                // The name the event carries, as a list shows it; else the table's.
                let name = self
                    .said
                    .name
                    .as_deref()
                    .or(row.names.first().copied())
                    .map(|n| format!(" {n}"))
                    .unwrap_or_default();
                let mut line = format!("{code}{name} ({label}):");
                if !row.what.is_empty() {
                    line.push(' ');
                    line.push_str(row.what);
                }
                if !row.retried.is_empty() && row.retried != NOT_SHOWN {
                    line.push_str(&format!(" The SDK retries this code: {}", row.retried));
                }
                if row.kind == Kind::DefinedNotRaised {
                    line.push_str(&format!(" {}.", sentence(&not_raised_text(table))));
                }
                line
            }
            Answer::NoMeaning { row, .. } => format!(
                "{code} ({label}): unknown code: {} {}",
                row.what,
                sentence(&self.said.quoted())
            ),
            Answer::Unknown(_) => format!("{code} ({label}): unknown code: {}", self.said.quoted()),
        }
    }
}

const SECONDARY: &str = "† rests on a secondary source (a decompiled copy of the Android SDK)";

const CONSTANT_ONLY: &str =
    "‡ only the constant's name is documented; the string the SDK sends was not seen";

/// The label of the table's word on retries: whether the SDK retries the code, said so that it
/// is not read as whether this event was retried (the event's own status says that).
pub const RETRIES: &str = "the SDK retries this code";

/// A table's name as the SDK's: `web table` is `the web SDK's table`, `Android and Flutter
/// tables` are `the Android and Flutter SDKs' tables`; the general table stays itself.
fn sdks_table(name: &str) -> String {
    if let Some(sdks) = name.strip_suffix(" tables") {
        format!("the {sdks} SDKs' tables")
    } else if let Some(sdk) = name.strip_suffix(" table")
        && sdk != "general"
    {
        format!("the {sdk} SDK's table")
    } else {
        format!("the {name}")
    }
}

fn retried_text(retried: &str) -> &str {
    if retried == NOT_SHOWN {
        "not shown by the sources"
    } else {
        retried
    }
}

fn not_raised_text(table: Table) -> String {
    match table.version_read() {
        Some(version) => {
            format!("defined by the SDK but not raised in the version read ({version})")
        }
        None => "defined by the SDK but not raised in the version read".to_string(),
    }
}

/// `text` with its first letter in capitals.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
