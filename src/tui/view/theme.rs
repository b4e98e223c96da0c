//! The one place for colours: per event type, final vs retried, and the chrome.

use ratatui::style::{Color, Modifier, Style};

use crate::event::EventType;

pub fn event_type(t: &EventType) -> Style {
    let color = match t {
        EventType::Publish => Color::Magenta,
        EventType::Subscribe => Color::Cyan,
        EventType::Join => Color::Yellow,
        EventType::Disconnected => Color::Blue,
        EventType::Connect => Color::Red,
        EventType::Other(_) => Color::Gray,
    };
    Style::new().fg(color)
}

/// `final` stands out; `retried` is quieter; an absent flag is plain.
pub fn terminal(t: Option<bool>) -> Style {
    match t {
        Some(true) => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        Some(false) => Style::new().fg(Color::Green),
        None => Style::new(),
    }
}

pub fn title() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

pub fn label() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn selected_row() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

pub fn problem() -> Style {
    Style::new().fg(Color::Red)
}

pub fn key() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}

pub fn focused_border() -> Style {
    Style::new().fg(Color::Cyan)
}

pub fn border() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn type_on(t: &EventType) -> Style {
    event_type(t).add_modifier(Modifier::BOLD)
}

pub fn type_off() -> Style {
    Style::new()
        .fg(Color::DarkGray)
        .add_modifier(Modifier::CROSSED_OUT)
}

pub fn input_focused() -> Style {
    Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
}

/// An event that arrived with a follow-mode refresh.
pub fn new_event() -> Style {
    Style::new().fg(Color::Green).add_modifier(Modifier::BOLD)
}
