//! Victory by continuous fours.
//!
//! The attacker plays only moves that make a four; the defender must take the five
//! point. The attacker wins on a five, on two five points at once (a straight four or a
//! double four), or under renju when black must defend on a forbidden point. A defender's
//! block that makes a four of its own must be answered, and the answer must again be a
//! four for the sequence to go on.

use super::{Budget, KeyMap, MoveStack};

use crate::board::Board;
use crate::board::pattern::Shape;
use crate::movegen::{find_shape, is_legal, makes_four};
use crate::types::{Color, Pos, Rule};

/// Budget, counters and memory of one VCF search.
pub struct Vcf {
    /// Attacking moves searched.
    pub budget: Budget,
    /// Positions (attacker to move) already shown to have no win within the stored
    /// number of fours. Fours transpose constantly, so without this long sequences
    /// explode.
    refuted: KeyMap<u32>,
    moves: MoveStack,
}

impl Vcf {
    pub fn new(max_nodes: u64) -> Vcf {
        Vcf {
            budget: Budget::new(max_nodes),
            refuted: KeyMap::default(),
            moves: MoveStack::default(),
        }
    }

    /// Makes the solver new again with another budget, keeping its allocations.
    pub fn reset(&mut self, max_nodes: u64) {
        self.budget = Budget::new(max_nodes);
        self.refuted.clear();
    }

    /// Searches a win for the side to move within `max_fours` of its fours. Returns the
    /// first move and the number of plies to the five.
    pub fn solve(&mut self, board: &mut Board, max_fours: u32) -> Option<(Pos, u32)> {
        self.solve_for(board, board.side_to_move(), max_fours)
    }

    /// The same for `us` whoever is to move: what `us` would win if the opponent passed.
    /// Every win it stores or finds is `us`'s, so one solver must keep one attacker.
    pub fn solve_for(
        &mut self,
        board: &mut Board,
        us: Color,
        max_fours: u32,
    ) -> Option<(Pos, u32)> {
        self.attack(board, us, max_fours)
    }

    fn attack(&mut self, board: &mut Board, us: Color, fours_left: u32) -> Option<(Pos, u32)> {
        let mut moves = self.moves.take();
        let result = self.attack_with(board, us, fours_left, &mut moves);
        self.moves.give_back(moves);
        result
    }

    fn attack_with(
        &mut self,
        board: &mut Board,
        us: Color,
        fours_left: u32,
        moves: &mut Vec<Pos>,
    ) -> Option<(Pos, u32)> {
        let them = us.opp();
        if board.count_fives(us) > 0
            && let Some(p) = find_shape(board, us, Shape::Five)
        {
            return Some((p, 1));
        }
        if board.count_fives(them) > 0 {
            // The defender's last block made a four: the only move is to block it, and it
            // must be a four itself.
            let b = find_shape(board, them, Shape::Five)?;
            if board.count_fives(them) > 1 || !makes_four(board, b, us) || !is_legal(board, b, us) {
                return None;
            }
            moves.push(b);
        } else {
            // The open four is a four too, and counts against the limit.
            if board.count_flex4(us) > 0 && fours_left > 0 {
                let p = find_shape(board, us, Shape::Flex4)?;
                return Some((p, 3));
            }
            four_moves(board, us, moves);
        }
        if fours_left == 0 {
            return None;
        }
        if self
            .refuted
            .get(&board.hash())
            .is_some_and(|&n| n >= fours_left)
        {
            return None;
        }
        for &mv in moves.iter() {
            if !self.budget.spend() {
                return None;
            }
            // The direction of the four, read before the stone hides the cell's patterns:
            // the defender's block lies on that line.
            let dir = (0..4)
                .find(|&d| board.pattern(mv, us, d).four_count() > 0)
                .unwrap_or(0);
            if self.ends_unplaced(board, mv, dir, us, fours_left) {
                continue;
            }
            board.place(mv, us);
            let result = self.after_four(board, mv, dir, us, fours_left);
            board.undo();
            if let Some(plies) = result {
                return Some((mv, plies));
            }
        }
        if !self.budget.exhausted() {
            self.refuted.insert(board.hash(), fours_left);
        }
        None
    }

    /// Whether the attacker's four on `mv` (along `dir`) is known to bring no win without
    /// placing it: `after_four` would find a single five point, a legal block, and then
    /// no four allowed or a refuted position after the block. About a quarter of the
    /// fours the bench's VCFs try end so, and a place and undo cost far more than this.
    fn ends_unplaced(
        &self,
        board: &mut Board,
        mv: Pos,
        dir: usize,
        us: Color,
        fours_left: u32,
    ) -> bool {
        let Some(block) = board.lone_five_point(mv, us, dir) else {
            return false;
        };
        // Renju black's block may be forbidden. The attacker's stone only takes from
        // black's lines, so a point that is no possible forbidden point before it stays
        // legal after it; the rest are left to the exact check with the stone placed.
        let them = us.opp();
        if them == Color::Black
            && board.rule() == Rule::Renju
            && board.shape(block, them) == Shape::MaybeForbidden
        {
            return false;
        }
        debug_assert!(block_after_four(board, mv, us) == Some(block));
        // A position after the block that is known to have no win needs no search:
        // whatever a refuted position holds, `attack` returns no win from it (what could
        // make one, a five or an open four of the attacker, would have ended the search
        // that stored it). Where this is not asked, `attack` asks it after the block.
        fours_left == 1
            || self
                .refuted
                .get(&board.hash_with_reply(mv, us, block))
                .is_some_and(|&n| n >= fours_left - 1)
    }

