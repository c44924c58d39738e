//! Match statistics: Elo difference with its 95% interval, likelihood of superiority,
//! draw ratio, and the sequential probability ratio test.
//!
//! Two models are used, the same two the chess testing tools use:
//!
//! * **Per game (trinomial)** for the Elo estimate, its error bar and LOS, computed the
//!   way cutechess computes them: the score's standard error comes from the observed
//!   win/draw/loss frequencies, and both ends of the normal 95% interval of the score are
//!   turned into Elo.
//! * **Per game pair (pentanomial)** for the SPRT. Every opening is played twice with the
//!   colours swapped, so the two games of a pair are correlated (a lopsided opening tends
//!   to give one win each). Counting pair outcomes (0, ½, 1, 1½ or 2 points) captures that
//!   correlation; this is fishtest's default. The test is the generalized SPRT on the
//!   expected score in logistic Elo (fishtest's `LLR_logistic`): for each hypothesis the
//!   maximum-likelihood distribution with that expected score is found, and the LLR is
//!   the log ratio of the two likelihoods of the observed pairs. Empty outcome classes
//!   get a count of 0.001 (fishtest's regularisation) so the maximisation is defined.
//!   The pairs also give an error bar of their own, from the spread of the pair scores
//!   (fishtest's), printed beside the per-game one.

/// The normal quantile for a two-sided 95% interval, Φ⁻¹(0.975).
const Z95: f64 = 1.959_963_984_540_054;

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score (logistic model); infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function, from the everywhere-convergent series with positive terms
/// erf(x) = 2/√π · e^(−x²) · Σ (2x²)ⁿ x / (1·3·5···(2n+1)); with no cancellation it keeps
/// full double precision, and beyond |x| = 6 erf is 1 to within 2e-17.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax >= 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * ax * ax;
    let mut term = ax;
    let mut sum = ax;
    let mut n = 0.0;
    while term > sum * 1e-17 {
        n += 1.0;
        term *= two_x2 / (2.0 * n + 1.0);
        sum += term;
    }
    let value = 2.0 / std::f64::consts::PI.sqrt() * (-ax * ax).exp() * sum;
    value.min(1.0).copysign(x)
}

/// Wins, losses and draws of one engine against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    /// Counts a game worth `points` (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game (a draw is half a point); 0.5 before any game.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half the width, in Elo, of the 95% interval of the Elo difference.
    pub fn elo_error95(&self) -> f64 {
        if self.games() == 0 {
            return f64::INFINITY;
        }
        elo_half_width(self.score_interval95())
    }

    /// The normal 95% interval of the score, each game counted as independent.
    pub fn score_interval95(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        normal_interval95(self.score(), self.variance(), n)
    }

    /// The variance of the games' points (1, ½ or 0) about their mean.
    fn variance(&self) -> f64 {
        let mu = self.score();
        (f64::from(self.wins) * (1.0 - mu).powi(2)
            + f64::from(self.draws) * (0.5 - mu).powi(2)
            + f64::from(self.losses) * mu.powi(2))
            / f64::from(self.games().max(1))
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses only (draws carry no information about who is stronger).
    pub fn los(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = f64::from(self.wins) - f64::from(self.losses);
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        f64::from(self.draws) / f64::from(self.games())
    }
}

impl std::ops::Add for Tally {
    type Output = Tally;

    fn add(self, other: Tally) -> Tally {
        Tally {
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
        }
    }
}

/// Outcomes of game pairs (the same opening with both colour assignments), indexed by
/// the first engine's points in the pair times two: 0 = lost both, 1 = a loss and a draw,
/// 2 = two draws or a win and a loss, 3 = a win and a draw, 4 = won both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Records a pair from the first engine's points in each game (0, 0.5 or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let index = ((first + second) * 2.0).round() as usize;
        self.0[index] += 1;
    }

    /// The first engine's points per game over the finished pairs; 0.5 before any.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let points: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(i, &c)| f64::from(c) * pair_score(i))
            .sum();
        points / f64::from(n)
    }

    /// The normal 95% interval of the score from the spread of the pairs' scores, as
    /// fishtest computes its error bars. Where lopsided openings give each side a win
    /// with the strong colour, the two games of a pair answer each other, the pairs vary
    /// less than independent games would, and this interval is narrower than the per-game
    /// one of `Tally`; it is the right one for games played in pairs.
    pub fn score_interval95(&self) -> (f64, f64) {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        normal_interval95(self.score(), self.variance(), n)
    }

    /// The variance of the pairs' scores (points per game) about their mean.
    fn variance(&self) -> f64 {
        let mu = self.score();
        let spread: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(i, &c)| f64::from(c) * (pair_score(i) - mu).powi(2))
            .sum();
        spread / f64::from(self.pairs().max(1))
    }

    /// Half the width, in Elo, of the pairs' 95% interval (see `score_interval95`).
    pub fn elo_error95(&self) -> f64 {
        elo_half_width(self.score_interval95())
    }
}

