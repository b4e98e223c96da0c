//! The groups table's columns: how wide each one is, and which of them a width holds.

use super::share::Share;
use crate::insight::Groups;
use crate::store::Store;
use crate::text::for_terminal;
use crate::tui::panels::list::TimeText;

/// The columns of the groups table after the group's name, in the order they are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupColumn {
    Count,
    Final,
    FinalShare,
    GotThrough,
    Peers,
    Rooms,
    First,
    Last,
    Sparkline,
}

/// The group's name is given at least this many columns (or its whole length, when shorter)
/// before any column gives way to it: below that, groups that differ only past the cut (two
/// errors of one type, two peers of one name) look the same.
const GROUP_NAME_ROOM: u16 = 44;

/// The widest the GOT THROUGH column gets: a share of ten million events' chains with some
/// unknown (`2111250/4116310, 1552390 unknown`). A wider one is drawn in a shorter form.
const SHARE_WIDEST: u16 = 32;

/// How wide the cells of each column are, measured when the groups (or their shares) are
/// counted: a column is as wide as its widest cell, so that no number in it is cut.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CellWidths {
    /// The widest name among the first groups.
    pub name: usize,
    pub count: u16,
    pub finals: u16,
    pub peers: u16,
    pub rooms: u16,
    /// The widest share's whole text.
    pub share: u16,
}

impl CellWidths {
    /// How many of the first groups the name width is measured on (a grouping by peer has
    /// hundreds of thousands). The numbers are measured on every group.
    const MEASURED: usize = 2_000;

    /// The widths of the groups' names and numbers.
    pub fn of(groups: &Groups, store: &Store, key: crate::insight::GroupKey) -> CellWidths {
        use unicode_width::UnicodeWidthStr;
        let name = (0..groups.len().min(Self::MEASURED))
            .map(|k| for_terminal(&groups.group(k).label(store, key)).width())
            .max()
            .unwrap_or(0);
        let mut widths = CellWidths {
            name,
            ..CellWidths::default()
        };
        for group in groups.iter() {
            widths.count = widths.count.max(digits(group.count));
            widths.finals = widths.finals.max(digits(group.finals));
            widths.peers = widths.peers.max(digits(group.peers));
            widths.rooms = widths.rooms.max(digits(group.rooms));
        }
        widths
    }

    /// The widest of the shares' whole texts.
    pub fn measure_shares(&mut self, shares: &[Share]) {
        self.share = shares
            .iter()
            .map(|s| s.text().len() as u16)
            .max()
            .unwrap_or(0);
    }
}

/// How many columns `n` takes written out.
fn digits(n: u32) -> u16 {
    (n.checked_ilog10().unwrap_or(0) + 1) as u16
}

impl GroupColumn {
    const ALL: [GroupColumn; 9] = [
        GroupColumn::Count,
        GroupColumn::Final,
        GroupColumn::FinalShare,
        GroupColumn::GotThrough,
        GroupColumn::Peers,
        GroupColumn::Rooms,
        GroupColumn::First,
        GroupColumn::Last,
        GroupColumn::Sparkline,
    ];

    /// The order in which columns give way to the group's name on a narrow screen: the
    /// sparkline first; then how many peers and rooms an error reaches; then the finals, where
    /// that keeps the share of chains that got through, which goes last, as it answers whether
    /// the peers got in; the count never. The sparkline and the share are narrowed first, as
    /// far as their titles (the sparkline to fewer buckets, the share to shorter forms).
    const GIVING_WAY: [Step; 10] = [
        Step::Narrow(GroupColumn::Sparkline),
        Step::Drop(GroupColumn::Sparkline),
        Step::Drop(GroupColumn::First),
        Step::Drop(GroupColumn::FinalShare),
        Step::Drop(GroupColumn::Last),
        Step::Drop(GroupColumn::Rooms),
        Step::Drop(GroupColumn::Peers),
        Step::Narrow(GroupColumn::GotThrough),
        Step::Drop(GroupColumn::Final),
        Step::Drop(GroupColumn::GotThrough),
    ];

    /// The column narrows before it gives way.
    #[cfg(test)]
    fn narrows(self) -> bool {
        GroupColumn::GIVING_WAY
            .iter()
            .any(|s| matches!(s, Step::Narrow(c) if *c == self))
    }

