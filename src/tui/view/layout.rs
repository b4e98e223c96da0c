use ratatui::layout::{Constraint, Direction, Layout, Rect};

use crate::tui::model::Model;

/// Where each part of the screen goes. Computed from the terminal's size alone, so `update` (for
/// paging and the mouse) and the view agree without the view writing anything back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    /// The timeline strip above the list; empty when it is hidden.
    pub timeline: Rect,
    pub list: Rect,
    pub detail: Rect,
    pub footer: Rect,
}

impl Areas {
    /// Everything between the header and the footer: the timeline, the list and the detail
    /// pane.
    pub fn body(&self) -> Rect {
        self.timeline.union(self.list).union(self.detail)
    }
}

/// Lines of the header: source and counts, type toggles, the filters, messages.
pub const HEADER_HEIGHT: u16 = 4;

/// Wide terminals put the detail pane beside the list; narrow ones below it.
pub const SIDE_BY_SIDE_MIN_WIDTH: u16 = 110;

/// The first line of a table's rows below the top of its area: the border, then the column
/// titles (the list, the groups). Clicks are placed with it.
pub const TABLE_FIRST_ROW: u16 = 2;

/// The first line of a story below the top of its area: the border only.
pub const STORY_FIRST_ROW: u16 = 1;

/// Lines of the timeline strip: a border, the bars, the axis and the cursor's bucket.
pub const TIMELINE_HEIGHT: u16 = 7;

/// The fewest lines of a strip that still draws its bars: two borders, one line of bars, the
/// axis and the cursor's bucket.
pub const TIMELINE_MIN_HEIGHT: u16 = 5;

/// The areas for the model's terminal size and open panes.
pub fn areas_of(model: &Model) -> Areas {
    areas_with(
        model.screen.width,
        model.screen.height,
        model.panes.timeline.is_some(),
    )
}

/// Rows of events the list shows at once (the groups and a story use the list's place, with
/// its titles' line, too).
pub fn list_height(model: &Model) -> usize {
    areas_of(model).list.height.saturating_sub(TABLE_FIRST_ROW) as usize
}

pub fn areas(width: u16, height: u16) -> Areas {
    areas_with(width, height, false)
}

pub fn areas_with(width: u16, height: u16, timeline: bool) -> Areas {
    let area = Rect::new(0, 0, width, height);
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(HEADER_HEIGHT),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let side_by_side = width >= SIDE_BY_SIDE_MIN_WIDTH;
    let split = |body: Rect| -> [Rect; 2] {
        let (direction, constraints) = if side_by_side {
            (
                Direction::Horizontal,
                [Constraint::Percentage(62), Constraint::Percentage(38)],
            )
        } else {
            (
                Direction::Vertical,
                [Constraint::Percentage(50), Constraint::Percentage(50)],
            )
        };
        Layout::default()
            .direction(direction)
            .constraints(constraints)
            .areas(body)
    };
    let [list, detail] = split(body);
    // Half the list's height, but at least the strip's smallest that draws bars (its borders,
    // a line of bars, the axis and the cursor's line), while three lines are left to the list.
    let strip_of = |list: Rect| {
        (list.height / 2)
            .clamp(TIMELINE_MIN_HEIGHT, TIMELINE_HEIGHT)
            .min(list.height.saturating_sub(3))
    };
    if timeline && !side_by_side && strip_of(list) < TIMELINE_MIN_HEIGHT {
        // A short terminal with the detail below the list: the strip is taken from both, the
        // list keeping three lines where it can (its border, its titles and the selected row)
        // and the detail what is left.
        let strip = TIMELINE_MIN_HEIGHT.min(body.height);
        let [timeline, rest] =
            Layout::vertical([Constraint::Length(strip), Constraint::Min(0)]).areas(body);
        let list_height = rest.height.div_ceil(2).max(rest.height.min(3));
        let [list, detail] =
            Layout::vertical([Constraint::Length(list_height), Constraint::Min(0)]).areas(rest);
        return Areas {
            header,
            timeline,
            list,
            detail,
            footer,
        };
    }
    // At least the strip's title, which says when there are too few lines to draw: the
    // timeline has the keyboard, and must not be invisible.
    let strip = if timeline {
        strip_of(list).max(list.height.min(1))
    } else {
        0
    };
    let [timeline, list] =
        Layout::vertical([Constraint::Length(strip), Constraint::Min(0)]).areas(list);
    Areas {
        header,
        timeline,
        list,
        detail,
        footer,
    }
}
