//! The groups view's columns at every width: a wider terminal never shows fewer of them, the
//! name takes no room a dropped column could have, and nothing is cut without `…`, no number
//! at all.

use super::*;

/// The groups table as drawn: its title, its columns' titles and where each starts, its rows'
/// cells, and the facets pane's title where it shows one.
struct Drawn {
    title: String,
    columns: Vec<(String, usize)>,
    rows: Vec<Vec<String>>,
    facets: Option<String>,
}

impl Drawn {
    fn of(m: &Model) -> Drawn {
        let t = draw(m);
        let buffer = t.backend().buffer();
        let top = (0..buffer.area.height)
            .find(|&y| row_text(buffer, y).starts_with("GROUP "))
            .unwrap_or_else(|| panic!("no column titles:\n{}", screen_text(buffer)));
        let cells = |y| row_cells(buffer, y);
        let header = cells(top);
        // The table ends at the facets pane's border, when the pane is beside it.
        let right = header
            .iter()
            .position(|c| *c == "│")
            .unwrap_or(header.len());
        let mut columns: Vec<(String, usize)> = Vec::new();
        for x in 0..right {
            let starts = header[x] != " " && (x == 0 || header[x - 1] == " ");
            if !starts {
                continue;
            }
            let word: String = header[x..right]
                .concat()
                .split(' ')
                .next()
                .unwrap_or_default()
                .to_string();
            match columns.last_mut() {
                // Titles of two words.
                Some((last, _)) if ["GOT", "OVER"].contains(&last.as_str()) => {
                    last.push(' ');
                    last.push_str(&word);
                }
                _ => columns.push((word, x)),
            }
        }
        let cell = |y, k: usize| {
            let from = columns[k].1;
            let to = columns.get(k + 1).map_or(right, |(_, x)| x - 1);
            cells(y)[from..to].concat().trim_end().to_string()
        };
        let rows = (top + 1..buffer.area.height)
            .take_while(|&y| {
                let first = cells(y)[0];
                first != " " && first != "┌" && first != "─"
            })
            .map(|y| (0..columns.len()).map(|k| cell(y, k)).collect())
            .collect();
        let title = cells(top - 1)[..right]
            .concat()
            .trim_end_matches(['─', ' '])
            .trim_start()
            .to_string();
        let facets = screen_text(buffer).lines().find_map(|l| {
            let at = l.find("facets of")?;
            let title = l[at..].split(" ─").next().unwrap_or_default();
            Some(title.trim_end().to_string())
        });
        Drawn {
            title,
            columns,
            rows,
            facets,
        }
    }

    fn titles(&self) -> Vec<&str> {
        self.columns
            .iter()
            .skip(1)
            .map(|(t, _)| t.as_str())
            .collect()
    }

    fn column(&self, title: &str) -> Option<usize> {
        self.columns.iter().position(|(t, _)| t == title)
    }
}

