//! Reading in pieces on several threads gives what one thread gives: pieces never cut a value
//! or end on a damaged line, and batches come while spares are kept.

use super::*;

fn id_of(event: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(event).unwrap();
    v["id"].as_str().unwrap().to_string()
}

#[test]
fn scan_reports_each_event_span_in_order() {
    let text = format!("{SUBSCRIBE}\n{QUIRKS}");
    let mut spans = Vec::new();
    let mut errors = Vec::new();
    scan(
        text.as_bytes(),
        &mut |s, e| {
            spans.push((s, e));
            Ok(())
        },
        &mut errors,
    );
    assert!(errors.is_empty());
    let got: Vec<String> = spans.iter().map(|&(s, e)| id_of(&text[s..e])).collect();
    assert_eq!(got, [S1, Q1, Q2]);
    let (s, e) = spans[1];
    assert_eq!(&text[s..e], QUIRKS.lines().next().unwrap());
}

fn read_on_one_thread(blob: &Arc<Blob>) -> Read {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let mut errors = Vec::new();
    let mut batcher = Batcher::new(first_of(2000, &reading), Arc::clone(blob));
    scan_lines(
        blob,
        &mut |s, e| batcher.push(s, e, &mut |b| batches.push(b)),
        &mut errors,
    );
    batches.push(batcher.finish());
    Read::of(batches, errors)
}

fn read_in_pieces(blob: &Arc<Blob>, threads: usize, piece_bytes: usize) -> Read {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let mut errors = Vec::new();
    read_pieces(
        blob,
        first_of(2000, &reading),
        threads,
        piece_bytes,
        &mut |b| batches.push(b),
        &mut errors,
    );
    Read::of(batches, errors)
}

#[test]
fn reading_in_pieces_on_several_threads_gives_what_one_thread_gives() {
    let mut lines = generated_lines(3000, 5);
    // A later copy of an id with other content, far from the first: the first must win.
    let copy = lines[5].replacen("\"type\":\"client.", "\"type\":\"client.x", 1);
    lines.insert(2500, copy);
    lines[10] = "{\"id\": broken".to_string();
    lines[2900] = "not json at all".to_string();
    let envelope: serde_json::Value = serde_json::from_str(PAGE1).unwrap();
    lines.insert(1200, envelope.to_string());
    lines.insert(700, String::new());
    let blob = Arc::new(Blob::Owned(lines.join("\n").into_bytes()));

    let one = read_on_one_thread(&blob);
    let many = read_in_pieces(&blob, 3, 8 << 10);
    assert!(many.batches > 100, "{} batches", many.batches);
    assert!(many.first_batch <= 2000);
    assert_eq!(
        one.events.len(),
        3000 - 2 + envelope["events"].as_array().unwrap().len()
    );
    assert_eq!(one.duplicates, 1);
    assert_eq!((many.events, many.duplicates), (one.events, one.duplicates));
    assert_eq!(many.errors, one.errors);
    assert_eq!(one.errors.len(), 2);
}

#[test]
fn pieces_never_cut_a_value_written_over_several_lines() {
    let mut lines = generated_lines(300, 9);
    // Pretty-printed envelopes among the lines: cut inside, neither half could be read.
    let envelope: serde_json::Value = serde_json::from_str(PAGE2).unwrap();
    lines.insert(250, serde_json::to_string_pretty(&envelope).unwrap());
    let envelope: serde_json::Value = serde_json::from_str(PAGE1).unwrap();
    lines.insert(150, serde_json::to_string_pretty(&envelope).unwrap());
    let blob = Arc::new(Blob::Owned(lines.join("\n").into_bytes()));

    let one = read_on_one_thread(&blob);
    let many = read_in_pieces(&blob, 2, 512);
    assert!(one.errors.is_empty(), "{:?}", one.errors);
    assert!(one.events.len() > 300);
    assert_eq!(many.errors, one.errors);
    assert_eq!(many.events, one.events);
}

