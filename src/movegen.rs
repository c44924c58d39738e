//! Move generation: candidate points, the threats on the board, and the forced replies.
//!
//! Candidates are the empty points within two cells of a stone. Before generating, the
//! position is classified from the board's shape counts: a five to complete, a five to
//! block, an open four to make, an open four to stop, or nothing forcing; in a quiet
//! position the shapes may still prove a win in five plies. Against a threatened open
//! four only counter-fours and the points of the threatening line are generated;
//! everything else loses at once.

use crate::board::Board;
use crate::board::pattern::{Pattern, Shape};
use crate::types::{Color, Pos, Rule};

/// What the side to move faces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Threat {
    /// The side to move completes a five.
    Win(Pos),
    /// The opponent has two or more fives waiting, or one the side to move may not
    /// block: the game is lost.
    Lost,
    /// The opponent has one five waiting: block it.
    BlockFive(Pos),
    /// The side to move makes an open four (or double four) and wins next turn.
    OpenFour,
    /// The opponent threatens an open four: counter-four or defend.
    DefendFour,
    /// Nothing forcing.
    Quiet,
}

/// Whether the side to move may play `pos` (renju: black's forbidden points are out).
#[inline]
pub fn is_legal(board: &mut Board, pos: Pos, us: Color) -> bool {
    board.is_empty(pos)
        && !(us == Color::Black
            && board.rule() == Rule::Renju
            && board.shape(pos, us) == Shape::MaybeForbidden
            && board.is_forbidden_mut(pos))
}

/// Empty points within two cells of a stone, or the centre of an empty board; every
/// empty point when no stone has an empty neighbourhood (blocked cells all around).
pub fn candidates(board: &Board, out: &mut Vec<Pos>) {
    out.clear();
    if board.stone_count() == 0 {
        let centre = Pos::new(board.width() / 2, board.height() / 2);
        if board.is_empty(centre) {
            out.push(centre);
            return;
        }
    } else {
        out.extend(
            board
                .area_points()
                .filter(|&p| board.near(p) > 0 && board.is_empty(p)),
        );
    }
    if out.is_empty() {
        out.extend(board.points().filter(|&p| board.is_empty(p)));
    }
}

/// The first candidate point (row by row) where `color` has `shape`.
pub fn find_shape(board: &Board, color: Color, shape: Shape) -> Option<Pos> {
    if shape >= Shape::Block4 {
        // The board keeps these cells: no scan.
        return board
            .four_cells(color)
            .find(|&p| board.shape(p, color) == shape);
    }
    board
        .area_points()
        .find(|&p| board.is_empty(p) && board.shape(p, color) == shape)
}

/// Classifies the position for the side to move.
pub fn threat(board: &mut Board) -> Threat {
    let us = board.side_to_move();
    let them = us.opp();
    if board.count_fives(us) > 0
        && let Some(p) = find_shape(board, us, Shape::Five)
    {
        return Threat::Win(p);
    }
    match board.count_fives(them) {
        0 => {}
        1 => {
            let Some(p) = find_shape(board, them, Shape::Five) else {
                return Threat::Quiet;
            };
            return if is_legal(board, p, us) {
                Threat::BlockFive(p)
            } else {
                Threat::Lost
            };
        }
        _ => return Threat::Lost,
    }
    if board.count_flex4(us) > 0 {
        return Threat::OpenFour;
    }
    if board.count_flex4(them) > 0 {
        return Threat::DefendFour;
    }
    Threat::Quiet
}

