//! The one place for colours: per event type, final vs retried, and the chrome.
//!
//! Every theme uses the sixteen named ANSI colours only, so that it draws the same on a terminal
//! of sixteen colours, and leaves body text in the terminal's own foreground, so that it reads on
//! dark and light backgrounds alike. `mono` has no colour at all: bold, reverse, underline and the
//! words themselves carry the meaning; `NO_COLOR` chooses it whatever the config says.

use ratatui::style::{Color, Modifier, Style};

use crate::event::EventType;

/// The themes a config may name.
pub const NAMES: [&str; 4] = ["default", "dark", "light", "mono"];

/// The styles of everything that is not body text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    pub name: &'static str,
    /// Publish, subscribe, join, disconnected, connect, then any other family.
    types: [Style; 6],
    final_error: Style,
    retried: Style,
    title: Style,
    label: Style,
    heading: Style,
    selected_row: Style,
    problem: Style,
    key: Style,
    focused_border: Style,
    border: Style,
    type_on: Modifier,
    type_off: Style,
    input_focused: Style,
    new_event: Style,
    find_hit: Style,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::standard()
    }
}

const BOLD: Modifier = Modifier::BOLD;

fn fg(color: Color) -> Style {
    Style::new().fg(color)
}

impl Theme {
    /// The theme a config names (`None`: the default), or plain `mono` when `no_color` is set.
    /// An unknown name is refused even under `NO_COLOR`, so that a typo shows on every terminal.
    pub fn named(name: Option<&str>, no_color: bool) -> Result<Theme, String> {
        let theme = match name.unwrap_or("default") {
            "default" => Theme::standard(),
            "dark" => Theme::dark(),
            "light" => Theme::light(),
            "mono" => Theme::mono(),
            other => {
                return Err(format!(
                    "theme = {other:?}: no such theme; the themes are {}",
                    NAMES.join(", ")
                ));
            }
        };
        Ok(if no_color { Theme::mono() } else { theme })
    }

    /// Whether `NO_COLOR` asks for no colour: set to anything but the empty string
    /// (<https://no-color.org>).
    pub fn no_color_requested(value: Option<&std::ffi::OsStr>) -> bool {
        value.is_some_and(|v| !v.is_empty())
    }

    /// The normal (not bright) ANSI colours: schemes tune them to read on their own background,
    /// dark or light, where bright yellow or cyan vanish on white and dark grey on black.
    pub fn standard() -> Theme {
        Theme {
            name: "default",
            types: [
                fg(Color::Magenta),
                fg(Color::Cyan),
                fg(Color::Yellow),
                fg(Color::Blue),
                fg(Color::Red),
                Style::new(),
            ],
            final_error: fg(Color::Red).add_modifier(BOLD),
            retried: fg(Color::Green),
            title: Style::new().add_modifier(BOLD),
            label: Style::new(),
            heading: Style::new().add_modifier(BOLD),
            selected_row: Style::new().add_modifier(Modifier::REVERSED),
            problem: fg(Color::Red),
            key: Style::new().add_modifier(BOLD),
            focused_border: fg(Color::Cyan),
            border: Style::new(),
            type_on: BOLD,
            type_off: Style::new().add_modifier(Modifier::CROSSED_OUT),
            input_focused: Style::new().add_modifier(Modifier::UNDERLINED | BOLD),
            new_event: fg(Color::Green).add_modifier(BOLD),
            find_hit: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(BOLD),
        }
    }

    /// For dark backgrounds: the bright colours, which stand out more there.
    pub fn dark() -> Theme {
        Theme {
            name: "dark",
            types: [
                fg(Color::LightMagenta),
                fg(Color::LightCyan),
                fg(Color::LightYellow),
                fg(Color::LightBlue),
                fg(Color::LightRed),
                Style::new(),
            ],
            final_error: fg(Color::LightRed).add_modifier(BOLD),
            retried: fg(Color::LightGreen),
            problem: fg(Color::LightRed),
            key: fg(Color::LightCyan).add_modifier(BOLD),
            focused_border: fg(Color::LightCyan),
            border: fg(Color::Gray),
            new_event: fg(Color::LightGreen).add_modifier(BOLD),
            ..Theme::standard()
        }
    }

    /// For light backgrounds: no yellow or cyan text, and the coloured words bold, because thin
    /// coloured strokes fade on white.
    pub fn light() -> Theme {
        Theme {
            name: "light",
            types: [
                fg(Color::Magenta).add_modifier(BOLD),
                fg(Color::Blue).add_modifier(BOLD),
                fg(Color::Red).add_modifier(BOLD),
                fg(Color::Green).add_modifier(BOLD),
                fg(Color::Black).add_modifier(BOLD | Modifier::UNDERLINED),
                Style::new(),
            ],
            final_error: fg(Color::Red).add_modifier(BOLD),
            retried: fg(Color::Green).add_modifier(BOLD),
            key: fg(Color::Blue).add_modifier(BOLD),
            focused_border: fg(Color::Blue),
            ..Theme::standard()
        }
    }

    /// No colour: what differs is bold, reverse, underline, strike-through, and the text.
    pub fn mono() -> Theme {
        Theme {
            name: "mono",
            types: [Style::new(); 6],
            final_error: Style::new().add_modifier(BOLD),
            retried: Style::new(),
            problem: Style::new().add_modifier(BOLD),
            focused_border: Style::new().add_modifier(BOLD),
            new_event: Style::new().add_modifier(BOLD | Modifier::UNDERLINED),
            find_hit: Style::new().add_modifier(BOLD | Modifier::UNDERLINED | Modifier::ITALIC),
            ..Theme::standard()
        }
    }

