//! The `pool` subcommand: the games of several arena runs read back from their records
//! and counted as one match, with the pooled score's interval three ways. Each game
//! counted as independent gives the narrowest; the game pairs (one opening, both
//! colours) allow for the pairs' games answering each other; the spread of the runs'
//! scores also allows for the runs differing in what the games do not show (host, load,
//! build), and its dispersion says whether they do.

use super::record::{parse_sgf, sgf_property, sgf_result};
use super::report::{encounter_summary, results};
use super::stats::{Pentanomial, RunSpread, Tally};
use crate::console::show;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::fs;
use std::path::{Path, PathBuf};

const USAGE: &str = "Usage: pbrain-tengen pool DIR…";

const HELP: &str = "Pools arena runs: each DIR is one run's --out directory of SGF records.
Prints the pooled results per pair of engines as the arena's summary does, then each
run's score and the pooled score's 95% interval from the games, from the game pairs
and from the spread of the runs (Student's t; it also covers runs that differ in host,
load or build), with the runs' dispersion: their spread over what independent games
would give (about 1 when the runs agree as chance allows).";

/// One finished game as its record gives it.
struct Game {
    /// The arena's game number (`GN[game N]`): games 2k − 1 and 2k are pair k.
    number: usize,
    black: String,
    white: String,
    /// Black's points: 1, ½ or 0.
    black_points: f64,
}

/// Two engines' games over all runs, from the first engine's side: the one that had
/// black in the first game they played.
struct Encounter {
    names: [String; 2],
    /// Per run, the first engine's results as black and as white.
    runs: Vec<[Tally; 2]>,
    pairs: Pentanomial,
}

/// Runs `pbrain-tengen pool ARGS…`: 0 when the runs were pooled, 2 for a bad command line.
pub fn run(args: &[String]) -> Result<i32> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        show(&format!("{USAGE}\n{HELP}\n"));
        return Ok(0);
    }
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        eprintln!("pool: unknown option {flag:?}\n{USAGE}");
        return Ok(2);
    }
    if args.is_empty() {
        eprintln!("pool: no run directories\n{USAGE}");
        return Ok(2);
    }
    // The same run named twice (`a` and `./a`, say) would count its games twice.
    let mut seen = BTreeMap::new();
    for dir in args {
        let Ok(path) = fs::canonicalize(dir) else {
            continue;
        };
        if let Some(first) = seen.insert(path, dir) {
            eprintln!("pool: {first} and {dir} are the same run\n{USAGE}");
            return Ok(2);
        }
    }
    let mut runs = Vec::new();
    for dir in args {
        runs.push(read_run(Path::new(dir))?);
    }
    show(&summary(args, &runs));
    Ok(0)
}

/// The finished games of one run in game order, and how many void games it holds.
fn read_run(dir: &Path) -> Result<(Vec<Game>, usize)> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "sgf") {
            paths.push(path);
        }
    }
    if paths.is_empty() {
        bail!("no SGF records in {}", dir.display());
    }
    let mut games = Vec::new();
    let mut void = 0;
    for path in &paths {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        match read_game(&text).with_context(|| format!("in {}", path.display()))? {
            Some(game) => games.push(game),
            None => void += 1,
        }
    }
    games.sort_by_key(|g| g.number);
    if let Some(twice) = games.windows(2).find(|w| w[0].number == w[1].number) {
        bail!(
            "two records of game {} in {}",
            twice[0].number,
            dir.display()
        );
    }
    Ok((games, void))
}

