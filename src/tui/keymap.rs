//! The one table of keys: per mode, which key does what. The help screen and the hint bar are made
//! from it, so they cannot drift from what the keys do.

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
}

/// A key as written in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Code(KeyCode),
}

impl Key {
    pub fn label(&self) -> String {
        match self {
            Key::Char(' ') => "Space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Code(code) => match code {
                KeyCode::Up => "↑".into(),
                KeyCode::Down => "↓".into(),
                KeyCode::PageUp => "PgUp".into(),
                KeyCode::PageDown => "PgDn".into(),
                KeyCode::Home => "Home".into(),
                KeyCode::End => "End".into(),
                KeyCode::Enter => "Enter".into(),
                KeyCode::Tab => "Tab".into(),
                KeyCode::BackTab => "Shift-Tab".into(),
                KeyCode::Esc => "Esc".into(),
                other => format!("{other:?}"),
            },
        }
    }

    fn matches(&self, ev: &KeyEvent) -> bool {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        match (self, ev.code) {
            (Key::Char(c), KeyCode::Char(got)) => !ctrl && *c == got,
            (Key::Ctrl(c), KeyCode::Char(got)) => ctrl && c.eq_ignore_ascii_case(&got),
            (Key::Code(code), got) => *code == got,
            _ => false,
        }
    }
}

/// One row of the table: in these modes, these keys run this command; `help` says what it does.
pub struct Binding {
    pub modes: &'static [Mode],
    pub keys: &'static [Key],
    pub command: Command,
    pub help: &'static str,
    /// Shown in the hint bar under the list.
    pub hint: Option<&'static str>,
}

use Key::{Char, Code, Ctrl};
use Mode::{Confirm, Detail, Editing, Groups, Help, List, SavePath, Story, Timeline};

const BROWSE: &[Mode] = &[List, Detail];
const BROWSE_AND_HELP: &[Mode] = &[List, Detail, Help, Groups, Story];
const VIEWS: &[Mode] = &[List, Detail, Groups, Story];

#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    Binding { modes: &[List, Detail, Help, Groups, Story, Timeline], keys: &[Char('q'), Ctrl('c')], command: Command::Quit, help: "quit", hint: Some("quit") },
    Binding { modes: &[Editing, SavePath, Confirm], keys: &[Ctrl('c')], command: Command::Quit, help: "quit", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Code(KeyCode::Up), Char('k')], command: Command::Up, help: "previous event (in the detail pane: scroll up)", hint: None },
    Binding { modes: BROWSE_AND_HELP, keys: &[Code(KeyCode::Down), Char('j')], command: Command::Down, help: "next event (in the detail pane: scroll down)", hint: None },
    Binding { modes: VIEWS, keys: &[Code(KeyCode::PageUp), Ctrl('b')], command: Command::PageUp, help: "one screen up", hint: None },
    Binding { modes: VIEWS, keys: &[Code(KeyCode::PageDown), Ctrl('f'), Char(' ')], command: Command::PageDown, help: "one screen down", hint: None },
    Binding { modes: VIEWS, keys: &[Char('g'), Code(KeyCode::Home)], command: Command::Top, help: "first event (top of the detail pane)", hint: None },
    Binding { modes: VIEWS, keys: &[Char('G'), Code(KeyCode::End)], command: Command::Bottom, help: "last event (end of the detail pane)", hint: None },
    Binding { modes: &[List], keys: &[Code(KeyCode::Enter), Code(KeyCode::Tab)], command: Command::FocusDetail, help: "focus the detail pane", hint: Some("detail") },
    Binding { modes: &[Detail], keys: &[Code(KeyCode::Tab), Code(KeyCode::Esc), Code(KeyCode::Enter)], command: Command::FocusList, help: "back to the list", hint: Some("list") },
    Binding { modes: BROWSE, keys: &[Char('1')], command: Command::ToggleType(0), help: "show/hide publish failures", hint: Some("to 5: types") },
    Binding { modes: BROWSE, keys: &[Char('2')], command: Command::ToggleType(1), help: "show/hide subscribe failures", hint: None },
    Binding { modes: BROWSE, keys: &[Char('3')], command: Command::ToggleType(2), help: "show/hide join failures", hint: None },
    Binding { modes: BROWSE, keys: &[Char('4')], command: Command::ToggleType(3), help: "show/hide disconnections", hint: None },
    Binding { modes: BROWSE, keys: &[Char('5')], command: Command::ToggleType(4), help: "show/hide connect failures", hint: None },
    Binding { modes: BROWSE, keys: &[Char('t')], command: Command::CycleTerminal, help: "retry status: all, final only, retried only", hint: Some("final/retried") },
    Binding { modes: BROWSE, keys: &[Char('/')], command: Command::EditSearch, help: "search text in any field", hint: Some("search") },
    Binding { modes: BROWSE, keys: &[Char('f')], command: Command::EditFilters, help: "edit room, session, peer and user filters", hint: Some("filters") },
    Binding { modes: BROWSE, keys: &[Char('x')], command: Command::ClearFilters, help: "clear every filter", hint: None },
    Binding { modes: VIEWS, keys: &[Char('e')], command: Command::ShowGroups, help: "group the shown events (error, SDK, OS...)", hint: Some("groups") },
    Binding { modes: BROWSE, keys: &[Char('p')], command: Command::ShowStory, help: "the selected peer's story: its retry chains", hint: Some("peer story") },
    Binding { modes: &[List, Detail, Groups], keys: &[Char('F')], command: Command::ToggleFacets, help: "facets: top SDKs, OSes, devices, roles...", hint: None },
    Binding { modes: &[List, Detail, Timeline], keys: &[Char('T')], command: Command::ToggleTimeline, help: "timeline of the shown events; pick a range", hint: Some("timeline") },
    Binding { modes: BROWSE, keys: &[Code(KeyCode::Backspace)], command: Command::PopFilter, help: "back to the filter before the last group opened", hint: None },
    Binding { modes: BROWSE, keys: &[Char('W')], command: Command::ToggleFollow, help: "live: follow new events (re-run the query)", hint: None },
    Binding { modes: &[Groups], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "show the events of the selected group", hint: Some("its events") },
    Binding { modes: &[Groups], keys: &[Code(KeyCode::Tab), Char('b')], command: Command::NextGroupKey, help: "group by the next key", hint: Some("key") },
    Binding { modes: &[Groups], keys: &[Code(KeyCode::BackTab)], command: Command::PrevGroupKey, help: "group by the previous key", hint: None },
    Binding { modes: &[Groups], keys: &[Char('o')], command: Command::ToggleGroupSort, help: "sort by count or by last seen", hint: Some("sort") },
    Binding { modes: &[Groups, Story, Timeline], keys: &[Code(KeyCode::Esc)], command: Command::Cancel, help: "back to the list", hint: Some("back") },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Left), Char('h')], command: Command::Left, help: "one bucket earlier", hint: None },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Right), Char('l')], command: Command::Right, help: "one bucket later", hint: None },
    Binding { modes: &[Timeline], keys: &[Char(' ')], command: Command::MarkStart, help: "start a range here (again: clear it)", hint: Some("mark") },
    Binding { modes: &[Timeline], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "show the events of the range (or of the bucket)", hint: Some("apply") },
    Binding { modes: &[List, Detail, Help, Groups, Story, Timeline], keys: &[Char('?')], command: Command::ToggleHelp, help: "this help", hint: Some("help") },
    Binding { modes: &[Help], keys: &[Code(KeyCode::Esc)], command: Command::ToggleHelp, help: "close the help", hint: None },
    Binding { modes: BROWSE, keys: &[Char('R')], command: Command::Rerun, help: "live: run the query again to see newer events", hint: None },
    Binding { modes: BROWSE, keys: &[Char('A')], command: Command::LoadAll, help: "live: load every matching page (again: stop)", hint: None },
    Binding { modes: BROWSE, keys: &[Char('s')], command: Command::SaveShown, help: "save the shown events to a dump", hint: Some("save") },
    Binding { modes: BROWSE, keys: &[Char('S')], command: Command::SaveLoaded, help: "save every loaded event to a dump", hint: None },
    Binding { modes: &[Editing, SavePath], keys: &[Code(KeyCode::Enter)], command: Command::Apply, help: "apply", hint: Some("apply") },
    Binding { modes: &[Editing, SavePath], keys: &[Code(KeyCode::Esc)], command: Command::Cancel, help: "cancel", hint: Some("cancel") },
    Binding { modes: &[Confirm], keys: &[Char('y')], command: Command::Yes, help: "yes, replace the file", hint: Some("replace") },
    Binding { modes: &[Confirm], keys: &[Char('n'), Code(KeyCode::Esc)], command: Command::No, help: "no, keep the file", hint: Some("keep") },
    Binding { modes: &[Editing], keys: &[Code(KeyCode::Tab), Code(KeyCode::Down)], command: Command::NextField, help: "next filter input", hint: Some("next input") },
    Binding { modes: &[Editing], keys: &[Code(KeyCode::BackTab), Code(KeyCode::Up)], command: Command::PrevField, help: "previous filter input", hint: None },
];

