//! What each lane's server got from the machine, read over a cell's runs,
//! and the basis a throughput claim is judged on.
//!
//! A reader's machine is a busy one. Where a lane's server wanted all of its
//! CPUs (CPU-bound) but other work took some of them, its requests a second
//! measure the machine's contention as much as the server; its requests per
//! CPU-second, scaled to the CPUs it could use, are the rate it would have
//! had with them to itself. That estimate assumes the CPU-seconds it did get
//! ran at the same clock and with the same caches as a quiet run's, which
//! holds for alternating rounds on the same CPUs; it removes time taken from
//! a lane, not cycles another process spoiled (its caches, its memory
//! bandwidth), so a contended lane still reads somewhat low.
//!
//! Where a lane sat idle part of the time, the load did not reach its
//! ceiling: its rate is the load's, not the server's, and a claim read as a
//! ceiling is not judged on it.

use serde::{Deserialize, Serialize};

use crate::measurements::{Cell, Repetition};
use crate::statistics::{Interval, median};

/// A lane that wanted at least this share of its CPUs (its CPU time and its
/// wait for a CPU, over all it could have used) was CPU-bound: at its
/// ceiling. Not 100%: a server's own locks and hand-offs leave it a little
/// idle even there (one-thread Puma wanted 88–89% of its CPU at 16
/// connections here, with other work beside it and without).
pub const CPU_BOUND: f64 = 0.85;

/// A lane that wanted more of its CPUs than it had by more than this share
/// had some of them taken by other work.
pub const TAKEN: f64 = 0.05;

/// How far a rate per CPU-second may read from a quiet run's rate, per
/// share of the lane's CPUs other work took, either way: what
/// bench/contention measured it move at most, with a safety factor
/// (docs/verdicts.md, bench/NOTES.md).
pub const MISS_PER_SHARE_TAKEN: f64 = 0.5;

/// A run in which other work took more than this share of the CPUs its
/// server wanted is spoiled: it is measured again (once, within the run's
/// budget), the first attempt set aside. At a tenth taken, a run judged per
/// CPU-second is already widened by [`MISS_PER_SHARE_TAKEN`] of it either
/// way: half of a ±10% band's room.
pub const SPOILED: f64 = 0.10;

/// What one lane's server got from the machine over a cell's runs: the
/// medians over the runs that have a number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct LaneCpu {
    pub lane: String,
    /// The figure that reads this lane's cell.
    pub figure: String,
    /// Its CPU time over all it could have used (1.0 = all of it).
    pub share: f64,
    /// Its CPU time and its wait for a CPU over all it could have used; near
    /// 1.0 or above when it was CPU-bound. `None` where the wait was not read.
    pub wanted: Option<f64>,
    /// The CPUs it could use.
    pub cpus: f64,
    /// The hypervisor's steal on its CPUs, as a share of their time.
    pub steal: Option<f64>,
    pub runs: u32,
    /// Of those runs, the ones measured again because other work spoiled
    /// their first attempt ([`SPOILED`]).
    #[serde(default)]
    pub measured_again: u32,
}

impl LaneCpu {
    /// Reads a cell's runs; `None` unless every run with a number says what
    /// the server got.
    pub fn of(figure: &str, cell: &Cell) -> Option<LaneCpu> {
        let runs: Vec<&Repetition> = cell.runs.iter().filter(|r| r.value.is_some()).collect();
        if runs.is_empty() || runs.iter().any(|r| r.server_cpu.is_none()) {
            return None;
        }
        let cpu: Vec<_> = runs.iter().filter_map(|r| r.server_cpu).collect();
        let of = |f: &dyn Fn(&crate::measurements::ServerCpu) -> Option<f64>| {
            let values: Vec<f64> = cpu.iter().filter_map(f).collect();
            (values.len() == cpu.len()).then(|| median(&values))
        };
        Some(LaneCpu {
            lane: cell.key.lane.clone(),
            figure: figure.to_string(),
            share: of(&|c| Some(c.share()))?,
            wanted: of(&|c| c.wanted()),
            cpus: of(&|c| Some(c.cpus))?,
            steal: of(&|c| {
                c.steal_s
                    .map(|s| s / (c.wall_s * c.cpus).max(f64::MIN_POSITIVE))
            }),
            runs: cpu.len() as u32,
            measured_again: runs
                .iter()
                .filter(|r| r.first_attempt_taken.is_some())
                .count() as u32,
        })
    }

    /// Whether it wanted all of its CPUs; `None` where its wait was not read.
    pub fn cpu_bound(&self) -> Option<bool> {
        self.wanted.map(|w| w >= CPU_BOUND)
    }

    /// The share of its CPUs it wanted and did not get (other work had
    /// them); `None` where its wait was not read.
    pub fn taken(&self) -> Option<f64> {
        self.wanted.map(|w| taken(w, self.share))
    }

