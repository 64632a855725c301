//! Judging a recipe's claims: the cells read, each figure matched to the
//! cell that measured it, and each claim judged by its kind — absolute,
//! ratio and spread claims here, against their band (band.rs); orderings in
//! ordering.rs — on the basis the lanes' CPU calls for (cpu_share.rs).

use std::collections::{BTreeMap, BTreeSet};

use reprise_recipe::{Claim, ClaimKind, ClaimShape, Figure, Metric, Published, Recipe};

use crate::band::{Lies, ReadsOff, banded, lies};
use crate::cpu_share::{CpuBasis, CpuReading, LaneCpu, per_cpu_second};
use crate::gates::{CellReading, CellStatus, Thresholds, read_cells};
use crate::measurements::{CellKey, LaneSkip, Measurements, Repetition};
use crate::ordering::{judge_ordering, rounds};
use crate::statistics::median;
use crate::statistics::{Bootstrap, Interval};
use crate::verdict::{
    FigureReading, Judgement, MachineMatch, OtherSize, Outcome, Settings, Verdict, values_of,
};
use crate::why::{Measure, Note, Why};

pub use crate::ordering::LEVEL_BAND;

/// Judges every claim of the recipe against the measurements.
pub fn judge(
    recipe: &Recipe,
    measurements: &Measurements,
    machine: &MachineMatch,
    settings: &Settings,
) -> Judgement {
    let cells = read_cells(
        &whole_lane_memory(recipe, measurements),
        &settings.thresholds,
    );
    let figures: Vec<FigureReading> = recipe
        .figures
        .iter()
        .map(|f| read_figure(f, &cells, &settings.bootstrap, &measurements.caps))
        .collect();
    let unmeasured: BTreeMap<String, Why> = figures
        .iter()
        .filter(|f| f.status.is_none())
        .map(|f| (f.figure.clone(), not_measured(recipe, measurements, f)))
        .collect();
    let verdicts = recipe
        .claims
        .iter()
        .map(|claim| {
            let find = |id: &str| figures.iter().find(|f| f.figure == id);
            let mut verdict = judge_claim(claim, &figures, &cells, &unmeasured, machine, settings);
            let readings: Vec<&FigureReading> = claim
                .shape
                .figures()
                .iter()
                .filter_map(|id| find(id))
                .collect();
            crate::single_run::no_spread(&mut verdict, &readings, &cells);
            crate::cap::both_at_cap(&mut verdict, &readings, &cells, &measurements.caps);
            crate::shape::unmatched(&mut verdict, &readings, recipe, &measurements.workers_seen);
            verdict
        })
        .collect();
    Judgement {
        recipe: recipe.id().to_string(),
        machine: machine.clone(),
        settings: *settings,
        cells,
        figures,
        verdicts,
        deviations: Vec::new(),
        sequential: None,
    }
}

/// The metrics whose cells can measure a figure of `metric`: its own, and
/// for `memory_mb` (a post that does not say RSS or PSS) the harness's RSS.
fn measured_as(metric: Metric) -> Vec<Metric> {
    match metric {
        Metric::MemoryMb => vec![Metric::MemoryMb, Metric::RssMb],
        other => vec![other],
    }
}

/// The cell a figure names: same lane, a metric that measures it, and the
/// same endpoint; for a figure without one, the lane's cell without an
/// endpoint (see [`whole_lane_memory`]), else its only cell of that metric.
fn find_cell<'a>(figure: &Figure, cells: &'a [CellReading]) -> Option<&'a CellReading> {
    measured_as(figure.metric).into_iter().find_map(|metric| {
        let mut candidates = cells
            .iter()
            .filter(|c| c.cell.key.lane == *figure.lane && c.cell.key.metric() == metric);
        match &figure.endpoint {
            Some(e) => candidates.find(|c| c.cell.key.endpoint.as_deref() == Some(e.as_str())),
            None => {
                let all: Vec<&CellReading> = candidates.collect();
                match all.as_slice() {
                    [one] => Some(*one),
                    many => many.iter().copied().find(|c| c.cell.key.endpoint.is_none()),
                }
            }
        }
    })
}