    /// After the attacker's four on `mv`: the defender's forced reply and what follows.
    fn after_four(
        &mut self,
        board: &mut Board,
        mv: Pos,
        dir: usize,
        us: Color,
        fours_left: u32,
    ) -> Option<u32> {
        let them = us.opp();
        let fives = board.count_fives(us);
        if fives >= 2 {
            return Some(3);
        }
        let block = five_point_near(board, mv, dir, us)?;
        if !is_legal(board, block, them) {
            // Black must block on a forbidden point: white's five cannot be stopped.
            return Some(3);
        }
        // With no four left to play after the block, or none allowed, the line ends there.
        // A block only takes fours from the attacker, except under renju, where it can
        // leave black a four on what was a forbidden double four (which `may_have_fours`
        // counts). Most leaf VCFs end here, and the block is not worth placing to find
        // that out.
        if fours_left == 1 || !may_have_fours(board, us) {
            return None;
        }
        board.place(block, them);
        let result = if board.winner() == Some(them) {
            None
        } else {
            self.attack(board, us, fours_left - 1)
                .map(|(_, plies)| plies + 2)
        };
        board.undo();
        result
    }
}

/// What `after_four` sees after `us` plays the four `mv`: the legal block of its only
/// five point, or `None` for anything else. Checks `Board::lone_five_point` in debug
/// builds.
fn block_after_four(board: &mut Board, mv: Pos, us: Color) -> Option<Pos> {
    board.place(mv, us);
    let them = us.opp();
    let block = (board.count_fives(us) == 1)
        .then(|| find_shape(board, us, Shape::Five))
        .flatten()
        .filter(|&b| is_legal(board, b, them));
    board.undo();
    block
}

/// The five point `color` made with its stone on `mv`, a four along direction `dir`.
fn five_point_near(board: &Board, mv: Pos, dir: usize, color: Color) -> Option<Pos> {
    (-4..=4isize)
        .filter(|&k| k != 0)
        .map(|k| mv.offset(dir, k))
        .find(|&p| board.is_empty(p) && board.shape(p, color) == Shape::Five)
}

/// Whether `us` may have a four to play: the board counts the cells of each four shape,
/// and under renju black's possible forbidden points may hide one.
fn may_have_fours(board: &Board, us: Color) -> bool {
    board.count_block4(us) + board.count_flex4(us) > 0
        || (us == Color::Black
            && board.rule() == Rule::Renju
            && board.count_maybe_forbidden(us) > 0)
}

