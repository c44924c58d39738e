//! The two ways a point is written in play mode, and what a typed line means.
//!
//! Renju notation names a column by letters (`a` is x = 0) and a row by a number counted
//! from the bottom, so `a1` is the bottom-left corner and `h8` the centre of 15×15: the
//! way renju players write moves and the way the board is drawn. The protocol writes
//! `x,y` from 0 with y counted from the top, as Piskvork shows it. Columns past `z`
//! (boards wider than 26) continue `aa`, `ab`, … so letters never change meaning with
//! case, and every input is read case-insensitively.
//!
//! The arena's `pos` opening format counts its numbers from the top instead (its `a1` is
//! 0,0): it is this notation mirrored top to bottom.

use std::path::PathBuf;

/// The letters of column `x`: `a`–`z`, then `aa`, `ab`, ….
pub fn column_name(x: usize) -> String {
    let mut letters = Vec::new();
    let mut n = x + 1;
    while n > 0 {
        n -= 1;
        letters.push(char::from(b'a' + (n % 26) as u8));
        n /= 26;
    }
    letters.iter().rev().collect()
}

/// The renju row number of protocol row `y` on a board `height` rows high.
pub fn row_number(y: usize, height: usize) -> usize {
    height - y
}

/// `h8` for the point 7,7 of a 15-row board.
pub fn renju_name(x: usize, y: usize, height: usize) -> String {
    format!("{}{}", column_name(x), row_number(y, height))
}

/// Both notations, the way the game prints every point: `h8 (7,7)`.
pub fn point_name(x: usize, y: usize, height: usize) -> String {
    format!("{} ({x},{y})", renju_name(x, y, height))
}

/// Why typed text is not a point of the board.
#[derive(Debug, PartialEq, Eq)]
pub enum PointError {
    /// The text is not written in either notation.
    NotAPoint,
    /// A point in one of the notations, but not on this board; the text says which.
    OffBoard(String),
}

/// Reads `h8` or `7,7` (any case, spaces around the numbers allowed) as x, y from 0.
pub fn parse_point(text: &str, width: usize, height: usize) -> Result<(usize, usize), PointError> {
    let text = text.trim().to_ascii_lowercase();
    if let Some((x, y)) = text.split_once(',') {
        let (Ok(x), Ok(y)) = (x.trim().parse::<i64>(), y.trim().parse::<i64>()) else {
            return Err(PointError::NotAPoint);
        };
        if !(0..width as i64).contains(&x) || !(0..height as i64).contains(&y) {
            return Err(PointError::OffBoard(format!(
                "{x},{y} is off the board (x from 0 to {}, y from 0 to {})",
                width - 1,
                height - 1
            )));
        }
        return Ok((x as usize, y as usize));
    }
    let digits = text
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(text.len());
    let (letters, number) = text.split_at(digits);
    if letters.is_empty()
        || letters.len() > 2
        || !letters.bytes().all(|b| b.is_ascii_lowercase())
        || number.is_empty()
        || !number.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(PointError::NotAPoint);
    }
    let x = letters
        .bytes()
        .fold(0, |n, b| n * 26 + usize::from(b - b'a') + 1)
        - 1;
    let row: usize = number.parse().unwrap_or(usize::MAX);
    if x >= width || row == 0 || row > height {
        return Err(PointError::OffBoard(format!(
            "{text} is off the board (columns a to {}, rows 1 to {height})",
            column_name(width - 1)
        )));
    }
    Ok((x, height - row))
}

/// What a line typed at the prompt asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Move(usize, usize),
    Undo,
    Restart,
    Hint,
    Save(PathBuf),
    Load(PathBuf),
    Help,
    Quit,
}