/// The command a key runs in a mode, if any.
pub fn command_for(mode: Mode, key: &KeyEvent) -> Option<Command> {
    BINDINGS
        .iter()
        .filter(|b| b.modes.contains(&mode))
        .find(|b| b.keys.iter().any(|k| k.matches(key)))
        .map(|b| b.command)
}

/// The bindings of a mode, for the help screen and the hint bar.
pub fn bindings_for(mode: Mode) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| b.modes.contains(&mode))
}

/// The keys of a binding as one label, e.g. `q/Ctrl-C`.
pub fn keys_label(b: &Binding) -> String {
    b.keys.iter().map(Key::label).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventKind;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new_with_kind(code, mods, KeyEventKind::Press)
    }

    #[test]
    fn no_key_runs_two_commands_in_one_mode() {
        for mode in [
            List, Detail, Editing, Help, SavePath, Confirm, Groups, Story, Timeline,
        ] {
            let mut seen: Vec<Key> = Vec::new();
            for b in bindings_for(mode) {
                for k in b.keys {
                    assert!(!seen.contains(k), "{k:?} bound twice in {mode:?}");
                    seen.push(*k);
                }
            }
        }
    }

    #[test]
    fn ctrl_c_quits_everywhere_and_q_is_text_while_editing() {
        for mode in [List, Detail, Editing, Help, Groups, Story, Timeline] {
            assert_eq!(
                command_for(mode, &key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
                Some(Command::Quit)
            );
        }
        assert_eq!(
            command_for(Editing, &key(KeyCode::Char('q'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            command_for(List, &key(KeyCode::Char('q'), KeyModifiers::NONE)),
            Some(Command::Quit)
        );
    }

    #[test]
    fn digits_toggle_the_five_types() {
        for (i, c) in ['1', '2', '3', '4', '5'].into_iter().enumerate() {
            assert_eq!(
                command_for(List, &key(KeyCode::Char(c), KeyModifiers::NONE)),
                Some(Command::ToggleType(i as u8))
            );
        }
    }
}
