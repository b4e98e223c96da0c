//! The `:` command line: a command and its argument (`:goto 10:02`, `:room weekly-standup`,
//! `:code !4006`, `:since 30m`), Tab completing the command's name and then its argument from
//! the values of the loaded events. Filters set here are steps `u` takes back, like any other.
//!
//! - `arguments`: reading a room or a time given as an argument.
//! - `completion`: what Tab offers.

mod arguments;
mod completion;

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use tui_input::Input;

use super::editor::{time_bound, with_field, with_types};
use super::{Focus, Handled};
use crate::event::Field;
use crate::insight::{Order, SortKey};
use crate::text::for_terminal;
use crate::tui::action::Command;
use crate::tui::effect::Effect;
use crate::tui::keymap::Mode;
use crate::tui::model::Model;
use crate::tui::update::events::{fetch_more_if_near_end, select, set_order};
use crate::tui::update::history::{self, Return};
use arguments::{goto_time, nearest_after, room_filter};
use completion::complete;
pub use completion::completions;

/// What a command's argument is, for running and completing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arg {
    /// A time of day or a date and time.
    Time,
    /// A room's id or name.
    Room,
    Types,
    /// A field's value(s), `!value` to hide one.
    Field(Field),
    /// A `--since` / `--until` value.
    Bound,
    /// Free text.
    Text,
    SortKey,
    Nothing,
}

/// One command: its name, its argument, and what it does, for the help.
pub struct Spec {
    pub name: &'static str,
    arg: Arg,
    pub usage: &'static str,
    pub help: &'static str,
}

const fn spec(name: &'static str, arg: Arg, usage: &'static str, help: &'static str) -> Spec {
    Spec {
        name,
        arg,
        usage,
        help,
    }
}

/// Every command, in the help's order. A field's command is its short name (`sdk`, `device`);
/// a value written `!value` hides the events that have it.
pub const COMMANDS: &[Spec] = &[
    spec(
        "goto",
        Arg::Time,
        ":goto 10:02",
        "to the first event at or after a time",
    ),
    spec(
        "room",
        Arg::Room,
        ":room NAME|ID",
        "the events of a room (!: hide it)",
    ),
    spec(
        "type",
        Arg::Types,
        ":type join,publish",
        "these types only (!join hides joins)",
    ),
    spec(
        "code",
        Arg::Field(Field::Code),
        ":code 4006",
        "an error code (!4006 hides it)",
    ),
    spec(
        "error",
        Arg::Field(Field::ErrorName),
        ":error ICEFailure",
        "an error's name",
    ),
    spec(
        "session",
        Arg::Field(Field::Session),
        ":session ID",
        "a session",
    ),
    spec("peer", Arg::Field(Field::Peer), ":peer ID", "a peer"),
    spec("user", Arg::Field(Field::User), ":user ID", "a user id"),
    spec("role", Arg::Field(Field::Role), ":role host", "a role"),
    spec(
        "sdk",
        Arg::Field(Field::Sdk),
        ":sdk web",
        "an SDK (sdk_version: its version)",
    ),
    spec(
        "sdk_version",
        Arg::Field(Field::SdkVersion),
        ":sdk_version 0.12.3",
        "an SDK version",
    ),
    spec(
        "os",
        Arg::Field(Field::Os),
        ":os iOS",
        "an OS (os_version: its version)",
    ),
    spec(
        "os_version",
        Arg::Field(Field::OsVersion),
        ":os_version 17.1",
        "an OS version",
    ),
    spec(
        "device",
        Arg::Field(Field::Device),
        ":device Chrome 130",
        "a device model",
    ),
    spec(
        "domain",
        Arg::Field(Field::Domain),
        ":domain NAME",
        "a domain",
    ),
    spec(
        "env",
        Arg::Field(Field::Env),
        ":env prod",
        "the agent's env",
    ),
    spec(
        "since",
        Arg::Bound,
        ":since 30m",
        "from a time (RFC 3339, or 90m, 2h, 3d back)",
    ),
    spec("until", Arg::Bound, ":until 10:30Z", "up to a time"),
    spec(
        "search",
        Arg::Text,
        ":search TEXT",
        "the search filter (empty: none)",
    ),
    spec("find", Arg::Text, ":find TEXT", "find a text, as / does"),
    spec(
        "sort",
        Arg::SortKey,
        ":sort code",
        "sort by time, type, code, room, user, sdk, status",
    ),
    spec("newest", Arg::Nothing, ":newest", "newest events first"),
    spec("oldest", Arg::Nothing, ":oldest", "oldest events first"),
    spec(
        "clear",
        Arg::Nothing,
        ":clear",
        "clear the filters, as x does",
    ),
    spec(
        "undo",
        Arg::Nothing,
        ":undo",
        "take the last filter change back, as u does",
    ),
];