/// A lane's memory without an endpoint, for the figures that give one
/// number per lane ("1.6 GB against ~1 GB"): the harness samples the whole
/// server's memory during every timed run of every endpoint, so run N of
/// the lane is the median of its run-N samples over the endpoints. Added
/// where a figure without an endpoint asks for the lane's memory and the
/// lane measured it per endpoint only.
fn whole_lane_memory(recipe: &Recipe, measurements: &Measurements) -> Measurements {
    let mut m = measurements.clone();
    // Only where a figure asks for it: a lane's memory without an endpoint.
    let wanted = |lane: &str, metric: Metric| {
        recipe.figures.iter().any(|f| {
            f.endpoint.is_none() && *f.lane == *lane && measured_as(f.metric).contains(&metric)
        })
    };
    for metric in [Metric::RssMb, Metric::PssMb] {
        let mut by_lane: BTreeMap<&str, BTreeMap<u32, Vec<f64>>> = BTreeMap::new();
        let mut has_whole = BTreeSet::new();
        for cell in measurements
            .cells
            .iter()
            .filter(|c| c.key.metric() == metric)
        {
            if cell.key.endpoint.is_none() {
                has_whole.insert(cell.key.lane.as_str());
                continue;
            }
            let runs = by_lane.entry(&cell.key.lane).or_default();
            for run in &cell.runs {
                let samples = runs.entry(run.run).or_default();
                samples.extend(run.value);
            }
        }
        for (lane, runs) in by_lane {
            if has_whole.contains(lane) || !wanted(lane, metric) {
                continue;
            }
            for (run, samples) in runs {
                m.push_run(
                    CellKey::new(lane, None, metric),
                    Repetition {
                        run,
                        value: (!samples.is_empty()).then(|| median(&samples)),
                        errors: 0,
                        client_cpu: None,
                        server_cpu: None,
                        first_attempt_taken: None,
                    },
                );
            }
        }
    }
    m
}

fn read_figure(
    figure: &Figure,
    cells: &[CellReading],
    bootstrap: &Bootstrap,
    caps: &BTreeMap<String, f64>,
) -> FigureReading {
    let cell = find_cell(figure, cells);
    let values = cell.map(CellReading::values).unwrap_or_default();
    FigureReading {
        figure: figure.id.to_string(),
        lane: figure.lane.to_string(),
        endpoint: figure.endpoint.as_ref().map(|e| e.to_string()),
        metric: figure.metric,
        published: figure.point(),
        published_range: match figure.published() {
            Published::Range(lo, hi) => Some([lo, hi]),
            _ => None,
        },
        cell: cell.map(|c| c.cell.key.clone()),
        status: cell.map(|c| c.status.clone()),
        stats: cell.and_then(|c| c.stats.clone()),
        // One value is no spread: no interval around it (`0.092 (0.092–0.092)`).
        interval: (values.len() >= 2).then(|| bootstrap.median(&values)),
        other_size: figure
            .requested
            .zip(cell.and_then(|_| caps.get(figure.lane.as_str()).copied()))
            .filter(|(post, here)| post != here)
            .map(|(post, here)| OtherSize { post, here }),
    }
}

