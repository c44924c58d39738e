//! The time manager: from the manager's limits to a soft and a hard deadline for one move.
//!
//! Pure arithmetic, no clock and no I/O, so every rule below is unit-tested.
//!
//! * The **hard** limit is where the search must stop. It never exceeds `timeout_turn`
//!   minus a safety margin, nor a safe share of `time_left`, because the managers' own
//!   tolerance (Piskvork 1 s, GomocupJudge 1 s, c-gomoku-cli 3 s) is not ours to spend.
//! * The **soft** limit is the time the move should normally take; the search stops
//!   starting new work after it unless the position asks for more.
//! * `spent` is the time already gone between the moment the think command was read and
//!   the moment the search starts. GomocupJudge suspends the brain right after `START`,
//!   so the work for `START` and the `INFO`s (allocating the hash table) runs after it
//!   resumes the brain for the first move and is charged to that move; taking `spent`
//!   off both limits pays for it.
//! * `timeout_turn 0` means "answer at once": both limits are zero and the search does
//!   its minimum. So does a `time_left` that is used up, tiny or negative.

use std::time::Duration;

/// `INFO time_left` value that means "no match limit".
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;
/// Per-move limit when the manager sent neither a turn limit nor a match limit.
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// Share of the turn limit kept back for thread stop, output and the pipe, in percent.
const TURN_MARGIN_PERCENT: u64 = 6;
/// The turn margin is at least this many milliseconds.
const MIN_TURN_MARGIN_MS: u64 = 60;
/// Share of the remaining match time never planned for, in percent.
const MATCH_RESERVE_PERCENT: u64 = 5;
/// The match reserve is at least this many milliseconds; with less left the brain
/// answers at once.
const MIN_MATCH_RESERVE_MS: u64 = 100;
/// Stones a game is assumed to last when planning match time.
const EXPECTED_GAME_STONES: usize = 80;
/// The match time is always planned over at least this many more own moves.
const MIN_MOVES_TO_GO: u64 = 10;
/// A hard match limit is at most this many times the soft one (an iteration started
/// just before the soft limit may run on to the hard one)...
const HARD_OVER_SOFT: u64 = 3;
/// ...and never more than this share of the usable match time, in percent.
const MAX_MATCH_SHARE_PERCENT: u64 = 25;

/// The time limits the manager has announced, in its own units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// `INFO timeout_turn` in milliseconds; `None` when it was never sent.
    pub turn_ms: Option<u64>,
    /// `INFO timeout_match` in milliseconds; 0 means no match limit.
    pub match_ms: u64,
    /// `INFO time_left` in milliseconds; `None` when it was never sent. It may be
    /// negative, and [`UNLIMITED_TIME_LEFT`] means no match limit.
    pub left_ms: Option<i64>,
}

/// What the search may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

impl TimeControl {
    /// Remaining match time in milliseconds, or `None` when the match is unlimited.
    fn match_left(&self) -> Option<i64> {
        match self.left_ms {
            Some(left) if left >= UNLIMITED_TIME_LEFT => None,
            Some(left) => Some(left),
            // The spec obliges managers to send time_left when the match is limited;
            // if one does not, assume the whole match is still ahead.
            None if self.match_ms > 0 => Some(self.match_ms.min(i64::MAX as u64) as i64),
            None => None,
        }
    }
}

/// The soft and hard limits for the next move.
///
/// `stones` and `empty` count the stones and the empty points on the board; `spent` is
/// the time already gone since the think command arrived.
pub fn budget(tc: &TimeControl, stones: usize, empty: usize, spent: Duration) -> Budget {
    let match_left = tc.match_left();
    let turn_ms = match (tc.turn_ms, match_left) {
        (Some(turn), _) => Some(turn),
        (None, None) => Some(DEFAULT_TURN_MS),
        (None, Some(_)) => None,
    };

    let mut soft = u64::MAX;
    let mut hard = u64::MAX;
    if let Some(turn) = turn_ms {
        let turn_hard =
            turn.saturating_sub((turn * TURN_MARGIN_PERCENT / 100).max(MIN_TURN_MARGIN_MS));
        // Time a turn does not use is lost, not saved for later moves: under a turn
        // limit alone the move may take all of it (the search stops early only on a
        // decided result).
        hard = hard.min(turn_hard);
        soft = soft.min(turn_hard);
    }
    if let Some(left) = match_left {
        let (match_soft, match_hard) = match_share(left, stones, empty);
        hard = hard.min(match_hard);
        soft = soft.min(match_soft);
    }

    let spent = spent.as_millis().min(u64::MAX as u128) as u64;
    let hard = hard.saturating_sub(spent);
    let soft = soft.saturating_sub(spent).min(hard);
    Budget {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    }
}

