//! Streaming: gzip read while it decompresses, a dump read as it comes through a pipe, and what
//! is past memory kept in a temporary file.

use super::*;

/// What reading a gzip'd file while it decompresses gives, in pieces of about `piece_bytes`, with
/// its problems.
fn read_gzip_streamed(gz: &[u8], piece_bytes: usize) -> (Read, Vec<DumpProblem>) {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let problems = read_stream_in_batches(
        "t.gz",
        gz,
        Holding::WhileItFits,
        first_of(2000, &reading),
        piece_bytes,
        &mut |b| batches.push(b),
    );
    (Read::of(batches, Vec::new()), problems)
}

/// What reading the same file decompressed whole, on one thread, gives.
fn read_gzip_whole(gz: &[u8]) -> (Read, Vec<DumpProblem>) {
    let (bytes, problem) = gunzip(gz, "t.gz");
    read_whole("t.gz", Arc::new(Blob::Owned(bytes)), problem)
}

/// Decompresses every gzip member at once; a damaged or cut stream keeps what came out before
/// the damage, and says so as reading it while it decompresses does.
fn gunzip(compressed: &[u8], name: &str) -> (Vec<u8>, Option<DumpProblem>) {
    let mut out = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(compressed);
    // Read as the stream is, 64 KiB at a time: what a failing read would have given is lost
    // the same way.
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match std::io::Read::read(&mut decoder, &mut chunk) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&chunk[..n]),
            Err(e) => {
                let damaged = gzip_damage(name, &e, out.len() as u64, KeptBefore::All);
                return (out, Some(damaged));
            }
        }
    }
}

#[test]
fn a_gzip_file_read_while_it_decompresses_gives_what_reading_it_whole_gives() {
    let reading = Reading::start();
    let mut lines = generated_lines(3000, 7);
    let copy = lines[5].replacen("\"type\":\"client.", "\"type\":\"client.x", 1);
    lines.insert(2500, copy);
    lines[100] = "{\"id\": broken".to_string();
    lines[2900] = "not json at all".to_string();
    let envelope: serde_json::Value = serde_json::from_str(PAGE1).unwrap();
    lines.insert(1200, envelope.to_string());
    // Values written over many lines, which no piece may cut.
    let pretty = |n: usize| {
        let mut e: serde_json::Value =
            serde_json::from_str(&generated_lines(1, 100 + n as u64)[0]).unwrap();
        e["id"] = format!("00000000-0000-4000-8000-{n:012}").into();
        serde_json::to_string_pretty(&e).unwrap()
    };
    for n in 0..20 {
        lines.insert(300 + n * 130, pretty(n));
    }
    lines.insert(700, String::new());
    let ndjson = lines.join("\n");
    // More damage than a file's problems show.
    let mut damaged = generated_lines(400, 8);
    for k in 0..25 {
        damaged[10 + k * 15] = format!("{{\"id\": broken {k}");
    }
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(QUIRKS.as_bytes());
    let mut members = gzip(PAGE1.as_bytes());
    members.extend(gzip(PAGE2.as_bytes()));
    let whole_ndjson = gzip(ndjson.as_bytes());
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("generated lines", whole_ndjson.clone()),
        (
            "cut short",
            whole_ndjson[..whole_ndjson.len() * 2 / 3].to_vec(),
        ),
        ("much damage", gzip(damaged.join("\n").as_bytes())),
        ("envelopes, not line-delimited", members),
        ("a byte order mark", gzip(&bom)),
        ("empty", gzip(b"")),
        ("blank", gzip(b"\n  \n")),
    ];
    for (what, gz) in &files {
        let (whole, whole_problems) = read_gzip_whole(gz);
        for piece_bytes in [512, 8 << 10, 1 << 30] {
            let (streamed, problems) = read_gzip_streamed(gz, piece_bytes);
            let case = format!("{what}, pieces of {piece_bytes}");
            assert_eq!(problems, whole_problems, "{case}");
            assert_eq!(streamed.events, whole.events, "{case}");
            assert_eq!(streamed.duplicates, whole.duplicates, "{case}");
            assert!(streamed.first_batch <= 2000, "{case}");
        }
    }
    // The cases hold what they are meant to.
    let (generated, problems) = read_gzip_whole(&files[0].1);
    assert_eq!(generated.events.len(), 3000 - 2 + 2 + 20);
    assert_eq!(generated.duplicates, 1);
    assert_eq!(problems.len(), 2, "{problems:?}");
    let (_, problems) = read_gzip_whole(&files[1].1);
    assert!(problems[0].message.contains("gzip"), "{problems:?}");
    let (_, problems) = read_gzip_whole(&files[2].1);
    assert_eq!(problems[20].message, "5 more problems not shown");
    let (blank, problems) = read_gzip_streamed(&files[5].1, 512);
    assert!(
        blank.events.is_empty() && problems.is_empty(),
        "{problems:?}"
    );
    // Small pieces are many.
    let mut batches = 0;
    read_stream_in_batches(
        "t.gz",
        &files[0].1[..],
        Holding::WhileItFits,
        first_of(2000, &reading),
        8 << 10,
        &mut |_| batches += 1,
    );
    assert!(batches > 50, "{batches} batches");
}