/// Why no cell measured a figure, for a person, in this order: the
/// recipe's own reason where it cannot run the lane; why this run skipped
/// the lane (`Measurements::not_measured`); that the lane measured nothing
/// at all; else that it ran but not this endpoint or metric.
fn not_measured(recipe: &Recipe, measurements: &Measurements, figure: &FigureReading) -> Why {
    let lane = figure.lane.clone();
    if let Some(why) = recipe.lane(&lane).and_then(|l| l.not_runnable.as_deref()) {
        return Why::LaneNotRunnable {
            lane,
            because: why.trim().to_string(),
        };
    }
    if let Some((first, more)) = measurements
        .not_measured
        .get(&lane)
        .and_then(|skips| skips.split_first())
    {
        return Why::LaneNotMeasured {
            lane,
            stage: first.stage.clone(),
            because: std::iter::once(first.because.clone())
                .chain(more.iter().map(LaneSkip::to_string))
                .collect::<Vec<_>>()
                .join("; "),
        };
    }
    if !measurements.cells.iter().any(|c| c.key.lane == lane) {
        return Why::LaneMeasuredNothing { lane };
    }
    no_cell(figure)
}

fn no_cell(figure: &FigureReading) -> Why {
    Why::NoCell {
        figure: figure.figure.clone(),
        lane: figure.lane.clone(),
        metric: figure.metric,
    }
}

/// Why a figure cannot be used, as an outcome and a reason: not measured
/// (no cell; `unmeasured` says why), no data (a gate refused the cell) or
/// not comparable (its responses differ from the reference lane's).
fn unusable(figure: &FigureReading, unmeasured: &BTreeMap<String, Why>) -> Option<(Outcome, Why)> {
    let refused = |status: &CellStatus| Why::CellUnusable {
        figure: figure.figure.clone(),
        status: status.clone(),
    };
    match &figure.status {
        None => Some((
            Outcome::NotMeasured,
            unmeasured
                .get(&figure.figure)
                .cloned()
                .unwrap_or_else(|| no_cell(figure)),
        )),
        Some(CellStatus::Valid) => None,
        Some(status @ CellStatus::NotComparable { .. }) => {
            Some((Outcome::NotComparable, refused(status)))
        }
        Some(
            status @ (CellStatus::NoData { .. }
            | CellStatus::ClientBound { .. }
            | CellStatus::NetworkBound { .. }),
        ) => Some((Outcome::NoData, refused(status))),
    }
}

/// Judges a claim; a throughput claim whose lanes' CPU was measured is
/// judged on the basis what they got from the machine calls for (see
/// [`crate::cpu_share`]): as measured, per CPU-second, or not as a ceiling.
fn judge_claim(
    claim: &Claim,
    figures: &[FigureReading],
    cells: &[CellReading],
    unmeasured: &BTreeMap<String, Why>,
    machine: &MachineMatch,
    settings: &Settings,
) -> Verdict {
    let find = |id: &str| figures.iter().find(|f| f.figure == id);
    let mut verdict = judge_figures(
        claim,
        &find,
        cells,
        unmeasured,
        machine,
        settings,
        &ReadsOff::default(),
    );
    let Some(mut cpu) = cpu_reading(claim, &find, cells).filter(|_| verdict.outcome.is_judged())
    else {
        return verdict;
    };
    match cpu.basis {
        CpuBasis::AsMeasured => {}
        CpuBasis::Unknown => {
            verdict.notes.push(Note::CpuUnread);
        }
        CpuBasis::BelowCeiling => {
            verdict.outcome = Outcome::Inconclusive;
            verdict.more_runs = None;
            verdict.why = Why::BelowCeiling {
                as_measured: Box::new(verdict.why),
            };
        }
        CpuBasis::PerCpuSecond { .. } => {
            let keys: BTreeSet<&CellKey> = cpu
                .lanes
                .iter()
                .filter_map(|l| find(&l.figure)?.cell.as_ref())
                .collect();
            let adjusted: Vec<CellReading> = cells
                .iter()
                .map(|c| {
                    if keys.contains(&c.cell.key) {
                        per_cpu_second_cell(c, &settings.thresholds)
                    } else {
                        c.clone()
                    }
                })
                .collect();
            let refigured: Vec<FigureReading> = figures
                .iter()
                .map(|f| {
                    let Some(cell) = f
                        .cell
                        .as_ref()
                        .filter(|key| keys.contains(key))
                        .and_then(|key| adjusted.iter().find(|c| &c.cell.key == key))
                    else {
                        return f.clone();
                    };
                    let values = cell.values();
                    FigureReading {
                        stats: cell.stats.clone(),
                        interval: (values.len() >= 2).then(|| settings.bootstrap.median(&values)),
                        ..f.clone()
                    }
                })
                .collect();
            let find_adjusted = |id: &str| refigured.iter().find(|f| f.figure == id);
            let as_measured = verdict.measured;
            let reads_off = ReadsOff::of(&cpu.lanes);
            let mut adjusted_verdict = judge_figures(
                claim,
                &find_adjusted,
                &adjusted,
                unmeasured,
                machine,
                settings,
                &reads_off,
            );
            cpu.basis = CpuBasis::PerCpuSecond { as_measured };
            adjusted_verdict.why = Why::PerCpuSecond {
                as_measured: Box::new(verdict.why),
                judged: Box::new(adjusted_verdict.why),
            };
            verdict = adjusted_verdict;
        }
    }
    verdict.cpu = Some(cpu);
    verdict
}