/// Soft and hard limits in milliseconds from `left` ms of match time.
fn match_share(left: i64, stones: usize, empty: usize) -> (u64, u64) {
    let Ok(left) = u64::try_from(left) else {
        return (0, 0);
    };
    let reserve = (left * MATCH_RESERVE_PERCENT / 100).max(MIN_MATCH_RESERVE_MS);
    let usable = left.saturating_sub(reserve);

    let expected = (EXPECTED_GAME_STONES.saturating_sub(stones) as u64).div_ceil(2);
    let own_moves_possible = (empty as u64).div_ceil(2).max(1);
    let moves_to_go = expected.max(MIN_MOVES_TO_GO).min(own_moves_possible);

    let soft = usable / moves_to_go;
    let hard = (soft * HARD_OVER_SOFT).min(usable * MAX_MATCH_SHARE_PERCENT / 100);
    (soft.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn tc(turn_ms: Option<u64>, match_ms: u64, left_ms: Option<i64>) -> TimeControl {
        TimeControl {
            turn_ms,
            match_ms,
            left_ms,
        }
    }

    #[test]
    fn timeout_turn_zero_answers_at_once() {
        for control in [
            tc(Some(0), 0, None),
            tc(Some(0), 180_000, Some(180_000)),
            tc(Some(0), 0, Some(UNLIMITED_TIME_LEFT)),
        ] {
            let b = budget(&control, 10, 215, Duration::ZERO);
            assert_eq!(
                b,
                Budget {
                    soft: ms(0),
                    hard: ms(0)
                },
                "{control:?}"
            );
        }
    }

    #[test]
    fn defaults_when_nothing_was_sent() {
        let b = budget(&TimeControl::default(), 0, 225, Duration::ZERO);
        assert_eq!(b.hard, ms(DEFAULT_TURN_MS - 300));
        assert_eq!(b.soft, b.hard);
    }

    #[test]
    fn unlimited_match_leaves_only_the_turn_limit() {
        let b = budget(
            &tc(Some(30_000), 0, Some(UNLIMITED_TIME_LEFT)),
            4,
            396,
            Duration::ZERO,
        );
        assert_eq!(b.hard, ms(28_200));
        assert_eq!(b.soft, ms(28_200));
    }

    #[test]
    fn small_turn_limits_keep_the_minimum_margin() {
        assert_eq!(
            budget(&tc(Some(500), 0, None), 0, 225, Duration::ZERO).hard,
            ms(440)
        );
        assert_eq!(
            budget(&tc(Some(100), 0, None), 0, 225, Duration::ZERO).hard,
            ms(40)
        );
        assert_eq!(
            budget(&tc(Some(30), 0, None), 0, 225, Duration::ZERO).hard,
            ms(0)
        );
    }

    #[test]
    fn fastgame_first_move() {
        // 5 s per move, 120 s per match, an empty 20x20 board: 40 own moves planned.
        let b = budget(
            &tc(Some(5_000), 120_000, Some(120_000)),
            0,
            400,
            Duration::ZERO,
        );
        // usable = 120000 - 6000 = 114000; soft = 114000 / 40 = 2850; the turn limit
        // gives 4700 for both.
        assert_eq!(
            b,
            Budget {
                soft: ms(2_850),
                hard: ms(4_700)
            }
        );
    }

    #[test]
    fn match_time_binds_when_the_turn_limit_is_generous() {
        // Gomocup's 30 s / 180 s with 100 s left after 40 stones.
        let b = budget(
            &tc(Some(30_000), 180_000, Some(100_000)),
            40,
            185,
            Duration::ZERO,
        );
        // usable = 95000, moves to go = max(10, 20) = 20: soft 4750, hard min(14250, 23750).
        assert_eq!(
            b,
            Budget {
                soft: ms(4_750),
                hard: ms(14_250)
            }
        );
    }

    #[test]
    fn late_game_plans_at_least_ten_moves() {
        let b = budget(&tc(None, 180_000, Some(20_000)), 150, 250, Duration::ZERO);
        // usable = 19000 over 10 moves: soft 1900, hard min(5700, 4750).
        assert_eq!(
            b,
            Budget {
                soft: ms(1_900),
                hard: ms(4_750)
            }
        );
    }

    #[test]
    fn nearly_full_board_spends_no_more_than_a_quarter() {
        let b = budget(&tc(None, 180_000, Some(20_000)), 23, 2, Duration::ZERO);
        // One own move left: soft would be all of 19000; the share caps both at 4750.
        assert_eq!(
            b,
            Budget {
                soft: ms(4_750),
                hard: ms(4_750)
            }
        );
    }

    #[test]
    fn negative_or_tiny_time_left_answers_at_once() {
        for left in [-5_000, -1, 0, 1, 50, 100] {
            let b = budget(
                &tc(Some(30_000), 180_000, Some(left)),
                20,
                205,
                Duration::ZERO,
            );
            assert_eq!(
                b,
                Budget {
                    soft: ms(0),
                    hard: ms(0)
                },
                "time_left {left}"
            );
        }
    }

    #[test]
    fn missing_time_left_falls_back_to_the_match_limit() {
        let with = budget(&tc(None, 60_000, Some(60_000)), 0, 225, Duration::ZERO);
        let without = budget(&tc(None, 60_000, None), 0, 225, Duration::ZERO);
        assert_eq!(with, without);
        assert!(without.hard < ms(60_000));
    }

    #[test]
    fn spent_time_is_taken_off_both_limits() {
        let control = tc(Some(5_000), 0, None);
        let fresh = budget(&control, 0, 225, Duration::ZERO);
        let late = budget(&control, 0, 225, ms(1_000));
        assert_eq!(late.hard, fresh.hard - ms(1_000));
        assert_eq!(late.soft, fresh.soft - ms(1_000));
        let gone = budget(&control, 0, 225, ms(10_000));
        assert_eq!(
            gone,
            Budget {
                soft: ms(0),
                hard: ms(0)
            }
        );
    }

    #[test]
    fn limits_stay_inside_turn_and_match_bounds() {
        let turns = [
            None,
            Some(0),
            Some(1),
            Some(100),
            Some(1_000),
            Some(5_000),
            Some(300_000),
        ];
        let matches = [0, 1_000, 120_000, 1_000_000];
        let lefts = [
            None,
            Some(-100),
            Some(0),
            Some(150),
            Some(3_000),
            Some(90_000),
            Some(UNLIMITED_TIME_LEFT),
        ];
        for turn in turns {
            for match_ms in matches {
                for left in lefts {
                    for (stones, empty) in [(0, 225), (1, 399), (60, 165), (200, 25), (24, 1)] {
                        let control = tc(turn, match_ms, left);
                        let b = budget(&control, stones, empty, Duration::ZERO);
                        assert!(b.soft <= b.hard, "{control:?}");
                        if let Some(turn) = turn {
                            assert!(
                                b.hard <= ms(turn.saturating_sub(MIN_TURN_MARGIN_MS)),
                                "{control:?}"
                            );
                            assert!(b.hard <= ms(turn * 94 / 100), "{control:?}");
                        }
                        if let Some(left) = control.match_left() {
                            let left = left.max(0) as u64;
                            assert!(
                                b.hard <= ms(left * MAX_MATCH_SHARE_PERCENT / 100),
                                "{control:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn more_time_left_never_means_less_time() {
        let mut previous = Budget {
            soft: ms(0),
            hard: ms(0),
        };
        for left in (0..200).map(|i| i * 1_000) {
            let b = budget(
                &tc(Some(30_000), 180_000, Some(left)),
                30,
                195,
                Duration::ZERO,
            );
            assert!(
                b.soft >= previous.soft && b.hard >= previous.hard,
                "time_left {left}"
            );
            previous = b;
        }
    }
}
