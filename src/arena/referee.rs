//! The referee: an independent judge of every move, built on Tengen's board and rules.
//!
//! It knows nothing of engines or clocks. Given the next move of the side to move it
//! answers whether the game goes on, is won (a five under the rule: five or more,
//! exactly five, renju's exact five for black, caro's five not closed at both ends), is
//! drawn (the stone limit or a full board), or is lost by a fault: a point off the
//! board, an occupied point, or under renju a black move to a forbidden point
//! (double-three, double-four, overline; a move that makes exactly five is never
//! forbidden).

use crate::board::Board;
use crate::types::{Color, Pos, Rule};
use std::fmt;

/// A move that loses on the spot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    OffBoard { x: i64, y: i64 },
    Occupied { x: i64, y: i64 },
    Forbidden { x: i64, y: i64 },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::OffBoard { x, y } => write!(f, "played {x},{y} off the board"),
            Fault::Occupied { x, y } => write!(f, "played {x},{y} on an occupied point"),
            Fault::Forbidden { x, y } => write!(f, "played the forbidden point {x},{y}"),
        }
    }
}

/// What a move did to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    /// The mover made a winning five.
    Five,
    /// The stone limit was reached without a winner.
    DrawAfter(usize),
    /// No empty point is left.
    BoardFull,
    /// The mover loses.
    Fault(Fault),
}

pub struct Referee {
    board: Board,
    to_move: Color,
    draw_after: usize,
}

impl Referee {
    /// A game from an opening (stones in play order, black first), each stone judged as a
    /// move: the opening must be on the board, on distinct points, and must not already
    /// end the game (a five, a forbidden black stone, the stone limit).
    pub fn from_opening(
        width: usize,
        height: usize,
        rule: Rule,
        draw_after: usize,
        opening: &[(usize, usize)],
    ) -> Result<Referee, String> {
        let mut referee =
            Referee::with_position(width, height, rule, draw_after, &[], Color::Black)?;
        for (i, &(x, y)) in opening.iter().enumerate() {
            let color = referee.to_move;
            match referee.play(x as i64, y as i64) {
                Verdict::Continue => {}
                Verdict::Fault(fault) => {
                    return Err(format!("opening stone {} ({color}) {fault}", i + 1));
                }
                verdict => {
                    return Err(format!(
                        "opening stone {} at {x},{y} ends the game ({verdict:?})",
                        i + 1
                    ));
                }
            }
        }
        Ok(referee)
    }

