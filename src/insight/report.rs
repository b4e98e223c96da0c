//! `list --group-by`: the groups as a table for people, or as JSON, NDJSON or CSV for scripts.

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::{Group, Groups, Part};
use crate::event::EventType;
use crate::insight::GroupKey;
use crate::output::Format;
use crate::store::Store;
use crate::text::{Give, cut, for_terminal};

/// Buckets of the table's activity column.
const TABLE_SPARK: usize = 16;

/// The counting columns after the key's own, in `json`/`csv` field order.
const COUNT_FIELDS: [&str; 6] = [
    "count",
    "final",
    "peers",
    "rooms",
    "first_seen",
    "last_seen",
];

pub fn write_groups(
    store: &Store,
    groups: &Groups,
    format: Format,
    out: &mut dyn Write,
) -> io::Result<()> {
    write_groups_within(store, groups, format, None, out)
}

/// [`write_groups`], with the table fitted into `columns` when given (a terminal's width).
pub fn write_groups_within(
    store: &Store,
    groups: &Groups,
    format: Format,
    columns: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(key) = groups.key else {
        return Ok(());
    };
    match format {
        Format::Json => {
            out.write_all(b"[")?;
            for (k, g) in groups.iter().enumerate() {
                out.write_all(if k == 0 { b"\n" } else { b",\n" })?;
                serde_json::to_writer(&mut *out, &json_of(store, key, &g))?;
            }
            out.write_all(b"\n]\n")?;
        }
        Format::Ndjson => {
            for g in groups.iter() {
                serde_json::to_writer(&mut *out, &json_of(store, key, &g))?;
                out.write_all(b"\n")?;
            }
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(&mut *out);
            let header: Vec<&str> = key.fields().iter().copied().chain(COUNT_FIELDS).collect();
            w.write_record(&header)?;
            for g in groups.iter() {
                let mut record: Vec<String> = g
                    .parts(store, key)
                    .iter()
                    .map(|p| match p {
                        Part::Absent => String::new(),
                        Part::Text(s) => s.to_string(),
                        Part::Code(c) => c.to_string(),
                    })
                    .collect();
                record.extend([
                    g.count.to_string(),
                    g.finals.to_string(),
                    g.peers.to_string(),
                    g.rooms.to_string(),
                    g.first_seen
                        .map(crate::time::format_nanos)
                        .unwrap_or_default(),
                    g.last_seen
                        .map(crate::time::format_nanos)
                        .unwrap_or_default(),
                ]);
                w.write_record(&record)?;
            }
            w.flush()?;
        }
        Format::Table => write_table(store, groups, key, columns, out)?,
    }
    out.flush()
}

/// One group as `{"key":{...},"count":n,"final":n,"peers":n,"rooms":n,"first_seen":t,"last_seen":t}`.
fn json_of(store: &Store, key: GroupKey, g: &Group) -> Value {
    let mut fields = Map::new();
    for (name, part) in key.fields().iter().zip(g.parts(store, key)) {
        let value = match part {
            Part::Absent => Value::Null,
            Part::Text(s) => Value::from(s),
            Part::Code(c) => Value::from(c),
        };
        fields.insert(name.to_string(), value);
    }
    let time =
        |t: Option<i64>| t.map_or(Value::Null, |t| Value::from(crate::time::format_nanos(t)));
    let mut o = Map::new();
    o.insert("key".into(), Value::Object(fields));
    o.insert("count".into(), g.count.into());
    o.insert("final".into(), g.finals.into());
    o.insert("peers".into(), g.peers.into());
    o.insert("rooms".into(), g.rooms.into());
    o.insert("first_seen".into(), time(g.first_seen));
    o.insert("last_seen".into(), time(g.last_seen));
    Value::Object(o)
}

