//! `pbrain-tengen tune`: fits the evaluation's weights to the results of played games.
//!
//! Texel's method. Every quiet position of the games (nothing forcing for either side,
//! as at the search's leaves) after the opening is labelled with the game's result from
//! the side to move's view: 1, ½ or 0. For a fixed opponent weight the evaluation is
//! linear in the tables of `eval.rs`: a position's value is the weights times the counts
//! of each line pattern and each shape over the empty cells, the side to move's counts
//! minus the opponent's scaled down, plus the tempo, plus the threat table's entry for
//! the threats both sides hold. Positions the search's leaf VCF would win are left out:
//! the search never evaluates them. The fit minimises the mean squared gap between the
//! result and a logistic curve of the value, whose scale is first fitted to the current
//! weights so that the two fits are comparable.
//!
//! The games are the SGF records the arena writes; any directory of them will do, but
//! the players should be close in strength, or the labels tell who played rather than
//! what the position is worth. The tool prints the losses and the new tables in the
//! syntax of `eval.rs`.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::arena::record::{parse_sgf, sgf_point, sgf_property, sgf_result, sgf_size};
use crate::board::Board;
use crate::board::THREAT_CLASSES;
use crate::board::pattern::{Pattern, Shape};
use crate::console::show;
use crate::eval::{
    COMBINATION_VALUE, COMBINATIONS, LINE_VALUE, OPPONENT_WEIGHT_16THS, SHAPE_BONUS, TEMPO,
    THREAT_ENTRIES, THREAT_ROLES, THREAT_VALUE, combination_index, threat_entry,
};
use crate::movegen::{self, Threat};
use crate::search::{self, params::LEAF_VCF_NODES};
use crate::threat::vcf::Vcf;
use crate::types::{Color, Pos, Rule};

const USAGE: &str = "usage: pbrain-tengen tune DIR... [--iterations N] [--opponent-weight W] [--scale S] [--target result|search] [--label-scale S] [--label-engine NAME] [--threats-only] [--holdout K] [--ridge R] [--write FILE]";

const LINES: usize = LINE_VALUE.len();
const SHAPES: usize = SHAPE_BONUS.len();
const THREATS: usize = THREAT_VALUE.len();
/// Line weights, shape weights, the tempo, the combination table, then the threat table.
const WEIGHTS: usize = LINES + SHAPES + 1 + COMBINATIONS + THREATS;
const TEMPO_INDEX: usize = LINES + SHAPES;
const COMBINATION_INDEX: usize = TEMPO_INDEX + 1;
const THREAT_INDEX: usize = COMBINATION_INDEX + COMBINATIONS;

/// Weights the fit leaves alone: those of patterns and shapes a quiet position never has
/// (a five or an open four to make or to stop), and the dead and overline lines, which
/// are worth nothing by definition; and the threat table's entry for no threats, which
/// the tempo already is. The combinations of lines a quiet position never has get no
/// data, and the ridge keeps them where they were.
fn is_fixed(index: usize) -> bool {
    const FIXED_LINES: [Pattern; 5] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::F4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];
    const FIXED_SHAPES: [Shape; 3] = [Shape::None, Shape::Flex4, Shape::Five];
    if index < LINES {
        FIXED_LINES.iter().any(|&p| p as usize == index)
    } else if index < TEMPO_INDEX {
        FIXED_SHAPES.iter().any(|&s| s as usize == index - LINES)
    } else {
        index == THREAT_INDEX
    }
}

/// The labelled positions, stored sparsely: each position's feature counts (side to
/// move's minus the scaled opponent's, the tempo's 1 among them) as (weight index,
/// count) pairs for the weights before the threat table, its entry in the threat table
/// (those features are one-hot, so only the entry is kept), and the result for the side
/// to move.
#[derive(Default)]
struct Samples {
    features: Vec<(u32, f32)>,
    /// Where each position's features start in `features`; one more at the end.
    starts: Vec<usize>,
    threats: Vec<usize>,
    results: Vec<f32>,
}

impl Samples {
    fn len(&self) -> usize {
        self.results.len()
    }

    fn push(&mut self, dense: &[f32; THREAT_INDEX], threats: usize, result: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.features.extend(
            dense
                .iter()
                .enumerate()
                .filter(|&(_, &f)| f != 0.0)
                .map(|(i, &f)| (i as u32, f)),
        );
        self.starts.push(self.features.len());
        self.threats.push(threats);
        self.results.push(result);
    }

