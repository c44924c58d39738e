//! Opening files and board symmetries.
//!
//! The two plain-text formats c-gomoku-cli reads, one opening per line, stones in play
//! order (black first):
//!
//! * **offset**: `dx,dy, dx,dy, …`, each stone relative to the point
//!   (⌊width/2⌋, ⌊height/2⌋), so one file serves several board sizes;
//! * **pos**: `a1`-style points run together (`h8i9j7`): the letter is x from `a`, the
//!   number is y counted from 1.
//!
//! Blank lines and lines starting with `#` are skipped. Symmetries act on absolute
//! coordinates (mirroring about the real middle of the board), so a transformed opening
//! stays on the board even when the board side is even.

use anyhow::{Context, Result, bail};
use std::path::Path;

/// How an opening file writes its stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Offset,
    Pos,
}

impl Format {
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "offset" => Some(Format::Offset),
            "pos" => Some(Format::Pos),
            _ => None,
        }
    }
}

/// One opening as written in the file, before it is put on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Line number in the file, from 1, for messages.
    pub line: usize,
    format: Format,
    /// Offsets from the centre (offset format) or absolute points (pos format).
    stones: Vec<(i32, i32)>,
}

impl Opening {
    /// The stones as absolute points on a `width` × `height` board, checked to be on the
    /// board and distinct.
    pub fn place(&self, width: usize, height: usize) -> Result<Vec<(usize, usize)>, String> {
        let (cx, cy) = match self.format {
            Format::Offset => ((width / 2) as i32, (height / 2) as i32),
            Format::Pos => (0, 0),
        };
        let mut placed: Vec<(usize, usize)> = Vec::with_capacity(self.stones.len());
        for &(a, b) in &self.stones {
            let (x, y) = (cx + a, cy + b);
            if x < 0 || y < 0 || x >= width as i32 || y >= height as i32 {
                return Err(format!(
                    "opening on line {}: stone {x},{y} is off the {width}x{height} board",
                    self.line
                ));
            }
            let point = (x as usize, y as usize);
            if placed.contains(&point) {
                return Err(format!(
                    "opening on line {}: point {x},{y} is used twice",
                    self.line
                ));
            }
            placed.push(point);
        }
        Ok(placed)
    }
}

/// Reads an opening file. With `format` `None` each line's format is recognised from its
/// first character (a letter means pos).
pub fn load(path: &Path, format: Option<Format>) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read opening file {}", path.display()))?;
    let openings = parse(&text, format).with_context(|| format!("in {}", path.display()))?;
    if openings.is_empty() {
        bail!("{} holds no openings", path.display());
    }
    Ok(openings)
}

/// Parses the text of an opening file.
pub fn parse(text: &str, format: Option<Format>) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let format = format.unwrap_or(if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
            Format::Pos
        } else {
            Format::Offset
        });
        let stones = match format {
            Format::Offset => parse_offsets(line),
            Format::Pos => parse_points(line),
        }
        .with_context(|| format!("line {}: {line:?}", index + 1))?;
        openings.push(Opening {
            line: index + 1,
            format,
            stones,
        });
    }
    Ok(openings)
}

fn parse_offsets(line: &str) -> Result<Vec<(i32, i32)>> {
    let numbers = line
        .split(',')
        .map(|token| {
            let token = token.trim();
            token
                .parse::<i32>()
                .with_context(|| format!("{token:?} is not an integer offset"))
        })
        .collect::<Result<Vec<i32>>>()?;
    if numbers.len() % 2 != 0 {
        bail!("odd number of coordinates");
    }
    Ok(numbers.chunks(2).map(|pair| (pair[0], pair[1])).collect())
}

fn parse_points(line: &str) -> Result<Vec<(i32, i32)>> {
    let bytes = line.as_bytes();
    let mut stones = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let letter = bytes[i].to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            bail!("expected a column letter at {:?}", &line[i..]);
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let row: i32 = line[start..i]
            .parse()
            .with_context(|| format!("expected a row number after {:?}", char::from(letter)))?;
        if row < 1 {
            bail!("row numbers start at 1");
        }
        stones.push((i32::from(letter - b'a'), row - 1));
    }
    Ok(stones)
}

/// How many symmetries a board has: 8 for a square, 4 (mirrors and the half turn) for a
/// rectangle.
pub fn symmetry_count(width: usize, height: usize) -> u8 {
    if width == height { 8 } else { 4 }
}

