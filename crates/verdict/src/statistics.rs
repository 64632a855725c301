//! Statistics of a cell's runs, and the intervals put on a median or a
//! ratio of medians.
//!
//! **Why two methods.** A bootstrap percentile interval alone is too narrow
//! over few runs: over three, the median's bootstrap draws never leave the
//! runs' own range, and all three runs fall on one side of the true median
//! one time in four, so its "95%" interval is a 75% one. A Student-t
//! interval on the runs' logarithms carries the few-runs penalty (its
//! quantile over three runs is 4.30 where a normal's is 1.96) but is thrown
//! wide by one outlying run, where the median is not. Every interval here is
//! the hull of the two — never narrower than either — so a verdict is held
//! to its stated confidence over three runs as over thirty.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// What a cell's runs say, in summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct CellStats {
    pub runs: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// Coefficient of variation: the runs' standard deviation (of the runs
    /// themselves, not an estimate for a population) over their mean.
    pub cv: f64,
    /// Whether `cv` is past the instability threshold.
    pub unstable: bool,
}

impl CellStats {
    /// The runs' spread (their coefficient of variation), read only over
    /// two runs or more: one run has none.
    pub fn spread(&self) -> Option<f64> {
        (self.runs >= 2).then_some(self.cv)
    }
}

/// The median of a non-empty sample (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The coefficient of variation of a sample: 0 for fewer than two values.
pub fn coefficient_of_variation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    if values.len() < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / n;
    if mean == 0.0 {
        return 0.0;
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    variance.sqrt() / mean.abs()
}

impl CellStats {
    /// Statistics of the values, or `None` when there are none.
    pub fn of(values: &[f64], unstable_cv: f64) -> Option<CellStats> {
        if values.is_empty() {
            return None;
        }
        let cv = coefficient_of_variation(values);
        Some(CellStats {
            runs: values.len(),
            median: median(values),
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            mean: values.iter().sum::<f64>() / values.len() as f64,
            cv,
            unstable: cv > unstable_cv,
        })
    }
}

/// A small deterministic generator (xorshift64*): the same seed gives the
/// same intervals, so a verdict reads the same every time it is rendered.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        // Zero is the one state xorshift never leaves.
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }
}

/// An interval with its point estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.low <= other.high && other.low <= self.high
    }
}

/// How a bootstrap is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Bootstrap {
    pub resamples: usize,
    /// Two-sided confidence, e.g. 0.95.
    pub confidence: f64,
    pub seed: u64,
}

impl Default for Bootstrap {
    fn default() -> Self {
        Bootstrap {
            resamples: 4000,
            confidence: 0.95,
            seed: 0x005E_ED0F_2026,
        }
    }
}

fn resample_median(values: &[f64], rng: &mut XorShift, scratch: &mut Vec<f64>) -> f64 {
    scratch.clear();
    scratch.extend((0..values.len()).map(|_| values[rng.below(values.len())]));
    median(scratch)
}

fn percentile_interval(estimate: f64, mut draws: Vec<f64>, confidence: f64) -> Interval {
    draws.retain(|d| d.is_finite());
    draws.sort_by(f64::total_cmp);
    if draws.is_empty() {
        return Interval {
            estimate,
            low: estimate,
            high: estimate,
        };
    }
    let tail = (1.0 - confidence) / 2.0;
    let at = |q: f64| draws[((q * (draws.len() - 1) as f64).round() as usize).min(draws.len() - 1)];
    Interval {
        estimate,
        low: at(tail),
        high: at(1.0 - tail),
    }
}

impl Bootstrap {
    /// An interval for the median of the values: the hull of the bootstrap
    /// percentile interval and the Student-t interval of the values'
    /// logarithms (of the values themselves where one is not positive).
    pub fn median(&self, values: &[f64]) -> Interval {
        let mut rng = XorShift::new(self.seed);
        let mut scratch = Vec::with_capacity(values.len());
        let draws = (0..self.resamples)
            .map(|_| resample_median(values, &mut rng, &mut scratch))
            .collect();
        let bootstrap = percentile_interval(median(values), draws, self.confidence);
        let t = match logs(values) {
            Some(logs) => student_t(&logs, self.confidence).map(|(lo, hi)| (lo.exp(), hi.exp())),
            None => student_t(values, self.confidence),
        };
        widened(bootstrap, t)
    }