/// Reads one line. `Ok(None)` for a blank line; `Err` says what is wrong with the line.
pub fn parse_input(line: &str, width: usize, height: usize) -> Result<Option<Input>, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    let command = match word.to_ascii_lowercase().as_str() {
        "" => return Ok(None),
        "undo" => Input::Undo,
        "restart" => Input::Restart,
        "hint" => Input::Hint,
        "help" | "?" => Input::Help,
        "quit" | "exit" => Input::Quit,
        "save" | "load" if rest.is_empty() => {
            return Err(format!("{word} needs a file name: {word} FILE"));
        }
        // The file name keeps its case and any spaces inside it.
        "save" => return Ok(Some(Input::Save(PathBuf::from(rest)))),
        "load" => return Ok(Some(Input::Load(PathBuf::from(rest)))),
        _ => {
            return match parse_point(line, width, height) {
                Ok((x, y)) => Ok(Some(Input::Move(x, y))),
                Err(PointError::OffBoard(why)) => Err(why),
                Err(PointError::NotAPoint) => Err(format!(
                    "{line:?} is neither a move (like h8 or 7,7) nor a command; type help"
                )),
            };
        }
    };
    if rest.is_empty() {
        Ok(Some(command))
    } else {
        Err(format!("{word} takes no argument"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_run_past_z_without_capitals() {
        let names: Vec<String> = [0, 7, 14, 25, 26, 31].map(column_name).to_vec();
        assert_eq!(names, ["a", "h", "o", "z", "aa", "af"]);
    }

    #[test]
    fn renju_rows_count_from_the_bottom() {
        assert_eq!(renju_name(7, 7, 15), "h8");
        assert_eq!(renju_name(0, 14, 15), "a1");
        assert_eq!(renju_name(0, 0, 15), "a15");
        assert_eq!(renju_name(19, 0, 20), "t20");
        assert_eq!(point_name(8, 3, 15), "i12 (8,3)");
        assert_eq!(point_name(26, 31, 32), "aa1 (26,31)");
    }

    #[test]
    fn both_notations_read_the_same_points_in_any_case() {
        for text in ["h8", "H8", " 7,7 ", "7, 7"] {
            assert_eq!(parse_point(text, 15, 15), Ok((7, 7)), "{text}");
        }
        assert_eq!(parse_point("a1", 15, 15), Ok((0, 14)));
        assert_eq!(parse_point("O15", 15, 15), Ok((14, 0)));
        assert_eq!(parse_point("0,14", 15, 15), Ok((0, 14)));
        assert_eq!(parse_point("AF32", 32, 32), Ok((31, 0)));
        assert_eq!(parse_point("aa1", 27, 10), Ok((26, 9)));
        // A rectangle: letters follow the width, numbers the height.
        assert_eq!(parse_point("t1", 20, 15), Ok((19, 14)));
    }

    #[test]
    fn every_point_reads_back_from_its_names() {
        for (w, h) in [(15, 15), (32, 20), (5, 32)] {
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(parse_point(&renju_name(x, y, h), w, h), Ok((x, y)));
                    assert_eq!(parse_point(&format!("{x},{y}"), w, h), Ok((x, y)));
                }
            }
        }
    }

    #[test]
    fn points_off_the_board_say_so() {
        for text in ["p8", "h16", "h0", "15,0", "0,15", "-1,3", "aa1"] {
            assert!(
                matches!(parse_point(text, 15, 15), Err(PointError::OffBoard(_))),
                "{text}"
            );
        }
        let Err(PointError::OffBoard(why)) = parse_point("P8", 15, 15) else {
            panic!()
        };
        assert_eq!(why, "p8 is off the board (columns a to o, rows 1 to 15)");
    }

    #[test]
    fn text_that_is_no_point_is_told_apart() {
        for text in ["", "h", "8", "h8x", "8h", "7,", "7,x", "abc1", "h 8", "h-8"] {
            assert_eq!(
                parse_point(text, 15, 15),
                Err(PointError::NotAPoint),
                "{text}"
            );
        }
    }

    #[test]
    fn commands_are_case_insensitive_and_files_keep_their_case() {
        let parse = |line| parse_input(line, 15, 15);
        assert_eq!(parse("UNDO"), Ok(Some(Input::Undo)));
        assert_eq!(parse(" Restart "), Ok(Some(Input::Restart)));
        assert_eq!(parse("hint"), Ok(Some(Input::Hint)));
        assert_eq!(parse("help"), Ok(Some(Input::Help)));
        assert_eq!(parse("Quit"), Ok(Some(Input::Quit)));
        assert_eq!(
            parse("SAVE My Game.psq"),
            Ok(Some(Input::Save("My Game.psq".into())))
        );
        assert_eq!(
            parse("Load ../Games/A.SGF"),
            Ok(Some(Input::Load("../Games/A.SGF".into())))
        );
        assert_eq!(parse("H8"), Ok(Some(Input::Move(7, 7))));
        assert_eq!(parse("7, 8"), Ok(Some(Input::Move(7, 8))));
        assert_eq!(parse("   "), Ok(None));
    }

    #[test]
    fn bad_lines_are_explained() {
        let parse = |line| parse_input(line, 15, 15);
        assert!(parse("save").unwrap_err().contains("file name"));
        assert_eq!(
            parse("load "),
            Err("load needs a file name: load FILE".into())
        );
        assert!(parse("undo 2").unwrap_err().contains("no argument"));
        assert!(parse("z9").unwrap_err().contains("off the board"));
        assert!(parse("resign").unwrap_err().contains("type help"));
    }
}
