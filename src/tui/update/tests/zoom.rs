//! Room to read: the list or the detail pane alone, and the list's columns beside the pane.

use super::*;
use crate::tui::view::layout::{NARROWEST_DETAIL, Zoom, areas_of};

#[test]
fn z_gives_the_list_the_whole_body_and_shift_z_the_detail_pane() {
    let mut m = demo(80, 24);
    let rows = list_height(&m);
    run(&mut m, Command::ZoomList);
    assert_eq!(m.panes.zoom, Zoom::List);
    let a = areas_of(&m);
    assert_eq!(a.detail.area(), 0);
    assert_eq!(a.list.height, 24 - 4 - 1);
    assert!(
        list_height(&m) > rows + 5,
        "{} against {rows}",
        list_height(&m)
    );
    run(&mut m, Command::ZoomList);
    assert_eq!(m.panes.zoom, Zoom::None);
    // The detail pane alone takes the keyboard; leaving it brings the list back.
    run(&mut m, Command::ZoomDetail);
    assert_eq!((m.panes.zoom, m.focus.mode()), (Zoom::Detail, Mode::Detail));
    let a = areas_of(&m);
    assert_eq!((a.list.area(), a.detail.width), (0, 80));
    run(&mut m, Command::Down);
    assert_eq!(m.panes.detail.scroll, 1, "the moves scroll the pane");
    run(&mut m, Command::FocusList);
    assert_eq!((m.panes.zoom, m.focus.mode()), (Zoom::None, Mode::List));
}

#[test]
fn beside_the_detail_pane_the_list_keeps_its_user_column_down_to_a_narrow_pane() {
    for width in [120, 126, 140, 200] {
        let m = demo(width, 40);
        let a = areas_of(&m);
        assert!(
            a.list.width >= crate::tui::panels::list::wanted_width(&m),
            "{width}: a list of {}",
            a.list.width
        );
        assert!(a.detail.width >= NARROWEST_DETAIL, "{width}");
    }
    // Too narrow for both: the pane keeps its narrowest.
    let m = demo(112, 40);
    assert_eq!(areas_of(&m).detail.width, NARROWEST_DETAIL);
}