    fn append(&mut self, other: Samples) {
        let base = self.features.len();
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.features.extend(other.features);
        self.starts
            .extend(other.starts.iter().skip(1).map(|&s| s + base));
        self.threats.extend(other.threats);
        self.results.extend(other.results);
    }

    fn features_of(&self, i: usize) -> &[(u32, f32)] {
        &self.features[self.starts[i]..self.starts[i + 1]]
    }

    fn value(&self, i: usize, weights: &[f64]) -> f64 {
        self.features_of(i)
            .iter()
            .map(|&(j, f)| f as f64 * weights[j as usize])
            .sum::<f64>()
            + weights[THREAT_INDEX + self.threats[i]]
    }
}

/// A game as the tool needs it.
struct Game {
    width: usize,
    height: usize,
    rule: Rule,
    /// Opening stones first, then the players' moves.
    moves: Vec<(usize, usize)>,
    opening: usize,
    /// 1 black won, 0 white won, ½ draw.
    black_score: f32,
    /// For each move, the mover's search score before it, as its comment reports it
    /// (the last `depth … score …` line, or another engine's `… Eval S …` status line),
    /// when not a win or a loss.
    scores: Vec<Option<i32>>,
    /// The players' names (`PB`, `PW`) and, for each move, whether black made it.
    players: [String; 2],
    black_moves: Vec<bool>,
}

impl Game {
    /// Drops the scores the other player logged: one engine's scores are on one scale,
    /// and a strong engine's view is the better label.
    fn keep_scores_of(&mut self, engine: &str) {
        for (score, &black) in self.scores.iter_mut().zip(&self.black_moves) {
            if self.players[!black as usize] != engine {
                *score = None;
            }
        }
    }
}

/// What a position is labelled with.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    /// The game's result.
    Result,
    /// The engine's own search score, through the logistic curve: the static value
    /// learns what the search finds below it.
    Search,
    /// The mean of the two: the search's view, corrected by how the game went.
    Both,
}

/// Steps of the descent unless `--iterations` says otherwise.
const DEFAULT_ITERATIONS: usize = 3000;

