//! Stability: a fixed CPU-bound kernel run repeatedly on each CPU (or a
//! sample), the background load seen meanwhile, and the timer's lag.

use std::time::{Duration, Instant};

use reprise_verdict::{coefficient_of_variation, median};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::ValidateError;

/// How much stability work to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StabilityPlan {
    /// Kernel runs on each sampled CPU.
    pub runs_per_cpu: usize,
    /// MiB hashed by one kernel run (the fixed work).
    pub work_mib: usize,
    /// At most this many CPUs are sampled, spread over the allowed ones.
    pub max_cpus: usize,
    /// 1 ms sleeps timed for the timer lag.
    pub timer_sleeps: usize,
}

/// One CPU's kernel runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoreRuns {
    pub cpu: usize,
    pub runs_ms: Vec<f64>,
    pub median_ms: f64,
    /// Coefficient of variation between this CPU's runs.
    pub cv: f64,
}

/// Other work on the machine while the kernel ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Background {
    /// Busy time on the allowed CPUs that was not this process's, as a
    /// percentage of their capacity over the window (`None` without /proc/stat).
    pub busy_percent: Option<f64>,
    /// 1-, 5- and 15-minute load averages at the end of the window.
    pub loadavg: Option<[f64; 3]>,
    pub window_s: f64,
}

/// How late a short sleep wakes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimerLag {
    pub sleeps: usize,
    pub requested_ms: f64,
    /// Lag past the requested time, in ms.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// What the stability runs found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stability {
    /// The kernel, e.g. "SHA-256 over 8 MiB".
    pub kernel: String,
    /// MiB hashed per run, so machines validated with different plans compare.
    pub work_mib: usize,
    /// Whether each CPU's runs were pinned to it.
    pub pinned: bool,
    pub cores: Vec<CoreRuns>,
    /// The median run time over all CPUs, in ms.
    pub median_ms: f64,
    /// The largest coefficient of variation between one CPU's runs.
    pub run_cv: f64,
    /// The coefficient of variation between the CPUs' medians.
    pub core_cv: f64,
    pub background: Background,
    pub timer: TimerLag,
}

/// Runs the kernel on a sample of `cpus` (unpinned on the current CPU when
/// `cpus` is empty), measuring the background load meanwhile, then the timer.
pub fn measure(plan: &StabilityPlan, cpus: &[usize]) -> Result<Stability, ValidateError> {
    let sample = sample_cpus(cpus, plan.max_cpus);
    let pinned = !sample.is_empty();
    let before = CpuTimes::read(cpus);
    let started = Instant::now();
    let buffer = vec![0x5au8; 64 * 1024];
    let mut cores = Vec::new();
    let targets: Vec<Option<usize>> = if pinned {
        sample.iter().copied().map(Some).collect()
    } else {
        vec![None]
    };
    for target in targets {
        let runs_ms = std::thread::scope(|scope| {
            scope
                .spawn(|| -> Result<Vec<f64>, ValidateError> {
                    if let Some(cpu) = target {
                        reprise_cpus::pin_current_thread(cpu)?;
                    }
                    // One untimed run warms the caches and the clock.
                    kernel(&buffer, plan.work_mib);
                    Ok((0..plan.runs_per_cpu)
                        .map(|_| {
                            let t = Instant::now();
                            std::hint::black_box(kernel(&buffer, plan.work_mib));
                            t.elapsed().as_secs_f64() * 1e3
                        })
                        .collect())
                })
                .join()
                .map_err(|_| ValidateError::Thread("the stability kernel thread panicked".into()))?
        })?;
        cores.push(CoreRuns {
            cpu: target.unwrap_or(0),
            median_ms: median(&runs_ms),
            cv: coefficient_of_variation(&runs_ms),
            runs_ms,
        });
    }
    let window = started.elapsed();
    let after = CpuTimes::read(cpus);
    let background = Background {
        busy_percent: before
            .zip(after)
            .and_then(|(b, a)| a.others_busy_percent(&b)),
        loadavg: read_loadavg(),
        window_s: window.as_secs_f64(),
    };
    let all: Vec<f64> = cores
        .iter()
        .flat_map(|c| c.runs_ms.iter().copied())
        .collect();
    let medians: Vec<f64> = cores.iter().map(|c| c.median_ms).collect();
    Ok(Stability {
        kernel: format!("SHA-256 over {} MiB", plan.work_mib),
        work_mib: plan.work_mib,
        pinned,
        median_ms: median(&all),
        run_cv: cores.iter().map(|c| c.cv).fold(0.0, f64::max),
        core_cv: coefficient_of_variation(&medians),
        cores,
        background,
        timer: timer_lag(plan.timer_sleeps, Duration::from_millis(1)),
    })
}

/// At most `max` CPUs spread evenly over `cpus` (all of them when fewer).
pub fn sample_cpus(cpus: &[usize], max: usize) -> Vec<usize> {
    if cpus.len() <= max || max == 0 {
        return cpus.to_vec();
    }
    (0..max).map(|i| cpus[i * cpus.len() / max]).collect()
}