/// What the lanes of a throughput claim got from the machine, where every
/// one of its cells says so.
fn cpu_reading<'a>(
    claim: &Claim,
    find: &dyn Fn(&str) -> Option<&'a FigureReading>,
    cells: &[CellReading],
) -> Option<CpuReading> {
    let mut lanes = Vec::new();
    for id in claim.shape.figures() {
        let reading = find(id)?;
        if reading.metric != Metric::ReqPerS {
            return None;
        }
        let key = reading.cell.as_ref()?;
        let cell = cells.iter().find(|c| &c.cell.key == key)?;
        lanes.push(LaneCpu::of(id, &cell.cell)?);
    }
    (!lanes.is_empty()).then(|| CpuReading::of(lanes, claim.ceiling))
}

/// A cell with each run's rate per CPU-second.
fn per_cpu_second_cell(reading: &CellReading, thresholds: &Thresholds) -> CellReading {
    let mut cell = reading.cell.clone();
    for run in &mut cell.runs {
        run.value = per_cpu_second(run);
    }
    let values: Vec<f64> = cell.runs.iter().filter_map(|r| r.value).collect();
    CellReading {
        stats: crate::statistics::CellStats::of(&values, thresholds.unstable_cv),
        cell,
        status: reading.status.clone(),
    }
}