    pub fn title(self) -> &'static str {
        match self {
            GroupColumn::Count => "COUNT",
            GroupColumn::Final => "FINAL",
            GroupColumn::FinalShare => "FINAL%",
            GroupColumn::GotThrough => "GOT THROUGH",
            GroupColumn::Peers => "PEERS",
            GroupColumn::Rooms => "ROOMS",
            GroupColumn::First => "FIRST",
            GroupColumn::Last => "LAST",
            GroupColumn::Sparkline => "OVER TIME",
        }
    }

    /// The column's width with room for its widest cell and its title.
    pub fn width(self, time: TimeText, cells: &CellWidths) -> u16 {
        let cells = match self {
            GroupColumn::Count => cells.count,
            GroupColumn::Final => cells.finals,
            GroupColumn::Peers => cells.peers,
            GroupColumn::Rooms => cells.rooms,
            GroupColumn::GotThrough => cells.share.min(SHARE_WIDEST),
            GroupColumn::First | GroupColumn::Last => time.seen_width(),
            GroupColumn::Sparkline => 16,
            // `100%`.
            GroupColumn::FinalShare => 4,
        };
        cells.max(self.title().len() as u16)
    }

    /// The columns that have something to say: the share that got through when shares were
    /// counted, the rooms unless the filter holds one room.
    fn wanted(shares: bool, one_room: bool) -> Vec<GroupColumn> {
        let mut columns = GroupColumn::ALL.to_vec();
        columns.retain(|&c| {
            (shares || c != GroupColumn::GotThrough) && !(one_room && c == GroupColumn::Rooms)
        });
        columns
    }

    /// The titles of the wanted columns that are not `shown`, in the table's order.
    pub fn left_out(shown: &[(GroupColumn, u16)], shares: bool, one_room: bool) -> Vec<&str> {
        GroupColumn::wanted(shares, one_room)
            .into_iter()
            .filter(|c| !shown.iter().any(|(s, _)| s == c))
            .map(GroupColumn::title)
            .collect()
    }
}

/// One step of a column giving way to the group's name.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// The column is narrowed, as far as its title.
    Narrow(GroupColumn),
    /// The column is left out.
    Drop(GroupColumn),
}

/// What the table's columns are fitted to: the widths of their cells, the times' form, and
/// which columns have something to say.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    pub cells: CellWidths,
    pub time: TimeText,
    /// Shares that got through were counted.
    pub shares: bool,
    /// The filter holds one room: no column counts rooms.
    pub one_room: bool,
}

impl Fit {
    /// The room the name is given before a column gives way to it.
    fn name_room(&self) -> u16 {
        self.cells.name.min(usize::from(GROUP_NAME_ROOM)) as u16
    }

    /// The width of a table that shows every column it wants, each one whole.
    pub fn whole_width(&self) -> u16 {
        GroupColumn::wanted(self.shares, self.one_room)
            .iter()
            .map(|c| c.width(self.time, &self.cells) + 1)
            .sum::<u16>()
            + self.name_room()
    }