    /// The cell's reading, as the reports' and pages' cell tables show it:
    /// `83% of 1 CPU, CPU-bound`, `44% of 1 CPU, idle 22% of the time`.
    pub fn words(&self) -> String {
        let had = format!("{} of {}", pct(self.share), count_words(self.cpus));
        match self.wanted {
            Some(w) if w >= CPU_BOUND => format!("{had}, CPU-bound"),
            Some(w) => format!("{had}, idle {} of the time", pct(1.0 - w)),
            None => had,
        }
    }

    /// `falcon had 83% of its CPU and wanted all of it`.
    pub fn describe(&self) -> String {
        let cpus = cpus_words(self.cpus);
        let wanted = match self.wanted {
            Some(w) if w >= CPU_BOUND => " and wanted all of it".to_string(),
            Some(w) => format!(" and wanted {}", pct(w)),
            None => String::new(),
        };
        format!(
            "{} had {} of its {cpus}{wanted}",
            self.lane,
            pct(self.share)
        )
    }
}

/// What a throughput claim is judged on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "basis", rename_all = "snake_case")]
pub enum CpuBasis {
    /// Every lane had the CPUs it wanted: the rates as measured.
    AsMeasured,
    /// Lanes CPU-bound, and other work took CPU from at least one: each
    /// run's rate over its share of its CPUs. `as_measured` is the interval
    /// the raw rates gave.
    PerCpuSecond { as_measured: Option<Interval> },
    /// A lane idle part of the time: the load did not reach its ceiling.
    BelowCeiling,
    /// A lane had less than its CPUs, and whether the rest was taken or
    /// idle was not read (no wait time): the rates as measured, said so.
    Unknown,
}

/// The lanes of a claim and what they got, with the basis it is judged on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct CpuReading {
    #[serde(flatten)]
    pub basis: CpuBasis,
    pub lanes: Vec<LaneCpu>,
    /// Why that basis, in one sentence.
    pub why: String,
}

impl CpuReading {
    /// The basis for a claim over `lanes`; `ceiling` says whether the claim
    /// reads its figures as ceilings (a lane idle part of the time then
    /// decides nothing).
    pub fn of(lanes: Vec<LaneCpu>, ceiling: bool) -> CpuReading {
        let below: Vec<&LaneCpu> = lanes
            .iter()
            .filter(|l| l.cpu_bound() == Some(false))
            .collect();
        if !below.is_empty() {
            let said = below
                .iter()
                .map(|l| l.describe())
                .collect::<Vec<_>>()
                .join("; ");
            return if ceiling {
                CpuReading {
                    basis: CpuBasis::BelowCeiling,
                    why: format!(
                        "the load did not reach the ceiling: {said}, idle the rest of the time"
                    ),
                    lanes,
                }
            } else {
                CpuReading {
                    basis: CpuBasis::AsMeasured,
                    why: format!(
                        "{said}; the claim is about this load, not a ceiling, so the rates stand as measured"
                    ),
                    lanes,
                }
            };
        }
        let unread: Vec<&LaneCpu> = lanes
            .iter()
            .filter(|l| l.wanted.is_none() && l.share < 1.0 - TAKEN)
            .collect();
        if !unread.is_empty() {
            let short = unread;
            let said = short
                .iter()
                .map(|l| l.describe())
                .collect::<Vec<_>>()
                .join("; ");
            return CpuReading {
                basis: CpuBasis::Unknown,
                why: format!(
                    "{said}; whether the rest was taken by other work or left idle was not measured, so the rates stand as measured"
                ),
                lanes,
            };
        }
        let short: Vec<&LaneCpu> = lanes
            .iter()
            .filter(|l| l.taken().is_some_and(|t| t > TAKEN))
            .collect();
        if !short.is_empty() {
            let said = short
                .iter()
                .map(|l| format!("{} of {}'s CPU", pct(l.taken().unwrap_or(0.0)), l.lane))
                .collect::<Vec<_>>()
                .join(" and ");
            return CpuReading {
                basis: CpuBasis::PerCpuSecond { as_measured: None },
                why: format!("other work took {said}{}", measured_again(&lanes)),
                lanes,
            };
        }
        let said = lanes
            .iter()
            .map(|l| format!("{} {}", l.lane, pct(l.share.min(1.0))))
            .collect::<Vec<_>>()
            .join(", ");
        CpuReading {
            basis: CpuBasis::AsMeasured,
            why: format!(
                "every lane had the CPU it wanted ({said}){}",
                measured_again(&lanes)
            ),
            lanes,
        }
    }
}

/// `, with 2 of puma's 5 runs measured again (other work took over 10% of
/// their CPU in the first attempt)`, or nothing where none was.
fn measured_again(lanes: &[LaneCpu]) -> String {
    let again: Vec<String> = lanes
        .iter()
        .filter(|l| l.measured_again > 0)
        .map(|l| format!("{} of {}'s {} runs", l.measured_again, l.lane, l.runs))
        .collect();
    match again.is_empty() {
        true => String::new(),
        false => format!(
            ", with {} measured again (other work took over {} of their CPU in the first attempt)",
            again.join(" and "),
            pct(SPOILED)
        ),
    }
}

