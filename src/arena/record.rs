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
//!
//! `read` takes either format back to its stones, for the terminal mode's `load`.

use super::game::{GameRecord, Reason};
use crate::types::{Color, MAX_SIZE, MIN_SIZE, Rule};
use anyhow::{Context, Result, bail};
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
fn coordinate(c: char) -> Option<usize> {
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

/// The stones of a game record, as `read` finds them.
#[derive(Debug, PartialEq, Eq)]
pub struct Replay {
    pub width: usize,
    pub height: usize,
    /// The rule an SGF record names (`RU`); PSQ records name none.
    pub rule: Option<Rule>,
    /// Points (x, y from the top-left, from 0) in play order, black first.
    pub moves: Vec<(usize, usize)>,
}

/// Reads an SGF or PSQ record (as `sgf` and `psq` write them, and as Piskvork saves
/// them) back to its board size, rule and moves. Points are checked against the board;
/// whether the moves make a legal game is the caller's business.
pub fn read(text: &str) -> Result<Replay> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let replay = if text.starts_with('(') {
        read_sgf(text)?
    } else if text.starts_with("Piskvorky") {
        read_psq(text)?
    } else {
        bail!("neither an SGF record (starting with \"(;\") nor a PSQ one (\"Piskvorky\")");
    };
    let sides = MIN_SIZE..=MAX_SIZE;
    if !sides.contains(&replay.width) || !sides.contains(&replay.height) {
        bail!(
            "the board is {}x{}; sides go from {MIN_SIZE} to {MAX_SIZE}",
            replay.width,
            replay.height
        );
    }
    if let Some(n) = replay
        .moves
        .iter()
        .position(|&(x, y)| x >= replay.width || y >= replay.height)
    {
        let (x, y) = replay.moves[n];
        bail!("move {} ({x},{y}) is off the board", n + 1);
    }
    Ok(replay)
}

fn read_sgf(text: &str) -> Result<Replay> {
    let nodes = parse_sgf(text)?;
    let root = nodes.first().context("no node")?;
    let get = |key: &str| sgf_property(root, key).map(str::trim);
    let (width, height) = sgf_size(root)?;
    let rule = get("RU").and_then(|ru| {
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(ru))
    });
    let mut moves = Vec::new();
    for node in &nodes {
        if node.iter().any(|(k, _)| k == "AB" || k == "AW") {
            bail!("setup stones (AB, AW) are not supported, only moves (B, W)");
        }
        let Some((key, point)) = node.iter().find(|(k, _)| k == "B" || k == "W") else {
            continue;
        };
        let black = moves.len() % 2 == 0;
        if (key == "B") != black {
            bail!(
                "move {} is {key}[{point}], but {} is to move",
                moves.len() + 1,
                if black { "black" } else { "white" }
            );
        }
        let Some(xy) = sgf_point(point) else {
            bail!("move {} has no point: {key}[{point}]", moves.len() + 1);
        };
        moves.push(xy);
    }
    Ok(Replay {
        width,
        height,
        rule,
        moves,
    })
}

/// A finished game's result as `sgf` writes it in `RE`: black's points (1, ½ or 0) and
/// whether the game ended on the board (a five, or a draw) rather than by time or a
/// fault. `None` for a void game and for anything `sgf` does not write.
pub(crate) fn sgf_result(re: &str) -> Option<(f64, bool)> {
    let (points, how) = match re.split_once('+') {
        None if re == "0" => return Some((0.5, true)),
        None => return None,
        Some(("B", how)) => (1.0, how),
        Some(("W", how)) => (0.0, how),
        Some(_) => return None,
    };
    match how {
        "" => Some((points, true)),
        "T" | "F" => Some((points, false)),
        _ => None,
    }
}

/// The value of a node's property `key`, as written.
pub(crate) fn sgf_property<'a>(node: &'a [(String, String)], key: &str) -> Option<&'a str> {
    node.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// The board size an SGF root node gives in `SZ` (`N` or `W:H`), or SGF's default for
/// Gomoku boards, 15, when it gives none.
pub(crate) fn sgf_size(root: &[(String, String)]) -> Result<(usize, usize)> {
    let size = |v: &str| {
        v.parse::<usize>()
            .with_context(|| format!("bad size {v:?}"))
    };
    match sgf_property(root, "SZ").map(str::trim) {
        None => Ok((15, 15)),
        Some(sz) => match sz.split_once(':') {
            Some((w, h)) => Ok((size(w)?, size(h)?)),
            None => Ok((size(sz)?, size(sz)?)),
        },
    }
}

/// The point (x, y) of an SGF move's value: two coordinate letters, or `None`.
pub(crate) fn sgf_point(value: &str) -> Option<(usize, usize)> {
    let coords: Vec<usize> = value.chars().map(coordinate).collect::<Option<_>>()?;
    match coords[..] {
        [x, y] => Some((x, y)),
        _ => None,
    }
}

fn read_psq(text: &str) -> Result<Replay> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    // "Piskvorky 20x15, 11:11, 0"
    let dims = header
        .split_whitespace()
        .nth(1)
        .map(|d| d.trim_end_matches(','))
        .and_then(|d| d.split_once('x'))
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
    let Some((width, height)) = dims else {
        bail!("the first line gives no board size: {header:?}");
    };
    // Moves are `x,y,ms` from 1; the players' names and the final codes follow.
    let moves = lines
        .map_while(|line| {
            let fields: Vec<usize> = line
                .trim()
                .split(',')
                .map(|f| f.trim().parse().ok())
                .collect::<Option<_>>()?;
            match fields[..] {
                [x, y] | [x, y, _] if x >= 1 && y >= 1 => Some((x - 1, y - 1)),
                _ => None,
            }
        })
        .collect();
    Ok(Replay {
        width,
        height,
        rule: None,
        moves,
    })
}

