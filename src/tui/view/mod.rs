//! Pure drawing: `view(&Model, &mut Frame)`.

pub mod detail;
pub mod header;
pub mod help;
pub mod insight;
pub mod layout;
pub mod list;
pub mod theme;

use ratatui::Frame;
use ratatui::widgets::Paragraph;

use super::keymap::Mode;
use super::model::Model;

pub fn view(model: &Model, frame: &mut Frame) {
    let area = frame.area();
    let a = layout::areas_with(area.width, area.height, model.timeline.is_some());
    header::draw(model, frame, a.header);
    if model.timeline.is_some() {
        insight::draw_timeline(model, frame, a.timeline);
    }
    // The list's place: the groups, a story, or the events.
    if model.groups.is_some() {
        insight::draw_groups(model, frame, a.list);
    } else if model.story.is_some() {
        insight::draw_story(model, frame, a.list);
    } else {
        list::draw(model, frame, a.list);
    }
    // The detail pane's place: the facets (of the selected group, or of the shown events), or
    // the focused event.
    match &model.facet_panel {
        Some(panel) => insight::draw_facets(model, frame, a.detail, panel),
        None => detail::draw(model, frame, a.detail),
    }
    frame.render_widget(Paragraph::new(help::hint_line(model)), a.footer);
    if model.mode == Mode::Help {
        help::draw(model, frame, area);
    }
}