/// Judges a claim on its figures' readings as they are.
fn judge_figures<'a>(
    claim: &Claim,
    find: &dyn Fn(&str) -> Option<&'a FigureReading>,
    cells: &[CellReading],
    unmeasured: &BTreeMap<String, Why>,
    machine: &MachineMatch,
    settings: &Settings,
    reads_off: &ReadsOff,
) -> Verdict {
    let tolerance = claim.tolerance.unwrap_or(0.0);
    let mut verdict = Verdict {
        claim: claim.id.to_string(),
        kind: claim.shape.kind(),
        quote: claim.quote.clone(),
        outcome: Outcome::Inconclusive,
        why: Why::default(),
        notes: Vec::new(),
        published: None,
        unit: String::new(),
        tolerance: claim.tolerance,
        band: None,
        measured: None,
        more_runs: None,
        decided_after: None,
        figures: claim
            .shape
            .figures()
            .iter()
            .map(|f| f.to_string())
            .collect(),
        deviations: Vec::new(),
        cpu: None,
    };
    let mut readings = Vec::new();
    for id in claim.shape.figures() {
        match find(id) {
            Some(r) => readings.push(r),
            None => {
                verdict.why = Why::NoSuchFigure {
                    figure: id.to_string(),
                };
                return verdict;
            }
        }
    }
    // Every claim needs usable cells; the first that is not decides.
    let blocked = readings.iter().find_map(|r| unusable(r, unmeasured));
    let values = |r: &FigureReading| values_of(r, cells);
    match &claim.shape {
        ClaimShape::Absolute { .. } => {
            let r = readings[0];
            verdict.published = r.published;
            let unit = r.metric.unit();
            verdict.unit = unit.to_string();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            // Nothing to judge against: shown for information, as a preflight
            // said it would be.
            let Some(published) = r.published else {
                verdict.outcome = Outcome::NotComparable;
                verdict.why = Why::NoPublishedNumber {
                    figure: r.figure.clone(),
                };
                return verdict;
            };
            let (lo, hi) = match r.published_range {
                Some([lo, hi]) => (lo, hi),
                None => (published, published),
            };
            let band = [lo * (1.0 - tolerance), hi * (1.0 + tolerance)];
            let interval = settings.bootstrap.median(&values(r));
            let widening = reads_off.widening(&r.figure, None);
            // A page's shape is the app's, whatever the machine.
            if let MachineMatch::Differs(differences) = machine
                && !r.metric.is_shape()
            {
                verdict.outcome = Outcome::NotComparable;
                verdict.band = Some(band);
                let interval = widening.apply(interval);
                verdict.measured = Some(interval);
                verdict.why = Why::MachineDiffers {
                    differences: differences.clone(),
                    measured: interval.estimate,
                    published,
                };
                return verdict;
            }
            let runs = values(r).len();
            banded(
                &mut verdict,
                interval,
                widening,
                band,
                runs,
                Measure::Median,
                settings.bootstrap.confidence,
            );
        }
        ClaimShape::Ratio { value, .. } => {
            verdict.published = Some(*value);
            verdict.unit = "×".into();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            let (num, den) = (values(readings[0]), values(readings[1]));
            let interval = match rounds(readings[0], readings[1], cells) {
                Some(pairs) if settings.rounds_alternate => settings.bootstrap.paired_ratio(&pairs),
                _ => settings.bootstrap.ratio(&num, &den),
            };
            let widening = reads_off.widening(&readings[0].figure, Some(&readings[1].figure));
            let band = [value * (1.0 - tolerance), value * (1.0 + tolerance)];
            let runs = num.len().min(den.len());
            banded(
                &mut verdict,
                interval,
                widening,
                band,
                runs,
                Measure::Ratio,
                settings.bootstrap.confidence,
            );
        }
        ClaimShape::Ordering { .. } => {
            verdict.unit = readings[0].metric.unit().to_string();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            let level = claim.tolerance.unwrap_or(LEVEL_BAND);
            verdict.tolerance = Some(level);
            judge_ordering(&mut verdict, &readings, cells, settings, level, reads_off);
        }
        ClaimShape::Spread { value, .. } => {
            let r = readings[0];
            verdict.published = Some(*value);
            verdict.unit = "%".into();
            if let Some((outcome, why)) = blocked {
                (verdict.outcome, verdict.why) = (outcome, why);
                return verdict;
            }
            let stats = r.stats.as_ref().filter(|s| s.runs >= 2);
            let Some(stats) = stats else {
                verdict.why = Why::TooFewRuns {
                    figure: r.figure.clone(),
                };
                return verdict;
            };
            let band = [value * (1.0 - tolerance), value * (1.0 + tolerance)];
            let measured = Interval {
                estimate: stats.cv,
                low: stats.cv,
                high: stats.cv,
            };
            verdict.band = Some(band);
            verdict.measured = Some(measured);
            let inside = lies(&measured, band) == Lies::Inside;
            verdict.outcome = match inside {
                true => Outcome::Reproduced,
                false => Outcome::NotReproduced,
            };
            verdict.why = Why::Spread {
                cv: stats.cv,
                runs: stats.runs as u32,
                band,
                inside,
            };
        }
    }
    if verdict.kind != ClaimKind::Spread {
        for r in &readings {
            if let Some(stats) = r.stats.as_ref().filter(|s| s.unstable) {
                verdict.notes.push(Note::Unstable {
                    figure: r.figure.clone(),
                    cv: stats.cv,
                });
            }
        }
    }
    verdict
}
