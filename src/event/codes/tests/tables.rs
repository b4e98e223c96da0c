//! The code tables themselves: the rows the spec counts, every code found under its platform,
//! every row saying something, secondary facts flagged, codes defined but not raised, and the
//! lines they give.

use super::*;

/// The platform whose tables end with `table`, the native SDK not known.
fn platform_of_table(table: Table) -> Platform {
    match table {
        Table::General => Platform::Web,
        Table::Android => Platform::Android,
        Table::Ios => Platform::Ios,
        Table::Flutter => Platform::Flutter(None),
        Table::ReactNative => Platform::ReactNative(None),
    }
}

#[test]
fn every_table_holds_the_rows_counted_in_the_spec() {
    // Rows of the spec's tables (shared/spec/error-codes.md), header excluded:
    // 2.1 web / general 63, 2.2 Android 57, 2.3 iOS 28, 2.4 Flutter 11, 2.5 React Native 22.
    let counts: Vec<(Table, usize)> = Table::ALL.iter().map(|t| (*t, t.rows().len())).collect();
    assert_eq!(
        counts,
        [
            (Table::General, 63),
            (Table::Android, 57),
            (Table::Ios, 28),
            (Table::Flutter, 11),
            (Table::ReactNative, 22),
        ]
    );
    // Section 3: 33 rows of codes, two of which hold two codes (3016 and 3017; 4007 and 4008).
    assert_eq!(DIFFERS_BY_PLATFORM.len(), 35);
}

#[test]
fn every_code_of_every_row_is_found_under_its_platform() {
    for table in Table::ALL {
        let platform = platform_of_table(table);
        for row in table.rows() {
            let name = row.names.first().copied();
            for code in codes_of(row) {
                // A row of a code passed through from the server is found by its name, whatever
                // the code.
                let code = code.unwrap_or(987_654);
                let (t, r) = match answer(platform, code, name) {
                    Answer::Meaning {
                        table,
                        row,
                        fallback: false,
                    }
                    | Answer::NoMeaning { table, row } => (table, row),
                    other => panic!("{code} of the {table:?} table: {other:?}"),
                };
                if row.refers == Some(Refers::Android) {
                    // "as Android": the Android row of the code answers.
                    assert_eq!((t, r.holds(code)), (Table::Android, 2), "{code}");
                } else {
                    assert_eq!(t, table, "{code}");
                    // A row that holds the code in a span yields to one that names it.
                    assert!(
                        std::ptr::eq(r, row) || (row.holds(code) == 1 && r.holds(code) == 2),
                        "{code} of the {table:?} table found {r:?}"
                    );
                }
                let no_meaning = matches!(answer(platform, code, name), Answer::NoMeaning { .. });
                assert_eq!(no_meaning, r.kind == Kind::NoMeaning, "{code}");
            }
        }
    }
}

#[test]
fn a_code_defined_but_not_raised_is_said_to_be_so() {
    let e = explain(Platform::Web, 3007);
    let lines = e.lines();
    assert_eq!(
        lines[0],
        (
            "means",
            "defined by the SDK but not raised in the version read (web SDK 0.15.2)".to_string()
        )
    );
    let e = explain(Platform::Web, 3004);
    assert!(e.lines().contains(&(
        "note",
        "defined by the SDK but not raised in the version read (web SDK 0.15.2)".to_string()
    )));
    assert!(
        e.line()
            .ends_with("Defined by the SDK but not raised in the version read (web SDK 0.15.2).")
    );
    // Only the web table, read in one version, says so.
    for table in Table::ALL {
        for row in table.rows() {
            if row.kind == Kind::DefinedNotRaised {
                assert_eq!(table, Table::General, "{:?}", row.codes);
            }
        }
    }
    assert!(
        !explain(Platform::Web, 4006)
            .lines()
            .iter()
            .any(|(_, l)| l.contains("not raised"))
    );
}

#[test]
fn facts_of_a_secondary_source_are_flagged_and_noted() {
    for table in Table::ALL {
        for row in table.rows() {
            let marked = [row.actions, row.what, row.check, row.retried]
                .iter()
                .any(|cell| cell.contains('†'))
                || row.mark == Mark::Secondary;
            assert_eq!(row.secondary, marked, "{:?} of {table:?}", row.codes);
            if row.secondary {
                assert!(matches!(table, Table::Android | Table::ReactNative));
            }
        }
    }
    let notes = explain(Platform::Android, 2002).lines();
    assert!(notes.contains(&(
        "note",
        "† rests on a secondary source (a decompiled copy of the Android SDK)".to_string()
    )));
    let notes = explain(Platform::Android, 6001).lines();
    assert!(
        notes
            .iter()
            .any(|(label, l)| *label == "note" && l.starts_with('‡'))
    );
    assert!(
        !explain(Platform::Web, 2002)
            .lines()
            .iter()
            .any(|(label, _)| *label == "note")
    );
}

#[test]
fn every_row_says_something_and_names_as_the_sdk_writes_them() {
    for table in Table::ALL {
        for row in table.rows() {
            assert!(!row.codes.is_empty());
            assert!(
                !row.what.is_empty() || row.kind == Kind::DefinedNotRaised,
                "{:?} of {table:?}",
                row.codes
            );
            for name in row.names {
                assert!(
                    !name.is_empty() && !name.contains(['`', '†', '‡']),
                    "{name:?}"
                );
            }
            for cell in [row.what, row.check, row.retried, row.actions] {
                assert!(!cell.contains('`') && cell.trim() == cell && cell != "—");
            }
        }
    }
}

#[test]
fn one_line_says_code_name_platform_meaning_and_retry() {
    assert_eq!(
        explain_event(&web_event(4006, "ICEDisconnected")).line(),
        "4006 ICEDisconnected (web): The media connection dropped and was not connected again \
         within 5 s. The SDK retries this code: Yes, as 4005: ICE restart for up to 60 s, then \
         terminal."
    );
    assert_eq!(
        explain(Platform::Ios, 500).line(),
        "500 ServerErrors (iOS, general table): Server-side failure. The SDK retries this code: \
         Yes, as for 429: connect and join retry for up to 60 s, other signalling requests up to 3 \
         tries. A join that still fails is marked terminal."
    );
    // The event's name is the one a list shows; the table's stands in when it has none.
    let ios = event(Some(4005), Some("ICEFailure"), json!({"sdk": "ios"}));
    assert!(
        explain_event(&ios)
            .line()
            .starts_with("4005 ICEFailure (iOS): ")
    );
    assert!(
        explain(Platform::Ios, 4005)
            .line()
            .starts_with("4005 iceFailure (iOS): ")
    );
    // A retry the sources do not show is left out of the line.
    assert_eq!(
        explain(Platform::Android, 3003).line(),
        "3003 (Android): Docs: the capture device is in use by another app."
    );
    assert_eq!(
        explain(Platform::Android, 3003).lines()[2],
        (RETRIES, "not shown by the sources".to_string())
    );
}

#[test]
fn the_pane_lines_of_a_fallback_say_which_tables_were_read() {
    let e = explain_event(&event(
        Some(500),
        Some("ServerErrors"),
        json!({"sdk": "ios", "os": "iOS"}),
    ));
    let labels: Vec<&str> = e.lines().iter().map(|(label, _)| *label).collect();
    assert_eq!(labels, ["means", "check", RETRIES, "read in"]);
    assert_eq!(
        e.lines()[3].1,
        "the general table: this code is not in the iOS SDK's table"
    );
}