/// The key's table columns: header, and the width a cell first narrows to on a terminal too
/// narrow for the table. A file or a pipe gets every cell whole.
fn key_columns(key: GroupKey) -> &'static [(&'static str, usize)] {
    match key {
        GroupKey::Error => &[("TYPE", 12), ("CODE", 6), ("ERROR", 28)],
        GroupKey::Sdk => &[("SDK", 10), ("VERSION", 14)],
        GroupKey::Os => &[("OS", 16), ("VERSION", 14)],
        GroupKey::Device => &[("DEVICE", 28)],
        GroupKey::Role => &[("ROLE", 20)],
        GroupKey::Room => &[("ROOM ID", 26), ("ROOM NAME", 24)],
        GroupKey::Domain => &[("DOMAIN", 32)],
        GroupKey::Env => &[("ENV", 16)],
        GroupKey::Peer => &[("PEER ID", 36), ("USER", 20)],
    }
}

const COUNT_HEADERS: [&str; 8] = [
    "COUNT",
    "FINAL",
    "FINAL %",
    "PEERS",
    "ROOMS",
    "FIRST SEEN (UTC)",
    "LAST SEEN (UTC)",
    "ACTIVITY",
];

/// Which of the count columns are numbers, aligned right.
const RIGHT: [bool; 8] = [true, true, true, true, true, false, false, false];

fn write_table(
    store: &Store,
    groups: &Groups,
    key: GroupKey,
    columns_in: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let columns = key_columns(key);
    let headers: Vec<&str> = columns
        .iter()
        .map(|(h, _)| *h)
        .chain(COUNT_HEADERS)
        .collect();
    let right: Vec<bool> = columns.iter().map(|_| false).chain(RIGHT).collect();
    let time = |t: Option<i64>| t.map_or("-".to_string(), crate::time::format_short);
    let cells: Vec<Vec<String>> = groups
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let mut row: Vec<String> = g
                .parts(store, key)
                .iter()
                .zip(columns)
                .enumerate()
                .map(|(n, (p, _))| {
                    let text = match p {
                        Part::Absent => crate::text::NONE.to_string(),
                        Part::Text(s) if key == GroupKey::Error && n == 0 => {
                            EventType::from_name(s).alias().to_string()
                        }
                        Part::Text(s) => s.to_string(),
                        Part::Code(c) => c.to_string(),
                    };
                    for_terminal(&text).into_owned()
                })
                .collect();
            row.extend([
                g.count.to_string(),
                g.finals.to_string(),
                format!("{:.0}%", g.final_share() * 100.0),
                g.peers.to_string(),
                g.rooms.to_string(),
                time(g.first_seen),
                time(g.last_seen),
                sparkline_text(&groups.sparkline(store, k, TABLE_SPARK)),
            ]);
            row
        })
        .collect();
    let width = |s: &str| unicode_width::UnicodeWidthStr::width(s);
    let mut widths: Vec<usize> = headers.iter().map(|h| width(h)).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(c));
        }
    }
    // On a narrow terminal the activity goes first, then the first seen, then the final
    // share (the count and the finals say it); then the key's own columns narrow.
    let n = columns.len();
    let count_column = |title: &str| {
        n + COUNT_HEADERS
            .iter()
            .position(|h| *h == title)
            .expect("a count column")
    };
    let key_columns: Vec<usize> = (0..n).collect();
    let singles: Vec<[usize; 1]> = key_columns.iter().map(|&k| [k]).collect();
    // Each key column first narrows to its width of choice; then the count columns go; then
    // the key's columns narrow further.
    let mut order: Vec<Give> = singles
        .iter()
        .zip(columns)
        .map(|(k, (_, to))| Give::Narrow {
            columns: k,
            to: *to,
        })
        .collect();
    order.extend([
        Give::Drop(count_column("ACTIVITY")),
        Give::Drop(count_column("FIRST SEEN (UTC)")),
        Give::Drop(count_column("FINAL %")),
        Give::Narrow {
            columns: &key_columns,
            to: crate::text::NARROWEST,
        },
    ]);
    let kept = match columns_in {
        Some(total) => crate::text::fit_table(&mut widths, crate::text::TABLE_GAP, total, &order),
        None => vec![true; widths.len()],
    };
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (k, c) in cells.iter().enumerate() {
            if !kept[k] {
                continue;
            }
            let c = cut(c, widths[k]);
            let pad = " ".repeat(widths[k].saturating_sub(width(&c)));
            if right[k] {
                s.push_str(&pad);
                s.push_str(&c);
            } else {
                s.push_str(&c);
                s.push_str(&pad);
            }
            s.push_str(&" ".repeat(crate::text::TABLE_GAP));
        }
        s.trim_end().to_string()
    };
    writeln!(out, "{}", line(&headers))?;
    for row in &cells {
        let row: Vec<&str> = row.iter().map(String::as_str).collect();
        writeln!(out, "{}", line(&row))?;
    }
    Ok(())
}

