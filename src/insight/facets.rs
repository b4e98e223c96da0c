//! The most common values of the agent and role fields among the shown events, so that "every
//! failure is on android 2.9.54" is visible at a glance.

use super::keys::Index;
use super::{GroupValue, in_slices, parts_for};
use crate::insight::GroupKey;
use crate::store::{Store, Sym};

/// The facets, in display order: SDK and version, OS and version, device model, role, domain, env.
pub const FACET_KEYS: [GroupKey; 6] = [
    GroupKey::Sdk,
    GroupKey::Os,
    GroupKey::Device,
    GroupKey::Role,
    GroupKey::Domain,
    GroupKey::Env,
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facet {
    pub key: GroupKey,
    /// The most common values, largest count first (ties by value); an absent field is a value
    /// too, labelled `(none)`.
    pub top: Vec<(GroupValue, u32)>,
    /// How many distinct values the shown events hold.
    pub distinct: usize,
    /// How many events were counted: every shown one.
    pub total: u32,
}

impl Facet {
    /// The share of the shown events that value `k` of `top` holds, 0.0 to 1.0.
    pub fn share(&self, k: usize) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            f64::from(self.top[k].1) / f64::from(self.total)
        }
    }
}

/// The top `k` values of each of [`FACET_KEYS`] among the shown events.
pub fn facets(store: &Store, shown: &[u32], k: usize) -> Vec<Facet> {
    let counts = counted(store, shown, parts_for(shown.len()));
    top(store, counts, shown.len(), k)
}

/// The top `k` of each facet's counted values (see [`counted`]) among `total` events.
fn top(store: &Store, counts: Vec<Vec<(GroupValue, u32)>>, total: usize, k: usize) -> Vec<Facet> {
    FACET_KEYS
        .iter()
        .zip(counts)
        .map(|(&key, mut all)| {
            let distinct = all.len();
            all.sort_unstable_by(|a, b| {
                b.1.cmp(&a.1)
                    .then_with(|| a.0.label(store, key).cmp(&b.0.label(store, key)))
                    .then(a.0.cmp(&b.0))
            });
            all.truncate(k);
            Facet {
                key,
                top: all,
                distinct,
                total: total as u32,
            }
        })
        .collect()
}

/// Each of [`FACET_KEYS`]'s values among the shown events, with how many hold it: counted in
/// `parts` slices, each on a thread of its own, then summed by value (a group's events are rows
/// all over the store, and the cores wait on memory side by side).
fn counted(store: &Store, shown: &[u32], parts: usize) -> Vec<Vec<(GroupValue, u32)>> {
    let mut slices = in_slices(shown, parts, |slice| count(store, slice));
    if slices.len() == 1 {
        return slices.pop().expect("one slice");
    }
    (0..FACET_KEYS.len())
        .map(|f| {
            let mut all: Vec<(GroupValue, u32)> =
                slices.iter().flat_map(|c| c[f].iter().copied()).collect();
            all.sort_unstable_by_key(|&(value, _)| value);
            let mut summed: Vec<(GroupValue, u32)> = Vec::with_capacity(all.len());
            for (value, n) in all {
                match summed.last_mut() {
                    Some((last, sum)) if *last == value => *sum += n,
                    _ => summed.push((value, n)),
                }
            }
            summed
        })
        .collect()
}

/// [`counted`] on this thread. Four of the six facets are fields of the event's agent, which
/// events share by the thousand: the events are counted by agent, by role and by domain (three
/// counts a row, where a value of each facet took a look-up), and the agents' counts are then
/// summed by each agent facet's value.
fn count(store: &Store, shown: &[u32]) -> Vec<Vec<(GroupValue, u32)>> {
    let rows = store.rows();
    let symbols = store.strings().len();
    let agents = store.agents();
    let mut by_agent = vec![0u32; agents.len()];
    let mut roles = BySymbol::new(symbols);
    let mut domains = BySymbol::new(symbols);
    let known = by_agent.len();
    for &i in shown {
        let row = &rows[i as usize];
        // An agent past the table reads as none (see `Agents::get`); agent 0 is none.
        let agent = row.agent.index();
        by_agent[if agent < known { agent } else { 0 }] += 1;
        roles.add(row.role);
        domains.add(row.domain);
    }
    FACET_KEYS
        .iter()
        .map(|&key| match key {
            GroupKey::Role => roles.counts(),
            GroupKey::Domain => domains.counts(),
            _ => {
                let mut index = Index::new(key, symbols);
                let mut counts: Vec<(GroupValue, u32)> = Vec::new();
                for (agent, &n) in agents.agents_from(0).zip(&by_agent) {
                    let Some(value) = key.agent_value(agent).filter(|_| n > 0) else {
                        continue;
                    };
                    let k = index.get_or_insert(value, counts.len() as u32) as usize;
                    if k == counts.len() {
                        counts.push((value, 0));
                    }
                    counts[k].1 += n;
                }
                counts
            }
        })
        .collect()
}

