//! "Validate this machine": `reprise validate` from the Machine page. The
//! validation crate measures (stability, loopback ceiling) and decides; the
//! profile is saved in the history as the CLI saves it. One at a time: two
//! at once would measure each other.

use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use reprise_session::{HistoryOutcome, Session};
use reprise_validate::{Ceiling, Plan, record};

use crate::views::{CommandError, ErrorKind, Validation};

/// Held while a validation runs.
#[derive(Clone, Default)]
pub struct Validating(Arc<Mutex<()>>);

impl Validating {
    /// The hold for one validation; refused while another has it. A
    /// validation that panicked left the lock poisoned: nothing is being
    /// measured any more, so the next one takes it.
    fn hold(&self) -> Result<MutexGuard<'_, ()>, CommandError> {
        match self.0.try_lock() {
            Ok(held) => Ok(held),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(CommandError {
                kind: ErrorKind::Busy,
                message: "this machine is already being validated".into(),
                hint: "Wait for that validation to finish: two at once would measure each other."
                    .into(),
            }),
        }
    }

    /// Refuses a recipe run while a validation measures this machine.
    pub fn refuse_while_busy(&self) -> Result<(), CommandError> {
        match self.0.try_lock() {
            Err(TryLockError::WouldBlock) => Err(CommandError {
                kind: ErrorKind::Busy,
                message: "this machine is being validated".into(),
                hint: "Wait for the validation to finish (the Machine page shows it): a run and a validation at once would measure each other.".into(),
            }),
            _ => Ok(()),
        }
    }
}

/// Validates this machine (`quick`: about 15 s, else about a minute),
/// telling `progress` each stage as the CLI prints it; saves the result in
/// the history.
pub fn validate(
    session: &Session,
    validating: &Validating,
    quick: bool,
    mut progress: impl FnMut(&str),
) -> Result<Validation, CommandError> {
    let _held = validating.hold()?;
    let running = session.running_recipes();
    if !running.is_empty() {
        return Err(CommandError {
            kind: ErrorKind::Busy,
            message: format!("a run of {} is going on", running.join(", ")),
            hint: "Wait for the run to finish, or cancel it: a validation and a run at once would measure each other.".into(),
        });
    }
    let plan = if quick { Plan::quick() } else { Plan::full() };
    let data_dir = &session.data.root;
    progress("fingerprint: reading this machine");
    let fingerprint = reprise_probe::Fingerprint::probe(Duration::from_secs(2));
    let profile = reprise_validate::validate(&plan, fingerprint, data_dir, &mut progress)
        .map_err(|e| CommandError {
            kind: ErrorKind::Internal,
            message: format!("could not validate: {e}"),
            hint: "Close other busy programs and try again; `reprise validate` in a terminal shows the same.".into(),
        })?;
    let history = match record::save(&profile, data_dir) {
        Ok(id) => HistoryOutcome::Stored { id },
        Err(e) => HistoryOutcome::Failed {
            reason: e.to_string(),
        },
    };
    let (ceiling_runs, ceiling_cv) = ceiling_runs_and_spread(&profile.ceiling);
    let ceiling = &profile.ceiling;
    Ok(Validation {
        mode: profile.mode,
        created_at: profile.created_at,
        fitness: profile.fitness,
        summary: profile.summary,
        checks: profile.checks,
        ceiling_req_per_s: ceiling.median_req_per_s,
        ceiling_cv,
        ceiling_runs,
        ceiling_split: ceiling.split.describe(),
        history,
    })
}

/// The runs the ceiling's median is over (those with data), and their
/// spread: unknown (`None`) under two such runs, where one value has none.
fn ceiling_runs_and_spread(ceiling: &Ceiling) -> (u32, Option<f64>) {
    let runs = ceiling
        .runs
        .iter()
        .filter(|r| r.req_per_s.is_some())
        .count();
    (runs as u32, ceiling.cv.filter(|_| runs >= 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_validation_while_one_runs_is_refused_without_measuring() {
        let data = tempfile::tempdir().unwrap();
        let session = Session::new(
            reprise_recipe::Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
            reprise_session::DataDir::new(data.path()),
            reprise_session::ShareSettings::from_env(),
        );
        let validating = Validating::default();
        let _running = validating.0.lock().unwrap();
        let mut heard = Vec::new();
        let e = validate(&session, &validating, true, |l| heard.push(l.to_string())).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Busy);
        assert!(e.hint.contains("two at once"), "{}", e.hint);
        assert!(heard.is_empty(), "{heard:?}");
    }

    #[test]
    fn a_validation_that_panicked_leaves_the_next_one_free_to_run() {
        let validating = Validating::default();
        let poisoner = validating.clone();
        std::thread::spawn(move || {
            let _held = poisoner.0.lock().unwrap();
            panic!("a validation panicked");
        })
        .join()
        .unwrap_err();
        assert!(validating.0.is_poisoned());
        let held = validating
            .hold()
            .expect("a poisoned lock is not a busy one");
        // While that one runs, another is still refused.
        assert_eq!(validating.hold().unwrap_err().kind, ErrorKind::Busy);
        drop(held);
        assert!(validating.hold().is_ok());
    }

    #[test]
    fn a_run_is_refused_while_a_validation_measures() {
        let validating = Validating::default();
        assert!(validating.refuse_while_busy().is_ok());
        let held = validating.hold().unwrap();
        let e = validating.refuse_while_busy().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Busy);
        assert!(e.hint.contains("measure each other"), "{}", e.hint);
        drop(held);
        assert!(validating.refuse_while_busy().is_ok());
    }

    fn ceiling(runs: &[Option<f64>], cv: Option<f64>) -> Ceiling {
        Ceiling {
            split: reprise_validate::Split::of(&[0, 1]),
            connections: 16,
            duration_s: 3.0,
            body_bytes: 13,
            runs: runs
                .iter()
                .map(|&req_per_s| reprise_validate::ceiling::CeilingRun {
                    req_per_s,
                    requests: 1000,
                    errors: u64::from(req_per_s.is_none()),
                    p50_ms: None,
                    p99_ms: None,
                })
                .collect(),
            median_req_per_s: runs.iter().flatten().next().copied(),
            min_req_per_s: None,
            max_req_per_s: None,
            cv,
        }
    }

    #[test]
    fn the_ceiling_counts_the_runs_with_data_and_has_no_spread_under_two() {
        // The validation crate's spread of one value is 0: not a spread.
        assert_eq!(
            ceiling_runs_and_spread(&ceiling(&[Some(74_000.0), None, None], Some(0.0))),
            (1, None)
        );
        assert_eq!(
            ceiling_runs_and_spread(&ceiling(
                &[Some(74_000.0), Some(75_000.0), None],
                Some(0.007)
            )),
            (2, Some(0.007))
        );
        assert_eq!(
            ceiling_runs_and_spread(&ceiling(&[None, None], None)),
            (0, None)
        );
    }
}