#[test]
fn a_streamed_dump_past_what_stays_in_memory_is_kept_in_a_temporary_file_with_the_same_events() {
    let reading = Reading::start();
    let mut lines = generated_lines(600, 13);
    lines[250] = "{\"id\": broken".to_string();
    let bytes = lines.join("\n").into_bytes();
    let (whole, whole_problems) = read_whole("t", Arc::new(Blob::Owned(bytes.clone())), None);
    let kept = |keep: keep::Keep| {
        let mut batches = Vec::new();
        let problems = stream::read_stream_keeping(
            "t",
            &bytes[..],
            keep,
            first_of(50, &reading),
            8 << 10,
            &mut |b| batches.push(b),
        );
        let mapped: Vec<bool> = batches
            .iter()
            .map(|b| matches!(b.blob(), Blob::Mapped(_)))
            .collect();
        (Read::of(batches, Vec::new()), problems, mapped)
    };
    // Files on a disk (the temporary folder may be a tmpfs, which is not used).
    // A file that cannot be written to, as on a full disk: every piece stays in memory.
    let unwritable = std::fs::File::open(tempfile::NamedTempFile::new().unwrap().path()).unwrap();
    let half = bytes.len() as u64 / 2;
    let mut firsts_in_memory = Vec::new();
    for (keep, in_file) in [
        (keep::Keep::in_file_beyond(Some(on_disk()), 0), true),
        (keep::Keep::in_file_beyond(Some(on_disk()), half), true),
        (keep::Keep::in_a_temporary_file_beyond(u64::MAX), false),
        (keep::Keep::in_file_beyond(Some(unwritable), 0), false),
        (keep::Keep::in_file_beyond(None, 0), false),
    ] {
        let (streamed, problems, mapped) = kept(keep);
        assert!(mapped.len() > 5, "{} batches", mapped.len());
        // The first piece, and those within the bytes kept in memory, stay in memory; with a
        // file, every later one is read from it.
        let in_memory = mapped.iter().take_while(|&&m| !m).count();
        assert!(in_memory >= 1, "{mapped:?}");
        assert!(mapped[in_memory..].iter().all(|&m| m), "{mapped:?}");
        assert_eq!(in_memory < mapped.len(), in_file, "{mapped:?}");
        firsts_in_memory.push(in_memory);
        assert_eq!(problems, whole_problems, "in a file: {in_file}");
        assert_eq!(streamed.events, whole.events, "in a file: {in_file}");
    }
    // Half the bytes in memory keeps more batches there than none.
    assert!(
        firsts_in_memory[1] > firsts_in_memory[0],
        "{firsts_in_memory:?}"
    );
}

