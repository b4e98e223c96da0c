//! The one table of keys: per mode, which key does what. The config's `[keys]` table rebinds its
//! actions by name; the help screen and the hint bar are made from the bindings in force, so they
//! cannot drift from what the keys do.

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Command;

/// Where the keyboard goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    List,
    Detail,
    Editing,
    Help,
    /// Typing the path of a dump to save.
    SavePath,
    /// Answering whether to replace an existing file.
    Confirm,
    /// The groups view.
    Groups,
    /// A peer's story.
    Story,
    /// Choosing a time range on the timeline.
    Timeline,
    /// The facets, a value selected.
    Facets,
    /// Typing a text to find.
    Find,
    /// The event's JSON as a tree.
    Json,
    /// Typing a `:` command.
    CommandLine,
    /// A peer's network (quality stats) in a session.
    Quality,
    /// Choosing the live query's room.
    Rooms,
}

impl Mode {
    pub const ALL: [Mode; 15] = [
        Mode::List,
        Mode::Detail,
        Mode::Editing,
        Mode::Help,
        Mode::SavePath,
        Mode::Confirm,
        Mode::Groups,
        Mode::Story,
        Mode::Timeline,
        Mode::Facets,
        Mode::Find,
        Mode::Json,
        Mode::CommandLine,
        Mode::Quality,
        Mode::Rooms,
    ];

    /// Where the keyboard is, in words, for messages about the key table.
    pub fn describe(self) -> &'static str {
        match self {
            Mode::List => "the list",
            Mode::Detail => "the detail pane",
            Mode::Editing => "a filter input",
            Mode::Help => "the help",
            Mode::SavePath => "the save prompt",
            Mode::Confirm => "the replace question",
            Mode::Groups => "the groups view",
            Mode::Story => "a peer's story",
            Mode::Timeline => "the timeline",
            Mode::Facets => "the facets",
            Mode::Find => "the find prompt",
            Mode::Json => "the JSON tree",
            Mode::CommandLine => "the command line",
            Mode::Quality => "the network view",
            Mode::Rooms => "the room prompt",
        }
    }

    /// Whether keys type text here: a plain character is then text, never a command.
    pub fn takes_text(self) -> bool {
        matches!(
            self,
            Mode::Editing | Mode::SavePath | Mode::Find | Mode::CommandLine | Mode::Rooms
        )
    }
}

/// A key as written in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Alt(char),
    Code(KeyCode),
}

/// How keys are written in the config, for the message about one that is not understood.
pub const KEY_SYNTAX: &str = "a single character (\"q\", \"G\", \"?\"), ctrl-X, alt-X, or one of \
    enter, tab, shift-tab, esc, space, backspace, delete, insert, up, down, left, right, home, \
    end, pgup, pgdn, f1 to f12";

impl Key {
    pub fn label(&self) -> String {
        match self {
            Key::Char(' ') => "Space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Alt(c) => format!("Alt-{c}"),
            Key::Code(code) => match code {
                KeyCode::Up => "↑".into(),
                KeyCode::Down => "↓".into(),
                KeyCode::Left => "←".into(),
                KeyCode::Right => "→".into(),
                KeyCode::PageUp => "PgUp".into(),
                KeyCode::PageDown => "PgDn".into(),
                KeyCode::Home => "Home".into(),
                KeyCode::End => "End".into(),
                KeyCode::Enter => "Enter".into(),
                KeyCode::Tab => "Tab".into(),
                KeyCode::BackTab => "Shift-Tab".into(),
                KeyCode::Esc => "Esc".into(),
                KeyCode::F(n) => format!("F{n}"),
                other => format!("{other:?}"),
            },
        }
    }

