//! The ranks of the rows under a key of the list's order (the type, the code, the room...), and
//! the counting sort of a time order by them.

use rayon::prelude::*;

use super::SortKey;
use crate::insight::Kinds;
use crate::store::{Row, Store, Sym};

/// Below this many rows, ranks are read and sorted on one thread.
const PARALLEL_FROM: usize = 100_000;

/// Each row's rank under a key: rows of equal rank have the same value, lower ranks come first.
#[derive(Debug, Clone)]
pub(super) struct Ranks {
    pub(super) key: SortKey,
    /// By row.
    of_row: Vec<u32>,
    /// How many ranks there are: every rank is below it.
    count: usize,
}

impl Ranks {
    /// The ranks of every row of `store` under `key`.
    pub(super) fn of(store: &Store, key: SortKey) -> Ranks {
        let (of_row, count) = ranks(store, key);
        Ranks { key, of_row, count }
    }

    /// Row `i`'s rank.
    #[cfg(test)]
    pub(super) fn rank(&self, i: u32) -> u32 {
        self.of_row[i as usize]
    }

    /// How many rows (the first of the store) they rank.
    pub(super) fn rows(&self) -> usize {
        self.of_row.len()
    }

    /// `timed` (rows, each once) sorted by rank into `out`, keeping the order of `timed` within
    /// each rank: a counting sort, cut into a slice of `timed` per thread when it is long. Each
    /// slice counts its rows of each rank, and then writes them into its own places among those
    /// of the rank: after the earlier slices' rows of that rank.
    pub(super) fn sort(&self, timed: &[u32], out: &mut Vec<u32>) {
        let parts = if timed.len() < PARALLEL_FROM {
            1
        } else {
            rayon::current_num_threads().max(1)
        };
        self.sort_in(timed, out, parts);
    }

    fn sort_in(&self, timed: &[u32], out: &mut Vec<u32>, parts: usize) {
        out.clear();
        out.resize(timed.len(), 0);
        if timed.is_empty() {
            return;
        }
        let step = timed.len().div_ceil(parts.max(1));
        let slices: Vec<&[u32]> = timed.chunks(step).collect();
        let ranks = &self.of_row;
        let counts: Vec<Vec<usize>> = slices
            .par_iter()
            .map(|slice| {
                let mut counts = vec![0usize; self.count];
                for &i in *slice {
                    counts[ranks[i as usize] as usize] += 1;
                }
                counts
            })
            .collect();
        // The places of each slice's rows of each rank: rank after rank, and within a rank,
        // slice after slice.
        let mut places: Vec<Vec<&mut [u32]>> = (0..slices.len())
            .map(|_| Vec::with_capacity(self.count))
            .collect();
        let mut rest = &mut out[..];
        for rank in 0..self.count {
            for (slice, counts) in counts.iter().enumerate() {
                let (these, more) = rest.split_at_mut(counts[rank]);
                places[slice].push(these);
                rest = more;
            }
        }
        slices
            .into_par_iter()
            .zip(places)
            .for_each(|(slice, mut places)| {
                let mut next = vec![0usize; places.len()];
                for &i in slice {
                    let rank = ranks[i as usize] as usize;
                    places[rank][next[rank]] = i;
                    next[rank] += 1;
                }
            });
    }
}

/// Each row's rank under `key` (rows of equal rank have the same value), and how many ranks
/// there are. Absent values rank last.
fn ranks(store: &Store, key: SortKey) -> (Vec<u32>, usize) {
    let rows = store.rows();
    match key {
        SortKey::Time => (vec![0; rows.len()], 1),
        SortKey::Status => (
            rows.par_iter()
                .with_min_len(PARALLEL_FROM)
                .map(|r| match r.is_terminal() {
                    Some(true) => 0,
                    Some(false) => 1,
                    None => 2,
                })
                .collect(),
            3,
        ),
        SortKey::Code => {
            let mut codes: Vec<i64> = rows
                .par_iter()
                .with_min_len(PARALLEL_FROM)
                .filter_map(Row::error_code)
                .collect();
            codes.par_sort_unstable();
            codes.dedup();
            let absent = codes.len() as u32;
            let ranks = rows
                .par_iter()
                .with_min_len(PARALLEL_FROM)
                .map(|r| {
                    r.error_code()
                        .and_then(|c| codes.binary_search(&c).ok())
                        .map_or(absent, |k| k as u32)
                })
                .collect();
            (ranks, codes.len() + 1)
        }
        SortKey::Type => {
            let kinds = Kinds::of(store);
            // The five types in their keys' order, then the others by name.
            by_text(
                store,
                rows,
                |r| r.kind,
                |s| (kinds.slot(s), store.str(s).to_string()),
            )
        }
        // By the room's id, which every event of a room holds (a connect failure has no
        // name), so that a room's events stay together; by its name where it has no id. As
        // written: two ids that differ in case are two rooms, whose events must not mix.
        SortKey::Room => by_text(
            store,
            rows,
            |r| {
                if r.room_id.is_none() {
                    r.room_name
                } else {
                    r.room_id
                }
            },
            |s| store.str(s).to_string(),
        ),
        SortKey::User => by_text(store, rows, |r| r.user_name, |s| folded(store.str(s))),
        SortKey::Sdk => {
            // The SDK and its version, as one value, ranked once for each distinct agent; each
            // row then reads its agent's rank, as the facets count rows by agent.
            let by_agent = sdk_ranks_of_agents(store);
            let none = by_agent.first().copied().unwrap_or(0);
            let ranks = rows
                .par_iter()
                .with_min_len(PARALLEL_FROM)
                // An agent past the table reads as none (see `Agents::get`).
                .map(|r| by_agent.get(r.agent.index()).copied().unwrap_or(none))
                .collect();
            let count = by_agent.iter().max().map_or(1, |&m| m as usize + 1);
            (ranks, count)
        }
    }
}