/// A share as a whole text: `114/157 73%`, `0/16, 15 unknown`, `unknown` or `-`.
fn whole_share(s: &str) -> bool {
    let of = |s: &str| {
        s.split_once('/').is_some_and(|(a, b)| {
            [a, b]
                .iter()
                .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
    };
    let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if s == "-" || s == "unknown" {
        return true;
    }
    if let Some(rest) = s.strip_suffix(" unknown") {
        return rest
            .split_once(", ")
            .is_some_and(|(a, b)| of(a) && number(b));
    }
    s.strip_suffix('%')
        .and_then(|rest| rest.split_once(' '))
        .is_some_and(|(a, b)| of(a) && number(b))
}

/// The runs of digits in a text.
fn figures(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_digit())
        .filter(|f| !f.is_empty())
        .collect()
}

/// The demo by error and by env (whose shares leave chains unknown), and the storm's room; by
/// error, the group of `connect 2003 EndpointUnreachable` selected.
fn views() -> Vec<(&'static str, Model)> {
    let by_env = {
        let mut m = demo(Filter::default(), (260, 40));
        run(&mut m, Command::ShowGroups);
        while !Drawn::of(&m).title.contains("groups by env") {
            run(&mut m, Command::NextGroupKey);
        }
        m
    };
    let mut views = vec![("env", by_env)];
    for (name, filter) in [
        ("demo", Filter::default()),
        ("room", Filter::default().with(Field::Room, STORM_ROOM_ID)),
    ] {
        let mut m = demo(filter, (260, 40));
        run(&mut m, Command::ShowGroups);
        // A group whose name makes a long title of the facets beside.
        while !Drawn::of(&m)
            .facets
            .is_some_and(|f| f.contains("connect 2003"))
        {
            run(&mut m, Command::Down);
        }
        views.push((name, m));
    }
    views
}

/// The order in which dropped columns come back as the terminal widens.
const COMING_BACK: [&str; 8] = [
    "GOT THROUGH",
    "FINAL",
    "PEERS",
    "ROOMS",
    "LAST",
    "FINAL%",
    "FIRST",
    "OVER TIME",
];

#[test]
fn a_wider_terminal_never_shows_fewer_groups_columns_nor_cuts_a_cell_without_an_ellipsis() {
    for (view, mut m) in views() {
        let wide = Drawn::of(&m);
        // The widest terminal shows every column, each cell whole.
        assert!(!wide.title.contains("no room"), "{view}: {}", wide.title);
        let share = wide
            .column("GOT THROUGH")
            .expect("the demo has related data");
        for row in &wide.rows {
            assert!(whole_share(&row[share]), "{view} at 260: {row:?}");
        }
        let mut before: Vec<String> = Vec::new();
        for width in 60..=260 {
            update(&mut m, Action::Resize { width, height: 40 });
            let drawn = Drawn::of(&m);
            let titles = drawn.titles();
            for title in &before {
                assert!(
                    titles.contains(&title.as_str()),
                    "{view}: {title} shown at {} columns, not at {width}: {titles:?}",
                    width - 1
                );
            }
            before = titles.iter().map(|t| t.to_string()).collect();
            let ends = ["sorted by count", "its events", "…"];
            assert!(
                ends.iter().any(|e| drawn.title.ends_with(e)),
                "{view} at {width}: title cut: {:?}",
                drawn.title
            );
            if let Some(facets) = &drawn.facets {
                let whole = wide.facets.as_deref().unwrap_or_default();
                assert!(
                    facets == whole || facets.ends_with('…'),
                    "{view} at {width}: {facets:?}"
                );
            }
            for (row, whole) in drawn.rows.iter().zip(&wide.rows) {
                let name = &row[0];
                let kept = name.strip_suffix('…');
                assert!(
                    name == &whole[0] || kept.is_some_and(|k| whole[0].starts_with(k)),
                    "{view} at {width}: {name:?} of {:?}",
                    whole[0]
                );
                for (k, (title, _)) in drawn.columns.iter().enumerate().skip(1) {
                    let cell = &row[k];
                    let full = &whole[wide.column(title).unwrap()];
                    if cell == full {
                        continue;
                    }
                    // A narrower sparkline has fewer buckets.
                    if title == "OVER TIME" {
                        assert!(!cell.contains(|c: char| c.is_ascii_digit()), "{cell:?}");
                        continue;
                    }
                    // Only a share is drawn in a shorter form, its figures whole.
                    assert!(
                        title == "GOT THROUGH" && (cell.ends_with('…') || cell.ends_with('%')),
                        "{view} at {width}: {title} {cell:?} of {full:?}"
                    );
                    for figure in figures(cell) {
                        assert!(
                            figures(full).contains(&figure),
                            "{view} at {width}: {cell:?} of {full:?}"
                        );
                    }
                }
            }
            // While a column is left out, the name has less room over than it would take.
            let wanted = wide.titles();
            let Some(next) = COMING_BACK
                .iter()
                .find(|c| wanted.contains(c) && !titles.contains(c))
            else {
                continue;
            };
            let at = wide.column(next).unwrap();
            // Its width and the space before it; the sparkline, last, is 16 wide.
            let takes = wide
                .columns
                .get(at + 1)
                .map_or(17, |(_, x)| x - wide.columns[at].1);
            let name_room = drawn.columns[1].1 - 1;
            let longest = drawn.rows.iter().map(|r| r[0].chars().count()).max();
            let over = name_room
                .checked_sub(longest.unwrap_or(0))
                .unwrap_or_else(|| panic!("{view} at {width}: {:?}", drawn.columns));
            assert!(
                over < takes,
                "{view} at {width}: {over} columns blank beside the names, {next} left out"
            );
        }
    }
}

#[test]
fn the_groups_view_at_several_widths() {
    // The storm's room: at 66 columns the share that got through is narrowed to its title,
    // in its shorter forms; narrower, the finals give way to it, the last to go; wider, whole,
    // with the columns that gave way coming back; at 160, with every column whole, the facets
    // beside.
    for width in [60, 64, 66, 80, 112, 124, 160] {
        let mut m = demo(
            Filter::default().with(Field::Room, STORM_ROOM_ID),
            (width, 16),
        );
        run(&mut m, Command::ShowGroups);
        let t = draw(&m);
        let text = screen_text(t.backend().buffer());
        let table = left_of_pane(&m, "GROUP");
        assert!(table.contains("GOT THROUGH"), "{width}:\n{text}");
        if width == 66 {
            assert!(
                row_of(&text, "disconnected 1003").contains(" 20/25, … "),
                "{text}"
            );
        }
        assert_eq!(table.contains("FINAL "), width > 64, "{width}:\n{text}");
        insta::assert_snapshot!(format!("groups_room_{width}x16"), t.backend());
    }
    // The demo by env: shares with thousands of chains, some unknown, whole.
    let mut m = demo(Filter::default(), (250, 12));
    run(&mut m, Command::ShowGroups);
    while !screen_text(draw(&m).backend().buffer()).contains("groups by env") {
        run(&mut m, Command::NextGroupKey);
    }
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        row_of(&text, "prod").contains(" 476/922, 344 unknown "),
        "{text}"
    );
    insta::assert_snapshot!("groups_by_env_250x12", t.backend());
}

#[test]
fn a_page_of_groups_is_the_rows_the_view_shows() {
    // At 140 columns the facets go below the demo's groups (beside, they would cost it
    // columns): a page is the rows left above them, not the list's height beside a pane.
    let mut m = demo(Filter::default(), (140, 24));
    run(&mut m, Command::ShowGroups);
    let rows = Drawn::of(&m).rows.len();
    let len = m.focus.groups().unwrap().groups.len();
    for page in 1..=3 {
        run(&mut m, Command::PageDown);
        let g = m.focus.groups().unwrap();
        assert_eq!(g.selected, (page * rows).min(len - 1));
        assert!(g.selected - g.offset < rows, "{} {}", g.selected, g.offset);
    }
}