#[test]
fn no_piece_ends_on_a_damaged_line_that_ends_like_an_event() {
    let reading = Reading::start();
    // Read whole, the damage is found where the parser reads on into the next line.
    let mut lines = generated_lines(60, 12);
    lines[30] = "{\"id\":\"a\",\"p\":{\"q\":1}".to_string();
    let bytes = lines.join("\n").into_bytes();
    let blob = Arc::new(Blob::Owned(bytes.clone()));
    let one = read_on_one_thread(&blob);
    assert_eq!(one.errors.len(), 1, "{:?}", one.errors);
    let (whole, whole_problems) = read_whole("t", Arc::clone(&blob), None);
    // Every piece size from a line to a tenth of the file: some cut would fall right after it.
    let damaged_end = lines[..31].iter().map(|l| l.len() + 1).sum::<usize>();
    for piece_bytes in (200..bytes.len() / 10).step_by(97) {
        let many = read_in_pieces(&blob, 3, piece_bytes);
        assert_eq!(many.errors, one.errors, "mapped, pieces of {piece_bytes}");
        assert_eq!(many.events, one.events, "mapped, pieces of {piece_bytes}");
        let mut batches = Vec::new();
        let problems = read_stream_in_batches(
            "t",
            &bytes[..],
            Holding::WhileItFits,
            first_of(2000, &reading),
            piece_bytes,
            &mut |b| batches.push(b),
        );
        let streamed = Read::of(batches, Vec::new());
        assert_eq!(
            problems, whole_problems,
            "streamed, pieces of {piece_bytes}"
        );
        assert_eq!(
            streamed.events, whole.events,
            "streamed, pieces of {piece_bytes}"
        );
    }
    // A cut right after the damaged line was open to the rule that only asked for a `}` before
    // the line: it ends in one, and the line after it is a whole event.
    let damaged_start = damaged_end - lines[30].len() - 1;
    assert_eq!(bytes[damaged_end - 2], b'}');
    assert!(serde_json::from_str::<serde_json::Value>(&lines[31]).is_ok());
    assert!(next_event_line(&bytes, damaged_start).is_some_and(|cut| cut > damaged_end));
}

#[test]
fn a_file_that_starts_with_a_byte_order_mark_is_read_in_pieces_as_without_it() {
    let mut lines = generated_lines(2000, 13);
    lines[700] = "{\"id\": broken".to_string();
    let plain = lines.join("\n").into_bytes();
    let mut marked = vec![0xEF, 0xBB, 0xBF];
    marked.extend_from_slice(&plain);
    assert!(super::super::super::ndjson::looks_line_delimited(&marked));
    let plain = read_on_one_thread(&Arc::new(Blob::Owned(plain)));
    let blob = Arc::new(Blob::Owned(marked));
    let one = read_on_one_thread(&blob);
    let many = read_in_pieces(&blob, 3, 8 << 10);
    assert!(many.batches > 50, "{} batches", many.batches);
    assert_eq!(one.events, plain.events);
    assert_eq!(many.events, one.events);
    // The mark moves the damage three bytes on, on the same line and column.
    let at = |r: &Read| -> Vec<(usize, usize)> {
        r.errors.iter().map(|e| line_col(&blob, e.offset)).collect()
    };
    assert_eq!(one.errors.len(), 1);
    assert_eq!(one.errors[0].offset, plain.errors[0].offset + 3);
    assert_eq!(at(&many), at(&one));
}

#[test]
fn every_batch_of_a_load_of_several_files_comes_while_spares_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = events_of(PAGE1)
        .into_iter()
        .chain(events_of(PAGE2))
        .collect();
    for (k, half) in lines.chunks(lines.len().div_ceil(2)).enumerate() {
        std::fs::write(dir.path().join(format!("{k}.ndjson")), half.join("\n")).unwrap();
    }
    let mut reads = Vec::new();
    let args = [dir.path().to_string_lossy().into_owned()];
    let problems = crate::source::load_files(&args, |_, batch| {
        reads.push(batch.reading());
    });
    assert!(problems.is_empty(), "{problems:?}");
    assert!(reads.len() >= 2);
    // One reading for every file, under way as each batch is handed over.
    assert!(reads[0].is_some(), "{reads:?}");
    assert!(reads.iter().all(|&r| r == reads[0]), "{reads:?}");
}