    pub fn event_type(&self, t: &EventType) -> Style {
        let slot = match t {
            EventType::Publish => 0,
            EventType::Subscribe => 1,
            EventType::Join => 2,
            EventType::Disconnected => 3,
            EventType::Connect => 4,
            EventType::Other(_) => 5,
        };
        self.types[slot]
    }

    /// `final` stands out; `retried` is quieter; an absent flag is plain.
    pub fn terminal(&self, t: Option<bool>) -> Style {
        match t {
            Some(true) => self.final_error,
            Some(false) => self.retried,
            None => Style::new(),
        }
    }

    pub fn title(&self) -> Style {
        self.title
    }

    /// A chain's outcome: a proven success as a retried error is (the SDK's retry worked), a
    /// proven failure as a final one, an unknown one plain. Each says itself in words too.
    pub fn outcome(&self, outcome: crate::insight::Outcome) -> Style {
        use crate::insight::Outcome;
        match outcome {
            Outcome::GotThrough | Outcome::Reconnected => self.retried,
            Outcome::NeverGotIn | Outcome::Left => self.final_error,
            Outcome::Unknown => self.label,
        }
    }

    /// Context beside the errors (a peer's track events): dimmed.
    pub fn context(&self) -> Style {
        self.label.add_modifier(Modifier::DIM)
    }

    /// Field names, separators and other chrome around the text that matters.
    pub fn label(&self) -> Style {
        self.label
    }

    /// Column titles of the tables.
    pub fn heading(&self) -> Style {
        self.heading
    }

    pub fn selected_row(&self) -> Style {
        self.selected_row
    }

    pub fn problem(&self) -> Style {
        self.problem
    }

    pub fn key(&self) -> Style {
        self.key
    }

    pub fn focused_border(&self) -> Style {
        self.focused_border
    }

    pub fn border(&self) -> Style {
        self.border
    }

    /// A type filter that is on: its colour, emphasised.
    pub fn type_on(&self, t: &EventType) -> Style {
        self.event_type(t).add_modifier(self.type_on)
    }

    /// A type filter that is off: struck out, in no colour, so "off" never relies on a shade.
    pub fn type_off(&self) -> Style {
        self.type_off
    }

    pub fn input_focused(&self) -> Style {
        self.input_focused
    }

    /// An event that arrived with a follow-mode refresh.
    pub fn new_event(&self) -> Style {
        self.new_event
    }

    /// The text a find looks for, where it shows.
    pub fn find_hit(&self) -> Style {
        self.find_hit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_style(t: &Theme) -> Vec<Style> {
        let mut styles: Vec<Style> = t.types.to_vec();
        styles.extend([
            t.final_error,
            t.retried,
            t.title,
            t.label,
            t.heading,
            t.selected_row,
            t.problem,
            t.key,
            t.focused_border,
            t.border,
            t.type_off,
            t.input_focused,
            t.new_event,
            t.find_hit,
        ]);
        styles
    }

    fn themes() -> Vec<Theme> {
        NAMES
            .iter()
            .map(|n| Theme::named(Some(n), false).unwrap())
            .collect()
    }

    #[test]
    fn every_theme_uses_only_the_sixteen_named_colours() {
        for t in themes() {
            for s in every_style(&t) {
                for c in [s.fg, s.bg].into_iter().flatten() {
                    assert!(
                        !matches!(c, Color::Rgb(..) | Color::Indexed(_)),
                        "{}: {c:?}",
                        t.name
                    );
                }
            }
        }
    }

    #[test]
    fn every_theme_gives_each_known_type_its_own_look_and_final_differs_from_retried() {
        for t in themes() {
            let looks: std::collections::HashSet<Style> =
                EventType::KNOWN.iter().map(|k| t.event_type(k)).collect();
            if t.name != "mono" {
                assert_eq!(looks.len(), 5, "{}", t.name);
            }
            assert_ne!(
                t.terminal(Some(true)),
                t.terminal(Some(false)),
                "{}",
                t.name
            );
        }
    }

    #[test]
    fn no_theme_draws_text_or_labels_in_dark_grey() {
        for t in themes() {
            for s in every_style(&t) {
                assert_ne!(s.fg, Some(Color::DarkGray), "{}", t.name);
            }
        }
    }

    #[test]
    fn mono_sets_no_colour_at_all() {
        for s in every_style(&Theme::mono()) {
            assert_eq!((s.fg, s.bg), (None, None), "{s:?}");
        }
    }

    #[test]
    fn no_color_chooses_mono_over_any_named_theme_but_still_refuses_an_unknown_name() {
        for name in [None, Some("default"), Some("dark"), Some("light")] {
            assert_eq!(Theme::named(name, true).unwrap().name, "mono");
        }
        assert_eq!(Theme::named(Some("dark"), false).unwrap().name, "dark");
        assert_eq!(Theme::named(None, false).unwrap().name, "default");
        let e = Theme::named(Some("solarized"), true).unwrap_err();
        assert!(
            e.contains("solarized") && e.contains("default, dark, light, mono"),
            "{e}"
        );
    }

    #[test]
    fn no_color_counts_when_set_to_anything_but_the_empty_string() {
        use std::ffi::OsStr;
        assert!(Theme::no_color_requested(Some(OsStr::new("1"))));
        assert!(Theme::no_color_requested(Some(OsStr::new("0"))));
        assert!(!Theme::no_color_requested(Some(OsStr::new(""))));
        assert!(!Theme::no_color_requested(None));
    }
}