/// A run's rate had it got all the CPU it wanted: its rate per CPU-second
/// times the CPU-seconds it wanted (the rate over its share of its CPUs,
/// times the share it wanted, at most all of them). Only the time taken
/// from it is put back, not time it sat idle; a run that used more than it
/// was thought to be able to (a share above one) keeps its rate.
pub fn per_cpu_second(run: &Repetition) -> Option<f64> {
    let value = run.value?;
    let cpu = run.server_cpu?;
    let share = cpu.share();
    let wanted = cpu.wanted().unwrap_or(1.0).clamp(share.min(1.0), 1.0);
    (share > 0.0).then(|| value * wanted / share.min(1.0))
}

/// The share of its CPUs a server that `wanted` them and had `share` of
/// them did not get: other work had it.
pub(crate) fn taken(wanted: f64, share: f64) -> f64 {
    (wanted.min(1.0) - share).max(0.0)
}

pub(crate) fn pct(fraction: f64) -> String {
    format!("{:.0}%", fraction * 100.0)
}

/// `1 CPU`, `2 CPUs`.
pub fn count_words(cpus: f64) -> String {
    let n = reprise_recipe::reading::number(cpus);
    if (cpus - 1.0).abs() < 1e-9 {
        format!("{n} CPU")
    } else {
        format!("{n} CPUs")
    }
}

/// `CPU` (its CPU), else as [`count_words`] says: `2 CPUs`.
fn cpus_words(cpus: f64) -> String {
    if (cpus - 1.0).abs() < 1e-9 {
        "CPU".into()
    } else {
        count_words(cpus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measurements::{CellKey, ServerCpu};
    use reprise_recipe::Metric;

    fn cell(lane: &str, runs: &[(f64, f64, Option<f64>)]) -> Cell {
        Cell {
            key: CellKey::new(lane, Some("/"), Metric::ReqPerS),
            runs: runs
                .iter()
                .enumerate()
                .map(|(i, &(value, cpu_s, wait_s))| Repetition {
                    run: i as u32 + 1,
                    value: Some(value),
                    errors: 0,
                    client_cpu: None,
                    server_cpu: Some(ServerCpu {
                        wall_s: 10.0,
                        cpu_s,
                        wait_s,
                        cpus: 1.0,
                        steal_s: Some(0.0),
                        generator_s: None,
                    }),
                    first_attempt_taken: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_lane_that_had_its_cpus_stands_as_measured() {
        let a = LaneCpu::of("a", &cell("a", &[(100.0, 9.9, Some(0.5))])).unwrap();
        let b = LaneCpu::of("b", &cell("b", &[(90.0, 9.8, Some(0.2))])).unwrap();
        let reading = CpuReading::of(vec![a, b], true);
        assert_eq!(reading.basis, CpuBasis::AsMeasured);
        assert_eq!(
            reading.why,
            "every lane had the CPU it wanted (a 99%, b 98%)"
        );
    }

    #[test]
    fn a_cpu_bound_lane_that_lost_cpu_is_judged_per_cpu_second() {
        let a = LaneCpu::of("a", &cell("a", &[(50.0, 5.0, Some(5.5))])).unwrap();
        let b = LaneCpu::of("b", &cell("b", &[(100.0, 10.0, Some(0.1))])).unwrap();
        let reading = CpuReading::of(vec![a, b], true);
        assert_eq!(reading.basis, CpuBasis::PerCpuSecond { as_measured: None });
        assert_eq!(reading.why, "other work took 50% of a's CPU");
        let run = &cell("a", &[(50.0, 5.0, Some(5.5))]).runs[0];
        assert_eq!(per_cpu_second(run), Some(100.0));
    }

    #[test]
    fn an_idle_lane_is_below_its_ceiling_unless_the_claim_is_about_this_load() {
        let idle = || LaneCpu::of("a", &cell("a", &[(50.0, 3.0, Some(0.1))])).unwrap();
        // Idle 12% of the time, and nothing taken: at its ceiling, as measured.
        let near = LaneCpu::of("a", &cell("a", &[(50.0, 8.8, Some(0.0))])).unwrap();
        assert_eq!(CpuReading::of(vec![near], true).basis, CpuBasis::AsMeasured);
        let reading = CpuReading::of(vec![idle()], true);
        assert_eq!(reading.basis, CpuBasis::BelowCeiling);
        assert_eq!(
            reading.why,
            "the load did not reach the ceiling: a had 30% of its CPU and wanted 31%, idle the rest of the time"
        );
        assert_eq!(
            CpuReading::of(vec![idle()], false).basis,
            CpuBasis::AsMeasured
        );
    }

    #[test]
    fn without_the_wait_a_short_share_is_said_and_not_adjusted() {
        let a = LaneCpu::of("a", &cell("a", &[(50.0, 5.0, None)])).unwrap();
        assert_eq!(CpuReading::of(vec![a], true).basis, CpuBasis::Unknown);
    }

    #[test]
    fn a_run_without_the_cpu_read_leaves_the_lane_unread() {
        let mut c = cell("a", &[(50.0, 5.0, None), (60.0, 6.0, None)]);
        c.runs[1].server_cpu = None;
        assert_eq!(LaneCpu::of("a", &c), None);
    }
}