pub fn run(args: &[String]) -> Result<i32> {
    let mut dirs = Vec::new();
    let mut iterations = DEFAULT_ITERATIONS;
    let mut opponent_weight = OPPONENT_WEIGHT_16THS;
    let mut fixed_scale = None;
    let mut target = Target::Result;
    let mut label_scale = None;
    let mut label_engine = None;
    let mut threats_only = false;
    let mut write = None;
    let mut holdout = 10;
    let mut ridge = RIDGE;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--iterations" => {
                let v = it.next().context("--iterations needs a number")?;
                iterations = v.parse().context("--iterations needs a number")?;
            }
            "--opponent-weight" => {
                let v = it
                    .next()
                    .context("--opponent-weight needs a number of 16ths")?;
                opponent_weight = v
                    .parse()
                    .context("--opponent-weight needs a number of 16ths")?;
            }
            "--target" => {
                target = match it.next().map(String::as_str) {
                    Some("result") => Target::Result,
                    Some("search") => Target::Search,
                    Some("both") => Target::Both,
                    other => bail!("--target needs result, search or both, not {other:?}"),
                };
            }
            "--label-scale" => {
                let v = it.next().context("--label-scale needs a number")?;
                label_scale = Some(v.parse::<f64>().context("--label-scale needs a number")?);
            }
            "--label-engine" => {
                label_engine = Some(it.next().context("--label-engine needs a name")?.clone());
            }
            "--scale" => {
                let v = it.next().context("--scale needs a number")?;
                fixed_scale = Some(v.parse::<f64>().context("--scale needs a number")?);
            }
            "--threats-only" => threats_only = true,
            "--write" => write = Some(it.next().context("--write needs a file")?.clone()),
            "--holdout" => {
                let v = it.next().context("--holdout needs a number")?;
                holdout = v.parse().context("--holdout needs a number")?;
            }
            "--ridge" => {
                let v = it.next().context("--ridge needs a number")?;
                ridge = v.parse().context("--ridge needs a number")?;
            }
            "-h" | "--help" => {
                show(&format!(
                    "{USAGE}
Fits the evaluation's weights to the SGF games in the directories.
--iterations N sets the steps of the descent ({DEFAULT_ITERATIONS}).
--opponent-weight W fits them for that opponent weight (16ths).
--scale S fixes the logistic scale (keeps the units of another fit).
--target search labels positions with the logged search scores, both with their mean with the result.
--label-scale S reads those scores on another engine's logistic scale.
--label-engine NAME keeps only the scores that player logged.
--threats-only fits the threat table alone, the other weights held.
--holdout K keeps every K-th game out of the fit, to measure it (0: none).
--ridge R is the pull of the combination and threat tables to their values.
--write FILE writes the fitted tables as src/eval/weights.rs is written.
"
                ));
                return Ok(0);
            }
            _ => dirs.push(arg.clone()),
        }
    }
    if dirs.is_empty() {
        bail!("{USAGE}");
    }
    // Sorted, so that the held-out games are the same from run to run.
    let mut paths = Vec::new();
    for dir in &dirs {
        for entry in fs::read_dir(dir).with_context(|| format!("reading {dir}"))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "sgf") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut games = Vec::new();
    for path in &paths {
        if let Some(mut game) = read_game(path)? {
            if let Some(engine) = &label_engine {
                game.keep_scores_of(engine);
            }
            games.push(game);
        }
    }
    let mut weights = current_weights();
    // Logged scores are read on the model's scale unless they come from an engine with
    // its own units.
    let held_out = |i: usize| holdout > 0 && i.is_multiple_of(holdout);
    let labelled = |target, scale: f64, held: bool| -> Samples {
        let label_scale = label_scale.unwrap_or(scale);
        let mut samples = Samples::default();
        for (_, g) in games
            .iter()
            .enumerate()
            .filter(|&(i, _)| held_out(i) == held)
        {
            samples.append(positions(g, opponent_weight, target, label_scale));
        }
        samples
    };
    // The scale is fitted on the results; the search target needs it for its labels.
    let (samples, scale) = match (target, fixed_scale) {
        (Target::Result, scale) => {
            let samples = labelled(Target::Result, 1.0, false);
            let scale = scale.unwrap_or_else(|| fit_scale(&samples, &weights));
            (samples, scale)
        }
        (target, Some(scale)) => (labelled(target, scale, false), scale),
        (target, None) => {
            let scale = fit_scale(&labelled(Target::Result, 1.0, false), &weights);
            (labelled(target, scale, false), scale)
        }
    };
    let check = labelled(target, scale, true);
    let games = games.len();
    if samples.len() == 0 {
        bail!("no decided or drawn games with quiet positions in {dirs:?}");
    }
    // The progress lines may go to a reader that stops early (`| head`): the fit goes
    // on regardless, since its tables may be bound for `--write`.
    show(&format!(
        "{games} games, {} quiet positions to fit, {} held out\n",
        samples.len(),
        check.len()
    ));
    let report = |what: &str, weights: &[f64]| {
        let mut line = format!("{what}: loss {:.6}", loss(&samples, weights, scale));
        if check.len() > 0 {
            line += &format!(", held out {:.6}", loss(&check, weights, scale));
        }
        show(&(line + "\n"));
    };
    show(&format!("logistic scale {scale:.1}\n"));
    report("current weights", &weights);
    let free = |i| !is_fixed(i) && (!threats_only || i > THREAT_INDEX);
    descend(
        &samples,
        &mut weights,
        scale,
        iterations,
        ridge,
        free,
        |t, w| report(&format!("iteration {t}"), w),
    );
    let rounded: Vec<f64> = weights.iter().map(|w| w.round()).collect();
    report("fitted weights", &rounded);
    let file = weights_file(&rounded, opponent_weight);
    match write {
        Some(path) => fs::write(&path, file).with_context(|| format!("writing {path}"))?,
        None => {
            show(&file);
        }
    }
    Ok(0)
}

fn current_weights() -> Vec<f64> {
    LINE_VALUE
        .iter()
        .chain(SHAPE_BONUS.iter())
        .map(|&w| w as f64)
        .chain(std::iter::once(TEMPO as f64))
        .chain(COMBINATION_VALUE.iter().map(|&w| w as f64))
        .chain(THREAT_VALUE.iter().map(|&w| w as f64))
        .collect()
}