/// Plies to a five the side to move forces from a quiet position, judged from shapes:
/// a four-three (a four and an open three at once) or a double open three wins in five
/// plies when the opponent has no four of its own to interpose, as the four is blocked
/// (or one three defended, a stone on one line leaving the other open) and the open
/// four follows. Against fours, a four-three still wins where the forced block makes no
/// four for the opponent. Renju black is left out, since its three may be a false one.
/// Renju black's possible forbidden points that would make a four are counted as
/// fours, since some of them are legal; the others cannot interpose, legal or not.
/// Only for positions `threat` calls quiet: the opponent has no five or open four to
/// make.
pub fn quick_win(board: &mut Board) -> Option<u32> {
    let us = board.side_to_move();
    let them = us.opp();
    let renju = board.rule() == Rule::Renju;
    if (renju && us == Color::Black) || board.count_block4_flex3(us) + board.count_flex3x2(us) == 0
    {
        return None;
    }
    if board.count_block4(them) == 0 && !(renju && maybe_forbidden_four(board, them)) {
        return Some(5);
    }
    if board.count_block4_flex3(us) == 0 {
        return None;
    }
    for p in board.four_cells(us) {
        if board.shape(p, us) != Shape::Block4Flex3 {
            continue;
        }
        board.place(p, us);
        let quiet_block = find_shape(board, us, Shape::Five).is_some_and(|b| {
            let theirs = board.shape(b, them);
            theirs < Shape::Block4
                && !(theirs == Shape::MaybeForbidden && makes_four(board, b, them))
        });
        board.undo();
        if quiet_block {
            return Some(5);
        }
    }
    None
}

/// Whether `color` has a possible forbidden point where it would make a four.
fn maybe_forbidden_four(board: &Board, color: Color) -> bool {
    board.count_maybe_forbidden(color) > 0
        && board.area_points().any(|p| {
            board.is_empty(p)
                && board.shape(p, color) == Shape::MaybeForbidden
                && makes_four(board, p, color)
        })
}

/// Whether `color` makes a four (one or more five points) by playing `pos`.
#[inline]
pub fn makes_four(board: &Board, pos: Pos, color: Color) -> bool {
    (0..4).any(|d| board.pattern(pos, color, d).four_count() > 0)
}

/// Against an open-four threat: the side to move's fours, and the points on the
/// opponent's threes (where it would make a four or better) after which it has no open
/// four left to make. Any other move lets the open four come, and an open four wins
/// unless a five is already waiting.
pub fn defences(board: &mut Board, out: &mut Vec<Pos>) {
    let us = board.side_to_move();
    let them = us.opp();
    out.clear();
    // Only cells where one side may make a four can defend, and the board keeps those.
    for p in board.four_cells_of_both() {
        if board.near(p) == 0 {
            continue;
        }
        let counter = makes_four(board, p, us);
        let on_a_three = (0..4).any(|d| board.pattern(p, them, d) >= Pattern::B4);
        if !(counter || on_a_three) || !is_legal(board, p, us) {
            continue;
        }
        if !counter && !board.stops_flex4(p, us) {
            continue;
        }
        out.push(p);
    }
}

/// Every legal candidate for the side to move.
pub fn legal_candidates(board: &mut Board, out: &mut Vec<Pos>) {
    let us = board.side_to_move();
    candidates(board, out);
    let mut i = 0;
    while i < out.len() {
        if is_legal(board, out[i], us) {
            i += 1;
        } else {
            out.swap_remove(i);
        }
    }
}