    /// A game from any position (stones in any order, not judged) with `to_move` to play.
    pub fn with_position(
        width: usize,
        height: usize,
        rule: Rule,
        draw_after: usize,
        stones: &[(usize, usize, Color)],
        to_move: Color,
    ) -> Result<Referee, String> {
        let mut board = Board::new(width, height, rule);
        for &(x, y, color) in stones {
            if x >= width || y >= height {
                return Err(format!("stone {x},{y} is off the {width}x{height} board"));
            }
            let pos = Pos::new(x, y);
            if !board.is_empty(pos) {
                return Err(format!("point {x},{y} is used twice"));
            }
            board.place(pos, color);
        }
        Ok(Referee {
            board,
            to_move,
            draw_after,
        })
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn stone_count(&self) -> usize {
        self.board.stone_count()
    }

    /// The stones in the order they were placed.
    pub fn stones(&self) -> &[(Pos, Color)] {
        self.board.stones()
    }

    /// Judges a move of the side to move and, unless it is a fault, plays it.
    pub fn play(&mut self, x: i64, y: i64) -> Verdict {
        let on_board = i32::try_from(x)
            .ok()
            .zip(i32::try_from(y).ok())
            .is_some_and(|(x, y)| self.board.contains(x, y));
        if !on_board {
            return Verdict::Fault(Fault::OffBoard { x, y });
        }
        let pos = Pos::new(x as usize, y as usize);
        if !self.board.is_empty(pos) {
            return Verdict::Fault(Fault::Occupied { x, y });
        }
        let color = self.to_move;
        if color == Color::Black && self.board.is_forbidden_mut(pos) {
            return Verdict::Fault(Fault::Forbidden { x, y });
        }
        self.board.place(pos, color);
        self.to_move = color.opp();
        if self.board.winner() == Some(color) {
            Verdict::Five
        } else if self.draw_after > 0 && self.board.stone_count() >= self.draw_after {
            Verdict::DrawAfter(self.draw_after)
        } else if self.board.is_full() {
            Verdict::BoardFull
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::records;

    fn referee(rule: Rule, moves: &[(usize, usize)]) -> Referee {
        Referee::from_opening(15, 15, rule, 0, moves).unwrap()
    }

    /// A shared-data record's stones, black's then white's.
    fn record_stones(r: &crate::testdata::Json) -> Vec<(usize, usize, Color)> {
        let black = r
            .get("black")
            .as_points()
            .into_iter()
            .map(|p| (p, Color::Black));
        let white = r
            .get("white")
            .as_points()
            .into_iter()
            .map(|p| (p, Color::White));
        black.chain(white).map(|(p, c)| (p.x(), p.y(), c)).collect()
    }

    /// Every record of the shared renju data: black's move on a forbidden point loses, a
    /// move on any other empty point does not.
    #[test]
    fn forbidden_moves_lose_as_the_shared_rulings_say() {
        let recs = records("renju_forbidden.jsonl");
        assert_eq!(recs.len(), 329);
        let mut wrong = Vec::new();
        for r in &recs {
            let stones = record_stones(r);
            let size = r.get("size").as_i64() as usize;
            let mut referee =
                Referee::with_position(size, size, Rule::Renju, 0, &stones, Color::Black).unwrap();
            let point = r.get("point").as_point();
            let (x, y) = (point.x() as i64, point.y() as i64);
            let verdict = referee.play(x, y);
            let lost = verdict == Verdict::Fault(Fault::Forbidden { x, y });
            if lost != r.get("forbidden").as_bool()
                || matches!(verdict, Verdict::Fault(Fault::Occupied { .. }))
            {
                wrong.push(format!("{} {x},{y}: {verdict:?}", r.get("id").as_str()));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} wrong:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn same_points_are_free_for_white_and_under_other_rules() {
        let r = &records("renju_forbidden.jsonl")[0];
        assert!(r.get("forbidden").as_bool());
        let point = r.get("point").as_point();
        let stones = record_stones(r);
        let (x, y) = (point.x() as i64, point.y() as i64);
        let mut white =
            Referee::with_position(15, 15, Rule::Renju, 0, &stones, Color::White).unwrap();
        assert!(!matches!(white.play(x, y), Verdict::Fault(_)));
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
            let mut black = Referee::with_position(15, 15, rule, 0, &stones, Color::Black).unwrap();
            assert!(!matches!(black.play(x, y), Verdict::Fault(_)), "{rule}");
        }
    }

    /// Black on row 7 at x = 3, 4, 6, 7 (and 8 when `six`), white spread out on row 0;
    /// black to play, and 5,7 fills the line.
    fn line_game(rule: Rule, six: bool) -> Referee {
        let mut moves = Vec::new();
        let black: Vec<usize> = if six {
            vec![3, 4, 6, 7, 8]
        } else {
            vec![3, 4, 6, 7]
        };
        for (i, &x) in black.iter().enumerate() {
            moves.push((x, 7));
            moves.push((2 * i, 0));
        }
        referee(rule, &moves)
    }

    #[test]
    fn fives_under_each_rule() {
        for rule in Rule::ALL {
            assert_eq!(line_game(rule, false).play(5, 7), Verdict::Five, "{rule}");
        }
        // Six in a row: a win for freestyle and caro, nothing under standard, and a
        // forbidden overline for black under renju.
        assert_eq!(line_game(Rule::Freestyle, true).play(5, 7), Verdict::Five);
        assert_eq!(line_game(Rule::Caro, true).play(5, 7), Verdict::Five);
        assert_eq!(
            line_game(Rule::Standard, true).play(5, 7),
            Verdict::Continue
        );
        assert_eq!(
            line_game(Rule::Renju, true).play(5, 7),
            Verdict::Fault(Fault::Forbidden { x: 5, y: 7 })
        );
    }

    #[test]
    fn white_overline_wins_under_renju() {
        // White: x = 3,4,6,7,8 on row 7; black scattered (no threats); white plays 5,7.
        let white = [3, 4, 6, 7, 8];
        let mut moves = Vec::new();
        for (i, &x) in white.iter().enumerate() {
            moves.push((2 * i, 0));
            moves.push((x, 7));
        }
        moves.push((1, 14));
        let mut r = referee(Rule::Renju, &moves);
        assert_eq!(r.to_move(), Color::White);
        assert_eq!(r.play(5, 7), Verdict::Five);
    }

    #[test]
    fn caro_five_closed_at_both_ends_does_not_win() {
        // White stones at 2,7 and 8,7 close both ends of black's 3..=7 line.
        let moves = [
            (3, 7),
            (2, 7),
            (4, 7),
            (8, 7),
            (6, 7),
            (0, 0),
            (7, 7),
            (2, 0),
        ];
        assert_eq!(referee(Rule::Caro, &moves).play(5, 7), Verdict::Continue);
        assert_eq!(referee(Rule::Freestyle, &moves).play(5, 7), Verdict::Five);
    }

    #[test]
    fn illegal_points() {
        let mut r = referee(Rule::Freestyle, &[(7, 7)]);
        assert_eq!(r.play(7, 7), Verdict::Fault(Fault::Occupied { x: 7, y: 7 }));
        assert_eq!(
            r.play(15, 0),
            Verdict::Fault(Fault::OffBoard { x: 15, y: 0 })
        );
        assert_eq!(
            r.play(-1, 3),
            Verdict::Fault(Fault::OffBoard { x: -1, y: 3 })
        );
        assert_eq!(
            r.play(1 << 40, 3),
            Verdict::Fault(Fault::OffBoard { x: 1 << 40, y: 3 })
        );
        // A fault leaves the game as it was.
        assert_eq!(r.to_move(), Color::White);
        assert_eq!(r.stone_count(), 1);
        assert_eq!(r.play(7, 8), Verdict::Continue);
        assert_eq!(r.to_move(), Color::Black);
    }

    #[test]
    fn draws() {
        let mut r =
            Referee::from_opening(15, 15, Rule::Renju, 4, &[(7, 7), (7, 8), (9, 9)]).unwrap();
        assert_eq!(r.play(0, 0), Verdict::DrawAfter(4));
        // Fill a 5x5 board column by column, two columns at a time per colour, so that
        // no line of five ever forms; the last stone fills it.
        let mut order = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                order.push((x, y));
            }
        }
        // Colour pattern by (x / 2 + y) parity breaks every row, column and diagonal.
        let black: Vec<_> = order
            .iter()
            .copied()
            .filter(|&(x, y)| (x / 2 + y) % 2 == 0)
            .collect();
        let white: Vec<_> = order
            .iter()
            .copied()
            .filter(|&(x, y)| (x / 2 + y) % 2 == 1)
            .collect();
        assert_eq!(black.len(), 13);
        let mut moves = Vec::new();
        for i in 0..12 {
            moves.push(black[i]);
            moves.push(white[i]);
        }
        let mut r = Referee::from_opening(5, 5, Rule::Freestyle, 0, &moves).unwrap();
        assert_eq!(
            r.play(black[12].0 as i64, black[12].1 as i64),
            Verdict::BoardFull
        );
    }

    #[test]
    fn bad_openings_are_refused() {
        assert!(Referee::from_opening(15, 15, Rule::Freestyle, 0, &[(15, 0)]).is_err());
        assert!(Referee::from_opening(15, 15, Rule::Freestyle, 0, &[(1, 1), (1, 1)]).is_err());
        let won = [
            (0, 0),
            (0, 5),
            (1, 0),
            (1, 5),
            (2, 0),
            (2, 5),
            (3, 0),
            (3, 5),
            (4, 0),
        ];
        assert!(Referee::from_opening(15, 15, Rule::Freestyle, 0, &won).is_err());
    }
}