/// Reads an arena SGF record; `None` for void games and those lost on time or by fault,
/// whose results say nothing about the positions.
fn read_game(path: &Path) -> Result<Option<Game>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let nodes = parse_sgf(&text).with_context(|| format!("parsing {}", path.display()))?;
    let Some(root) = nodes.first() else {
        return Ok(None);
    };
    let get = |key: &str| sgf_property(root, key);
    let (width, height) = sgf_size(root)?;
    let Some(rule) = Rule::ALL.into_iter().find(|r| Some(r.name()) == get("RU")) else {
        return Ok(None);
    };
    let Some((black_points, true)) = get("RE").and_then(sgf_result) else {
        return Ok(None);
    };
    let black_score = black_points as f32;
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut black_moves = Vec::new();
    let mut opening = 0;
    for node in &nodes[1..] {
        let Some((key, point)) = node.iter().find(|(k, _)| k == "B" || k == "W") else {
            continue;
        };
        black_moves.push(key == "B");
        let Some((x, y)) = sgf_point(point) else {
            bail!("bad point {point:?}");
        };
        if x >= width || y >= height {
            bail!("point {point:?} off the board");
        }
        if node.iter().any(|(k, v)| k == "C" && v == "opening") {
            opening += 1;
        }
        moves.push((x, y));
        let comment = sgf_property(node, "C");
        scores.push(comment.and_then(last_score));
    }
    Ok(Some(Game {
        width,
        height,
        rule,
        moves,
        opening,
        black_score,
        scores,
        players: ["PB", "PW"].map(|k| get(k).unwrap_or_default().to_string()),
        black_moves,
    }))
}

/// The score of the last `depth N score S` line of a move comment, or of the last
/// status line with `Eval S` (as Rapfi reports it), unless it is a win or a loss (those
/// are written as words or `+M`/`-M` plies, which do not parse as numbers).
fn last_score(comment: &str) -> Option<i32> {
    let line = comment
        .lines()
        .rev()
        .find(|l| l.starts_with("depth ") || l.contains(" Eval "))?;
    let key = if line.starts_with("depth ") {
        "score"
    } else {
        "Eval"
    };
    let mut words = line.split_whitespace().skip_while(|&w| w != key).skip(1);
    words.next()?.parse().ok()
}

/// The quiet positions of a game after its opening, with their labels.
fn positions(game: &Game, opponent_weight: i32, target: Target, scale: f64) -> Samples {
    let mut board = Board::new(game.width, game.height, game.rule);
    let mut vcf = Vcf::new(LEAF_VCF_NODES);
    let mut out = Samples::default();
    for (i, &(x, y)) in game.moves.iter().enumerate() {
        let pos = Pos::new(x, y);
        if !board.is_empty(pos) {
            break;
        }
        board.play(pos);
        if i + 1 < game.opening.max(1) || movegen::threat(&mut board) != Threat::Quiet {
            continue;
        }
        // The search evaluates a leaf only after its short VCF failed: positions it
        // would have won that way are no samples of what the evaluation sees.
        if search::leaf_vcf(&mut vcf, &mut board, &mut 0).is_some() {
            continue;
        }
        let us = board.side_to_move();
        let outcome = match us {
            Color::Black => game.black_score,
            Color::White => 1.0 - game.black_score,
        };
        let searched = game
            .scores
            .get(i + 1)
            .copied()
            .flatten()
            .map(|score| sigmoid(score as f64, scale) as f32);
        let result = match (target, searched) {
            (Target::Result, _) => outcome,
            (Target::Search, Some(searched)) => searched,
            (Target::Both, Some(searched)) => (outcome + searched) / 2.0,
            (_, None) => continue,
        };
        out.push(
            &features(&board, opponent_weight),
            threat_entry(&board),
            result,
        );
    }
    out
}

/// The counts the evaluation weighs, for the side to move: its own minus the
/// opponent's scaled by the opponent weight; the tempo's feature is 1.
fn features(board: &Board, opponent_weight: i32) -> [f32; THREAT_INDEX] {
    let us = board.side_to_move();
    let mut f = [0f32; THREAT_INDEX];
    for (color, sign) in [(us, 1.0), (us.opp(), -(opponent_weight as f32) / 16.0)] {
        for p in board.points().filter(|&p| board.is_empty(p)) {
            let shape = board.shape(p, color);
            f[LINES + shape as usize] += sign;
            // A possible forbidden point is worth its shape bonus alone (see eval).
            if shape != Shape::MaybeForbidden {
                let lines: [Pattern; 4] = std::array::from_fn(|d| board.pattern(p, color, d));
                for line in lines {
                    f[line as usize] += sign;
                }
                f[COMBINATION_INDEX + combination_index(lines)] += sign;
            }
        }
    }
    f[TEMPO_INDEX] = 1.0;
    f
}