    /// The columns drawn in a table `width` wide, each with its width: all of those
    /// [wanted](GroupColumn::wanted) when the name fits, else without those that give way
    /// first, until it does (or until only the count is left, and the finals where no share
    /// is wanted); the sparkline and the share are narrowed, as far as their titles, before
    /// they go. A wider table never shows fewer columns, nor narrower ones; the name has more
    /// room than it wants only where every column is shown, or where the next to come back
    /// does not fit in what it has over.
    pub fn columns(&self, width: u16) -> Vec<(GroupColumn, u16)> {
        let wanted = self.name_room();
        let mut shown: Vec<(GroupColumn, u16)> = GroupColumn::wanted(self.shares, self.one_room)
            .into_iter()
            .map(|c| (c, c.width(self.time, &self.cells)))
            .collect();
        // How many columns the name lacks: each column takes its width and one column of
        // space before it.
        let short = |shown: &[(GroupColumn, u16)]| {
            let taken: u32 = shown.iter().map(|(_, w)| u32::from(w + 1)).sum();
            (taken + u32::from(wanted)).saturating_sub(u32::from(width))
        };
        let at =
            |shown: &[(GroupColumn, u16)], column| shown.iter().position(|(c, _)| *c == column);
        for step in GroupColumn::GIVING_WAY {
            let short = short(&shown);
            if short == 0 {
                break;
            }
            match step {
                Step::Narrow(column) => {
                    let Some(at) = at(&shown, column) else {
                        continue;
                    };
                    let spare = u32::from(shown[at].1).saturating_sub(column.title().len() as u32);
                    shown[at].1 -= short.min(spare) as u16;
                }
                // The finals give way only to the share that got through.
                Step::Drop(GroupColumn::Final) if at(&shown, GroupColumn::GotThrough).is_none() => {
                }
                Step::Drop(column) => {
                    if let Some(at) = at(&shown, column) {
                        shown.remove(at);
                    }
                }
            }
        }
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fit(name: usize, numbers: [u16; 4], share: u16, shares: bool, one_room: bool) -> Fit {
        let [count, finals, peers, rooms] = numbers;
        Fit {
            cells: CellWidths {
                name,
                count,
                finals,
                peers,
                rooms,
                share,
            },
            time: TimeText::Clock,
            shares,
            one_room,
        }
    }

    #[test]
    fn the_share_and_the_sparkline_narrow_to_their_titles_before_they_give_way() {
        // The storm's room: names of 41 columns, a share of 16.
        let fit = fit(41, [3, 2, 3, 1], 16, true, true);
        let share = |width| {
            fit.columns(width)
                .into_iter()
                .find(|(c, _)| *c == GroupColumn::GotThrough)
                .map(|(_, w)| w)
        };
        // The name, the count and the finals take 53; the share, 17 more.
        assert_eq!(share(70), Some(16));
        assert_eq!(share(69), Some(15));
        assert_eq!(share(65), Some(11));
        // The finals give way to it, which stays as narrow as it was.
        let titles = |width| -> Vec<_> { fit.columns(width).into_iter().map(|(c, _)| c).collect() };
        assert_eq!(
            titles(65),
            [
                GroupColumn::Count,
                GroupColumn::Final,
                GroupColumn::GotThrough
            ]
        );
        assert_eq!(titles(64), [GroupColumn::Count, GroupColumn::GotThrough]);
        assert_eq!(share(64), Some(11));
        assert_eq!(share(59), Some(11));
        assert_eq!(share(58), None);
        assert_eq!(titles(58), [GroupColumn::Count]);
        assert_eq!(fit.whole_width(), 41 + 6 + 6 + 7 + 17 + 6 + 9 + 9 + 17);
        // The sparkline narrows to its title, then goes.
        let whole = fit.whole_width();
        let sparkline = |width| fit.columns(width).last().copied();
        assert_eq!(sparkline(whole), Some((GroupColumn::Sparkline, 16)));
        assert_eq!(sparkline(whole - 1), Some((GroupColumn::Sparkline, 15)));
        assert_eq!(sparkline(whole - 7), Some((GroupColumn::Sparkline, 9)));
        assert_eq!(sparkline(whole - 8), Some((GroupColumn::Last, 8)));
    }

    proptest! {
        /// A table one column wider shows every column the narrower one does, as wide or
        /// wider; the name has the room it wants unless only the count and the finals are
        /// left; and the share and the sparkline give way only where, narrowed to their
        /// titles, they would leave the name short.
        #[test]
        fn a_wider_table_shows_every_column_a_narrower_one_does(
            name in 0usize..80,
            numbers in proptest::array::uniform4(1u16..9),
            share in 0u16..40,
            shares: bool,
            one_room: bool,
            width in 0u16..300,
        ) {
            let fit = fit(name, numbers, share, shares, one_room);
            let narrow = fit.columns(width);
            let wide = fit.columns(width + 1);
            for (column, w) in &narrow {
                let wider = wide.iter().find(|(c, _)| c == column).map(|(_, w)| *w);
                prop_assert!(wider >= Some(*w), "{column:?} at {width}: {narrow:?} {wide:?}");
            }
            let taken: u16 = narrow.iter().map(|(_, w)| w + 1).sum();
            let room = width.saturating_sub(taken);
            let wanted = name.min(usize::from(GROUP_NAME_ROOM)) as u16;
            let kept = |c| narrow.iter().any(|(s, _)| *s == c);
            // The count is left alone, with the finals where no share is wanted.
            if narrow.len() > if shares { 1 } else { 2 } {
                prop_assert!(room >= wanted, "{narrow:?}");
            }
            // The share is the last to give way.
            if shares && narrow.len() > 1 {
                prop_assert!(kept(GroupColumn::GotThrough), "{narrow:?}");
            }
            if shares && !kept(GroupColumn::GotThrough) {
                prop_assert!(room < wanted + 12, "{room} {wanted} {narrow:?}");
            }
            if !kept(GroupColumn::Sparkline) && kept(GroupColumn::First) {
                prop_assert!(room < wanted + 10, "{room} {wanted} {narrow:?}");
            }
            for (column, w) in &narrow {
                if !column.narrows() {
                    prop_assert_eq!(*w, column.width(fit.time, &fit.cells));
                }
            }
        }
    }
}