/// A game from its record; `None` for a void one (the match stopped during it).
fn read_game(text: &str) -> Result<Option<Game>> {
    let nodes = parse_sgf(text)?;
    let root = nodes.first().context("no node")?;
    let get = |key: &str| sgf_property(root, key).map(str::trim);
    let number = get("GN")
        .and_then(|gn| gn.strip_prefix("game "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .context("no arena game number (GN[game N], N from 1)")?;
    // Games lost on time or by fault count as the arena counts them: as losses.
    let black_points = match get("RE").context("no result (RE)")? {
        "Void" => return Ok(None),
        re => {
            sgf_result(re)
                .with_context(|| format!("unknown result RE[{re}]"))?
                .0
        }
    };
    let name = |key: &str| {
        get(key)
            .map(str::to_string)
            .with_context(|| format!("no player name ({key})"))
    };
    Ok(Some(Game {
        number,
        black: name("PB")?,
        white: name("PW")?,
        black_points,
    }))
}

fn summary(dirs: &[String], runs: &[(Vec<Game>, usize)]) -> String {
    // Keyed by the two names in sorted order; the value keeps the first engine's side.
    let mut encounters: BTreeMap<[String; 2], Encounter> = BTreeMap::new();
    let mut order: Vec<[String; 2]> = Vec::new();
    for (r, (games, _)) in runs.iter().enumerate() {
        let mut open: BTreeMap<usize, (&Game, f64)> = BTreeMap::new();
        for game in games {
            let mut key = [game.black.clone(), game.white.clone()];
            key.sort();
            let encounter = encounters.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                Encounter {
                    names: [game.black.clone(), game.white.clone()],
                    runs: vec![[Tally::default(); 2]; runs.len()],
                    pairs: Pentanomial::default(),
                }
            });
            let first_black = game.black == encounter.names[0];
            let points = if first_black {
                game.black_points
            } else {
                1.0 - game.black_points
            };
            encounter.runs[r][usize::from(!first_black)].add(points);
            let pair = (game.number - 1) / 2;
            match open.remove(&pair) {
                Some((other, first_points))
                    if other.black == game.white && other.white == game.black =>
                {
                    encounter.pairs.add(first_points, points);
                }
                _ => {
                    open.insert(pair, (game, points));
                }
            }
        }
    }
    let mut out = String::new();
    let games: usize = runs.iter().map(|(g, _)| g.len()).sum();
    let void: usize = runs.iter().map(|(_, v)| v).sum();
    let _ = write!(out, "Pooled {} runs: {games} games", runs.len());
    if void > 0 {
        let _ = write!(out, " ({void} void games left out)");
    }
    let _ = writeln!(out);
    for key in &order {
        let e = &encounters[key];
        let [a, b] = &e.names;
        let colours = e
            .runs
            .iter()
            .fold([Tally::default(); 2], |[bs, ws], [black, white]| {
                [bs + *black, ws + *white]
            });
        let _ = writeln!(out);
        out += &encounter_summary(a, b, colours, &e.pairs);
        let pooled = colours[0] + colours[1];
        let (low, high) = pooled.score_interval95();
        let _ = writeln!(
            out,
            "From the {} games: score {:.3} (95%: {low:.3} to {high:.3})",
            pooled.games(),
            pooled.score()
        );
        let per_run: Vec<Tally> = e
            .runs
            .iter()
            .map(|[black, white]| *black + *white)
            .collect();
        for (dir, t) in dirs.iter().zip(&per_run) {
            if t.games() > 0 {
                let _ = writeln!(out, "  {dir}: {}", results(t));
            }
        }
        match RunSpread::of(&per_run) {
            Some(spread) => {
                let (low, high) = spread.interval95;
                let _ = writeln!(
                    out,
                    "From the {} runs: score {:.3} (95%: {low:.3} to {high:.3}, t on {} df); dispersion {:.2} (chi-squared {:.1} on {} df)",
                    spread.degrees_of_freedom + 1,
                    spread.score,
                    spread.degrees_of_freedom,
                    spread.dispersion,
                    spread.dispersion * f64::from(spread.degrees_of_freedom),
                    spread.degrees_of_freedom
                );
            }
            None => {
                let _ = writeln!(out, "One run: no spread between runs to measure");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(number: usize, black: &str, white: &str, result: &str) -> String {
        format!(
            "(;FF[4]GM[4]SZ[15]RU[freestyle]GN[game {number}]PB[{black}]PW[{white}]RE[{result}]\n;B[hh];W[hi])"
        )
    }

    #[test]
    fn reads_each_kind_of_result() {
        let points = |re: &str| {
            read_game(&record(3, "A", "B", re))
                .unwrap()
                .map(|g| g.black_points)
        };
        assert_eq!(points("B+"), Some(1.0));
        assert_eq!(points("W+T"), Some(0.0));
        assert_eq!(points("B+F"), Some(1.0));
        assert_eq!(points("0"), Some(0.5));
        assert_eq!(points("Void"), None);
        assert!(read_game(&record(3, "A", "B", "?")).is_err());
        assert!(read_game(&record(3, "A", "B", "B+R")).is_err());
        let game = read_game(&record(12, "A", "B", "B+")).unwrap().unwrap();
        assert_eq!(
            (game.number, game.black.as_str(), game.white.as_str()),
            (12, "A", "B")
        );
        assert!(read_game("(;FF[4]PB[A]PW[B]RE[B+])").is_err());
    }

    #[test]
    fn pools_runs_by_engine_pair_and_game_pair() {
        let game = |number, black: &str, white: &str, black_points| Game {
            number,
            black: black.into(),
            white: white.into(),
            black_points,
        };
        // Run 1: pair 1 split by colour, pair 2 both to A. Run 2: pair 1 both to B, and
        // game 4 alone (its partner void), which counts as a game but not as a pair.
        let runs = vec![
            (
                vec![
                    game(1, "A", "B", 1.0),
                    game(2, "B", "A", 1.0),
                    game(3, "A", "B", 1.0),
                    game(4, "B", "A", 0.0),
                ],
                0,
            ),
            (
                vec![
                    game(1, "A", "B", 0.0),
                    game(2, "B", "A", 1.0),
                    game(4, "B", "A", 0.5),
                ],
                1,
            ),
        ];
        let text = summary(&["r1".into(), "r2".into()], &runs);
        assert!(
            text.starts_with("Pooled 2 runs: 7 games (1 void games left out)\n"),
            "{text}"
        );
        // A: run 1 wins 1, 3, 4 and loses 2; run 2 loses 1 and 2 and draws 4.
        assert!(
            text.contains("Score of A vs B: 3 - 3 - 1  [0.500] 7\n"),
            "{text}"
        );
        assert!(
            text.contains("A as black: 2 - 1 - 0  [0.667] 3; as white: 1 - 2 - 1"),
            "{text}"
        );
        // Pairs from A's side: (1, 0) = 1 point, (1, 1) = 2, (0, 0) = 0.
        assert!(
            text.contains("(0, 1/2, 1, 3/2, 2): [1, 0, 1, 0, 1]\n"),
            "{text}"
        );
        assert!(
            text.contains("  r1: 3 - 1 - 0  [0.750] 4\n  r2: 0 - 2 - 1  [0.167] 3\n"),
            "{text}"
        );
        assert!(
            text.contains("From the 7 games: score 0.500 (95%: "),
            "{text}"
        );
        assert!(
            text.contains("From the 2 runs: score 0.500 (95%: "),
            "{text}"
        );
    }
}