/// A value as it sorts, absent after every present one.
type Last<T> = (bool, Option<T>);

fn last<T>(value: Option<T>) -> Last<T> {
    (value.is_none(), value)
}

/// The rank of each of the store's agents (by number, the absent agent first) under the SDK
/// key: by the SDK ignoring case, then by the version's numbers, absent values last; agents
/// of equal values share a rank.
fn sdk_ranks_of_agents(store: &Store) -> Vec<u32> {
    let text = |s: Sym| (!s.is_none()).then(|| store.str(s));
    type Key = (Last<String>, Last<Vec<(u64, String)>>);
    let mut keyed: Vec<(Key, u32)> = store
        .agents()
        .agents_from(0)
        .enumerate()
        .map(|(k, a)| {
            let sdk = last(text(a.sdk).map(folded));
            let version = last(text(a.sdk_version).map(version_parts));
            ((sdk, version), k as u32)
        })
        .collect();
    keyed.sort_unstable();
    let mut rank_of = vec![0u32; keyed.len()];
    let mut rank = 0u32;
    for k in 0..keyed.len() {
        if k > 0 && keyed[k - 1].0 != keyed[k].0 {
            rank += 1;
        }
        rank_of[keyed[k].1 as usize] = rank;
    }
    rank_of
}

/// Ranks by a value of a symbol each row holds, in the order of `key` of the symbols (symbols
/// of equal keys share a rank); the absent symbol ranks last.
fn by_text<K: Ord>(
    store: &Store,
    rows: &[Row],
    of: impl Fn(&Row) -> Sym + Sync,
    key: impl Fn(Sym) -> K,
) -> (Vec<u32>, usize) {
    // The rows are wide: each is read once, on every thread, for its symbol; the ranks are then
    // read off the symbols.
    let syms: Vec<u32> = rows
        .par_iter()
        .with_min_len(PARALLEL_FROM)
        .map(|r| of(r).0)
        .collect();
    let mut used = vec![false; store.strings().len().max(1)];
    for &s in &syms {
        used[s as usize] = true;
    }
    let mut keyed: Vec<(K, Sym)> = (1..used.len())
        .filter(|&s| used[s])
        .map(|s| (key(Sym(s as u32)), Sym(s as u32)))
        .collect();
    keyed.sort();
    let mut rank_of = vec![u32::MAX; used.len()];
    let mut count = 0u32;
    for k in 0..keyed.len() {
        if k > 0 && keyed[k - 1].0 != keyed[k].0 {
            count += 1;
        }
        rank_of[keyed[k].1.0 as usize] = count;
    }
    let count = if keyed.is_empty() { 0 } else { count + 1 };
    rank_of[0] = count;
    // The symbols become their ranks in place: a list as long again, fresh, would cost a page
    // fault per 4 KiB.
    let mut ranks = syms;
    ranks
        .par_iter_mut()
        .with_min_len(PARALLEL_FROM)
        .for_each(|s| *s = rank_of[*s as usize]);
    (ranks, count as usize + 1)
}

/// A text as it sorts: ignoring case.
fn folded(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// A version as it sorts: by its numbers (`0.9.1` before `0.12.3`), then the text after each.
pub(super) fn version_parts(s: &str) -> Vec<(u64, String)> {
    s.split('.')
        .map(|p| {
            let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
            (
                digits.parse().unwrap_or(u64::MAX),
                p[digits.len()..].to_string(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counting_sort_cut_into_slices_keeps_the_order_within_each_rank() {
        let s = crate::insight::testing::generated(2_000, 3);
        // Rows in an order of their own, as a time order would be.
        let timed: Vec<u32> = (0..s.len() as u32)
            .map(|i| (i * 7) % s.len() as u32)
            .collect();
        for key in [SortKey::Type, SortKey::Code, SortKey::Room, SortKey::Sdk] {
            let ranks = Ranks::of(&s, key);
            let mut expected = timed.clone();
            expected.sort_by_key(|&i| ranks.rank(i));
            for parts in [1, 2, 3, 8, 5_000] {
                let mut out = vec![9; 3];
                ranks.sort_in(&timed, &mut out, parts);
                assert_eq!(out, expected, "{key:?} in {parts} slices");
            }
        }
    }
}