/// How far several runs of one match agree: the runs' scores spread about the pooled
/// score as independent games would make them spread, unless the runs differ in
/// something the games do not show (the host, its load, the build) or the games of a run
/// answer one another (pairs of one opening). Weighting each run by its games, the
/// per-game variance the spread implies is Σ nᵢ (sᵢ − s)² / (k − 1) over the k runs; its
/// ratio to the games' own variance is the runs' dispersion (1 when they agree as chance
/// allows; k − 1 times it is the χ² of the run scores, on k − 1 degrees of freedom).
pub struct RunSpread {
    /// The pooled score.
    pub score: f64,
    /// The per-game variance the spread of the runs' scores implies, over the games' own.
    pub dispersion: f64,
    /// The 95% interval of the pooled score from the spread (Student's t on k − 1
    /// degrees of freedom), which holds whether or not the runs differ.
    pub interval95: (f64, f64),
    pub degrees_of_freedom: u32,
}

impl RunSpread {
    /// `None` for fewer than two runs with games: a single run has no spread.
    pub fn of(runs: &[Tally]) -> Option<RunSpread> {
        let runs: Vec<&Tally> = runs.iter().filter(|t| t.games() > 0).collect();
        let k = u32::try_from(runs.len()).ok()?;
        if k < 2 {
            return None;
        }
        let pooled = runs.iter().fold(Tally::default(), |sum, &&t| sum + t);
        let n = f64::from(pooled.games());
        let score = pooled.score();
        let spread: f64 = runs
            .iter()
            .map(|t| f64::from(t.games()) * (t.score() - score).powi(2))
            .sum();
        let variance = spread / f64::from(k - 1);
        let half = student_t95(k - 1) * (variance / n).sqrt();
        Some(RunSpread {
            score,
            // Runs that differ have games that differ, so the games' variance is
            // positive wherever the spread's is.
            dispersion: if variance == 0.0 {
                0.0
            } else {
                variance / pooled.variance()
            },
            interval95: (score - half, score + half),
            degrees_of_freedom: k - 1,
        })
    }
}

