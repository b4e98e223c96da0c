//! A group's share of retry chains that got through, and its text in the GOT THROUGH column.

use crate::text::display_width;

/// How many of a group's chains got through, of how many.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Share {
    pub through: u32,
    /// Chains whose outcome the data tells, success or not.
    pub known: u32,
    pub chains: u32,
}

impl Share {
    /// `114/157 73%` when the data tells every chain's outcome; `0/87, 86 unknown` when it
    /// tells some (no share is given: the unknown ones may have got through); `unknown` when
    /// it tells none; `-` for a group with no chain.
    pub fn text(self) -> String {
        self.forms().swap_remove(0)
    }

    /// The share's texts, longest first: the whole one, then shorter ones that leave figures
    /// out whole, the cut marked with `…` (`114/157 73%`, `73%`; `0/87, 86 unknown`,
    /// `0/87, …`).
    pub fn forms(self) -> Vec<String> {
        if self.chains == 0 {
            return vec!["-".into()];
        }
        if self.known == 0 {
            return vec!["unknown".into()];
        }
        let of = format!("{}/{}", self.through, self.chains);
        if self.known < self.chains {
            let unknown = self.chains - self.known;
            return vec![format!("{of}, {unknown} unknown"), format!("{of}, …")];
        }
        let percent = format!(
            "{:.0}%",
            f64::from(self.through) * 100.0 / f64::from(self.chains)
        );
        vec![format!("{of} {percent}"), percent]
    }

    /// The longest of the share's texts that fits in `width` columns; `…` where none does.
    pub fn fitted(self, width: usize) -> String {
        self.forms()
            .into_iter()
            .find(|form| display_width(form) <= width)
            .unwrap_or_else(|| {
                if width == 0 {
                    String::new()
                } else {
                    "…".into()
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_share_too_wide_for_its_cell_leaves_figures_out_whole() {
        let all = Share {
            through: 114,
            known: 157,
            chains: 157,
        };
        assert_eq!(all.fitted(20), "114/157 73%");
        assert_eq!(all.fitted(11), "114/157 73%");
        assert_eq!(all.fitted(10), "73%");
        assert_eq!(all.fitted(2), "…");
        let some = Share {
            through: 211_125,
            known: 411_631 - 155_239,
            chains: 411_631,
        };
        assert_eq!(some.text(), "211125/411631, 155239 unknown");
        assert_eq!(some.fitted(28), "211125/411631, …");
        assert_eq!(some.fitted(15), "…");
        assert_eq!(Share::default().fitted(11), "-");
    }

    proptest! {
        /// Whatever the width, the text fits, and each figure in it is one of the share's,
        /// whole: a cut one would read as another number.
        #[test]
        fn a_fitted_share_holds_only_whole_figures(
            through in 0u32..2_000_000,
            unknown in 0u32..2_000_000,
            failed in 0u32..2_000_000,
            width in 0usize..40,
        ) {
            let share = Share {
                through,
                known: through + failed,
                chains: through + failed + unknown,
            };
            let text = share.fitted(width);
            prop_assert!(display_width(&text) <= width);
            let whole = share.text();
            let figures = |s: &str| -> Vec<String> {
                s.split(|c: char| !c.is_ascii_digit())
                    .filter(|f| !f.is_empty())
                    .map(str::to_string)
                    .collect()
            };
            let all = figures(&whole);
            for figure in figures(&text) {
                prop_assert!(all.contains(&figure), "{text} of {whole}");
            }
            prop_assert!(
                width == 0 || text == whole || text.ends_with('…') || text.ends_with('%')
            );
        }
    }
}