/// Applies symmetry `t` (0 = identity, below `symmetry_count`) to a point.
pub fn transform(t: u8, (x, y): (usize, usize), width: usize, height: usize) -> (usize, usize) {
    let (mx, my) = (width - 1 - x, height - 1 - y);
    match t {
        0 => (x, y),
        1 => (mx, y),
        2 => (x, my),
        3 => (mx, my),
        // The rest swap the axes, which needs a square board (width == height).
        4 => (y, x),
        5 => (my, mx),
        6 => (my, x),
        7 => (y, mx),
        _ => panic!("symmetry {t} out of range"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::path::PathBuf;

    fn shared_openings() -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/openings"))
    }

    #[test]
    fn parses_both_formats() {
        let openings = parse("8,-3, 6,-4, 5,-4\r\n\n# comment\nd3e5f16\n", None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].line, 1);
        assert_eq!(
            openings[0].place(20, 20).unwrap(),
            vec![(18, 7), (16, 6), (15, 6)]
        );
        assert_eq!(openings[1].line, 4);
        assert_eq!(
            openings[1].place(20, 20).unwrap(),
            vec![(3, 2), (4, 4), (5, 15)]
        );
        // Offsets are from (⌊w/2⌋, ⌊h/2⌋) on a rectangle too.
        assert_eq!(openings[0].place(20, 10).unwrap()[0], (18, 2));
    }

    #[test]
    fn rejects_bad_lines_and_placements() {
        assert!(parse("1,2, 3\n", None).is_err());
        assert!(parse("1,x\n", None).is_err());
        assert!(parse("h8i\n", None).is_err());
        assert!(parse("h0\n", None).is_err());
        assert!(parse("h8\n", Some(Format::Offset)).is_err());
        let far = parse("8,0\n", None).unwrap();
        assert!(far[0].place(15, 15).is_err());
        assert!(far[0].place(20, 20).is_ok());
        let twice = parse("0,0, 1,1, 0,0\n", None).unwrap();
        assert!(twice[0].place(15, 15).is_err());
    }

    #[test]
    fn symmetries_are_distinct_permutations_of_the_board() {
        for (w, h) in [(15, 15), (20, 20), (20, 15), (6, 9)] {
            let n = symmetry_count(w, h);
            let mut images = HashSet::new();
            for t in 0..n {
                let mut seen = HashSet::new();
                for y in 0..h {
                    for x in 0..w {
                        let (tx, ty) = transform(t, (x, y), w, h);
                        assert!(tx < w && ty < h);
                        assert!(seen.insert((tx, ty)));
                    }
                }
                images.insert(transform(t, (1, 2), w, h));
            }
            assert_eq!(images.len(), usize::from(n), "{w}x{h}");
        }
        assert_eq!(transform(6, (0, 0), 15, 15), (14, 0));
        assert_eq!(transform(3, (7, 7), 15, 15), (7, 7));
    }

    /// Every opening file in the shared folder loads and fits the board it is made for.
    #[test]
    fn shared_opening_files_load() {
        // (file, number of openings, board side the file is for). The shared README counts
        // lines with `wc -l`, one short for files without a final newline.
        let expected = [
            ("cgomokucli_offset_freestyle_20x20.txt", 4, 20),
            ("cgomokucli_pos_freestyle_20x20.txt", 4, 20),
            ("generated_random_15x15_offset.txt", 500, 15),
            ("gomocupjudge_openings_20x20_offset.txt", 6, 20),
            ("gomocuponline_openings_20x20_offset.txt", 3, 20),
            ("piskvork_openings_offset.txt", 41, 20),
            ("piskvork_openings_offset_fits15.txt", 40, 15),
            ("renju26_offset.txt", 26, 15),
        ];
        let dir = shared_openings();
        // renju26_names.txt is a name table for renju26_offset.txt, not an opening file.
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".txt") && name != "renju26_names.txt")
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = expected.iter().map(|e| e.0.to_string()).collect();
        listed.sort();
        assert_eq!(on_disk, listed, "opening files changed; update this test");
        for (file, count, size) in expected {
            let openings = load(&dir.join(file), None).unwrap();
            assert_eq!(openings.len(), count, "{file}");
            for opening in &openings {
                let stones = opening
                    .place(size, size)
                    .unwrap_or_else(|e| panic!("{file}: {e}"));
                assert!(!stones.is_empty());
            }
        }
        // The one line of the Piskvork list that needs more than 15x15.
        let all = load(&dir.join("piskvork_openings_offset.txt"), None).unwrap();
        assert_eq!(all.iter().filter(|o| o.place(15, 15).is_err()).count(), 1);
        let renju = load(&dir.join("renju26_offset.txt"), Some(Format::Offset)).unwrap();
        assert!(renju.iter().all(|o| o.place(15, 15).unwrap().len() == 3));
        assert_eq!(
            renju[0].place(15, 15).unwrap(),
            vec![(7, 7), (7, 6), (8, 6)]
        );
    }
}