    /// An interval for median(numerator) / median(denominator): the hull of
    /// a bootstrap percentile interval, resampling the runs of each cell
    /// independently, and Welch's t-interval on the difference of the two
    /// cells' mean logarithms.
    pub fn ratio(&self, numerator: &[f64], denominator: &[f64]) -> Interval {
        let mut rng = XorShift::new(self.seed);
        let mut scratch = Vec::with_capacity(numerator.len().max(denominator.len()));
        let draws = (0..self.resamples)
            .map(|_| {
                let n = resample_median(numerator, &mut rng, &mut scratch);
                let d = resample_median(denominator, &mut rng, &mut scratch);
                n / d
            })
            .collect();
        let bootstrap = percentile_interval(
            median(numerator) / median(denominator),
            draws,
            self.confidence,
        );
        let t = logs(numerator)
            .zip(logs(denominator))
            .and_then(|(n, d)| welch_t(&n, &d, self.confidence))
            .map(|(lo, hi)| (lo.exp(), hi.exp()));
        widened(bootstrap, t)
    }

    /// The same interval when the lanes alternated in rounds: each round's
    /// pair of runs is resampled together, and the t-interval is of the
    /// rounds' log ratios, so drift the two lanes shared within a round
    /// cancels out of the ratio.
    pub fn paired_ratio(&self, rounds: &[(f64, f64)]) -> Interval {
        let t = rounds
            .iter()
            .map(|(a, b)| (*a > 0.0 && *b > 0.0).then(|| (a / b).ln()))
            .collect::<Option<Vec<f64>>>()
            .and_then(|log_ratios| student_t(&log_ratios, self.confidence))
            .map(|(lo, hi)| (lo.exp(), hi.exp()));
        widened(self.paired_percentile(rounds), t)
    }

    /// The bootstrap percentile interval of the paired ratio alone.
    fn paired_percentile(&self, rounds: &[(f64, f64)]) -> Interval {
        let mut rng = XorShift::new(self.seed);
        let (num, den): (Vec<f64>, Vec<f64>) = rounds.iter().copied().unzip();
        let mut n = Vec::with_capacity(rounds.len());
        let mut d = Vec::with_capacity(rounds.len());
        let draws = (0..self.resamples)
            .map(|_| {
                n.clear();
                d.clear();
                for _ in 0..rounds.len() {
                    let (a, b) = rounds[rng.below(rounds.len())];
                    n.push(a);
                    d.push(b);
                }
                median(&n) / median(&d)
            })
            .collect();
        percentile_interval(median(&num) / median(&den), draws, self.confidence)
    }
}

/// The values' logarithms, where every value is positive.
fn logs(values: &[f64]) -> Option<Vec<f64>> {
    values.iter().map(|v| (*v > 0.0).then(|| v.ln())).collect()
}

/// The hull of the bootstrap interval and the t-interval, where there is one.
fn widened(bootstrap: Interval, t: Option<(f64, f64)>) -> Interval {
    match t {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() => Interval {
            estimate: bootstrap.estimate,
            low: bootstrap.low.min(lo),
            high: bootstrap.high.max(hi),
        },
        _ => bootstrap,
    }
}

/// The sample mean and the unbiased sample variance (n − 1).
fn mean_and_variance(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, variance)
}

/// Student's t-interval for the mean of the values; none under two values.
pub fn student_t(values: &[f64], confidence: f64) -> Option<(f64, f64)> {
    if values.len() < 2 {
        return None;
    }
    let (mean, variance) = mean_and_variance(values);
    let half =
        t_quantile(values.len() as f64 - 1.0, confidence) * (variance / values.len() as f64).sqrt();
    Some((mean - half, mean + half))
}

/// Welch's t-interval for mean(a) − mean(b); none under two values a side.
pub fn welch_t(a: &[f64], b: &[f64], confidence: f64) -> Option<(f64, f64)> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let ((ma, va), (mb, vb)) = (mean_and_variance(a), mean_and_variance(b));
    let (sa, sb) = (va / a.len() as f64, vb / b.len() as f64);
    let se = (sa + sb).sqrt();
    if se == 0.0 {
        return Some((ma - mb, ma - mb));
    }
    // Welch–Satterthwaite degrees of freedom.
    let df = (sa + sb).powi(2)
        / (sa.powi(2) / (a.len() as f64 - 1.0) + sb.powi(2) / (b.len() as f64 - 1.0));
    let half = t_quantile(df, confidence) * se;
    Some((ma - mb - half, ma - mb + half))
}

