//! The facets in the detail pane's place.

use super::*;

#[test]
fn the_facets_follow_the_selected_group_and_close_with_the_view() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let first = m
        .panes
        .facets
        .panel
        .as_ref()
        .expect("facets of the first group")
        .title
        .clone();
    assert!(first.starts_with("facets of join 500"), "{first}");
    run(&mut m, Command::Down);
    let second = m.panes.facets.panel.as_ref().unwrap();
    assert_ne!(second.title, first);
    let g = m.focus.groups().unwrap();
    let total: u32 = second.facets[0].top.iter().map(|(_, n)| n).sum();
    assert!(total <= g.groups.group(1).count && second.facets[0].total == g.groups.group(1).count);
    run(&mut m, Command::Cancel);
    assert!(m.panes.facets.panel.is_none());
    run(&mut m, Command::ToggleFacets);
    assert_eq!(
        m.panes.facets.panel.as_ref().unwrap().facets[0].total as usize,
        m.events.shown.len()
    );
}