/// A stream that is not line-delimited (an envelope) comes as one piece, read once it has all
/// come: past what stays in memory, its bytes go to the file as they come, and the whole is
/// read from the file, with the events and the problems (at their lines and columns) that
/// reading it whole in memory gives. When the file cannot be written, it stays in memory.
#[test]
fn an_envelope_streamed_past_what_stays_in_memory_goes_to_the_file_as_it_comes() {
    let reading = Reading::start();
    let unwritable = || {
        let named = tempfile::NamedTempFile::new().unwrap();
        std::fs::File::open(named.path()).unwrap()
    };
    // Several pages, one event a line, with a damaged event near the end.
    let pages: Vec<serde_json::Value> = [PAGE1, PAGE2]
        .iter()
        .map(|p| serde_json::from_str(p).unwrap())
        .collect();
    let mut events: Vec<String> = (0..40)
        .flat_map(|_| {
            pages
                .iter()
                .flat_map(|p| p["events"].as_array().unwrap().clone())
        })
        .map(|e| e.to_string())
        .collect();
    let damaged = events.len() - 3;
    events[damaged] = r#"{"id":"bad","data":{,"x":1}}"#.to_string();
    let envelope = format!(
        "{{\"limit\":100,\"events\":[\n{}\n]}}\n",
        events.join(",\n")
    );
    let envelope = envelope.as_bytes();
    let (whole, whole_problems) = read_whole("t", Arc::new(Blob::Owned(envelope.to_vec())), None);
    assert!(!whole.events.is_empty());
    assert_eq!(whole_problems.len(), 1, "{whole_problems:?}");
    // The file's length when the stream ends: what went to it as the bytes came.
    let file = on_disk();
    let watched = file.try_clone().unwrap();
    let mut written_before_the_end = None;
    let stream = std::io::Read::chain(
        Trickle::new(envelope, false),
        Watch(|| written_before_the_end = Some(watched.metadata().unwrap().len())),
    );
    let mut batches = Vec::new();
    let keep = keep::Keep::in_file_beyond(Some(file), 0);
    let problems = stream::read_stream_keeping(
        "t",
        stream,
        keep,
        first_of(50, &reading),
        8 << 10,
        &mut |b| batches.push(b),
    );
    assert_eq!(problems, whole_problems);
    assert_eq!(written_before_the_end, Some(envelope.len() as u64));
    let half = envelope.len() as u64 / 2;
    // The head is mapped when its bytes went to the file, and the whole is when the file kept it.
    // With half in memory, the head stays in memory: a copy of it is made in the file only when
    // the first two pieces' bytes would go there, and they are within the half. The whole goes
    // past it, to the file.
    assert!(half > 2 * (8 << 10), "{half} bytes");
    for (keep, head_in_file, in_file) in [
        (keep::Keep::in_file_beyond(Some(on_disk()), 0), true, true),
        (
            keep::Keep::in_file_beyond(Some(on_disk()), half),
            false,
            true,
        ),
        (
            keep::Keep::in_file_beyond(Some(unwritable()), 0),
            false,
            false,
        ),
        (keep::Keep::in_file_beyond(None, 0), false, false),
        (
            keep::Keep::in_a_temporary_file_beyond(u64::MAX),
            false,
            false,
        ),
    ] {
        let mut batches = Vec::new();
        let problems = stream::read_stream_keeping(
            "t",
            Trickle::new(envelope, false),
            keep,
            first_of(50, &reading),
            8 << 10,
            &mut |b| batches.push(b),
        );
        // The first events are read as the head came, the rest once it has all come: the
        // head's batches hold its bytes only, and come first.
        let case = format!("head in a file: {head_in_file}, in a file: {in_file}");
        let from_head = batches
            .iter()
            .take_while(|b| b.blob().len() < envelope.len())
            .count();
        assert!(from_head > 0, "{case}: nothing read from the head");
        let mapped = |b: &Batch| matches!(b.blob(), Blob::Mapped(_));
        let (head, rest) = batches.split_at(from_head);
        assert!(!rest.is_empty(), "{case}");
        assert!(
            rest.iter().all(|b| b.blob().len() == envelope.len()),
            "{case}"
        );
        assert!(head.iter().all(|b| mapped(b) == head_in_file), "{case}");
        assert!(rest.iter().all(|b| mapped(b) == in_file), "{case}");
        assert_eq!(problems, whole_problems, "{case}");
        assert_eq!(Read::of(batches, Vec::new()).events, whole.events);
    }
}

#[test]
fn a_dump_read_as_it_comes_through_a_pipe_gives_what_reading_it_whole_gives() {
    let reading = Reading::start();
    let mut lines = generated_lines(2000, 11);
    lines[300] = "{\"id\": broken".to_string();
    let envelope: serde_json::Value = serde_json::from_str(PAGE2).unwrap();
    lines.insert(900, serde_json::to_string_pretty(&envelope).unwrap());
    let ndjson = lines.join("\n").into_bytes();
    let whole = |bytes: &[u8]| read_whole("<stdin>", Arc::new(Blob::Owned(bytes.to_vec())), None);
    let read_pipe = |pipe: Trickle, piece_bytes: usize| {
        let mut batches = Vec::new();
        let problems = read_stream_in_batches(
            "<stdin>",
            pipe,
            Holding::WhileItFits,
            first_of(2000, &reading),
            piece_bytes,
            &mut |b| batches.push(b),
        );
        (Read::of(batches, Vec::new()), problems)
    };
    let piped = |bytes: &[u8], fail: bool, piece_bytes: usize| {
        read_pipe(Trickle::new(bytes, fail), piece_bytes)
    };
    for bytes in [&ndjson[..], PAGE1.as_bytes(), b"", b"x"] {
        let (one, one_problems) = whole(bytes);
        for piece_bytes in [700, 64 << 10] {
            let (streamed, problems) = piped(bytes, false, piece_bytes);
            assert_eq!(problems, one_problems, "pieces of {piece_bytes}");
            assert_eq!(streamed.events, one.events, "pieces of {piece_bytes}");
        }
        // A byte at a time, each read interrupted once first.
        let pipe = Trickle {
            step: 1,
            interrupt: true,
            ..Trickle::new(bytes, false)
        };
        let (streamed, problems) = read_pipe(pipe, 700);
        assert_eq!((streamed.events, problems), (one.events, one_problems));
    }
    // Small pieces are many.
    let (streamed, _) = piped(&ndjson, false, 700);
    assert!(streamed.batches > 100, "{} batches", streamed.batches);
    // A gzip'd dump through the pipe is decompressed, whatever size its reads come in.
    let (streamed, problems) = piped(&gzip(&ndjson), false, 700);
    assert_eq!((streamed.events, problems), {
        let (one, p) = whole(&ndjson);
        (one.events, p)
    });
    // A pipe that breaks keeps what came before, and says so first.
    let cut = ndjson.len() / 2;
    let (streamed, problems) = piped(&ndjson[..cut], true, 700);
    let (before, _) = whole(&ndjson[..cut]);
    assert_eq!(streamed.events, before.events);
    assert!(streamed.events.len() > 500);
    assert_eq!(
        problems[0].message,
        format!(
            "reading stopped after {cut} bytes (the pipe broke); the events before it were kept"
        )
    );
    // A pipe that fails at once.
    let (streamed, problems) = piped(b"", true, 700);
    assert!(streamed.events.is_empty());
    assert_eq!(
        problems[0].message,
        "reading stopped after 0 bytes (the pipe broke); the events before it were kept"
    );
    // A gzip'd stream whose pipe fails is not said to be damaged gzip.
    let gz = gzip(&ndjson);
    let (_, problems) = piped(&gz[..gz.len() / 2], true, 700);
    assert!(
        problems[0].message.starts_with("reading stopped after "),
        "{problems:?}"
    );
}

