//! Pure drawing: `view(&Model, &mut Frame)`.

pub mod detail;
pub mod header;
pub mod help;
pub mod layout;
pub mod list;
pub mod theme;

use ratatui::Frame;
use ratatui::widgets::Paragraph;

use super::keymap::Mode;
use super::model::Model;

pub fn view(model: &Model, frame: &mut Frame) {
    let area = frame.area();
    let a = layout::areas(area.width, area.height);
    header::draw(model, frame, a.header);
    list::draw(model, frame, a.list);
    detail::draw(model, frame, a.detail);
    frame.render_widget(Paragraph::new(help::hint_line(model)), a.footer);
    if model.mode == Mode::Help {
        help::draw(model, frame, area);
    }
}
