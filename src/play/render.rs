//! Drawing the board as text.
//!
//! Every point is three characters wide with the stone in the middle, so the last move
//! can be bracketed (`[X]`) in plain text, which is how it stays visible when colours
//! are off. Columns are labelled with renju letters and protocol x; rows with renju
//! numbers (counted from the bottom) and protocol y (from the top), on both sides, so a
//! point can be read off in either notation without counting.

use super::notation::{column_name, row_number};
use crate::board::Board;
use crate::types::{Color, Pos};
use std::fmt::Write;

/// Width of the row labels to the left of the first point.
const MARGIN: usize = 6;

/// ANSI styles, used only when colour is on.
const BLACK_STYLE: &str = "1;96";
const WHITE_STYLE: &str = "1;93";
const FORBIDDEN_STYLE: &str = "31";
const EMPTY_STYLE: &str = "2";
/// Added to the last stone's style.
const LAST_STYLE: &str = ";7";

/// The board with its labels; under renju black's forbidden points are marked `x`.
pub fn board(board: &Board, colour: bool) -> String {
    let (width, height) = (board.width(), board.height());
    let forbidden = board.forbidden_points();
    let mut out = String::new();
    let letters = column_labels(width, column_name);
    let numbers = column_labels(width, |x| x.to_string());
    let _ = writeln!(out, "{letters}\n{numbers}");
    for y in 0..height {
        let row = row_number(y, height);
        let _ = write!(out, "{row:>2} {y:>2} ");
        for x in 0..width {
            let pos = Pos::new(x, y);
            let (glyph, style) = match board.stone(pos) {
                Some(Color::Black) => ('X', BLACK_STYLE),
                Some(Color::White) => ('O', WHITE_STYLE),
                None if forbidden.contains(&pos) => ('x', FORBIDDEN_STYLE),
                None => ('.', EMPTY_STYLE),
            };
            let last = board.last_move() == Some(pos);
            let (open, close) = if last { ('[', ']') } else { (' ', ' ') };
            out.push(open);
            if colour {
                let extra = if last { LAST_STYLE } else { "" };
                let _ = write!(out, "\x1b[{style}{extra}m{glyph}\x1b[0m");
            } else {
                out.push(glyph);
            }
            out.push(close);
        }
        let _ = writeln!(out, "{y:>2} {row:>2}");
    }
    let _ = writeln!(out, "{numbers}\n{letters}");
    out
}

/// One header line: each label ends under the middle of its point.
fn column_labels(width: usize, label: impl Fn(usize) -> String) -> String {
    let mut line = " ".repeat(MARGIN);
    for x in 0..width {
        let _ = write!(line, "{:>2} ", label(x));
    }
    line.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn small_board_snapshot() {
        let mut b = Board::new(7, 6, Rule::Freestyle);
        b.play(Pos::new(3, 2));
        b.play(Pos::new(4, 2));
        b.play(Pos::new(0, 5));
        let expected = "       a  b  c  d  e  f  g
       0  1  2  3  4  5  6
 6  0  .  .  .  .  .  .  .  0  6
 5  1  .  .  .  .  .  .  .  1  5
 4  2  .  .  .  X  O  .  .  2  4
 3  3  .  .  .  .  .  .  .  3  3
 2  4  .  .  .  .  .  .  .  4  2
 1  5 [X] .  .  .  .  .  .  5  1
       0  1  2  3  4  5  6
       a  b  c  d  e  f  g
";
        assert_eq!(board(&b, false), expected);
    }

    #[test]
    fn renju_marks_black_forbidden_points() {
        // Black on f8 g8 (5,7 6,7) and h10 h9 (7,5 7,6): black on h8 (7,7) would make
        // two open threes.
        let mut b = Board::new(15, 15, Rule::Renju);
        for (x, y, c) in [
            (5, 7, Color::Black),
            (6, 7, Color::Black),
            (7, 5, Color::Black),
            (7, 6, Color::Black),
            (0, 0, Color::White),
            (14, 0, Color::White),
            (0, 14, Color::White),
            (14, 14, Color::White),
        ] {
            b.place(Pos::new(x, y), c);
        }
        assert!(b.is_forbidden(Pos::new(7, 7)));
        let text = board(&b, false);
        let row_h8 = text.lines().nth(2 + 7).unwrap();
        assert!(row_h8.starts_with(" 8  7 "), "{row_h8}");
        // The point under h is the 8th: margin 6, three characters per point, middle one.
        assert_eq!(row_h8.as_bytes()[MARGIN + 3 * 7 + 1], b'x', "{text}");
        assert!(!board(&Board::new(15, 15, Rule::Freestyle), false).contains('x'));
    }

    #[test]
    fn colour_codes_only_when_asked() {
        let mut b = Board::new(5, 5, Rule::Freestyle);
        b.play(Pos::new(2, 2));
        let plain = board(&b, false);
        assert!(!plain.contains('\x1b'));
        assert!(plain.contains("[X]"));
        let coloured = board(&b, true);
        assert!(coloured.contains("[\x1b[1;96;7mX\x1b[0m]"), "{coloured}");
    }
}