fn sigmoid(v: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-v / scale).exp())
}

/// Threads that share the sums over the positions.
const THREADS: usize = 2;

/// `f(first, last)` over `THREADS` slices of the positions, summed.
fn over_positions<T: Send + std::iter::Sum<T>>(
    samples: &Samples,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> T {
    let n = samples.len();
    let chunk = n.div_ceil(THREADS);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let f = &f;
                scope.spawn(move || f(t * chunk..((t + 1) * chunk).min(n)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a fitting thread panicked"))
            .sum()
    })
}

fn loss(samples: &Samples, weights: &[f64], scale: f64) -> f64 {
    over_positions(samples, |range| {
        range
            .map(|i| {
                (sigmoid(samples.value(i, weights), scale) - samples.results[i] as f64).powi(2)
            })
            .sum::<f64>()
    }) / samples.len() as f64
}

/// The logistic scale that best fits the results to `weights`, by golden-section search.
fn fit_scale(samples: &Samples, weights: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 5000.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(samples, weights, a) < loss(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Default pull of the combination and threat tables' entries towards their values
/// before the fit (ridge), per squared point of the mean loss. Some combinations occur
/// in a few dozen positions: without it their entries fit the noise of those games. The
/// pull is the same for every entry while the data's grows with the positions an entry
/// is seen in, so rare entries stay where they were and common ones follow the data.
const RIDGE: f64 = 1e-10;

/// A gradient as `over_positions` sums it.
struct Gradient(Vec<f64>);

impl std::iter::Sum for Gradient {
    fn sum<I: Iterator<Item = Gradient>>(iter: I) -> Gradient {
        iter.reduce(|mut a, b| {
            a.0.iter_mut().zip(&b.0).for_each(|(x, y)| *x += y);
            a
        })
        .unwrap_or(Gradient(vec![0.0; WEIGHTS]))
    }
}

/// Full-batch gradient descent with Adam on the weights `free` lets change.
fn descend(
    samples: &Samples,
    weights: &mut [f64],
    scale: f64,
    iterations: usize,
    ridge: f64,
    free: impl Fn(usize) -> bool,
    progress: impl Fn(usize, &[f64]),
) {
    const RATE: f64 = 0.5;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    let prior = weights.to_vec();
    let mut m = vec![0.0; WEIGHTS];
    let mut v = vec![0.0; WEIGHTS];
    for t in 1..=iterations {
        let Gradient(mut grad) = over_positions(samples, |range| {
            let mut grad = vec![0.0; WEIGHTS];
            for i in range {
                let p = sigmoid(samples.value(i, weights), scale);
                let g = 2.0 * (p - samples.results[i] as f64) * p * (1.0 - p) / scale;
                for &(j, f) in samples.features_of(i) {
                    grad[j as usize] += g * f as f64;
                }
                grad[THREAT_INDEX + samples.threats[i]] += g;
            }
            Gradient(grad)
        });
        for i in COMBINATION_INDEX..WEIGHTS {
            grad[i] += 2.0 * ridge * (weights[i] - prior[i]) * samples.len() as f64;
        }
        for i in (0..WEIGHTS).filter(|&i| free(i)) {
            let g = grad[i] / samples.len() as f64;
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
            let m_hat = m[i] / (1.0 - BETA1.powi(t as i32));
            let v_hat = v[i] / (1.0 - BETA2.powi(t as i32));
            weights[i] -= RATE * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if t % 500 == 0 {
            progress(t, weights);
        }
    }
}

/// The text of `src/eval/weights.rs` for `weights`.
fn weights_file(weights: &[f64], opponent_weight: i32) -> String {
    use std::fmt::Write;
    let int = |w: f64| w as i64;
    let mut out = String::from(WEIGHTS_HEADER);
    out += "/// Value of one line pattern at an empty cell, indexed by `Pattern as usize`.\n";
    writeln!(out, "pub const LINE_VALUE: [i16; {LINES}] = [").unwrap();
    let names: Vec<String> = (0..LINES)
        .map(|i| format!("{:?}", Pattern::from_u8(i as u8)))
        .collect();
    out += &commented_rows(&weights[..LINES], &names);
    out += "];\n\n";
    out += "/// Extra value for a cell whose line patterns combine into a shape, by `Shape as usize`.\n";
    writeln!(out, "pub const SHAPE_BONUS: [i16; {SHAPES}] = [").unwrap();
    let names: Vec<String> = (0..SHAPES)
        .map(|i| format!("{:?}", Shape::from_u8(i as u8)))
        .collect();
    out += &commented_rows(&weights[LINES..TEMPO_INDEX], &names);
    out += "];\n\n";
    out += "/// Weight of the opponent's potential against the side to move's, in 1/16ths.\n";
    writeln!(
        out,
        "pub const OPPONENT_WEIGHT_16THS: i32 = {opponent_weight};\n"
    )
    .unwrap();
    out += WEIGHTS_TEMPO;
    writeln!(
        out,
        "pub const TEMPO: i32 = {};\n",
        int(weights[TEMPO_INDEX])
    )
    .unwrap();
    out += WEIGHTS_COMBINATIONS;
    writeln!(
        out,
        "pub const COMBINATION_VALUE: [i16; {COMBINATIONS}] = ["
    )
    .unwrap();
    for row in weights[COMBINATION_INDEX..THREAT_INDEX].chunks(15) {
        let row: Vec<String> = row.iter().map(|&w| int(w).to_string()).collect();
        writeln!(out, "    {},", row.join(", ")).unwrap();
    }
    out += "];\n\n";
    out += WEIGHTS_THREATS;
    writeln!(out, "pub const THREAT_VALUE: [i16; {THREATS}] = [").unwrap();
    const ROLES: [&str; THREAT_ROLES] = [
        "Every rule but renju.",
        "Renju, black to move.",
        "Renju, white to move.",
    ];
    for (role, table) in weights[THREAT_INDEX..].chunks(THREAT_ENTRIES).enumerate() {
        writeln!(out, "    // {}", ROLES[role]).unwrap();
        for (them, row) in table.chunks(THREAT_CLASSES).enumerate() {
            let row: Vec<String> = row.iter().map(|&w| int(w).to_string()).collect();
            writeln!(
                out,
                "    {}, // {}",
                row.join(", "),
                threat_class_name(them)
            )
            .unwrap();
        }
    }
    out += "];\n";
    out
}

/// One entry a line with its name, the names lined up as rustfmt lines them up.
fn commented_rows(weights: &[f64], names: &[String]) -> String {
    let entries: Vec<String> = weights.iter().map(|&w| format!("{},", w as i64)).collect();
    let width = entries.iter().map(String::len).max().unwrap_or(0);
    entries
        .iter()
        .zip(names)
        .map(|(entry, name)| format!("    {entry:<width$} // {name}\n"))
        .collect()
}

/// A `Board::threat_class` in words, for the rows of the printed threat table.
fn threat_class_name(class: usize) -> String {
    const FOURS: [&str; 5] = [
        "no four",
        "plain fours",
        "a four with more",
        "a four-three",
        "a four-three and a four with more",
    ];
    const THREES: [&str; 3] = ["double three", "three with more", "open three"];
    let mut name = FOURS[class / 8].to_string();
    for (bit, three) in THREES.iter().enumerate() {
        if class & (1 << bit) != 0 {
            name += ", ";
            name += three;
        }
    }
    name
}

const WEIGHTS_HEADER: &str = "\
//! The evaluation's fitted weights, as `pbrain-tengen tune --write` writes them.
//!
//! This file is data: the code that reads it is in `eval/mod.rs`, and a new fit
//! replaces it whole.

";

const WEIGHTS_TEMPO: &str = "\
/// Bonus for having the move, beyond its potential counting in full against the
/// opponent's discounted one.
";

const WEIGHTS_COMBINATIONS: &str = "\
/// Correction of a cell's value for each combination of its four line patterns, by
/// `combination_index`: what the combination is worth beyond its lines and its shape.
#[rustfmt::skip]
";

const WEIGHTS_THREATS: &str = "\
/// Threats a position holds: in the table of the role `r` (`eval::threat_role`), the
/// entry of the side to move's `Board::threat_class` `u` and the opponent's `t` is
/// `1600 * r + u + 40 * t`, a row per class of the opponent's. A cell's value cannot
/// tell that the opponent's four-three must be answered now, or that two threats of the
/// side to move are more than their sum; this table can. Entry 0 is the tempo's; the
/// other roles' entry for no threats is what their side to move gains beyond it.
#[rustfmt::skip]
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    /// The tuner's linear model is the engine's evaluation: with the current weights it
    /// gives the same value (up to the opponent weight's rounding) on real positions,
    /// some of them with fours for both sides.
    #[test]
    fn features_reproduce_the_evaluation() {
        let weights = current_weights();
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut board = Board::new(15, 15, rule);
            let game = [
                (7, 7),
                (8, 8),
                (8, 6),
                (6, 8),
                (9, 7),
                (7, 9),
                (6, 6),
                (10, 8),
                (5, 5),
                (11, 8),
            ];
            let mut threats_seen = false;
            for (x, y) in game {
                board.play(Pos::new(x, y));
                let mut sample = Samples::default();
                let threats = threat_entry(&board);
                sample.push(&features(&board, OPPONENT_WEIGHT_16THS), threats, 0.5);
                threats_seen |= threats != 0;
                let model = sample.value(0, &weights);
                let engine = evaluate(&board) as f64;
                assert!(
                    (model - engine).abs() <= 1.0,
                    "{rule} after {x},{y}: model {model}, engine {engine}"
                );
            }
            assert!(threats_seen, "{rule}: the game never reaches a threat");
        }
    }

    /// The weights file in the tree is what the tuner writes for its weights, so a fit
    /// replaces it whole and nothing in it is edited by hand.
    #[test]
    fn the_weights_file_is_the_tuners() {
        let file = weights_file(&current_weights(), OPPONENT_WEIGHT_16THS);
        assert!(
            file == include_str!("eval/weights.rs"),
            "src/eval/weights.rs differs from what tune writes for its own weights"
        );
    }

    #[test]
    fn reads_an_arena_record() {
        let dir = std::env::temp_dir().join(format!("tengen-tune-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.sgf");
        fs::write(
            &path,
            "(;FF[4]GM[4]SZ[15]RU[renju]PB[Tengen]PW[Rapfi]RE[W+]C[white makes five]\n\
             ;B[hh]C[opening]\n;W[gh]C[opening]\n;B[ii]C[12.0 ms\nMESSAGE a \\] b\n\
             depth 3 score +12 nodes 9 pv 1,1]\n;W[nb]C[1 ms\nSpeed 1K | Eval -40 | Node 1K])",
        )
        .unwrap();
        let game = read_game(&path).unwrap().unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(game.rule, Rule::Renju);
        assert_eq!(game.opening, 2);
        assert_eq!(game.moves, vec![(7, 7), (6, 7), (8, 8), (13, 1)]);
        assert_eq!(game.black_score, 0.0);
        assert_eq!(game.scores, [None, None, Some(12), Some(-40)]);
        assert_eq!(game.players, ["Tengen", "Rapfi"]);
        let mut rapfi = game;
        rapfi.keep_scores_of("Rapfi");
        assert_eq!(rapfi.scores, [None, None, None, Some(-40)]);
    }

    /// Comments as the arena records them: Tengen's progress lines and Rapfi's status
    /// line; proven wins and losses give no label.
    #[test]
    fn reads_logged_scores_of_both_formats() {
        let tengen = "704.3 ms\ndepth 8 score +24 nodes 17190 nps 1220763 time 14ms pv 10,7\n\
                      depth 9 score -70 nodes 20231 nps 1194538 time 16ms pv 10,7 7,10";
        assert_eq!(last_score(tengen), Some(-70));
        let rapfi = "971.3 ms\nSpeed 601K | Depth 21-34 | Eval 21 | Node 582K | Time 970ms\n\
                     Bestline H11 H9 I9";
        assert_eq!(last_score(rapfi), Some(21));
        let mate = "Speed 601K | Depth 25-40 | Eval +M19 | Node 702K | Time 960ms";
        assert_eq!(last_score(mate), None);
        assert_eq!(last_score("depth 12 score win in 7 nodes 5 pv 1,1"), None);
        assert_eq!(last_score("12.0 ms"), None);
    }
}