/// A first-guess ordering score: what the move makes for us plus what it takes from them.
#[inline]
pub fn order_score(board: &Board, pos: Pos, us: Color) -> i32 {
    let attack = board.cell_value(pos, us);
    let defence = board.cell_value(pos, us.opp());
    attack + defence * 7 / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rule: Rule, stones: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, rule);
        for &(x, y) in stones {
            b.play(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn classifies_fives_and_fours() {
        // Black: 4 in a row on row 7 with white stones elsewhere; black to move.
        let mut b = board(
            Rule::Freestyle,
            &[
                (3, 7),
                (3, 9),
                (4, 7),
                (4, 9),
                (5, 7),
                (5, 9),
                (6, 7),
                (9, 3),
            ],
        );
        assert!(
            matches!(threat(&mut b), Threat::Win(p) if p == Pos::new(2, 7) || p == Pos::new(7, 7))
        );
        // White to move faces two fives: lost.
        let mut b = board(
            Rule::Freestyle,
            &[(3, 7), (3, 9), (4, 7), (4, 9), (5, 7), (5, 9), (6, 7)],
        );
        assert_eq!(threat(&mut b), Threat::Lost);
        // White to move faces one five.
        let mut b = board(
            Rule::Freestyle,
            &[(3, 7), (3, 9), (4, 7), (4, 9), (5, 7), (2, 7), (6, 7)],
        );
        assert_eq!(threat(&mut b), Threat::BlockFive(Pos::new(7, 7)));
    }

    #[test]
    fn defences_against_an_open_three() {
        // Black's open three on row 7 (5..7), white to move with nothing of its own.
        let mut b = board(Rule::Freestyle, &[(5, 7), (0, 0), (6, 7), (14, 14), (7, 7)]);
        assert_eq!(threat(&mut b), Threat::DefendFour);
        let mut d = Vec::new();
        defences(&mut b, &mut d);
        for p in [Pos::new(4, 7), Pos::new(8, 7)] {
            assert!(d.contains(&p), "{p} missing from {d:?}");
        }
        assert!(!d.contains(&Pos::new(6, 9)));
    }

    /// Renju, white to move with a double open three at (6, 10); black has a double
    /// three at (12, 2), a possible forbidden point that makes no four, and no four
    /// anywhere: the point cannot interpose, legal or not, so the win counts.
    #[test]
    fn renju_white_wins_past_a_double_three_that_makes_no_four() {
        use crate::threat::vct::Vct;
        let mut b = board(
            Rule::Renju,
            &[
                (10, 2),
                (4, 10),
                (11, 2),
                (5, 10),
                (12, 3),
                (6, 11),
                (12, 4),
                (6, 12),
                (0, 14),
            ],
        );
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(
            b.shape(Pos::new(12, 2), Color::Black),
            Shape::MaybeForbidden
        );
        assert_eq!(b.shape(Pos::new(6, 10), Color::White), Shape::Flex3x2);
        assert_eq!(threat(&mut b), Threat::Quiet);
        assert_eq!(quick_win(&mut b), Some(5));
        assert!(
            Vct::new(1_000_000)
                .solve(&mut b, 2)
                .is_some_and(|(_, p)| p <= 5)
        );
    }

    /// Random games in every rule: wherever the shapes claim a win in five plies, the
    /// threat solver, which plays the threats out, proves one within two attacking
    /// moves (the threat and the open four or four after it), which keeps its proof
    /// within five plies. The claim must also come up often, or the check would test
    /// nothing.
    #[test]
    fn quick_wins_are_proven_by_the_threat_solver() {
        use crate::threat::vct::Vct;
        let mut rng = fastrand::Rng::with_seed(20261203);
        let mut claims = [0; 4];
        for (r, rule) in Rule::ALL.into_iter().enumerate() {
            for _ in 0..150 {
                let mut b = Board::new(15, 15, rule);
                b.play(Pos::new(7, 7));
                loop {
                    let t = threat(&mut b);
                    if t == Threat::Quiet
                        && let Some(plies) = quick_win(&mut b)
                    {
                        let proof = Vct::new(1_000_000).solve(&mut b, 2);
                        assert!(
                            proof.is_some_and(|(_, p)| p <= plies),
                            "{rule}: claimed a win in {plies}, solver found {proof:?}\n{b:?}"
                        );
                        claims[r] += 1;
                    }
                    if !matches!(t, Threat::Quiet | Threat::DefendFour) {
                        break;
                    }
                    let mut moves = Vec::new();
                    legal_candidates(&mut b, &mut moves);
                    if moves.is_empty() || b.stone_count() > 120 {
                        break;
                    }
                    // Near the last stones, so that threats build up as in real games.
                    let last = b.last_move();
                    let near: Vec<Pos> = moves
                        .iter()
                        .copied()
                        .filter(|&m| {
                            last.is_some_and(|l| {
                                m.x().abs_diff(l.x()).max(m.y().abs_diff(l.y())) <= 2
                            })
                        })
                        .collect();
                    let pool = if near.is_empty() { &moves } else { &near };
                    b.play(pool[rng.usize(0..pool.len())]);
                }
            }
        }
        // Renju black never claims: only white's wins count there.
        assert!(
            claims.iter().all(|&c| c >= 20),
            "claims per rule: {claims:?}"
        );
    }
}