    /// Reads a key as the config writes it: see [`KEY_SYNTAX`]. Names and modifiers are read in
    /// any case; a single character is taken as written (`G` is not `g`).
    pub fn parse(text: &str) -> Result<Key, String> {
        let single = |s: &str| {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        };
        if let Some(c) = single(text).filter(|c| !c.is_control()) {
            return Ok(Key::Char(c));
        }
        let lower = text.trim().to_ascii_lowercase();
        let modified = |prefix: &str| {
            [format!("{prefix}-"), format!("{prefix}+")]
                .into_iter()
                .find_map(|p| text.trim().get(p.len()..).filter(|_| lower.starts_with(&p)))
        };
        let unknown = || format!("{text:?} is not a key: write {KEY_SYNTAX}");
        if let Some(rest) = modified("ctrl") {
            return match single(rest) {
                Some(c) if c.is_ascii_graphic() => Ok(Key::Ctrl(c.to_ascii_lowercase())),
                _ => Err(unknown()),
            };
        }
        if let Some(rest) = modified("alt") {
            return match single(rest) {
                Some(c) if !c.is_control() => Ok(Key::Alt(c)),
                _ => Err(unknown()),
            };
        }
        if let Some(rest) = modified("shift") {
            return match (rest.to_ascii_lowercase().as_str(), single(rest)) {
                ("tab", _) => Ok(Key::Code(KeyCode::BackTab)),
                (_, Some(c)) if c.is_alphabetic() => {
                    Ok(Key::Char(c.to_uppercase().next().unwrap_or(c)))
                }
                _ => Err(unknown()),
            };
        }
        let code = match lower.as_str() {
            "enter" | "return" => KeyCode::Enter,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "esc" | "escape" => KeyCode::Esc,
            "space" => return Ok(Key::Char(' ')),
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            "insert" | "ins" => KeyCode::Insert,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pgup" | "pageup" | "page_up" => KeyCode::PageUp,
            "pgdn" | "pagedown" | "page_down" | "pgdown" => KeyCode::PageDown,
            f if f.starts_with('f') => match f[1..].parse::<u8>() {
                Ok(n @ 1..=12) => KeyCode::F(n),
                _ => return Err(unknown()),
            },
            _ => return Err(unknown()),
        };
        Ok(Key::Code(code))
    }

    fn matches(&self, ev: &KeyEvent) -> bool {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        match (self, ev.code) {
            (Key::Char(c), KeyCode::Char(got)) => !ctrl && !alt && *c == got,
            (Key::Ctrl(c), KeyCode::Char(got)) => ctrl && !alt && c.eq_ignore_ascii_case(&got),
            (Key::Alt(c), KeyCode::Char(got)) => alt && !ctrl && *c == got,
            (Key::Code(code), got) => *code == got,
            _ => false,
        }
    }

    /// A plain character: text where keys type text.
    fn is_text(&self) -> bool {
        matches!(self, Key::Char(_))
    }
}

/// One row of the default table: in these modes, these keys run this command; `help` says what
/// it does.
#[derive(Debug)]
pub struct Binding {
    pub modes: &'static [Mode],
    pub keys: &'static [Key],
    pub command: Command,
    pub help: &'static str,
    /// Shown in the hint bar.
    pub hint: Option<&'static str>,
}

use Key::{Char, Code, Ctrl};
use Mode::{
    CommandLine, Confirm, Detail, Editing, Facets, Find, Groups, Help, Json, List, Quality, Rooms,
    SavePath, Story, Timeline,
};

const BROWSE: &[Mode] = &[List, Detail];
const BROWSE_AND_HELP: &[Mode] = &[List, Detail, Help, Groups, Story, Facets, Json];
const VIEWS: &[Mode] = &[List, Detail, Groups, Story, Facets, Json];

