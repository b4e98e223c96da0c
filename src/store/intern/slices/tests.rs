use super::*;
use crate::store::Sym;

#[test]
fn each_distinct_slice_is_numbered_once_and_read_back_whole() {
    let mut sets: Slices<Sym> = Slices::default();
    let a = sets.intern(&[Sym(1), Sym(4)]);
    let b = sets.intern(&[Sym(1), Sym(4), Sym(9)]);
    let c = sets.intern(&[Sym(4)]);
    assert_eq!(sets.intern(&[Sym(1), Sym(4)]), a);
    assert_eq!(sets.find(&[Sym(1), Sym(4), Sym(9)]), Some(b));
    assert_eq!(sets.find(&[Sym(9)]), None);
    assert_eq!((a, b, c), (1, 2, 3));
    assert_eq!(sets.len(), 4);
    assert_eq!(sets.get(0), &[] as &[Sym]);
    assert_eq!(sets.get(b), &[Sym(1), Sym(4), Sym(9)]);
    assert_eq!(sets.get(c), &[Sym(4)]);
    assert_eq!(sets.get(99), &[] as &[Sym]);
    let from_two: Vec<&[Sym]> = sets.from(2).collect();
    assert_eq!(from_two, [&[Sym(1), Sym(4), Sym(9)][..], &[Sym(4)][..]]);
    // Slice 0 is not found: an empty slice interned is a slice of its own.
    assert_eq!(sets.find(&[]), None);
    assert_eq!(sets.intern(&[]), 4);
    assert_eq!(sets.get(4), &[] as &[Sym]);
}

#[test]
fn bytes_of_every_length_up_to_forty_compare_equal_only_to_themselves() {
    let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
    for n in 0..=40 {
        let a = &base[..n];
        assert!(u8::same(a, a));
        assert!(!u8::same(a, &base[..n.saturating_sub(1)]) || n == 0);
        for k in 0..n {
            let mut b = a.to_vec();
            b[k] ^= 0x20;
            assert!(!u8::same(a, &b), "{n} {k}");
        }
    }
}

#[test]
fn interning_all_of_another_gives_the_numbers_one_by_one_would() {
    let words = |range: std::ops::Range<u32>| -> Vec<String> {
        range
            .map(|n| format!("word-{}", n * 7919 % 10_007))
            .collect()
    };
    // A table that already holds some of them, and grows to take the rest.
    let mut all: Slices<u8> = Slices::default();
    let mut one_by_one: Slices<u8> = Slices::default();
    for w in words(0..300) {
        all.intern(w.as_bytes());
        one_by_one.intern(w.as_bytes());
    }
    let mut other: Slices<u8> = Slices::default();
    let mut theirs = words(200..5_000);
    theirs.push(String::new());
    theirs.push("x".repeat(100));
    for w in &theirs {
        other.intern(w.as_bytes());
    }
    let numbers = all.intern_all_from(&other, 1);
    let expected: Vec<u32> = theirs
        .iter()
        .map(|w| one_by_one.intern(w.as_bytes()))
        .collect();
    assert_eq!(numbers, expected);
    assert_eq!(all.len(), one_by_one.len());
    for (w, n) in theirs.iter().zip(&numbers) {
        assert_eq!(all.get(*n), w.as_bytes());
        assert_eq!(all.find(w.as_bytes()), Some(*n));
    }
    // From a later number on: only those.
    assert_eq!(all.intern_all_from(&other, 4_000), &expected[3_999..]);
    assert_eq!(all.len(), one_by_one.len());
}

#[test]
fn long_slices_of_one_item_are_told_apart_by_their_length_and_read_back_whole() {
    let of_length = |n: usize| vec![b'a'; n];
    let lengths = [(1 << 24) + 5, 1 << 24, (1 << 24) - 1, 300];
    let mut s: Slices<u8> = Slices::default();
    let a = s.intern(b"before");
    let numbers = lengths.map(|n| s.intern(&of_length(n)));
    let b = s.intern(b"after");
    for (n, k) in lengths.iter().zip(numbers) {
        assert_eq!(s.get(k), &of_length(*n)[..]);
        assert_eq!(s.find(&of_length(*n)), Some(k));
    }
    assert_eq!((s.get(a), s.get(b)), (&b"before"[..], &b"after"[..]));
    assert_eq!(s.find(&of_length((1 << 24) + 4)), None);
}