/// Counts of the values of a one-symbol field (role, domain), in the order they were met.
struct BySymbol {
    /// By symbol, its place in `counts` plus one (zero: not met yet, so that the list starts
    /// as untouched zeroed pages).
    place: Vec<u32>,
    counts: Vec<(GroupValue, u32)>,
}

impl BySymbol {
    fn new(symbols: usize) -> BySymbol {
        BySymbol {
            place: vec![0; symbols.max(1)],
            counts: Vec::new(),
        }
    }

    fn add(&mut self, sym: Sym) {
        let slot = &mut self.place[sym.0 as usize];
        if *slot == 0 {
            self.counts.push((
                GroupValue {
                    first: sym,
                    second: Sym::NONE,
                    code: None,
                },
                0,
            ));
            *slot = self.counts.len() as u32;
        }
        self.counts[*slot as usize - 1].1 += 1;
    }

    fn counts(&mut self) -> Vec<(GroupValue, u32)> {
        std::mem::take(&mut self.counts)
    }
}

/// [`count`] the plain way, a value of each facet looked up for each row: what it must equal.
#[cfg(test)]
fn count_plainly(store: &Store, shown: &[u32]) -> Vec<Vec<(GroupValue, u32)>> {
    let rows = store.rows();
    let symbols = store.strings().len();
    let mut tallies: Vec<(Index, Vec<(GroupValue, u32)>)> = FACET_KEYS
        .iter()
        .map(|&key| (Index::new(key, symbols), Vec::new()))
        .collect();
    for &i in shown {
        let row = &rows[i as usize];
        for (key, (index, counts)) in FACET_KEYS.iter().zip(tallies.iter_mut()) {
            let value = key.value_of(store, row);
            let k = index.get_or_insert(value, counts.len() as u32) as usize;
            if k == counts.len() {
                counts.push((value, 0));
            }
            counts[k].1 += 1;
        }
    }
    tallies.into_iter().map(|(_, counts)| counts).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::testing::{all, demo, ev, generated, store};

    #[test]
    fn the_top_values_are_counted_and_cut_to_k() {
        let agent = |sdk: &str, v: &str| json!({"sdk": sdk, "sdk_version": v, "os": "Android", "os_version": "13", "device_model": "Galaxy A14", "domain": "prod-us2.100ms.live"});
        let mut events = Vec::new();
        for (n, (sdk, v)) in [
            ("android", "2.9.54"),
            ("android", "2.9.54"),
            ("web", "0.11.4"),
            ("ios", "1.2"),
        ]
        .into_iter()
        .enumerate()
        {
            let mut e = ev(n as u32, n as i64, "connect", "p", false);
            e["data"]["agent"] = agent(sdk, v);
            events.push(e);
        }
        let s = store(&events);
        let f = facets(&s, &all(&s), 2);
        assert_eq!(f.len(), FACET_KEYS.len());
        let sdk = &f[0];
        assert_eq!((sdk.key, sdk.distinct, sdk.total), (GroupKey::Sdk, 3, 4));
        let labels: Vec<(String, u32)> = sdk
            .top
            .iter()
            .map(|(v, n)| (v.label(&s, sdk.key), *n))
            .collect();
        assert_eq!(
            labels,
            [
                ("android 2.9.54".to_string(), 2),
                ("ios 1.2".to_string(), 1)
            ]
        );
        assert_eq!(sdk.share(0), 0.5);
        let device = &f[2];
        assert_eq!(device.top[0].0.label(&s, GroupKey::Device), "Galaxy A14");
        assert_eq!(device.top[0].1, 4);
        let role = &f[3];
        assert_eq!(
            (role.top[0].0.label(&s, GroupKey::Role), role.top[0].1),
            ("(none)".to_string(), 4)
        );
        assert!(
            facets(&s, &[], 3)
                .iter()
                .all(|f| f.top.is_empty() && f.total == 0)
        );
    }

    #[test]
    fn counts_summed_from_slices_on_threads_are_the_counts_of_one_pass() {
        let s = demo();
        let every = all(&s);
        let not_thirds: Vec<u32> = every.iter().copied().filter(|i| i % 3 != 0).collect();
        for shown in [&every, &not_thirds, &every[..1], &every[..0]] {
            let once = sorted(count(&s, shown));
            for parts in [2, 3, 8] {
                assert_eq!(
                    sorted(counted(&s, shown, parts)),
                    once,
                    "{parts} parts of {}",
                    shown.len()
                );
                assert_eq!(
                    top(&s, counted(&s, shown, parts), shown.len(), 5),
                    top(&s, count(&s, shown), shown.len(), 5)
                );
            }
        }
    }

    /// Each facet's counts, in the order of their values.
    fn sorted(mut counts: Vec<Vec<(GroupValue, u32)>>) -> Vec<Vec<(GroupValue, u32)>> {
        counts.iter_mut().for_each(|c| c.sort_unstable());
        counts
    }

    /// Events with every kind of agent (none, not an object, partial, whole, two agents that
    /// differ only in their string), roles and domains present and absent, a type no key
    /// names, and ids given twice (the second copy is dropped by the store).
    fn odd_events() -> Vec<serde_json::Value> {
        let agents = [
            None,
            Some(json!("web")),
            Some(json!({})),
            Some(json!({"sdk": "web"})),
            Some(json!({"sdk": "web", "sdk_version": "1.0"})),
            Some(json!({"os": "iOS", "os_version": "17", "device_model": "iPhone"})),
            Some(json!({"sdk": "web", "sdk_version": "1.0", "string": "sdk:web,env:prod"})),
            Some(json!({"sdk": "web", "sdk_version": "1.0", "string": "sdk:web,env:qa"})),
            Some(json!({"domain": "prod.100ms.live", "sdk": 7})),
        ];
        let mut events = Vec::new();
        for n in 0..60u32 {
            let kind = ["join", "publish", "connect"][n as usize % 3];
            let mut e = ev(n, i64::from(n), kind, &format!("p{}", n % 7), n % 2 == 0);
            if let Some(agent) = &agents[n as usize % agents.len()] {
                e["data"]["agent"] = agent.clone();
            }
            match n % 4 {
                0 => e["data"]["role"] = json!("host"),
                1 => e["data"]["role"] = json!("guest"),
                2 => e["data"]["role"] = json!(null),
                _ => {}
            }
            if n % 5 == 0 {
                e["data"]["domain"] = json!(format!("d{}.100ms.live", n % 3));
            }
            if n % 11 == 0 {
                e["type"] = json!("webhook.odd");
            }
            events.push(e);
        }
        // The same ids again, with other values: the store keeps the first copies.
        for n in 0..10u32 {
            let mut e = ev(n, 0, "join", "again", true);
            e["data"]["role"] = json!("again");
            e["data"]["agent"] = json!({"sdk": "again"});
            events.push(e);
        }
        events
    }

    #[test]
    fn counting_by_agent_gives_the_counts_of_a_value_looked_up_for_each_event() {
        let odd = store(&odd_events());
        assert_eq!(odd.len(), 60, "the copies of an id are dropped");
        for s in [odd, demo(), generated(3_000, 1), generated(3_000, 5)] {
            let every = all(&s);
            let odd_ones: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
            for shown in [&every, &odd_ones, &every[..1], &every[..0]] {
                let fast = sorted(count(&s, shown));
                assert_eq!(
                    fast,
                    sorted(count_plainly(&s, shown)),
                    "{} shown",
                    shown.len()
                );
                let total: u32 = fast[0].iter().map(|&(_, n)| n).sum();
                assert_eq!(total as usize, shown.len());
                assert_eq!(
                    top(&s, counted(&s, shown, 2), shown.len(), 5),
                    top(&s, count_plainly(&s, shown), shown.len(), 5)
                );
            }
        }
    }

    #[test]
    fn values_of_equal_counts_and_labels_are_in_the_same_order_however_they_are_counted() {
        // `android 2.9` without a version and `android` 2.9 read the same. Met in the order
        // opposite to their values' (the first event, not counted, names `android` and `2.9`
        // first), so that only ordering by value makes slices and one pass agree.
        let with_agent = |n: u32, agent: serde_json::Value| {
            let mut e = ev(n, i64::from(n), "connect", "p", false);
            e["data"]["agent"] = agent;
            e
        };
        let s = store(&[
            with_agent(0, json!({"sdk": "android", "sdk_version": "2.9"})),
            with_agent(1, json!({"sdk": "android 2.9"})),
            with_agent(2, json!({"sdk": "android", "sdk_version": "2.9"})),
        ]);
        let shown = [1, 2];
        let once = top(&s, count(&s, &shown), 2, 5);
        let sdk = &once[0].top;
        assert_eq!(sdk.len(), 2);
        assert_eq!(
            sdk[0].0.label(&s, GroupKey::Sdk),
            sdk[1].0.label(&s, GroupKey::Sdk)
        );
        assert!(sdk[0].0 < sdk[1].0);
        assert_eq!(top(&s, counted(&s, &shown, 2), 2, 5), once);
    }

    #[test]
    fn the_handset_of_the_connect_failures_tops_the_device_facet() {
        let s = demo();
        let kinds = crate::insight::Kinds::of(&s);
        let shown: Vec<u32> = all(&s)
            .into_iter()
            .filter(|&i| kinds.slot(s.row(i as usize).kind) == 4)
            .collect();
        let f = facets(&s, &shown, 3);
        assert_eq!(f[2].top[0].0.label(&s, GroupKey::Device), "Galaxy A14");
        assert_eq!(f[0].top[0].0.label(&s, GroupKey::Sdk), "android 2.9.54");
        assert!(f[2].top[0].1 > 2 * f[2].top[1].1, "{:?}", f[2]);
    }
}