/// Counts as a row of block characters, scaled to the largest: a blank for zero, at least `▁`
/// for any event.
pub fn sparkline_text(counts: &[u32]) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let peak = counts.iter().copied().max().unwrap_or(0);
    counts
        .iter()
        .map(|&n| {
            if n == 0 {
                ' '
            } else {
                let level = (u64::from(n) * 8).div_ceil(u64::from(peak)) as usize;
                BLOCKS[level.clamp(1, 8) - 1]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::GroupSort;
    use crate::insight::testing::{all, ev, store};
    use unicode_width::UnicodeWidthStr;

    fn render(s: &Store, key: GroupKey, format: Format) -> String {
        let g = Groups::compute(s, &all(s), key, GroupSort::Count);
        let mut out = Vec::new();
        write_groups(s, &g, format, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_table_on_a_narrow_terminal_leaves_out_the_activity_then_the_first_seen_then_narrows() {
        let mut s = crate::store::Store::new();
        s.merge(crate::source::demo::load());
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        let table = |columns: Option<usize>| {
            let mut out = Vec::new();
            write_groups_within(&s, &g, Format::Table, columns, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let wide = table(None);
        let widest = wide.lines().map(|l| l.width()).max().unwrap();
        assert!(widest > 140, "{widest}");
        assert!(wide.contains("ACTIVITY") && wide.contains("FIRST SEEN"));
        assert_eq!(
            table(Some(widest)),
            wide,
            "a table that fits is left as it is"
        );
        for (columns, activity, first_seen, share) in [
            (140, false, true, true),
            (120, false, false, true),
            (80, false, false, false),
        ] {
            let fitted = table(Some(columns));
            assert!(
                fitted.lines().all(|l| l.width() <= columns),
                "{columns}:\n{fitted}"
            );
            let header = fitted.lines().next().unwrap();
            assert_eq!(header.contains("ACTIVITY"), activity, "{header}");
            assert_eq!(header.contains("FIRST SEEN"), first_seen, "{header}");
            assert_eq!(header.contains("FINAL %"), share, "{header}");
            assert!(
                header.contains("LAST SEEN") && header.contains("COUNT"),
                "{header}"
            );
            assert_eq!(fitted.lines().count(), wide.lines().count());
        }
        // Narrowed names end in an ellipsis; the counts are whole.
        let narrow = table(Some(80));
        assert!(narrow.contains('…'), "{narrow}");
        assert!(narrow.lines().nth(1).unwrap().contains(" 532 "), "{narrow}");
    }

    fn sample() -> Store {
        let mut other = ev(3, 30, "publish", "p2", false);
        other["data"].as_object_mut().unwrap().remove("error_code");
        other["data"]["agent"] = json!({"sdk": "web", "sdk_version": "0.11.4"});
        store(&[
            ev(1, 0, "join", "p1", false),
            ev(2, 10, "join", "p1", true),
            other,
        ])
    }

    #[test]
    fn json_has_one_object_per_group_with_its_key_fields() {
        let text = render(&sample(), GroupKey::Error, Format::Json);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v[0],
            json!({
                "key": {"type": "client.join.failed", "error_code": 500, "error_name": "ServerErrors"},
                "count": 2, "final": 1, "peers": 1, "rooms": 1,
                "first_seen": "2026-11-18T11:00:00.000000000Z",
                "last_seen": "2026-11-18T11:00:10.000000000Z"
            })
        );
        assert_eq!(v[1]["key"]["error_code"], Value::Null);
        assert_eq!(v.as_array().unwrap().len(), 2);
        let sdk: Value =
            serde_json::from_str(&render(&sample(), GroupKey::Sdk, Format::Json)).unwrap();
        let keys: Vec<&Value> = sdk.as_array().unwrap().iter().map(|g| &g["key"]).collect();
        assert!(keys.contains(&&json!({"sdk": "web", "sdk_version": "0.11.4"})));
        assert!(keys.contains(&&json!({"sdk": null, "sdk_version": null})));
        let peers: Value =
            serde_json::from_str(&render(&sample(), GroupKey::Peer, Format::Json)).unwrap();
        assert_eq!(peers[0]["key"], json!({"peer_id": "p1", "user_name": null}));
    }

    #[test]
    fn ndjson_and_csv_carry_the_same_numbers() {
        let s = sample();
        let ndjson = render(&s, GroupKey::Error, Format::Ndjson);
        let lines: Vec<Value> = ndjson
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["count"], 2);
        let csv = render(&s, GroupKey::Error, Format::Csv);
        let mut rows = csv.lines();
        assert_eq!(
            rows.next().unwrap(),
            "type,error_code,error_name,count,final,peers,rooms,first_seen,last_seen"
        );
        assert_eq!(
            rows.next().unwrap(),
            "client.join.failed,500,ServerErrors,2,1,1,1,2026-11-18T11:00:00.000000000Z,2026-11-18T11:00:10.000000000Z"
        );
        assert!(
            rows.next()
                .unwrap()
                .starts_with("client.publish.failed,,ServerErrors,1,0,1,1,")
        );
    }

    #[test]
    fn the_table_is_aligned_for_people() {
        let text = render(&sample(), GroupKey::Error, Format::Table);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[0].starts_with(
                "TYPE     CODE    ERROR         COUNT  FINAL  FINAL %  PEERS  ROOMS  FIRST SEEN (UTC)"
            ),
            "{text}"
        );
        assert!(lines[1].starts_with("join     500     ServerErrors      2      1      50%      1      1  2026-11-18 11:00:00.000"), "{text}");
        // A value the events do not have reads (none), as everywhere else.
        assert!(
            lines[2].starts_with("publish  (none)  ServerErrors      1      0       0%"),
            "{text}"
        );
        // Two joins at the start of the span, the publish at its end.
        assert!(lines[1].ends_with('█'), "{text}");
        assert!(lines[2].ends_with("               █"), "{text}");
    }

    #[test]
    fn control_characters_never_reach_the_table() {
        let mut e = ev(1, 0, "join", "p1", false);
        e["data"]["error_name"] = json!("Bad\u{1b}[31mName");
        let text = render(&store(&[e]), GroupKey::Error, Format::Table);
        assert!(!text.contains('\u{1b}'), "{text:?}");
    }

    #[test]
    fn sparklines_scale_to_their_peak() {
        assert_eq!(sparkline_text(&[0, 1, 4, 8]), " ▁▄█");
        assert_eq!(sparkline_text(&[1, 100]), "▁█");
        assert_eq!(sparkline_text(&[]), "");
        assert_eq!(sparkline_text(&[0, 0]), "  ");
    }

    #[test]
    fn no_groups_print_an_empty_array_and_a_bare_header() {
        let s = sample();
        let g = Groups::compute(&s, &[], GroupKey::Room, GroupSort::Count);
        let mut out = Vec::new();
        write_groups(&s, &g, Format::Json, &mut out).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&out).unwrap(), json!([]));
        let mut out = Vec::new();
        write_groups(&s, &g, Format::Table, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1);
    }
}