/// The command line while it is typed.
#[derive(Debug)]
pub struct CommandLine {
    pub input: Input,
    /// Where the keyboard goes back to.
    pub back: Box<Focus>,
    /// The completions of what was typed when Tab was first pressed, and the one shown.
    pub completion: Option<Completion>,
}

/// The candidates Tab goes through.
#[derive(Debug, Clone)]
pub struct Completion {
    /// The line as typed, before the first Tab.
    pub typed: String,
    /// The text before the word completed.
    pub head: String,
    pub candidates: Vec<String>,
    pub at: usize,
}

/// `:`: the command line opens.
pub fn open(here: Focus) -> Handled {
    Handled::to(Focus::Command(CommandLine {
        input: Input::default(),
        back: Box::new(here),
        completion: None,
    }))
}

/// The command a name stands for: the whole name, or a prefix of exactly one.
fn command_named(name: &str) -> Option<&'static Spec> {
    let name = name.to_ascii_lowercase();
    COMMANDS.iter().find(|s| s.name == name).or_else(|| {
        let mut matching = COMMANDS.iter().filter(|s| s.name.starts_with(&name));
        match (matching.next(), matching.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    })
}

/// A command while the line is typed.
pub fn handle(mut line: CommandLine, model: &mut Model, c: Command) -> Handled {
    match c {
        Command::Apply => {
            let text = line.input.value().trim().to_string();
            let back = *line.back;
            if text.is_empty() {
                return Handled::to(back);
            }
            match run(model, &text, back) {
                Ok(handled) => handled,
                Err(failed) => {
                    let (why, back) = *failed;
                    model.status = Some(format!(":{}: {why}", for_terminal(&text)));
                    line.back = Box::new(back);
                    Handled::to(Focus::Command(line))
                }
            }
        }
        Command::Cancel => Handled::to(*line.back),
        Command::NextField | Command::PrevField => {
            complete(&mut line, model, c == Command::NextField);
            Handled::to(Focus::Command(line))
        }
        _ => Handled::Unused(Focus::Command(line)),
    }
}

/// What was typed changed: the completion starts again from it.
pub fn typed(model: &mut Model) {
    if let Focus::Command(line) = &mut model.focus {
        line.completion = None;
    }
}

/// Runs a command line. On failure, why, and the focus to go back to.
fn run(model: &mut Model, text: &str, back: Focus) -> Result<Handled, Box<(String, Focus)>> {
    let (name, arg) = match text.split_once(char::is_whitespace) {
        Some((name, arg)) => (name, arg.trim()),
        None => (text, ""),
    };
    let Some(spec) = command_named(name) else {
        let names: Vec<&str> = COMMANDS.iter().map(|s| s.name).collect();
        return Err(Box::new((
            format!("no such command; the commands are {}", names.join(", ")),
            back,
        )));
    };
    let from = match &back {
        Focus::Groups(g) => Return::groups(model, g),
        _ => Return::list(model),
    };
    // Live, a name no loaded event gives a room: the room prompt looks it up.
    if spec.arg == Arg::Room
        && !arg.starts_with('!')
        && !arg.is_empty()
        && room_filter(model, arg).is_err()
        && super::rooms::look_up_named(model, arg)
    {
        return Ok(Handled::to(list_or(back)));
    }
    let filter = &model.events.filter;
    let new_filter = match spec.arg {
        Arg::Field(field) => Some(with_field(filter, field, arg)),
        Arg::Types => Some(with_types(filter, arg)),
        Arg::Room => Some(room_filter(model, arg)),
        Arg::Bound => {
            let current = if spec.name == "since" {
                filter.since.as_ref()
            } else {
                filter.until.as_ref()
            };
            Some(time_bound(spec.name, arg, current).map(|bound| {
                let mut f = filter.clone();
                if spec.name == "since" {
                    f.since = bound;
                } else {
                    f.until = bound;
                }
                f
            }))
        }
        Arg::Text if spec.name == "search" => {
            let mut f = filter.clone();
            f.search = (!arg.is_empty()).then(|| arg.to_string());
            Some(Ok(f))
        }
        _ => None,
    };
    if let Some(new_filter) = new_filter {
        let new_filter = match new_filter {
            Ok(filter) => filter,
            Err(why) => return Err(Box::new((why, back))),
        };
        let effects = history::change(model, new_filter, from);
        return Ok(Handled::Done(list_or(back), effects));
    }
    match spec.name {
        "goto" => {
            let k = match goto_time(model, arg) {
                Ok(target) => nearest_after(model, target).ok_or("no event is shown".to_string()),
                Err(why) => Err(why),
            };
            let k = match k {
                Ok(k) => k,
                Err(why) => return Err(Box::new((why, back))),
            };
            select(model, k);
            let effects = fetch_more_if_near_end(model);
            Ok(Handled::Done(list_or(back), effects))
        }
        "find" => {
            if arg.is_empty() {
                model.events.find = None;
                return Ok(Handled::to(back));
            }
            let mut find = super::find::Find::lazy(arg);
            find.refresh(&model.events, model.events.find_step);
            model.events.find = Some(find);
            Ok(super::find::next(model, true, list_or(back)))
        }
        "sort" => {
            let Some(key) = SortKey::named(arg) else {
                let names: Vec<&str> = SortKey::ALL.iter().map(|k| k.name()).collect();
                return Err(Box::new((format!("sort by {}", names.join(", ")), back)));
            };
            let order = Order {
                key,
                ..model.events.order
            };
            set_order(model, order);
            model.status = Some(format!("sorted by {}", order.describe()));
            Ok(Handled::to(list_or(back)))
        }
        "newest" | "oldest" => {
            let order = Order {
                newest_first: spec.name == "newest",
                ..model.events.order
            };
            set_order(model, order);
            model.status = Some(format!("sorted by {}", order.describe()));
            Ok(Handled::to(list_or(back)))
        }
        "clear" => {
            let effects: Vec<Effect> = history::clear(model, from);
            Ok(Handled::Done(list_or(back), effects))
        }
        _ => {
            let (focus, effects) = history::undo(model, back);
            Ok(Handled::Done(focus, effects))
        }
    }
}

