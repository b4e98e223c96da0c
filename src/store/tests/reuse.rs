//! Buffers reused: a batch built on an earlier one's buffers is the batch built afresh, and a
//! reading keeps its merged batches' buffers while it lasts.

use super::*;

#[test]
fn a_batch_built_on_the_buffers_of_an_earlier_one_is_the_batch_built_afresh() {
    // The earlier batch leaves strings, sets, rows, ids, remembered agents and values, decoded
    // agent strings and texts of others in the buffers, and the trials of texts and agents given
    // up (its keys come in a new order in each event); the later one shares some of its strings.
    let earlier = with_long_values(shuffled_lines(1_500, 5)).join("\n") + "\n";
    let used = filled(BatchBuilder::new(blob_of(&earlier)), &earlier);
    let lines = with_long_values(generated_and_odd(300, 6));
    let later = lines.join("\n") + "\n";
    let reused = filled(used.then(blob_of(&later)), &later).finish();
    let fresh = filled(BatchBuilder::new(blob_of(&later)), &later).finish();
    assert!(fresh.trials.remembered.0 > 0 && fresh.trials.remembered.1 > 0);
    assert!(fresh.trials.texts_looked_up);
    assert_eq!(reused.trials.remembered, fresh.trials.remembered);
    assert_eq!(reused.trials.texts_looked_up, fresh.trials.texts_looked_up);
    assert_eq!(format!("{:?}", reused.rows), format!("{:?}", fresh.rows));
    assert_eq!(reused.ids, fresh.ids);
    let strings = |b: &Batch| {
        (0..b.strings.len() as u32)
            .map(|n| b.strings.get(Sym(n)).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(strings(&reused), strings(&fresh));
    let sets = |b: &Batch| b.sets.sets_from(0).map(<[Sym]>::to_vec).collect::<Vec<_>>();
    assert_eq!(sets(&reused), sets(&fresh));
    let mut store = Store::new();
    store.merge(reused);
    assert_search_is_exact(&store, &needles_of(&lines));
}

#[test]
fn a_reading_keeps_the_buffers_of_its_merged_batches_for_its_next_builders_while_it_lasts() {
    let text = generated_lines(400, 9).join("\n") + "\n";
    let blob = blob_of(&text);
    let reading = Reading::start();
    // Two builders at once, as on two reading threads.
    let (one, two) = (
        reading.builder(Arc::clone(&blob)),
        reading.builder(Arc::clone(&blob)),
    );
    let first = filled(one, &text).finish();
    let second = filled(two, &text).finish();
    assert_eq!(reading.kept(), (0, 2), "each finished builder's tables");
    assert!(first.reading().is_some());
    assert_eq!(first.reading(), second.reading());
    let mut store = Store::new();
    store.merge(first);
    assert_eq!(reading.kept(), (1, 2), "the merged batch's buffers");
    // The next builder takes one of each, and the batch it makes is read as a fresh one.
    let third = filled(reading.builder(Arc::clone(&blob)), &text).finish();
    assert_eq!(reading.kept(), (0, 2));
    let fresh = batch(&text);
    assert_eq!(format!("{:?}", third.rows), format!("{:?}", fresh.rows));
    // A batch built once has no reading, and keeps nothing once merged.
    assert_eq!(fresh.reading(), None);
    store.merge(fresh);
    assert_eq!(reading.kept(), (0, 2));
    // Once told that no more builders come, it keeps nothing more, until one is made.
    let fourth = filled(reading.builder(Arc::clone(&blob)), &text).finish();
    let fifth = filled(reading.builder(Arc::clone(&blob)), &text).finish();
    reading.no_more_builders();
    assert_eq!(reading.kept(), (0, 0));
    store.merge(fourth);
    assert_eq!(
        reading.kept(),
        (0, 0),
        "a batch merged after gives its buffers back"
    );
    let sixth = reading.builder(Arc::clone(&blob));
    store.merge(fifth);
    assert_eq!(reading.kept(), (1, 0), "kept again once a builder is made");
    let sixth = filled(sixth, &text).finish();
    assert_eq!(
        format!("{:?}", sixth.rows),
        format!("{:?}", batch(&text).rows)
    );
    assert_eq!(reading.kept(), (1, 1));
    // Once the reading ends, its batches merged later give their buffers back to the system.
    drop(reading);
    assert_eq!(second.reading(), None);
    store.merge(second);
    store.merge(third);
    store.merge(sixth);
    assert_eq!(store.len(), 400);
}

/// `lines`, then as many events again, but no more than 300, each with a long value of its
/// own: enough to end a batch's trial of long values.
fn with_long_values(mut lines: Vec<String>) -> Vec<String> {
    let len = lines.len();
    lines.extend((0..len.min(300)).map(|k| {
        format!(
            r#"{{"id":"long-{k}-{len}","data":{{"stack":"trace {k} of {len} {}"}}}}"#,
            "at frame ".repeat(40)
        )
    }));
    lines
}

#[test]
fn the_earlier_batch_of_the_reuse_test_gives_up_its_trials() {
    let earlier = with_long_values(shuffled_lines(1_500, 5)).join("\n") + "\n";
    let b = batch(&earlier);
    // Its long values never repeat.
    assert!(!b.trials.long_values_kept);
    // Texts of other values and agents, their keys in a new order each time, seldom repeat:
    // both trials gave up, and the memo of agents keeps those of its trial (512 looked for),
    // not one for each of the 1,500 events. Nested values of a few keys take one of a few
    // orders, and still repeat often enough to be remembered.
    assert!(!b.trials.texts_looked_up);
    assert!(b.trials.memos_off.0);
    assert!(b.trials.remembered.0 <= 512, "{:?}", b.trials.remembered);
}
