use ratatui::layout::{Constraint, Direction, Layout, Rect};

use crate::tui::model::Model;
use crate::tui::panels::groups::GroupsPanel;

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

    /// The list's column: the list and the strip above it where the detail pane is beside
    /// them, else the whole body. A box drawn over the list keeps within it, so that it
    /// covers no pane in part.
    pub fn list_column(&self) -> Rect {
        let beside = self.detail.width > 0 && self.detail.x > self.list.x;
        if beside {
            self.timeline.union(self.list)
        } else {
            self.body()
        }
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

/// Which pane fills the body, when one does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zoom {
    #[default]
    None,
    /// The list alone (the detail pane hidden).
    List,
    /// The detail pane alone, full screen.
    Detail,
}

/// What the layout depends on besides the terminal's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// The timeline strip is open above the list.
    pub timeline: bool,
    pub zoom: Zoom,
    /// The width the list's columns want so that none of the first ones (up to the user) is
    /// left out: beside the detail pane, the list takes it from the pane, down to
    /// [`NARROWEST_DETAIL`]. 0 when the list has no such wish.
    pub list_wants: u16,
    /// The list's place goes beside the detail pane only where it keeps `list_wants` (the
    /// groups view): a pane that moves beside it would otherwise cost it columns that a
    /// narrower terminal, with the pane below, shows.
    pub list_whole: bool,
}

/// The narrowest the detail pane gets beside the list, to leave the list its user column.
pub const NARROWEST_DETAIL: u16 = 34;

/// The layout's inputs of the model: the open strip, the zoom, the wish of the list or of the
/// groups view in its place.
pub fn shape_of(model: &Model) -> Shape {
    shape_with(model, model.focus.groups())
}

/// The layout's inputs of the model with `groups` in the list's place, or the list where
/// `None`.
fn shape_with(model: &Model, groups: Option<&GroupsPanel>) -> Shape {
    let (list_wants, list_whole) = match groups {
        Some(g) => (crate::tui::panels::groups::wanted_width(model, g), true),
        None => (crate::tui::panels::list::wanted_width(model), false),
    };
    Shape {
        timeline: model.panes.timeline.is_some(),
        zoom: model.panes.zoom,
        list_wants,
        list_whole,
    }
}

/// Rows of groups the groups view `g` shows at once, while it is out of the model's focus
/// (handed a command, or opened).
pub fn groups_height(model: &Model, g: &GroupsPanel) -> usize {
    let (width, height) = (model.screen.width, model.screen.height);
    let list = areas_in(width, height, shape_with(model, Some(g))).list;
    list.height.saturating_sub(TABLE_FIRST_ROW) as usize
}

/// The areas for the model's terminal size and open panes.
pub fn areas_of(model: &Model) -> Areas {
    areas_in(model.screen.width, model.screen.height, shape_of(model))
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
    areas_in(
        width,
        height,
        Shape {
            timeline,
            ..Shape::default()
        },
    )
}

/// The areas of a terminal `width` by `height`, in a shape.
pub fn areas_in(width: u16, height: u16, shape: Shape) -> Areas {
    let timeline = shape.timeline && shape.zoom != Zoom::Detail;
    let area = Rect::new(0, 0, width, height);
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(HEADER_HEIGHT),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    if shape.zoom == Zoom::Detail {
        let nothing = Rect::new(body.x, body.y, 0, 0);
        return Areas {
            header,
            timeline: nothing,
            list: nothing,
            detail: body,
            footer,
        };
    }
    let side_by_side = width >= SIDE_BY_SIDE_MIN_WIDTH
        && (!shape.list_whole || body.width.saturating_sub(NARROWEST_DETAIL) >= shape.list_wants);
    let split = |body: Rect| -> [Rect; 2] {
        if shape.zoom == Zoom::List {
            return [body, Rect::new(body.right(), body.y, 0, 0)];
        }
        let (direction, constraints) = if side_by_side {
            // The list's usual share, more when its columns want it, down to the narrowest
            // detail pane.
            let share = ((u32::from(body.width) * 62 + 50) / 100) as u16;
            let wanted = shape
                .list_wants
                .min(body.width.saturating_sub(NARROWEST_DETAIL));
            (
                Direction::Horizontal,
                [Constraint::Length(share.max(wanted)), Constraint::Fill(1)],
            )
        } else {
            (
                Direction::Vertical,
                [Constraint::Percentage(60), Constraint::Percentage(40)],
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
    if timeline && !side_by_side && shape.zoom == Zoom::None && strip_of(list) < TIMELINE_MIN_HEIGHT
    {
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
