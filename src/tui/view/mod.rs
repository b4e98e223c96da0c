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
    // The detail pane's place: the facets of the selected group, the facets of the shown
    // events, or the focused event.
    match &model.groups {
        Some(g) if g.groups.groups.get(g.selected).is_some() => {
            let group = &g.groups.groups[g.selected];
            let title = format!("facets of {}", group.label(&model.store, g.key));
            insight::draw_facets(model, frame, a.detail, g.groups.members(g.selected), &title);
        }
        _ if model.facets => insight::draw_facets(
            model,
            frame,
            a.detail,
            &model.shown,
            "facets of the shown events",
        ),
        _ => detail::draw(model, frame, a.detail),
    }
    frame.render_widget(Paragraph::new(help::hint_line(model)), a.footer);
    if model.mode == Mode::Help {
        help::draw(model, frame, area);
    }
}
