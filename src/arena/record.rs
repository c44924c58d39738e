//! Game records a person can replay: SGF (FF[4], GM[4] = Gomoku/Renju) and Piskvork's
//! PSQ.
//!
//! SGF writes the opening and the moves as a single line of play, with the result in
//! `RE` (`B+`/`W+`, `+T` for time, `+F` for a forfeit by fault, `0` for a draw) and the
//! reason in the root comment; each move's comment holds its thinking time and the
//! engine's MESSAGE lines. Points are letters from the top-left corner, `a`–`z` then
//! `A`–`Z` (FF[4]'s extension for boards over 26), x first, so `hh` is 7,7.
//!
//! PSQ is what Piskvork's "open" reads: a header `Piskvorky WxH, 11:11, 0`, one `x,y,ms`
//! line per stone with coordinates from 1, the two players' names (black first) and a
//! final code line (`-1`, as GomocupJudge writes).

use super::game::{GameRecord, Reason};
use crate::types::{Color, Rule};
use std::fmt::Write;

/// What a record needs besides the game itself.
pub struct Header<'a> {
    /// The program that played the game (SGF `AP`).
    pub application: &'a str,
    pub number: usize,
    pub black: &'a str,
    pub white: &'a str,
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// A line describing how the game ended.
    pub summary: &'a str,
}

pub fn sgf(header: &Header, game: &GameRecord) -> String {
    let mut out = String::new();
    let size = if header.width == header.height {
        header.width.to_string()
    } else {
        format!("{}:{}", header.width, header.height)
    };
    let result = match (game.outcome.winner, &game.outcome.reason) {
        (None, Reason::Aborted) => "Void".to_string(),
        (None, _) => "0".to_string(),
        (Some(winner), reason) => {
            let side = if winner == Color::Black { "B" } else { "W" };
            let how = match reason {
                Reason::Five => "",
                Reason::Timeout { .. } => "T",
                _ => "F",
            };
            format!("{side}+{how}")
        }
    };
    let _ = write!(
        out,
        "(;FF[4]GM[4]CA[UTF-8]AP[{}]SZ[{size}]RU[{}]GN[game {}]PB[{}]PW[{}]RE[{result}]C[{}]",
        escape(header.application),
        header.rule,
        header.number,
        escape(header.black),
        escape(header.white),
        escape(header.summary)
    );
    for (i, &(x, y)) in game.opening.iter().enumerate() {
        let side = if i % 2 == 0 { "B" } else { "W" };
        let _ = write!(
            out,
            "\n;{side}[{}{}]C[opening]",
            letter(x as i64),
            letter(y as i64)
        );
    }
    for m in &game.moves {
        let side = if m.color == Color::Black { "B" } else { "W" };
        let mut comment = format!("{:.1} ms", m.micros as f64 / 1000.0);
        for message in &m.messages {
            comment.push('\n');
            comment.push_str(message);
        }
        let _ = write!(
            out,
            "\n;{side}[{}{}]C[{}]",
            letter(m.x),
            letter(m.y),
            escape(&comment)
        );
    }
    out.push_str(")\n");
    out
}

pub fn psq(header: &Header, game: &GameRecord) -> String {
    let mut out = format!("Piskvorky {}x{}, 11:11, 0\n", header.width, header.height);
    for &(x, y) in &game.opening {
        let _ = writeln!(out, "{},{},0", x + 1, y + 1);
    }
    for m in &game.moves {
        let _ = writeln!(out, "{},{},{}", m.x + 1, m.y + 1, m.micros / 1000);
    }
    let _ = writeln!(
        out,
        "{}\n{}\n-1",
        one_line(header.black),
        one_line(header.white)
    );
    out
}

/// An SGF point coordinate (the caller only passes points on a board of at most 32).
fn letter(v: i64) -> char {
    match v {
        0..=25 => char::from(b'a' + v as u8),
        _ => char::from(b'A' + (v - 26) as u8),
    }
}

/// The coordinate an SGF point letter stands for: the inverse of `letter`.
pub(crate) fn coordinate(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// SGF text values escape `]` and `\`.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::{MoveRecord, Outcome};
    use crate::arena::referee::Fault;
    use std::time::Duration;

    #[test]
    fn point_letters_read_back() {
        for v in 0..32 {
            assert_eq!(coordinate(letter(v)), Some(v as usize));
        }
        assert_eq!(coordinate('1'), None);
    }

    fn game(winner: Option<Color>, reason: Reason) -> GameRecord {
        GameRecord {
            opening: vec![(7, 7), (8, 7)],
            moves: vec![
                MoveRecord {
                    x: 7,
                    y: 8,
                    color: Color::Black,
                    micros: 1500,
                    messages: vec!["depth 3]".into()],
                },
                MoveRecord {
                    x: 27,
                    y: 0,
                    color: Color::White,
                    micros: 20_000,
                    messages: vec![],
                },
            ],
            outcome: Outcome { winner, reason },
            stones: 4,
            started: [None, None],
            restarted: [false; 2],
            duration: Duration::from_secs(1),
            startup: Duration::ZERO,
            transcript: None,
        }
    }

    fn header(width: usize, height: usize) -> Header<'static> {
        Header {
            application: "Tengen arena",
            number: 3,
            black: "New",
            white: "Old",
            width,
            height,
            rule: Rule::Renju,
            summary: "Old (white) played the forbidden point 1,1",
        }
    }

    #[test]
    fn sgf_holds_result_moves_and_comments() {
        let text = sgf(
            &header(32, 32),
            &game(
                Some(Color::Black),
                Reason::Fault(Fault::Occupied { x: 1, y: 1 }),
            ),
        );
        assert!(text.starts_with(
            "(;FF[4]GM[4]CA[UTF-8]AP[Tengen arena]SZ[32]RU[renju]GN[game 3]PB[New]PW[Old]RE[B+F]"
        ));
        assert!(text.contains(
            "\n;B[hh]C[opening]\n;W[ih]C[opening]\n;B[hi]C[1.5 ms\ndepth 3\\]]\n;W[Ba]C[20.0 ms])\n"
        ));
        let rect = sgf(
            &header(20, 15),
            &game(
                Some(Color::White),
                Reason::Timeout {
                    elapsed_ms: None,
                    allowed_ms: 1,
                },
            ),
        );
        assert!(rect.contains("SZ[20:15]") && rect.contains("RE[W+T]"));
        assert!(sgf(&header(15, 15), &game(Some(Color::White), Reason::Five)).contains("RE[W+]"));
        assert!(sgf(&header(15, 15), &game(None, Reason::DrawAfter(200))).contains("RE[0]"));
    }

    #[test]
    fn psq_is_what_piskvork_reads() {
        let text = psq(&header(20, 15), &game(None, Reason::BoardFull));
        assert_eq!(
            text,
            "Piskvorky 20x15, 11:11, 0\n8,8,0\n9,8,0\n8,9,1\n28,1,20\nNew\nOld\n-1\n"
        );
    }
}
