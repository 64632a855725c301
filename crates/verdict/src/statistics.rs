//! Statistics of a cell's runs, and the bootstrap that puts an interval on
//! a median or a ratio of medians.

use serde::{Deserialize, Serialize};

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
    /// A percentile interval for the median of the values.
    pub fn median(&self, values: &[f64]) -> Interval {
        let mut rng = XorShift::new(self.seed);
        let mut scratch = Vec::with_capacity(values.len());
        let draws = (0..self.resamples)
            .map(|_| resample_median(values, &mut rng, &mut scratch))
            .collect();
        percentile_interval(median(values), draws, self.confidence)
    }

    /// A percentile interval for median(numerator) / median(denominator),
    /// resampling the runs of each cell independently.
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
        percentile_interval(
            median(numerator) / median(denominator),
            draws,
            self.confidence,
        )
    }

    /// The same interval when the lanes alternated in rounds: each round's
    /// pair of runs is resampled together, so drift the two lanes shared
    /// within a round cancels out of the ratio.
    pub fn paired_ratio(&self, rounds: &[(f64, f64)]) -> Interval {
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
    fn generator_indices_stay_in_range_and_cover_it() {
        let mut rng = XorShift::new(0);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            seen[rng.below(5)] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }
}