/// The default bindings, in the help screen's order.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    Binding { modes: &[List, Detail, Help, Groups, Story, Timeline, Facets, Json, Quality], keys: &[Char('q'), Ctrl('c')], command: Command::Quit, help: "quit", hint: Some("quit") },
    Binding { modes: &[Editing, SavePath, Confirm, Find, CommandLine, Rooms], keys: &[Ctrl('c')], command: Command::Quit, help: "quit", hint: None },
    Binding { modes: &Mode::ALL, keys: &[Ctrl('z')], command: Command::Suspend, help: "suspend (fg in the shell comes back)", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Code(KeyCode::Up), Char('k')], command: Command::Up, help: "previous event (in the detail pane: scroll up)", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Code(KeyCode::Down), Char('j')], command: Command::Down, help: "next event (in the detail pane: scroll down)", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Code(KeyCode::PageUp), Ctrl('b')], command: Command::PageUp, help: "one screen up", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Code(KeyCode::PageDown), Ctrl('f'), Char(' ')], command: Command::PageDown, help: "one screen down", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Char('g'), Code(KeyCode::Home)], command: Command::Top, help: "first event (top of the detail pane)", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Char('G'), Code(KeyCode::End)], command: Command::Bottom, help: "last event (end of the detail pane)", hint: None },
    Binding { modes: &[List], keys: &[Code(KeyCode::Enter), Code(KeyCode::Tab)], command: Command::FocusDetail, help: "focus the detail pane", hint: Some("detail") },
    Binding { modes: &[Detail], keys: &[Code(KeyCode::Tab), Code(KeyCode::Esc), Code(KeyCode::Enter)], command: Command::FocusList, help: "in the detail pane: back to the list", hint: Some("list") },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('1')], command: Command::TogglePublish, help: "only publish failures, or add/remove them", hint: Some("to 5: types") },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('2')], command: Command::ToggleSubscribe, help: "only subscribe failures, or add/remove them", hint: None },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('3')], command: Command::ToggleJoin, help: "only join failures, or add/remove them", hint: None },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('4')], command: Command::ToggleDisconnected, help: "only disconnections, or add/remove them", hint: None },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('5')], command: Command::ToggleConnect, help: "only connect failures, or add/remove them", hint: None },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('t')], command: Command::CycleTerminal, help: "retry status: all, final only, retried only", hint: Some("final/retried") },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('/')], command: Command::Find, help: "find a text as it is typed (in groups: a name)", hint: Some("find") },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('n')], command: Command::FindNext, help: "next event (group) holding the text found", hint: None },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('N')], command: Command::FindPrev, help: "previous event (group) holding it", hint: None },
    Binding { modes: BROWSE, keys: &[Char('&')], command: Command::FindToFilter, help: "show only the events holding the text found", hint: None },
    Binding { modes: &[List, Detail, Groups], keys: &[Char(':')], command: Command::OpenCommandLine, help: "a command: :goto 10:02, :room NAME, :code 4006...", hint: Some("command") },
    Binding { modes: BROWSE, keys: &[Char('\\')], command: Command::EditSearch, help: "edit the search filter", hint: None },
    Binding { modes: BROWSE, keys: &[Char('f')], command: Command::EditFilters, help: "edit every filter in force (ids, agent, hidden...)", hint: Some("filters") },
    Binding { modes: BROWSE, keys: &[Char('x')], command: Command::ClearFilters, help: "clear the filters set here (again: all of them)", hint: None },
    Binding { modes: VIEWS, keys: &[Char('e')], command: Command::ShowGroups, help: "group the shown events (error, SDK, OS...)", hint: Some("groups") },
    Binding { modes: BROWSE, keys: &[Char('p')], command: Command::ShowStory, help: "the selected peer's story: its retry chains", hint: Some("peer story") },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('F')], command: Command::ToggleFacets, help: "facets: top SDKs, OSes, devices... to filter on", hint: None },
    Binding { modes: &[List, Detail, Timeline], keys: &[Char('T')], command: Command::ToggleTimeline, help: "timeline of the shown events; pick a range", hint: Some("timeline") },
    Binding { modes: &[List, Detail, Groups, Facets], keys: &[Char('u'), Code(KeyCode::Backspace)], command: Command::PopFilter, help: "undo the last filter change (back where it was)", hint: Some("undo") },
    Binding { modes: BROWSE, keys: &[Char('W')], command: Command::ToggleFollow, help: "live: follow new events (re-run the query)", hint: None },
    Binding { modes: BROWSE, keys: &[Char('o')], command: Command::CycleSort, help: "sort by time, type, code, room, user, SDK, status", hint: Some("sort") },
    Binding { modes: BROWSE, keys: &[Char('O')], command: Command::FlipTime, help: "newest first / oldest first", hint: None },
    Binding { modes: &[List, Detail, Groups, Story, Quality], keys: &[Char('L')], command: Command::ToggleLocalTime, help: "times in local time / in UTC", hint: None },
    Binding { modes: BROWSE, keys: &[Char('z')], command: Command::ZoomList, help: "the list alone (again: with the detail pane)", hint: Some("zoom") },
    Binding { modes: BROWSE, keys: &[Char('Z')], command: Command::ZoomDetail, help: "the detail pane alone, full screen (again: back)", hint: None },
    Binding { modes: &[Groups], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "show the events of the selected group", hint: Some("its events") },
    Binding { modes: &[Groups], keys: &[Code(KeyCode::Tab), Char('b')], command: Command::NextGroupKey, help: "group by the next key", hint: Some("key") },
    Binding { modes: &[Groups], keys: &[Code(KeyCode::BackTab)], command: Command::PrevGroupKey, help: "group by the previous key", hint: None },
    Binding { modes: &[Groups], keys: &[Char('o')], command: Command::ToggleGroupSort, help: "sort by count or by last seen", hint: Some("sort") },
    Binding { modes: &[Groups], keys: &[Char('!')], command: Command::HideValue, help: "hide the events of the selected group", hint: Some("hide") },
    Binding { modes: &[Facets], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "show the events of the selected value", hint: Some("its events") },
    Binding { modes: &[Facets], keys: &[Char('!')], command: Command::HideValue, help: "hide the events of the selected value", hint: Some("hide") },
    Binding { modes: &[Facets], keys: &[Code(KeyCode::Esc), Char('F'), Code(KeyCode::Tab)], command: Command::Cancel, help: "leave the facets", hint: Some("back") },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Esc)], command: Command::ToggleTimeline, help: "close the timeline", hint: Some("close") },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Tab)], command: Command::Cancel, help: "back to the list, the timeline kept open", hint: None },
    Binding { modes: &[Groups, Story], keys: &[Code(KeyCode::Esc)], command: Command::Cancel, help: "back to the list", hint: Some("back") },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Left), Char('h')], command: Command::Left, help: "one bucket earlier", hint: None },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Right), Char('l')], command: Command::Right, help: "one bucket later", hint: None },
    Binding { modes: &[Timeline], keys: &[Char(' ')], command: Command::MarkStart, help: "start a range here (again: clear it)", hint: Some("mark") },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "show the events of the range (or of the bucket)", hint: Some("apply") },
    Binding { modes: &[List, Detail, Help, Groups, Story, Timeline, Facets, Json, Quality], keys: &[Char('?')], command: Command::ToggleHelp, help: "this help", hint: Some("help") },
    Binding { modes: &[List, Detail, Help], keys: &[Char('P')], command: Command::ShowProblems, help: "every problem met loading, with its file:line", hint: None },
    Binding { modes: &[Help], keys: &[Code(KeyCode::Esc)], command: Command::ToggleHelp, help: "close the help or the load problems list", hint: None },
    Binding { modes: BROWSE, keys: &[Char('R')], command: Command::Rerun, help: "live: run the query again to see newer events", hint: None },
    Binding { modes: &[List, Detail, Groups, Story, Facets], keys: &[Char('A')], command: Command::LoadAll, help: "live: load every matching page (again: stop)", hint: None },
    Binding { modes: BROWSE, keys: &[Char('s')], command: Command::SaveShown, help: "save the shown events to a dump", hint: Some("save") },
    Binding { modes: BROWSE, keys: &[Char('S')], command: Command::SaveLoaded, help: "save every loaded event to a dump", hint: None },
    Binding { modes: &[List, Detail, Story], keys: &[Char('m')], command: Command::ShowQuality, help: "the peer's network in the session, as charts", hint: Some("network") },
    Binding { modes: &[Quality], keys: &[Code(KeyCode::Esc), Char('m')], command: Command::Cancel, help: "back from the network view", hint: Some("back") },
    Binding { modes: &[Quality], keys: &[Char('R')], command: Command::Rerun, help: "live: ask the service for the stats again", hint: Some("ask again") },
    Binding { modes: &[List, Detail, Story], keys: &[Char('y')], command: Command::CopyJson, help: "copy the event's JSON to the clipboard", hint: Some("copy") },
    Binding { modes: &[List, Detail, Story], keys: &[Char('Y')], command: Command::CopyId, help: "copy the event's id (in a story: the peer id)", hint: None },
    Binding { modes: &[List, Detail, Story, Json], keys: &[Char('w')], command: Command::CopyToFile, help: "write what y copies to a file, if the clipboard fails", hint: None },
    Binding { modes: &[List, Detail, Story], keys: &[Char('J')], command: Command::ShowJson, help: "the event's JSON as a tree, to copy a field", hint: Some("json") },
    Binding { modes: &[Json], keys: &[Code(KeyCode::Left), Char('h')], command: Command::Left, help: "fold (on a field: its object)", hint: None },
    Binding { modes: &[Json], keys: &[Code(KeyCode::Right), Char('l')], command: Command::Right, help: "unfold", hint: None },
    Binding { modes: &[Json], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "fold or unfold", hint: None },
    Binding { modes: &[Json], keys: &[Char('y')], command: Command::CopyJson, help: "copy the selected field's value", hint: Some("value") },
    Binding { modes: &[Json], keys: &[Char('Y')], command: Command::CopyId, help: "copy the selected field's path (.data.agent.sdk)", hint: Some("path") },
    Binding { modes: &[Json], keys: &[Code(KeyCode::Esc), Char('J')], command: Command::Cancel, help: "back to the detail pane", hint: Some("back") },
    Binding { modes: &[Editing, SavePath, Find, CommandLine, Rooms], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "apply", hint: Some("apply") },
    Binding { modes: &[Editing, SavePath, Find, CommandLine, Rooms], keys: &[Code(KeyCode::Esc)], command: Command::Cancel, help: "cancel", hint: Some("cancel") },
    Binding { modes: &[Rooms], keys: &[Code(KeyCode::Up)], command: Command::Up, help: "the room above", hint: None },
    Binding { modes: &[Rooms], keys: &[Code(KeyCode::Down)], command: Command::Down, help: "the room below", hint: Some("choose") },
    Binding { modes: &[CommandLine], keys: &[Code(KeyCode::Tab)], command: Command::NextField, help: "complete the command or its value (again: next)", hint: None },
    Binding { modes: &[CommandLine], keys: &[Code(KeyCode::BackTab)], command: Command::PrevField, help: "the completion before", hint: None },
    Binding { modes: &[Confirm], keys: &[Char('y')], command: Command::Yes, help: "yes, replace the file", hint: Some("replace") },
    Binding { modes: &[Confirm], keys: &[Char('n'), Code(KeyCode::Esc)], command: Command::No, help: "no, keep the file", hint: Some("keep") },
    Binding { modes: &[Editing], keys: &[Code(KeyCode::Tab), Code(KeyCode::Down)], command: Command::NextField, help: "next filter input", hint: Some("next input") },
    Binding { modes: &[Editing], keys: &[Code(KeyCode::BackTab), Code(KeyCode::Up)], command: Command::PrevField, help: "previous filter input", hint: None },
];