/// The nodes of a single-line SGF game, each a list of (property, value) pairs.
pub(crate) fn parse_sgf(text: &str) -> Result<Vec<Vec<(String, String)>>> {
    let mut nodes: Vec<Vec<(String, String)>> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut ident = String::new();
    while let Some(c) = chars.next() {
        match c {
            ';' => nodes.push(Vec::new()),
            'A'..='Z' => ident.push(c),
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some('\\') => value.extend(chars.next()),
                        Some(']') => break,
                        Some(c) => value.push(c),
                        None => bail!("unterminated value"),
                    }
                }
                let node = nodes.last_mut().context("property before the first node")?;
                node.push((ident.clone(), value));
                // A property may hold several values; the identifier stays until the next.
                if chars.peek() != Some(&'[') {
                    ident.clear();
                }
            }
            _ => ident.clear(),
        }
    }
    Ok(nodes)
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
    fn every_result_sgf_writes_reads_back() {
        let timeout = Reason::Timeout {
            elapsed_ms: Some(3),
            allowed_ms: 1,
        };
        let fault = Reason::Fault(Fault::Occupied { x: 1, y: 1 });
        for (winner, reason, expected) in [
            (Some(Color::Black), Reason::Five, Some((1.0, true))),
            (Some(Color::White), Reason::Five, Some((0.0, true))),
            (Some(Color::Black), timeout, Some((1.0, false))),
            (Some(Color::White), fault, Some((0.0, false))),
            (None, Reason::DrawAfter(200), Some((0.5, true))),
            (None, Reason::BoardFull, Some((0.5, true))),
            (None, Reason::Aborted, None),
        ] {
            let text = sgf(&header(15, 15), &game(winner, reason));
            let nodes = parse_sgf(&text).unwrap();
            let re = sgf_property(&nodes[0], "RE").unwrap();
            assert_eq!(sgf_result(re), expected, "RE[{re}]");
        }
        for other in ["B+R", "W+3.5", "B", "Draw", "?", ""] {
            assert_eq!(sgf_result(other), None, "RE[{other}]");
        }
    }

    #[test]
    fn psq_is_what_piskvork_reads() {
        let text = psq(&header(20, 15), &game(None, Reason::BoardFull));
        assert_eq!(
            text,
            "Piskvorky 20x15, 11:11, 0\n8,8,0\n9,8,0\n8,9,1\n28,1,20\nNew\nOld\n-1\n"
        );
    }

    #[test]
    fn records_read_back_to_their_stones() {
        let finished = game(Some(Color::White), Reason::Five);
        let stones = vec![(7, 7), (8, 7), (7, 8), (27, 0)];
        let back = read(&sgf(&header(32, 20), &finished)).unwrap();
        assert_eq!(
            back,
            Replay {
                width: 32,
                height: 20,
                rule: Some(Rule::Renju),
                moves: stones.clone(),
            }
        );
        let back = read(&psq(&header(32, 20), &finished)).unwrap();
        assert_eq!((back.width, back.height, back.rule), (32, 20, None));
        assert_eq!(back.moves, stones);
    }

    #[test]
    fn piskvork_and_other_sgf_records_read() {
        // As Piskvork saves a game: moves from 1 with times, then names and codes.
        let psq =
            "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,312\r\n8,9,5\r\npbrain-a.exe\r\n-1\r\n";
        assert_eq!(read(psq).unwrap().moves, vec![(7, 7), (8, 8), (7, 8)]);
        // No size means 15; other programs' rule names are not ours; comments may hold
        // semicolons and escaped brackets.
        let sgf = "(;GM[4]RU[RIF];B[hh]C[a;b \\] c];W[ii])";
        assert_eq!(
            read(sgf).unwrap(),
            Replay {
                width: 15,
                height: 15,
                rule: None,
                moves: vec![(7, 7), (8, 8)],
            }
        );
        assert_eq!(
            read("(;SZ[15]RU[Freestyle])").unwrap().rule,
            Some(Rule::Freestyle)
        );
    }

    #[test]
    fn bad_records_are_explained() {
        let error = |text: &str| format!("{:#}", read(text).unwrap_err());
        assert!(error("hello").contains("neither an SGF record"));
        assert!(error("(;SZ[4])").contains("the board is 4x4"));
        assert!(error("(;SZ[9:40])").contains("the board is 9x40"));
        assert!(error("(;SZ[15];B[hh];B[ii])").contains("move 2 is B[ii], but white is to move"));
        assert!(error("(;SZ[15];B[])").contains("move 1 has no point"));
        assert!(error("(;SZ[15]AB[hh];W[ii])").contains("setup stones"));
        assert!(error("(;SZ[9];B[hh];W[jj])").contains("move 2 (9,9) is off the board"));
        assert!(error("(;SZ[big])").contains("bad size"));
        assert!(error("(;SZ[15];B[hh]C[open").contains("unterminated"));
        assert!(error("Piskvorky 15x, 11:11, 0\n").contains("no board size"));
        assert!(error("Piskvorky 10x10, 11:11, 0\n11,1,0\n").contains("off the board"));
    }
}
