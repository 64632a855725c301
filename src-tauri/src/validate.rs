//! "Validate this machine": `reprise validate` from the Machine page. The
//! validation crate measures (stability, loopback ceiling) and decides; the
//! profile is saved in the history as the CLI saves it. One at a time: two
//! at once would measure each other.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reprise_session::{HistoryOutcome, Session};
use reprise_validate::{Plan, record};

use crate::views::{CommandError, ErrorKind, Validation};

/// Held while a validation runs.
#[derive(Clone, Default)]
pub struct Validating(Arc<Mutex<()>>);

/// Validates this machine (`quick`: about 15 s, else about a minute),
/// telling `progress` each stage as the CLI prints it; saves the result in
/// the history.
pub fn validate(
    session: &Session,
    validating: &Validating,
    quick: bool,
    mut progress: impl FnMut(&str),
) -> Result<Validation, CommandError> {
    let Ok(_running) = validating.0.try_lock() else {
        return Err(CommandError {
            kind: ErrorKind::Busy,
            message: "this machine is already being validated".into(),
            hint: "Wait for that validation to finish: two at once would measure each other."
                .into(),
        });
    };
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
    let ceiling = &profile.ceiling;
    Ok(Validation {
        mode: profile.mode,
        created_at: profile.created_at,
        fitness: profile.fitness,
        summary: profile.summary,
        checks: profile.checks,
        ceiling_req_per_s: ceiling.median_req_per_s,
        ceiling_cv: ceiling.cv,
        ceiling_runs: ceiling.runs.len() as u32,
        ceiling_split: ceiling.split.describe(),
        history,
    })
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
}