/// A binding in force: a row of the table with its keys, the default ones or the config's.
#[derive(Debug, Clone)]
pub struct Bound {
    pub binding: &'static Binding,
    pub keys: Vec<Key>,
}

impl Bound {
    pub fn modes(&self) -> &'static [Mode] {
        self.binding.modes
    }

    pub fn command(&self) -> Command {
        self.binding.command
    }

    pub fn help(&self) -> &'static str {
        self.binding.help
    }

    pub fn hint(&self) -> Option<&'static str> {
        self.binding.hint
    }

    /// The keys as one label, e.g. `q/Ctrl-C`.
    pub fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(Key::label)
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The bindings in force: the default table with the config's `[keys]` applied.
#[derive(Debug, Clone)]
pub struct Keymap {
    bound: Vec<Bound>,
}

impl Default for Keymap {
    fn default() -> Keymap {
        Keymap {
            bound: BINDINGS
                .iter()
                .map(|b| Bound {
                    binding: b,
                    keys: b.keys.to_vec(),
                })
                .collect(),
        }
    }
}

/// Where each action of the config was written (`[keys]`, `[profiles.prod.keys]`), for messages.
pub type KeyOrigins = BTreeMap<String, String>;

impl Keymap {
    /// The default table with `overrides` (action name -> keys, as the config writes them)
    /// applied. An override replaces the action's keys in every mode where it is bound, except
    /// that plain characters stay text in a filter input and the save prompt: there the action
    /// keeps the override's other keys, or its own when the override has none.
    ///
    /// Every problem is reported, each naming the config key at fault: an unknown action, a key
    /// that cannot be read, and one key running two actions in the same mode.
    pub fn with_overrides(
        overrides: &BTreeMap<String, Vec<String>>,
        origins: &KeyOrigins,
    ) -> Result<Keymap, Vec<String>> {
        let place = |action: &str| match origins.get(action) {
            Some(table) => format!("[{table}] {action}"),
            None => format!("[keys] {action}"),
        };
        let mut problems = Vec::new();
        let mut parsed: Vec<(Command, Vec<(Key, String)>)> = Vec::new();
        for (action, written) in overrides {
            let Some(command) = Command::from_name(action) else {
                let names: Vec<&str> = Command::ALL.iter().map(|c| c.name()).collect();
                problems.push(format!(
                    "{}: no such action; the actions are {}",
                    place(action),
                    names.join(", ")
                ));
                continue;
            };
            if written.is_empty() {
                problems.push(format!(
                    "{}: an empty list leaves the action without a key; name at least one",
                    place(action)
                ));
                continue;
            }
            let mut keys: Vec<(Key, String)> = Vec::new();
            for text in written {
                match Key::parse(text) {
                    Ok(key) if keys.iter().any(|(k, _)| *k == key) => {}
                    Ok(key) => keys.push((key, text.clone())),
                    Err(e) => problems.push(format!("{}: {e}", place(action))),
                }
            }
            // Ctrl-C always quits, whatever quit is bound to: the way out a person reaches for
            // first must not depend on a config they may not remember writing.
            if command == Command::Quit
                && !keys.is_empty()
                && !keys.iter().any(|(k, _)| *k == Key::Ctrl('c'))
            {
                keys.push((Key::Ctrl('c'), "ctrl-c".to_string()));
            }
            if !keys.is_empty() {
                parsed.push((command, keys));
            }
        }
        let mut keymap = Keymap::default();
        let mut written_as: Vec<(Command, Key, String)> = Vec::new();
        for (command, keys) in &parsed {
            for (key, text) in keys {
                written_as.push((*command, *key, text.clone()));
            }
            keymap.rebind(*command, keys.iter().map(|(k, _)| *k).collect());
        }
        let overridden = |c: Command| parsed.iter().any(|(p, _)| *p == c);
        let key_text = |c: Command, k: Key| {
            written_as
                .iter()
                .find(|(wc, wk, _)| *wc == c && *wk == k)
                .map_or_else(|| k.label(), |(_, _, text)| format!("{text:?}"))
        };
        // One message per pair of actions and key, naming every mode where they clash.
        let mut clashes: Vec<(Command, Command, Key, Vec<Mode>)> = Vec::new();
        for mode in Mode::ALL {
            let mut seen: Vec<(Key, Command)> = Vec::new();
            for b in keymap.bindings_for(mode) {
                for key in &b.keys {
                    match seen.iter().find(|(k, _)| k == key) {
                        Some(&(_, first)) if first != b.command() => {
                            match clashes
                                .iter_mut()
                                .find(|(a, c, k, _)| *a == first && *c == b.command() && k == key)
                            {
                                Some(clash) => clash.3.push(mode),
                                None => clashes.push((first, b.command(), *key, vec![mode])),
                            }
                        }
                        Some(_) => {}
                        None => seen.push((*key, b.command())),
                    }
                }
            }
        }
        for (a, b, key, modes) in clashes {
            let modes: Vec<&str> = modes.iter().map(|m| m.describe()).collect();
            let modes = modes.join(", ");
            // Ctrl-C is quit's whatever the config says: no rebinding of quit frees it.
            if key == Key::Ctrl('c') && (a == Command::Quit || b == Command::Quit) {
                let other = if a == Command::Quit { b } else { a };
                let problem = format!(
                    "{}: ctrl-c always quits; bind {} to another key",
                    place(other.name()),
                    other.name()
                );
                if !problems.contains(&problem) {
                    problems.push(problem);
                }
                continue;
            }
            problems.push(match (overridden(a), overridden(b)) {
                (true, true) => format!(
                    "{} and {}: both bind {} in {modes}",
                    place(a.name()),
                    place(b.name()),
                    key_text(a, key)
                ),
                (false, true) => format!(
                    "{}: {} already runs {} in {modes}; rebind {} as well to free it",
                    place(b.name()),
                    key_text(b, key),
                    a.name(),
                    a.name()
                ),
                _ => format!(
                    "{}: {} already runs {} in {modes}; rebind {} as well to free it",
                    place(a.name()),
                    key_text(a, key),
                    b.name(),
                    b.name()
                ),
            });
        }
        if problems.is_empty() {
            Ok(keymap)
        } else {
            Err(problems)
        }
    }