/// Every legal point where `us` makes a four, best first.
pub fn four_moves(board: &mut Board, us: Color, out: &mut Vec<Pos>) {
    out.clear();
    // Most positions have none.
    if !may_have_fours(board, us) {
        return;
    }
    // The board keeps the cells of the four shapes, and renju black's possible forbidden
    // points apart: each of those needs the exact check.
    for p in board.four_cells_or_maybe_forbidden(us) {
        let four = match board.shape(p, us) {
            Shape::Block4 | Shape::Block4Plus | Shape::Block4Flex3 | Shape::Flex4 => true,
            Shape::MaybeForbidden => makes_four(board, p, us) && !board.is_forbidden_mut(p),
            _ => false,
        };
        if four {
            out.push(p);
        }
    }
    // Fours that also make threes tend to finish sooner.
    out.sort_by_key(|&p| std::cmp::Reverse((board.shape(p, us), board.cell_value(p, us))));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::{records, renju_board};
    use crate::testutil::random_empty;

    /// Replays a claimed win against every defence the rules allow, to check the solver's
    /// answer from outside it: the attacker's line must end in a five whatever happens.
    fn verify(board: &mut Board, first: Pos, fours_left: u32) -> bool {
        let us = board.side_to_move();
        board.place(first, us);
        let ok = if board.winner() == Some(us) {
            true
        } else if fours_left == 0 {
            false
        } else {
            let them = us.opp();
            let fives: Vec<Pos> = board
                .points()
                .filter(|&p| board.is_empty(p) && board.shape(p, us) == Shape::Five)
                .collect();
            if fives.len() >= 2 {
                true
            } else if let [block] = fives[..] {
                if !is_legal(board, block, them) {
                    true
                } else {
                    board.place(block, them);
                    let r = board.winner().is_none()
                        && Vcf::new(1_000_000)
                            .solve(board, fours_left - 1)
                            .is_some_and(|(m, _)| verify(board, m, fours_left - 1));
                    board.undo();
                    r
                }
            } else {
                false
            }
        };
        board.undo();
        ok
    }

    #[test]
    fn solves_every_shared_vcf_puzzle() {
        let puzzles: Vec<_> = records("renju_puzzles.jsonl")
            .into_iter()
            .filter(|r| r.get("type").as_str() == "vcf")
            .collect();
        assert_eq!(puzzles.len(), 3);
        for r in &puzzles {
            let mut b = renju_board(r);
            let to_move = if r.get("to_move").as_str() == "black" {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(b.side_to_move(), to_move);
            let mut vcf = Vcf::new(10_000_000);
            let (mv, plies) = vcf
                .solve(&mut b, 120)
                .unwrap_or_else(|| panic!("{} unsolved", r.get("id").as_str()));
            assert!(
                verify(&mut b, mv, 120),
                "{}: {mv} does not win",
                r.get("id").as_str()
            );
            assert!(plies % 2 == 1);
        }
    }

    #[test]
    fn finds_no_win_where_there_is_none() {
        // P001 has no VCF within 11 attacker moves (its source says so).
        let r = records("renju_puzzles.jsonl")
            .into_iter()
            .find(|r| r.get("id").as_str() == "P001")
            .expect("P001");
        let mut b = renju_board(&r);
        assert!(Vcf::new(10_000_000).solve(&mut b, 11).is_none());
        assert!(Vcf::new(10_000_000).solve(&mut b, 12).is_some());
    }

    /// Whether `us` wins by fours within `fours_left`, by trying every four in full: the
    /// solver's rules without its table, its order or its shortcuts.
    fn wins_by_fours(board: &mut Board, us: Color, fours_left: u32) -> bool {
        let them = us.opp();
        let fives = |b: &Board, c: Color| -> Vec<Pos> {
            b.points()
                .filter(|&p| b.is_empty(p) && b.shape(p, c) == Shape::Five)
                .collect()
        };
        let mut moves: Vec<Pos> = match fives(board, them)[..] {
            [] => board.points().collect(),
            [b] => vec![b],
            _ => return false,
        };
        if fours_left == 0 {
            return false;
        }
        moves.retain(|&p| board.is_empty(p) && makes_four(board, p, us));
        moves.retain(|&p| is_legal(board, p, us));
        moves.into_iter().any(|mv| {
            board.place(mv, us);
            let won = match fives(board, us)[..] {
                [] => false,
                [block] if is_legal(board, block, them) => {
                    board.place(block, them);
                    let won = board.winner().is_none() && wins_by_fours(board, us, fours_left - 1);
                    board.undo();
                    won
                }
                _ => true,
            };
            board.undo();
            won
        })
    }

    /// The solver finds a win exactly where trying every four finds one, in positions
    /// of random games under every rule (its shortcut that leaves a block unplayed
    /// included), among them wins that take two or three fours.
    #[test]
    fn agrees_with_trying_every_four() {
        let mut rng = fastrand::Rng::with_seed(20261206);
        let (mut wins, mut long_wins) = (0, 0);
        for rule in Rule::ALL {
            for _ in 0..150 {
                let mut b = Board::new(15, 15, rule);
                for _ in 0..rng.usize(30..110) {
                    b.play(random_empty(&b, &mut rng).expect("fewer stones than points"));
                    if b.winner().is_some() {
                        b.undo();
                        break;
                    }
                }
                let us = b.side_to_move();
                if b.count_fives(us) > 0 || b.count_block4(us) == 0 {
                    continue;
                }
                let expected = wins_by_fours(&mut b, us, 3);
                wins += expected as u32;
                long_wins += (expected && !wins_by_fours(&mut b, us, 1)) as u32;
                let found = Vcf::new(u64::MAX).solve(&mut b, 3).is_some();
                assert_eq!(found, expected, "{rule}\n{b:?}");
            }
        }
        assert!(
            wins >= 50 && long_wins >= 10,
            "{wins} wins, {long_wins} long"
        );
    }

    #[test]
    fn white_wins_through_a_forbidden_block() {
        // Black's stones make (7,7) a double-three point for black. White's four on the
        // diagonal through (11,11) has its only five point there, so black cannot block.
        let mut b = Board::new(15, 15, Rule::Renju);
        for p in [(5, 7), (6, 7), (7, 5), (7, 6), (6, 6), (12, 12)] {
            b.place(Pos::new(p.0, p.1), Color::Black);
        }
        for p in [(8, 8), (9, 9), (10, 10), (0, 14), (14, 0)] {
            b.place(Pos::new(p.0, p.1), Color::White);
        }
        assert!(b.is_forbidden(Pos::new(7, 7)));
        assert_eq!(b.side_to_move(), Color::White);
        let (mv, plies) = Vcf::new(100_000).solve(&mut b, 5).expect("white wins");
        assert_eq!(mv, Pos::new(11, 11));
        assert_eq!(plies, 3);
        // Under standard rules black simply blocks: no VCF for white.
        let mut s = Board::new(15, 15, Rule::Standard);
        for &(p, c) in b.stones() {
            s.place(p, c);
        }
        assert!(Vcf::new(100_000).solve(&mut s, 5).is_none());
    }
}