/// The fixed work: SHA-256 chained over `mib` MiB of a 64 KiB buffer.
fn kernel(buffer: &[u8], mib: usize) -> [u8; 32] {
    let mut digest = [0u8; 32];
    for _ in 0..mib * 16 {
        let mut hasher = Sha256::new();
        hasher.update(digest);
        hasher.update(buffer);
        digest = hasher.finalize().into();
    }
    digest
}

/// Times `sleeps` sleeps of `requested`; the lag is how much later each woke.
pub fn timer_lag(sleeps: usize, requested: Duration) -> TimerLag {
    let mut lags: Vec<f64> = (0..sleeps.max(1))
        .map(|_| {
            let t = Instant::now();
            std::thread::sleep(requested);
            (t.elapsed().saturating_sub(requested)).as_secs_f64() * 1e3
        })
        .collect();
    lags.sort_by(f64::total_cmp);
    let at = |q: f64| lags[((lags.len() - 1) as f64 * q).round() as usize];
    TimerLag {
        sleeps: lags.len(),
        requested_ms: requested.as_secs_f64() * 1e3,
        p50_ms: at(0.50),
        p99_ms: at(0.99),
        max_ms: at(1.0),
    }
}

/// Busy and total jiffies of some CPUs, and this process's own CPU time.
#[derive(Clone, Copy, Debug)]
struct CpuTimes {
    busy: u64,
    total: u64,
    ours: u64,
}

impl CpuTimes {
    fn read(cpus: &[usize]) -> Option<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        let (busy, total) = cpu_jiffies(&stat, cpus)?;
        Some(CpuTimes {
            busy,
            total,
            ours: own_jiffies(&own)?,
        })
    }

    fn others_busy_percent(&self, before: &CpuTimes) -> Option<f64> {
        let total = self.total.checked_sub(before.total)?;
        if total == 0 {
            return None;
        }
        let busy = self.busy.saturating_sub(before.busy);
        let ours = self.ours.saturating_sub(before.ours);
        Some(busy.saturating_sub(ours) as f64 * 100.0 / total as f64)
    }
}

/// Busy and total jiffies summed over the `cpuN` lines of `cpus` (all CPUs'
/// aggregate line when `cpus` is empty). Busy is everything but idle and iowait.
fn cpu_jiffies(stat: &str, cpus: &[usize]) -> Option<(u64, u64)> {
    let mut found = false;
    let (mut busy, mut total) = (0u64, 0u64);
    for line in stat.lines() {
        let mut fields = line.split_whitespace();
        let Some(name) = fields.next() else { continue };
        let wanted = if cpus.is_empty() {
            name == "cpu"
        } else {
            name.strip_prefix("cpu")
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| cpus.contains(&n))
        };
        if !wanted {
            continue;
        }
        // user nice system idle iowait irq softirq steal (guest time is in user).
        let v: Vec<u64> = fields.take(8).filter_map(|x| x.parse().ok()).collect();
        if v.len() < 8 {
            continue;
        }
        found = true;
        total += v.iter().sum::<u64>();
        busy += v.iter().sum::<u64>() - v[3] - v[4];
    }
    found.then_some((busy, total))
}

/// utime + stime of `/proc/self/stat`, in jiffies.
fn own_jiffies(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the command: state is field 3, utime 14 and stime 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

fn read_loadavg() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let v: Vec<f64> = text
        .split_whitespace()
        .take(3)
        .filter_map(|x| x.parse().ok())
        .collect();
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_time_is_summed_over_the_chosen_cpus_only() {
        let stat = "cpu  30 0 30 100 10 0 0 0 0 0\ncpu0 10 0 10 50 5 0 0 0 0 0\ncpu1 20 0 20 50 5 0 0 0 0 0\n";
        assert_eq!(cpu_jiffies(stat, &[1]), Some((40, 95)));
        assert_eq!(cpu_jiffies(stat, &[]), Some((60, 170)));
        assert_eq!(cpu_jiffies(stat, &[7]), None);
    }

    #[test]
    fn own_time_is_user_plus_system_after_the_command_name() {
        let stat = "42 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 120 30 0 0 20 0 1 0";
        assert_eq!(own_jiffies(stat), Some(150));
    }

    #[test]
    fn a_cpu_sample_spreads_over_the_list() {
        assert_eq!(sample_cpus(&[0, 1, 2, 3, 4, 5, 6, 7], 4), vec![0, 2, 4, 6]);
        assert_eq!(sample_cpus(&[3, 5], 4), vec![3, 5]);
    }

    #[test]
    fn other_work_is_busy_time_minus_ours() {
        let before = CpuTimes {
            busy: 100,
            total: 1000,
            ours: 50,
        };
        let after = CpuTimes {
            busy: 300,
            total: 2000,
            ours: 200,
        };
        assert_eq!(after.others_busy_percent(&before), Some(5.0));
    }
}