/// A reader that gives its bytes, then, before saying they have ended, waits (a minute at most)
/// until told that events were handed over, and notes whether they were.
struct HoldsItsEnd<'a> {
    bytes: &'a [u8],
    handed: &'a (std::sync::Mutex<bool>, std::sync::Condvar),
    handed_before_the_end: &'a std::sync::atomic::AtomicBool,
}

impl std::io::Read for HoldsItsEnd<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.bytes.is_empty() {
            let (lock, told) = self.handed;
            let wait = std::time::Duration::from_secs(60);
            let handed = told.wait_timeout_while(lock.lock().unwrap(), wait, |h| !*h);
            let handed = *handed.unwrap().0;
            self.handed_before_the_end
                .store(handed, std::sync::atomic::Ordering::SeqCst);
            return Ok(0);
        }
        let n = out.len().min(self.bytes.len()).min(1000);
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// An envelope (as the explorer's save writes it) that comes through a pipe: its first events are
/// handed over before it has all come, and in all the events and the problems of reading it
/// whole, each said once (an item that is not an event among the first too).
#[test]
fn an_envelope_coming_through_a_pipe_hands_its_first_events_over_before_it_has_all_come() {
    let reading = Reading::start();
    let mut events: Vec<String> = generated_lines(300, 17);
    events[2] = r#"{"x":1}"#.to_string();
    events[250] = r#"{"id":"bad","data":{,"x":1}}"#.to_string();
    let envelope = format!(
        "{{\"limit\":300,\"events\":[\n{}\n]}}\n",
        events.join(",\n")
    );
    let envelope = envelope.as_bytes();
    let (whole, whole_problems) = read_whole("t", Arc::new(Blob::Owned(envelope.to_vec())), None);
    assert_eq!(whole_problems.len(), 2, "{whole_problems:?}");
    for (keep, in_file) in [
        (keep::Keep::in_file_beyond(Some(on_disk()), 0), true),
        (keep::Keep::in_a_temporary_file_beyond(u64::MAX), false),
    ] {
        let handed = (std::sync::Mutex::new(false), std::sync::Condvar::new());
        let before_the_end = std::sync::atomic::AtomicBool::new(false);
        let pipe = HoldsItsEnd {
            bytes: envelope,
            handed: &handed,
            handed_before_the_end: &before_the_end,
        };
        let mut batches = Vec::new();
        let problems = stream::read_stream_keeping(
            "t",
            pipe,
            keep,
            first_of(50, &reading),
            8 << 10,
            &mut |b| {
                batches.push(b);
                *handed.0.lock().unwrap() = true;
                handed.1.notify_all();
            },
        );
        let case = format!("in a file: {in_file}");
        assert!(
            before_the_end.into_inner(),
            "{case}: nothing handed over before the end"
        );
        assert_eq!(problems, whole_problems, "{case}");
        let read = Read::of(batches, Vec::new());
        assert_eq!(read.events, whole.events, "{case}");
        assert_eq!(read.duplicates, 0, "{case}");
    }
}