/// Where the keyboard goes after a command that changed the events: the list, or the detail
/// pane when it was there.
fn list_or(back: Focus) -> Focus {
    match back {
        Focus::Detail => Focus::Detail,
        Focus::Groups(g) => Focus::Groups(g),
        _ => Focus::List,
    }
}

/// The command line, in the hint bar's place, and the completions above it.
pub fn draw(model: &Model, line: &CommandLine, frame: &mut Frame, footer: Rect) {
    let theme = &model.config.theme;
    let key = |c| model.config.keymap.key(Mode::CommandLine, c);
    let tail = format!(
        "   {} completes  {} runs  {} cancels",
        key(Command::NextField),
        key(Command::Apply),
        key(Command::Cancel)
    );
    let width = (footer.width as usize)
        .saturating_sub(1 + tail.chars().count())
        .max(1);
    let (text, cursor) = super::input_view::visible(&line.input, width);
    frame.set_cursor_position(Position::new(footer.x + 1 + cursor as u16, footer.y));
    let pad = width.saturating_sub(unicode_width::UnicodeWidthStr::width(text.as_str()));
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(":", theme.key()),
            Span::styled(format!("{text}{}", " ".repeat(pad)), theme.input_focused()),
            Span::styled(tail, theme.label()),
        ])),
        footer,
    );
    // The completions, on the line above, the one shown marked.
    let Some(c) = &line.completion else {
        return;
    };
    if c.candidates.is_empty() || footer.y == 0 {
        return;
    }
    let above = Rect::new(footer.x, footer.y - 1, footer.width, 1);
    let mut spans = vec![Span::raw(" ")];
    for (k, candidate) in c.candidates.iter().enumerate() {
        let style = if k + 1 == c.at {
            theme.selected_row()
        } else {
            theme.label()
        };
        spans.push(Span::styled(
            for_terminal(candidate.trim_end()).into_owned(),
            style,
        ));
        spans.push(Span::raw("  "));
    }
    frame.render_widget(Clear, above);
    frame.render_widget(Paragraph::new(Line::from(spans)), above);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_named_whole_or_by_a_prefix_of_one() {
        assert_eq!(command_named("room").map(|s| s.name), Some("room"));
        assert_eq!(command_named("go").map(|s| s.name), Some("goto"));
        assert_eq!(
            command_named("s").map(|s| s.name),
            None,
            "session, sdk, since..."
        );
        assert_eq!(command_named("sdk").map(|s| s.name), Some("sdk"));
    }

    #[test]
    fn every_command_is_described_in_few_enough_words_for_the_help() {
        for s in COMMANDS {
            assert!(s.usage.len() <= 22, "{}", s.usage);
            assert!(s.help.len() <= 50, "{}", s.help);
        }
    }
}