    /// Gives `command` these keys wherever it is bound. A row whose modes an earlier row of the
    /// same command already covers goes (the help's Esc beside `?`): its keys would repeat.
    fn rebind(&mut self, command: Command, keys: Vec<Key>) {
        let mut covered: Vec<Mode> = Vec::new();
        self.bound.retain_mut(|b| {
            if b.command() != command {
                return true;
            }
            if b.modes().iter().all(|m| covered.contains(m)) {
                return false;
            }
            covered.extend_from_slice(b.modes());
            let usable: Vec<Key> = if b.modes().iter().any(|m| m.takes_text()) {
                keys.iter().copied().filter(|k| !k.is_text()).collect()
            } else {
                keys.clone()
            };
            if !usable.is_empty() {
                b.keys = usable;
            }
            true
        });
    }

    /// The command a key runs in a mode, if any.
    pub fn command_for(&self, mode: Mode, key: &KeyEvent) -> Option<Command> {
        self.bindings_for(mode)
            .find(|b| b.keys.iter().any(|k| k.matches(key)))
            .map(Bound::command)
    }

    /// The bindings of a mode, for the help screen and the hint bar.
    pub fn bindings_for(&self, mode: Mode) -> impl Iterator<Item = &Bound> {
        self.bound.iter().filter(move |b| b.modes().contains(&mode))
    }

    /// Every binding in force, in the table's order.
    pub fn bindings(&self) -> &[Bound] {
        &self.bound
    }

    /// The first key of a command in a mode, for the hints written into titles and messages
    /// ("x clears them"); the command's name when nothing binds it there.
    pub fn key(&self, mode: Mode, command: Command) -> String {
        self.bindings_for(mode)
            .find(|b| b.command() == command)
            .and_then(|b| b.keys.first())
            .map_or_else(|| command.name().to_string(), Key::label)
    }
}

#[cfg(test)]
mod tests;