/// The half-width an interval `half` wide over `runs` runs is expected to
/// have over `more`: narrower as 1/√n, and as the t quantile falls with
/// the degrees of freedom (over three runs at 95% it is 4.30; over ten,
/// 2.26), so more runs narrow it faster than 1/√n alone says.
pub fn narrowed(half: f64, runs: usize, more: usize, confidence: f64) -> f64 {
    let shrink = (runs as f64 / more as f64).sqrt();
    if runs < 2 {
        return half * shrink;
    }
    half * shrink * t_quantile(more as f64 - 1.0, confidence)
        / t_quantile(runs as f64 - 1.0, confidence)
}

/// The two-sided Student-t quantile: the t with P(|T| ≤ t) = `confidence`
/// at `df` degrees of freedom, statrs's inverse of the distribution at
/// 1 − (1 − `confidence`) / 2.
///
/// Within 1e-9 (relative) of the exact quantile up to the 10,000 degrees of
/// freedom the most runs a verdict asks for give (checked against a
/// bisection on the incomplete beta function: 1e-12 up to 1,000); statrs's
/// inverse loses digits past 100,000, which no interval here reaches (a
/// Welch interval's degrees of freedom are at most the two cells' runs).
/// Infinite at a confidence of 1; `NaN` where `df` is not positive or
/// `confidence` is outside [0, 1].
pub fn t_quantile(df: f64, confidence: f64) -> f64 {
    let upper = 1.0 - (1.0 - confidence) / 2.0;
    if !(0.5..=1.0).contains(&upper) {
        return f64::NAN;
    }
    StudentsT::new(0.0, 1.0, df).map_or(f64::NAN, |t| t.inverse_cdf(upper))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_samples() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn the_posts_unstable_row_is_flagged_at_ten_percent() {
        // Stock Rails on TruffleRuby: "its three timed runs went 91, 118, 119".
        let stats = CellStats::of(&[91.0, 118.0, 119.0], 0.10).unwrap();
        assert_eq!(stats.median, 118.0);
        assert_eq!((stats.min, stats.max), (91.0, 119.0));
        assert!((stats.cv - 0.1186).abs() < 0.001, "cv {}", stats.cv);
        assert!(stats.unstable);
        let steady = CellStats::of(&[1000.0, 1010.0, 995.0], 0.10).unwrap();
        assert!(!steady.unstable, "cv {}", steady.cv);
    }

    #[test]
    fn bootstrap_is_deterministic_and_brackets_the_estimate() {
        let b = Bootstrap::default();
        let one = b.ratio(&[200.0, 204.0, 198.0], &[100.0, 101.0, 99.0]);
        let two = b.ratio(&[200.0, 204.0, 198.0], &[100.0, 101.0, 99.0]);
        assert_eq!(one, two);
        assert!(one.low <= one.estimate && one.estimate <= one.high);
        assert!((one.estimate - 2.0).abs() < 1e-9);
        assert!(one.low > 1.9 && one.high < 2.1, "{one:?}");
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        for (df, confidence, table) in [
            (1.0, 0.95, 12.706),
            (2.0, 0.95, 4.303),
            (4.0, 0.99, 4.604),
            (10.0, 0.95, 2.228),
            (30.0, 0.95, 2.042),
            (1000.0, 0.95, 1.962),
            (2.0, 0.9875, 8.860),
        ] {
            let t = t_quantile(df, confidence);
            assert!(
                (t - table).abs() < 0.002,
                "df {df} at {confidence}: {t} against {table}"
            );
        }
    }

    #[test]
    fn t_quantiles_keep_the_digits_of_the_bisection_they_replaced() {
        // The hand-written bisection on the incomplete beta function (Lentz's
        // continued fraction, Lanczos ln Γ) that statrs replaced gave these.
        for (df, confidence, before) in [
            (1.0, 0.95, 12.706_204_736_172_367),
            (2.0, 0.95, 4.302_652_729_749_752),
            (4.0, 0.99, 4.604_094_871_350_753),
            (10.0, 0.95, 2.228_138_851_986_841_5),
            (30.0, 0.95, 2.042_272_456_300_452),
            (1000.0, 0.95, 1.962_339_080_827_405_3),
            (2.0, 0.9875, 8.860_200_034_654_554),
            (4.649_999_999_999_944, 0.999, 7.340_982_879_290_095),
            (58.5, 0.9, 1.671_320_901_209_128_4),
            (393.0, 0.99375, 2.749_187_904_269_092_5),
            (9470.0, 0.991_667, 2.638_825_378_476_213),
        ] {
            let t = t_quantile(df, confidence);
            assert!(
                ((t - before) / before).abs() < 1e-9,
                "df {df} at {confidence}: {t} against {before}"
            );
        }
        assert!(t_quantile(0.0, 0.95).is_nan());
        assert_eq!(t_quantile(3.0, 1.0), f64::INFINITY);
        assert!(t_quantile(3.0, 1.5).is_nan());
    }

    #[test]
    fn three_runs_on_one_side_do_not_make_a_narrow_interval() {
        // Three rounds whose ratios are 1.04, 1.06, 1.09: the bootstrap alone
        // gives their range (1.04 to 1.09), though all three fall on one side
        // of the true ratio one time in four by chance alone.
        let rounds = [(1040.0, 1000.0), (1060.0, 1000.0), (1090.0, 1000.0)];
        let i = Bootstrap::default().paired_ratio(&rounds);
        assert!((i.estimate - 1.06).abs() < 1e-9, "{i:?}");
        assert!(i.low < 1.01 && i.high > 1.12, "{i:?}");
        // At the confidence of one of four looks (98.75%) it reaches 1.0.
        let looked = Bootstrap {
            confidence: 0.9875,
            ..Default::default()
        };
        let i = looked.paired_ratio(&rounds);
        assert!(i.low < 1.0 && i.high > 1.18, "{i:?}");
        // Ten such rounds narrow it past 1.0.
        let ten: Vec<(f64, f64)> = (0..10).map(|k| (1040.0 + 5.0 * k as f64, 1000.0)).collect();
        let i = Bootstrap::default().paired_ratio(&ten);
        assert!(i.low > 1.0, "{i:?}");
    }

    /// A standard normal draw (Box–Muller).
    fn normal(rng: &mut XorShift) -> f64 {
        let uniform =
            |rng: &mut XorShift| ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let (u, v) = (uniform(rng), uniform(rng));
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    #[test]
    fn the_interval_covers_the_true_ratio_as_often_as_it_says() {
        // Two cells whose true ratio is 2, each run off by a log-normal 10%,
        // measured in rounds of three (the posts' count), 1,000 times. The
        // bootstrap's interval alone covers the truth three times in four
        // (74.6%) where it claims 95%; the interval the verdicts use, 95%
        // less the simulation's own sampling error (±0.7% over 1,000 draws):
        // 94.1%. (Over eight rounds: 95.8% and 97.3%.)
        let b = Bootstrap::default();
        let mut rng = XorShift::new(2026);
        for (runs, bootstrap_at_most, ours_at_least) in [(3, 0.80, 0.935)] {
            let (mut ours, mut alone) = (0, 0);
            for _ in 0..1000 {
                let rounds: Vec<(f64, f64)> = (0..runs)
                    .map(|_| {
                        let a = 2000.0 * (0.1 * normal(&mut rng)).exp();
                        let b = 1000.0 * (0.1 * normal(&mut rng)).exp();
                        (a, b)
                    })
                    .collect();
                let covers = |i: Interval| i.low <= 2.0 && 2.0 <= i.high;
                ours += covers(b.paired_ratio(&rounds)) as u32;
                alone += covers(b.paired_percentile(&rounds)) as u32;
            }
            let (ours, alone) = (ours as f64 / 1000.0, alone as f64 / 1000.0);
            eprintln!(
                "{runs} runs: the bootstrap alone covered {alone}, the verdicts' interval {ours}"
            );
            assert!(
                alone <= bootstrap_at_most,
                "{runs} runs: the bootstrap alone covered {alone}"
            );
            assert!(
                ours >= ours_at_least,
                "{runs} runs: the verdicts' interval covered {ours}"
            );
        }
    }

    #[test]
    fn one_outlying_run_widens_the_interval_no_more_than_either_method_does() {
        let steady = Bootstrap::default().median(&[100.0, 101.0, 99.0, 100.0, 100.5]);
        assert!(steady.low > 98.0 && steady.high < 102.0, "{steady:?}");
        let outlier = Bootstrap::default().median(&[100.0, 101.0, 99.0, 100.0, 50.0]);
        assert_eq!(outlier.estimate, 100.0);
        assert!(outlier.low < 99.0, "{outlier:?}");
        // A value that is not positive: the t-interval of the values themselves.
        let zero = Bootstrap::default().median(&[0.0, 1.0, 2.0]);
        assert!(zero.low < 0.0 && zero.high > 2.0, "{zero:?}");
    }

    #[test]
    fn generator_indices_stay_in_range_and_cover_it() {
        let mut rng = XorShift::new(0);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            seen[rng.below(5)] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }
}