/// The two-sided 95% quantile of Student's t distribution with `df` degrees of freedom
/// (at least 1): the t with P(|T| < t) = 0.95, by bisection on `student_central`.
pub fn student_t95(df: u32) -> f64 {
    let (mut lo, mut hi) = (0.0, 1000.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if student_central(mid, df) < 0.95 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// P(|T| < t) for Student's t with `df` degrees of freedom, from the finite series for
/// whole degrees of freedom (Abramowitz and Stegun 26.7.3 and 26.7.4), with θ =
/// atan(t/√df): for odd df, 2/π (θ + sin θ cos θ (1 + 2/3 cos²θ + (2·4)/(3·5) cos⁴θ + …,
/// up to cos^(df−3) θ)), nothing but θ for df = 1; for even df, sin θ (1 + 1/2 cos²θ +
/// (1·3)/(2·4) cos⁴θ + …, up to cos^(df−2) θ).
fn student_central(t: f64, df: u32) -> f64 {
    let theta = (t / f64::from(df).sqrt()).atan();
    let (sin, cos) = theta.sin_cos();
    let cos2 = cos * cos;
    // The series' terms: the factor of each is k/(k + 1) times the one before, from
    // k = 2 (odd df) or k = 1 (even df), up to df − 3.
    let series = |first: u32| {
        let (mut sum, mut term, mut k) = (1.0, 1.0, first);
        while k + 3 <= df {
            term *= f64::from(k) / f64::from(k + 1) * cos2;
            sum += term;
            k += 2;
        }
        sum
    };
    if df % 2 == 1 {
        let tail = if df == 1 { 0.0 } else { sin * cos * series(2) };
        2.0 / std::f64::consts::PI * (theta + tail)
    } else {
        sin * series(1)
    }
}

/// The normal 95% interval of a mean score `mu` over `n` samples of variance `variance`.
fn normal_interval95(mu: f64, variance: f64, n: f64) -> (f64, f64) {
    let stderr = (variance / n).sqrt();
    (mu - Z95 * stderr, mu + Z95 * stderr)
}

/// Half the width, in Elo, of an interval of the score: both ends turned into Elo.
fn elo_half_width((low, high): (f64, f64)) -> f64 {
    (elo_from_score(high) - elo_from_score(low)) / 2.0
}

/// Parameters of a sequential probability ratio test of H0: elo = elo0 against
/// H1: elo = elo1, with type I error `alpha` and type II error `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// The LLR fell to the lower bound: H0 (no gain of `elo1`) is accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (a gain of at least `elo0`) is accepted.
    AcceptH1,
}

impl Sprt {
    /// Lower bound of the LLR, ln(β / (1 − α)).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound of the LLR, ln((1 − β) / α).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalized log-likelihood ratio of H1 against H0 for the observed pairs.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs.0.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let n: f64 = counts.iter().sum();
        let pdf = counts.map(|c| c / n);
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let theta0 = mle_tilt(&pdf, s0);
        let theta1 = mle_tilt(&pdf, s1);
        // The MLE distribution for expected score s is p_i / (1 + θ(a_i − s)), so the
        // log ratio of the two MLE probabilities of outcome i needs only the tilts.
        let per_pair: f64 = pdf
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let a = pair_score(i);
                p * ((1.0 + theta0 * (a - s0)).ln() - (1.0 + theta1 * (a - s1)).ln())
            })
            .sum();
        n * per_pair
    }

    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper() {
            SprtState::AcceptH1
        } else if llr <= self.lower() {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// Points per game of pair outcome `i` (0, 0.25, 0.5, 0.75, 1).
fn pair_score(i: usize) -> f64 {
    i as f64 / 4.0
}

/// The tilt θ of the maximum-likelihood distribution with expected score `s` (0 < s < 1):
/// the root of Σ p_i (a_i − s) / (1 + θ(a_i − s)) = 0. The sum falls strictly from +∞ to
/// −∞ over the interval where every 1 + θ(a_i − s) stays positive, −1/(1 − s) < θ < 1/s
/// (all p_i are positive after regularisation), so bisection always finds the root.
fn mle_tilt(pdf: &[f64; 5], s: f64) -> f64 {
    let f = |theta: f64| -> f64 {
        pdf.iter()
            .enumerate()
            .map(|(i, &p)| {
                let d = pair_score(i) - s;
                p * d / (1.0 + theta * d)
            })
            .sum()
    };
    let mut lo = -1.0 / (1.0 - s);
    let mut hi = 1.0 / s;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // A 3:1 score ratio is 400·log10(3) Elo by the definition of logistic Elo.
        assert!(close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9));
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 10^(−100/400) = 0.562341325..., so s = 1/1.562341325 = 0.640065...
        assert!(close(score_from_elo(100.0), 0.640_064_999_802_885, 1e-12));
        for elo in [-300.0, -5.0, 0.0, 35.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert!(elo_from_score(1.0).is_infinite());
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Reference values: the C library's erf (printed by Python's math.erf), which agree
        // with the standard tables to the digits given.
        assert!(close(erf(0.0), 0.0, 1e-15));
        assert!(close(erf(0.5), 0.520_499_877_813_047, 1e-14));
        assert!(close(erf(1.0), 0.842_700_792_949_715, 1e-14));
        assert!(close(erf(2.0), 0.995_322_265_018_953, 1e-14));
        assert!(close(erf(-1.0), -0.842_700_792_949_715, 1e-14));
        assert!(close(erf(4.0), 0.999_999_984_582_742, 1e-14));
        assert_eq!(erf(10.0), 1.0);
    }

    #[test]
    fn los_by_hand() {
        // 60 wins, 40 losses: (W − L)/√(2(W + L)) = 20/√200 = √2, and ½(1 + erf(√2)) = Φ(2)
        // = 0.977249868051821 (standard normal table): 20 more wins than losses out of
        // 100 decisive games is a two-sigma result. Draws do not enter.
        let t = Tally {
            wins: 60,
            losses: 40,
            draws: 50,
        };
        assert!(close(t.los(), 0.977_249_868_051_821, 1e-12));
        // Equal wins and losses: no information either way.
        assert!(close(
            Tally {
                wins: 7,
                losses: 7,
                draws: 3
            }
            .los(),
            0.5,
            1e-15
        ));
        assert_eq!(Tally::default().los(), 0.5);
    }

    #[test]
    fn elo_error_bar_by_hand() {
        // 10 wins, 10 losses, no draws: μ = 0.5, per-game variance 0.25, standard error
        // 0.5/√20 = 0.111803; the interval is 0.5 ± 1.959964·0.111803 = 0.5 ± 0.219131,
        // so the error bar is elo(0.719131) = 400·log10(0.719131/0.280869) = 163.32 Elo
        // (by hand; the digits below from scripts/stats-reference.py).
        let t = Tally {
            wins: 10,
            losses: 10,
            draws: 0,
        };
        assert!(close(t.elo(), 0.0, 1e-12));
        let by_hand = elo_from_score(0.5 + Z95 * 0.5 / 20f64.sqrt());
        assert!(close(t.elo_error95(), by_hand, 1e-9));
        assert!(close(t.elo_error95(), 163.321_367_212_829, 1e-6));
        // 30 wins, 10 losses, 20 draws: μ = 40/60 = 0.6667, Elo = 400·log10(2) = 120.41;
        // variance = (30·(1/3)² + 20·(1/6)² + 10·(2/3)²)/60 = (10/3 + 5/9 + 40/9)/60
        // = (75/9)/60 = 0.138889, stderr = √(0.138889/60) = 0.048113.
        let t = Tally {
            wins: 30,
            losses: 10,
            draws: 20,
        };
        assert!(close(t.elo(), 400.0 * 2f64.log10(), 1e-9));
        let stderr = (0.138_888_888_888_889f64 / 60.0).sqrt();
        let expected = (elo_from_score(2.0 / 3.0 + Z95 * stderr)
            - elo_from_score(2.0 / 3.0 - Z95 * stderr))
            / 2.0;
        assert!(close(t.elo_error95(), expected, 1e-6));
        assert!(close(t.draw_ratio(), 1.0 / 3.0, 1e-15));
    }

    #[test]
    fn sprt_bounds() {
        // ln(0.05/0.95) and ln(0.95/0.05): the ±2.94 bounds every fishtest run shows.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(sprt.lower(), -2.944_438_979_166_44, 1e-12));
        assert!(close(sprt.upper(), 2.944_438_979_166_44, 1e-12));
        assert_eq!(sprt.state(3.0), SprtState::AcceptH1);
        assert_eq!(sprt.state(-3.0), SprtState::AcceptH0);
        assert_eq!(sprt.state(0.0), SprtState::Continue);
    }

    #[test]
    fn pentanomial_llr_matches_reference() {
        // Reference values from scripts/stats-reference.py: an independent stock-python3
        // computation of fishtest's LLR_logistic (same regularisation and MLE, but Newton's
        // method for the tilt where this module bisects).
        let cases: [([u32; 5], f64, f64, f64); 5] = [
            ([10, 20, 40, 20, 10], 0.0, 5.0, -0.034_506_850_952),
            ([5, 20, 40, 25, 10], 0.0, 5.0, 0.374_955_227_713),
            ([30, 150, 330, 180, 40], 0.0, 5.0, 1.361_353_631_898),
            ([100, 300, 700, 350, 50], -3.0, 1.0, -1.150_676_002_214),
            ([0, 3, 10, 6, 1], 0.0, 10.0, 0.438_740_785_434),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let sprt = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            let llr = sprt.llr(&Pentanomial(counts));
            assert!(
                close(llr, expected, 1e-6),
                "{counts:?}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn pentanomial_llr_is_close_to_the_brownian_approximation() {
        // For many pairs the exact GSPRT approaches N·(s1−s0)(2μ−s0−s1)/(2σ²) (van den
        // Bergh, "A practical introduction to the GSPRT"), an independent closed form.
        let pairs = Pentanomial([400, 2000, 4000, 2300, 500]);
        let (n, mu, var) = (f64::from(pairs.pairs()), pairs.score(), pairs.variance());
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let llr = sprt.llr(&pairs);
        assert!(
            (llr - approx).abs() < 0.01 * approx.abs(),
            "{llr} vs {approx}"
        );
    }

    #[test]
    fn pair_error_bar_by_hand() {
        // Every opening won once by each side, as on a lopsided set where the strong
        // colour wins: the pairs do not vary at all, where the same 10 wins and 10 losses
        // counted game by game give a bar of 163 Elo (`elo_error_bar_by_hand`).
        let even = Pentanomial([0, 0, 10, 0, 0]);
        assert_eq!(even.score(), 0.5);
        assert_eq!(even.score_interval95(), (0.5, 0.5));
        assert_eq!(even.elo_error95(), 0.0);
        // Pair scores 0, ½, ½, 1: μ = 0.5, variance (0.25 + 0 + 0 + 0.25)/4 = 0.125,
        // stderr √(0.125/4) = 0.176777, interval 0.5 ± 0.346476, so the bar is
        // elo(0.846476) = 296.58 Elo (digits from scripts/stats-reference.py).
        let spread = Pentanomial([1, 0, 2, 0, 1]);
        let (low, high) = spread.score_interval95();
        assert!(close(high - 0.5, Z95 * (0.125f64 / 4.0).sqrt(), 1e-12));
        assert!(close(0.5 - low, high - 0.5, 1e-12));
        assert!(close(spread.elo_error95(), 296.575_290_063_887, 1e-6));
        // The fifty-ninth session's freestyle run against Rapfi (`--seed 79`, 29 - 63 - 8):
        // the pairs' bar is 54.4 Elo against the games' 70.3.
        let run = Pentanomial([15, 7, 26, 1, 1]);
        assert!(close(run.score(), 0.33, 1e-12));
        assert!(close(run.elo_error95(), 54.426_230_128_671, 1e-6));
        let games = Tally {
            wins: 29,
            losses: 63,
            draws: 8,
        };
        assert!(close(games.score(), run.score(), 1e-12));
        assert!(run.elo_error95() < games.elo_error95());
        assert_eq!(Pentanomial::default().score(), 0.5);
        assert_eq!(Pentanomial::default().score_interval95(), (0.0, 1.0));
    }

    #[test]
    fn student_t_matches_the_tables() {
        // Two-sided 95% points of Student's t as the standard tables print them (NIST/
        // SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2, the 0.975 column).
        for (df, t) in [
            (1, 12.706),
            (2, 4.303),
            (3, 3.182),
            (4, 2.776),
            (5, 2.571),
            (10, 2.228),
            (17, 2.110),
            (30, 2.042),
            (100, 1.984),
        ] {
            let got = student_t95(df);
            assert!(close(got, t, 5e-4), "{df}: {got} vs {t}");
        }
        // With many degrees of freedom t becomes the normal quantile.
        assert!(close(student_t95(1_000_000), Z95, 1e-5));
    }

    #[test]
    fn run_spread_by_hand() {
        // Three runs of 10 games: 6-4-0, 2-8-0 and 4-4-2 score 0.6, 0.2 and 0.5; pooled
        // 12-16-2, s = 13/30. Σ nᵢ(sᵢ − s)² = 10·((1/6)² + (7/30)² + (1/15)²) = 13/15, so
        // the spread's variance is 13/30 on 2 degrees of freedom. The games' own variance
        // is (12·(17/30)² + 2·(2/30)² + 16·(13/30)²)/30 = 103/450, so the dispersion is
        // (13/30)/(103/450) = 195/103, and the interval s ± t₂·√((13/30)/30).
        let runs = [(6, 4, 0), (2, 8, 0), (4, 4, 2)].map(|(wins, losses, draws)| Tally {
            wins,
            losses,
            draws,
        });
        let spread = RunSpread::of(&runs).unwrap();
        assert!(close(spread.score, 13.0 / 30.0, 1e-12));
        assert!(close(spread.dispersion, 195.0 / 103.0, 1e-12));
        assert_eq!(spread.degrees_of_freedom, 2);
        let half = student_t95(2) * (13.0f64 / 30.0 / 30.0).sqrt();
        assert!(close(spread.interval95.0, 13.0 / 30.0 - half, 1e-12));
        assert!(close(spread.interval95.1, 13.0 / 30.0 + half, 1e-12));
        // Runs that agree exactly have no spread, whatever their games' variance.
        let same = RunSpread::of(&[runs[0], runs[0]]).unwrap();
        assert_eq!(same.dispersion, 0.0);
        assert_eq!(same.interval95, (0.6, 0.6));
        // One run (an empty one does not count) has no spread to measure.
        assert!(RunSpread::of(&[runs[0], Tally::default()]).is_none());
        assert!(RunSpread::of(&[]).is_none());
    }

    #[test]
    fn pentanomial_counts_pairs() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0);
        p.add(0.5, 0.0);
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        assert_eq!(p.0, [0, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
        assert_eq!(
            Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05
            }
            .llr(&Pentanomial::default()),
            0.0
        );
    }
}
