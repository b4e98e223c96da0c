//! The facets in the detail pane's place: the top values of the agent and room fields among the
//! events of the selected group (while the groups view is open) or among the shown events (`F`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::groups::GroupsPanel;
use crate::insight::{self, FACET_KEYS, Facet};
use crate::insight::{GroupKey, GroupSort};
use crate::text::cut;
use crate::text::for_terminal;
use crate::tui::model::{Events, Model};

/// The facets' part of the panes.
#[derive(Debug, Default)]
pub struct FacetsPane {
    /// The facets of the shown events take the detail pane's place (`F`).
    pub on: bool,
    /// The facets drawn in the detail pane's place, if any: counted by `update` when what they
    /// count changed, so that drawing a frame does not count.
    pub panel: Option<FacetPanel>,
}

/// Facets as drawn: a title, and the top values of each field.
#[derive(Debug, Clone)]
pub struct FacetPanel {
    pub title: String,
    pub facets: Vec<Facet>,
    /// What the facets were counted from: they are counted again when it changes.
    source: FacetSource,
}

/// What a facet panel counts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FacetSource {
    /// A group: its key and order, its index in the groups view, and the generation of the
    /// shown events the view grouped.
    Group(GroupKey, GroupSort, usize, u64),
    /// The shown events, of this generation.
    Shown(u64),
}

impl FacetsPane {
    /// `F`: the facets of the shown events in the detail pane's place, or the event again.
    pub fn toggle(&mut self) {
        self.on = !self.on;
    }

    /// Counts the facets again when what they count changed (the selected group, the shown
    /// events), and drops them when neither the groups view nor the facets are open.
    pub fn refresh(&mut self, events: &Events, groups: Option<&GroupsPanel>) {
        let shown = events.generation.shown;
        let source = match groups {
            Some(g) if g.selected < g.groups.len() => {
                Some(FacetSource::Group(g.key, g.sort, g.selected, shown))
            }
            _ if self.on => Some(FacetSource::Shown(shown)),
            _ => None,
        };
        let Some(source) = source else {
            self.panel = None;
            return;
        };
        if self.panel.as_ref().is_some_and(|p| p.source == source) {
            return;
        }
        let store = &events.store;
        let (title, members): (String, &[u32]) = match (&source, groups) {
            (FacetSource::Group(..), Some(g)) => (
                format!(
                    "facets of {}",
                    g.groups.group(g.selected).label(store, g.key)
                ),
                g.groups.members(g.selected),
            ),
            _ => ("facets of the shown events".to_string(), &events.matching),
        };
        let facets = insight::facets(store, members, 5);
        self.panel = Some(FacetPanel {
            title,
            facets,
            source,
        });
    }
}

/// The top values of the agent and room fields, in the detail pane's place.
pub fn draw(model: &Model, panel: &FacetPanel, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    let title = panel.title.as_str();
    let block = Block::new()
        .borders(Borders::TOP | Borders::LEFT)
        .border_style(theme.border())
        .title(format!(" {} ", for_terminal(title)));
    let inner = block.inner(area);
    let facets = &panel.facets;
    let bar_width = 10usize;
    let mut lines = Vec::new();
    for (facet, key) in facets.iter().zip(FACET_KEYS) {
        lines.push(Line::styled(
            format!("{} ({} distinct)", key.name(), facet.distinct),
            theme.title(),
        ));
        for (k, (value, count)) in facet.top.iter().enumerate() {
            let share = facet.share(k);
            let filled = (share * bar_width as f64).round() as usize;
            let label = cut(
                &for_terminal(&value.label(&model.events.store, key)),
                (inner.width as usize).saturating_sub(26).max(8),
            );
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{:<w$}", "█".repeat(filled), w = bar_width),
                    theme.key(),
                ),
                Span::raw(format!(" {:>3.0}% {:>7} ", share * 100.0, count)),
                Span::raw(label),
            ]));
        }
        lines.push(Line::raw(""));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
