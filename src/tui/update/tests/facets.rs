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

/// The selected facet value's conditions.
fn selected_value(m: &Model) -> Vec<crate::filter::Condition> {
    let Focus::Facets(f) = &m.focus else {
        panic!("the facets do not have the keyboard: {:?}", m.focus.mode());
    };
    let panel = m.panes.facets.panel.as_ref().unwrap();
    panel.conditions(&m.events.store, f.selected).unwrap()
}

#[test]
fn enter_on_a_facet_value_shows_its_events_and_bang_hides_them() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleFacets);
    assert_eq!(m.focus.mode(), Mode::Facets);
    run(&mut m, Command::Down);
    let value = selected_value(&m);
    let all = m.events.shown.len();
    // `!`: the value's events are hidden, the keyboard stays on the facets.
    run(&mut m, Command::HideValue);
    assert_eq!(m.focus.mode(), Mode::Facets);
    let hidden = all - m.events.shown.len();
    assert!(hidden > 0);
    let described = m.events.filter.describe();
    assert!(
        described.contains("!=") || described.contains("!("),
        "{described}"
    );
    // Enter on a value: the list shows its events; u takes it back.
    run(&mut m, Command::PopFilter);
    assert_eq!(m.events.shown.len(), all);
    assert_eq!(
        m.focus.mode(),
        Mode::Facets,
        "the keyboard stays on the facets"
    );
    run(&mut m, Command::Top);
    run(&mut m, Command::Down);
    assert_eq!(selected_value(&m), value);
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::List);
    assert_eq!(m.events.shown.len(), hidden, "exactly the hidden ones");
    for c in &value {
        assert!(m.events.filter.conditions.contains(c), "{c:?}");
    }
    assert!(
        !m.panes.facets.on,
        "the facets opened for the keyboard close"
    );
}

#[test]
fn a_facet_value_of_a_group_shows_the_events_of_both() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let group = m.focus.groups().unwrap().groups.group(0).count as usize;
    run(&mut m, Command::ToggleFacets);
    assert_eq!(m.focus.mode(), Mode::Facets);
    assert!(m.focus.groups().is_some(), "the groups stay beneath");
    let count = m.panes.facets.panel.as_ref().unwrap().facets[0].top[0].1 as usize;
    run(&mut m, Command::Apply);
    assert_eq!(m.events.shown.len(), count);
    assert!(count <= group);
    // Back to the groups, on the group.
    run(&mut m, Command::PopFilter);
    assert_eq!(m.focus.mode(), Mode::Groups);
    assert_eq!(m.focus.groups().unwrap().selected, 0);
}

#[test]
fn bang_on_a_group_hides_its_events_and_the_groups_are_counted_again() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    let g = m.focus.groups().unwrap();
    let (first, count) = (
        g.groups.group(0).label(&m.events.store, g.key),
        g.groups.group(0).count as usize,
    );
    let all = m.events.shown.len();
    run(&mut m, Command::HideValue);
    assert_eq!(m.focus.mode(), Mode::Groups);
    assert_eq!(m.events.shown.len(), all - count);
    let g = m.focus.groups().unwrap();
    assert!((0..g.groups.len()).all(|k| g.groups.group(k).label(&m.events.store, g.key) != first));
    // An error group is its type, name and code together: hidden whole.
    assert_eq!(m.events.filter.hidden.len(), 1);
}
