//! Pure drawing: `view(&Model, &mut Frame)` lays out the screen and has each panel draw its part.

pub mod coverage;
pub mod fit;
pub mod header;
pub mod layout;
pub mod theme;
pub mod wrap;

use ratatui::Frame;
use ratatui::widgets::Paragraph;

use super::model::Model;
use super::panels::{
    Focus, command, detail, editor, facets, find, groups, help, json, list, quality, rooms, story,
    timeline,
};

pub fn view(model: &Model, frame: &mut Frame) {
    let area = frame.area();
    let a = layout::areas_in(area.width, area.height, layout::shape_of(model));
    header::draw(model, frame, a.header);
    if let Some(strip) = &model.panes.timeline {
        timeline::draw(model, strip, frame, a.timeline);
    }
    // The network view takes the list's and the detail pane's places.
    if let Focus::Quality(q) = model.focus.beneath() {
        quality::draw(model, q, frame, a.body());
    } else {
        body(model, frame, &a);
    }
    // The views that summarise say so when they summarise part of what matches.
    coverage::mark_views(model, frame, &a);
    if let Focus::Editing(e) = &model.focus {
        editor::draw(model, e, frame, a.list_column());
    }
    if let Focus::Rooms(prompt) = &model.focus {
        rooms::draw(model, prompt, frame, a.body());
    }
    match &model.focus {
        Focus::Find(prompt) => find::draw_prompt(model, prompt, frame, a.footer),
        Focus::Command(line) => command::draw(model, line, frame, a.footer),
        _ => frame.render_widget(Paragraph::new(help::hint_line(model)), a.footer),
    }
    if let Focus::Help(h) = &model.focus {
        help::draw(model, h, frame, area);
    }
}

/// The list's place (the groups, a story, or the events) and the detail pane's (the facets of
/// the selected group or of the shown events, the JSON tree, or the focused event).
fn body(model: &Model, frame: &mut Frame, a: &layout::Areas) {
    match model.focus.beneath() {
        Focus::Groups(g) => groups::draw(model, g, frame, a.list),
        Focus::Story(s) => story::draw(model, s, frame, a.list),
        _ => list::draw(model, frame, a.list),
    }
    match (model.focus.json(), &model.panes.facets.panel) {
        (Some(tree), _) => json::draw(model, tree, frame, a.detail),
        (None, Some(panel)) => facets::draw(model, panel, frame, a.detail),
        (None, None) => detail::draw(model, frame, a.detail),
    }
}