/// Items whose hash is the same whatever they hold: slices of one length all look from
/// the same slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Colliding(u16);

impl Hash for Colliding {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Item for Colliding {}

#[test]
fn slices_of_the_same_hash_are_told_apart_by_their_items() {
    // 3,000 slices make a table of 8,192 slots. Of one length, they all look from one
    // slot; a length whose slot is among the last 3,000 makes their run wrap past the end.
    let length = (1..64)
        .find(|&len| {
            let home = Table::home(Hashed::of(&vec![Colliding(0); len]), 8_192);
            home + 3_000 > 8_192
        })
        .expect("a length whose slot is near the end");
    let slice = |n: u16| {
        let mut items = vec![Colliding(0); length];
        items[0] = Colliding(n);
        items[length - 1] = Colliding(n / 3);
        items
    };
    let mut s: Slices<Colliding> = Slices::default();
    let numbers: Vec<u32> = (0..3_000).map(|n| s.intern(&slice(n))).collect();
    assert_eq!(s.table.slots.len(), 8_192);
    for (n, k) in (0..3_000).zip(&numbers) {
        assert_eq!(s.get(*k), slice(n));
        assert_eq!(s.find(&slice(n)), Some(*k));
        assert_eq!(s.intern(&slice(n)), *k);
    }
    assert_eq!(s.find(&slice(3_000)), None);
    assert_eq!(s.len(), 3_001);
    // Merged into a table that holds some of them, each keeps its own number there.
    let mut other: Slices<Colliding> = Slices::default();
    for n in (1_000..4_000).rev() {
        other.intern(&slice(n));
    }
    let merged = s.intern_all_from(&other, 1);
    for (n, k) in (1_000..4_000).rev().zip(&merged) {
        assert_eq!(s.get(*k), slice(n));
        if n < 3_000 {
            assert_eq!(*k, numbers[n as usize]);
        }
    }
    assert_eq!(s.len(), 4_001);
}

#[test]
fn interning_all_of_an_empty_one_or_into_an_empty_one() {
    let empty: Slices<u8> = Slices::default();
    let mut s: Slices<u8> = Slices::default();
    assert!(s.intern_all_from(&empty, 1).is_empty());
    assert!(s.intern_all_from(&empty, 0).is_empty());
    let mut other: Slices<u8> = Slices::default();
    for w in ["a", "", "b"] {
        other.intern(w.as_bytes());
    }
    assert_eq!(s.intern_all_from(&other, 0), [1, 2, 3]);
    assert_eq!(s.intern_all_from(&other, 1), [1, 2, 3]);
    assert_eq!(s.find(b""), Some(2));
    assert_eq!(s.len(), 4);
}

#[test]
fn many_slices_survive_the_table_growing() {
    let mut s: Slices<u8> = Slices::default();
    let numbers: Vec<u32> = (0..20_000)
        .map(|n| s.intern(n.to_string().as_bytes()))
        .collect();
    for (n, k) in numbers.iter().enumerate() {
        assert_eq!(s.get(*k), n.to_string().as_bytes());
        assert_eq!(s.find(n.to_string().as_bytes()), Some(*k));
    }
    assert_eq!(s.len(), 20_001);
    // Sets whose symbols differ only in their high bits, as in a store of many strings.
    let mut sets: Slices<Sym> = Slices::default();
    let set = |n: u32| [Sym(7), Sym(n << 12)];
    let numbers: Vec<u32> = (0..20_000).map(|n| sets.intern(&set(n))).collect();
    for (n, k) in (0..20_000).zip(&numbers) {
        assert_eq!(sets.get(*k), set(n));
        assert_eq!(sets.find(&set(n)), Some(*k));
    }
    assert_eq!(sets.len(), 20_001);
}

#[test]
fn cleared_slices_number_anew_from_one_and_find_none_of_the_old() {
    let mut s: Slices<u8> = Slices::default();
    for n in 0..5_000 {
        s.intern(n.to_string().as_bytes());
    }
    let slots = s.table.slots.len();
    s.clear();
    assert_eq!((s.len(), s.table.len), (1, 0));
    assert_eq!(s.get(0), b"");
    assert_eq!(s.find(b"17"), None);
    assert_eq!(s.intern(b"new"), 1);
    assert_eq!(s.intern(b"17"), 2);
    assert_eq!(s.intern(b"new"), 1);
    assert_eq!(
        (s.get(1), s.get(2), s.get(3)),
        (&b"new"[..], &b"17"[..], &b""[..])
    );
    // As many again fit in the table as before, without it growing.
    for n in 0..4_998 {
        s.intern(format!("again {n}").as_bytes());
    }
    assert_eq!(s.table.slots.len(), slots);
}

#[test]
fn the_table_takes_slices_while_the_next_one_is_made_ready_and_keeps_every_one() {
    let mut s: Slices<u8> = Slices::default();
    let word = |n: u32| format!("word {n}");
    let mut numbers = Vec::new();
    // Up to a table of 4,096 slots, grown to at once or made ready in a few lookups.
    while s.table.slots.len() < 4_096 {
        numbers.push(s.intern(word(numbers.len() as u32).as_bytes()));
    }
    let size = s.table.slots.len();
    // Interned until the next table is being made ready: past five eighths full.
    while s.table.next.is_empty() {
        numbers.push(s.intern(word(numbers.len() as u32).as_bytes()));
    }
    assert!(s.table.len * 8 > size * 5);
    assert!(s.table.next.len() < 2 * size, "made ready a part at a time");
    // It takes slices (and finds them) until the next one is ready, never three quarters
    // full; known slices looked up bring that time closer too.
    let mut lookups = 0;
    while s.table.slots.len() == size {
        let n = numbers.len() as u32;
        if n.is_multiple_of(2) {
            numbers.push(s.intern(word(n).as_bytes()));
            lookups += 1;
        } else {
            assert_eq!(s.intern(word(n / 2).as_bytes()), numbers[n as usize / 2]);
            numbers.push(s.intern(word(n).as_bytes()));
            lookups += 2;
        }
        assert!(s.table.len * 4 <= s.table.slots.len() * 3);
        for (k, &m) in numbers.iter().enumerate().step_by(97) {
            assert_eq!(s.find(word(k as u32).as_bytes()), Some(m), "{k}");
        }
    }
    assert!(lookups >= 2 * size / PREPARED_PER_LOOKUP - 2, "{lookups}");
    assert_eq!(s.table.slots.len(), 2 * size);
    assert!(s.table.next.is_empty());
    assert_eq!(s.table.old.len(), size);
    // Every slice keeps its number and its items, in the new table and the one before.
    for (k, &m) in numbers.iter().enumerate() {
        assert_eq!(s.get(m), word(k as u32).as_bytes());
        assert_eq!(s.find(word(k as u32).as_bytes()), Some(m), "{k}");
    }
    assert_eq!(s.len(), numbers.len() + 1);
}

#[test]
fn a_table_three_quarters_full_grows_at_once() {
    let mut s: Slices<u8> = Slices::default();
    for n in 0..1_000 {
        s.intern(n.to_string().as_bytes());
    }
    let size = s.table.slots.len();
    // Grown (as `reserve` is asked to) past five eighths of the table, then past three
    // quarters, before the next table is ready: then it is made ready whole.
    s.table.grow(size * 5 / 8 + 1);
    assert!(!s.table.next.is_empty() && s.table.slots.len() == size);
    s.table.grow(size * 3 / 4 + 1);
    assert!(s.table.next.is_empty());
    assert_eq!(s.table.slots.len(), 2 * size);
    for n in 0..1_000 {
        assert_eq!(
            s.get(s.find(n.to_string().as_bytes()).unwrap()),
            n.to_string().as_bytes()
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 64,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Whatever slices come, one by one or merged from another table, and however the table
    /// grows meanwhile, each gets the number a plain map gives it (the next one the first
    /// time it is seen) and reads back whole.
    #[test]
    fn numbers_are_those_of_a_plain_map_through_every_growth(
        words in proptest::collection::vec((0u32..3_000, 0usize..40), 1..6_000),
        merged_at in 0usize..6_000,
    ) {
        let word = |(n, len): (u32, usize)| {
            let mut w = format!("{n}:").into_bytes();
            w.resize(w.len() + len, b'a' + (n % 26) as u8);
            w
        };
        let words: Vec<Vec<u8>> = words.into_iter().map(word).collect();
        let (one_by_one, merged) = words.split_at(merged_at.min(words.len()));
        let mut s: Slices<u8> = Slices::default();
        let mut plain: std::collections::HashMap<Vec<u8>, u32> = Default::default();
        let number = |plain: &mut std::collections::HashMap<Vec<u8>, u32>, w: &[u8]| {
            let next = plain.len() as u32 + 1;
            *plain.entry(w.to_vec()).or_insert(next)
        };
        for w in one_by_one {
            proptest::prop_assert_eq!(s.intern(w), number(&mut plain, w));
            proptest::prop_assert!(s.table.len * 4 <= s.table.slots.len() * 3);
        }
        let mut other: Slices<u8> = Slices::default();
        for w in merged {
            other.intern(w);
        }
        let numbers = s.intern_all_from(&other, 1);
        let theirs: Vec<&[u8]> = other.from(1).collect();
        for (w, n) in theirs.iter().zip(&numbers) {
            proptest::prop_assert_eq!(*n, number(&mut plain, w));
        }
        proptest::prop_assert_eq!(s.len(), plain.len() + 1);
        for (w, &n) in &plain {
            proptest::prop_assert_eq!(s.get(n), &w[..]);
            proptest::prop_assert_eq!(s.find(w), Some(n));
        }
    }
}

#[test]
fn slices_not_yet_moved_out_of_the_table_before_are_still_found() {
    let mut s: Slices<u8> = Slices::default();
    let word = |n: u32| format!("w{n}");
    // 16 slots take 10 slices; the 11th grows the table, and moves only part of it.
    let numbers: Vec<u32> = (0..11).map(|n| s.intern(word(n).as_bytes())).collect();
    assert_eq!(s.table.slots.len(), 32);
    assert!(s.table.moved > 0 && s.table.moved < s.table.old.len());
    for (n, &k) in (0..11).zip(&numbers) {
        assert_eq!(s.find(word(n).as_bytes()), Some(k), "{n}");
    }
    assert!(!s.table.old.is_empty(), "finding moves nothing");
    for (n, &k) in (0..11).zip(&numbers) {
        assert_eq!(s.intern(word(n).as_bytes()), k, "{n}");
    }
    assert_eq!(s.len(), 12);
    // Merged in from another, known ones keep their numbers and new ones are added.
    let mut other: Slices<u8> = Slices::default();
    for n in (5..13).rev() {
        other.intern(word(n).as_bytes());
    }
    let merged = s.intern_all_from(&other, 1);
    for (n, &k) in (5..13).rev().zip(&merged) {
        assert_eq!(s.get(k), word(n).as_bytes());
        if n < 11 {
            assert_eq!(k, numbers[n as usize]);
        }
    }
    // Once every slot is moved, the table before is gone and every slice still found.
    assert!(s.table.old.is_empty());
    for n in 0..13 {
        assert_eq!(
            s.get(s.find(word(n).as_bytes()).unwrap()),
            word(n).as_bytes()
        );
    }
}
