//! "Validate this machine": `reprise validate` from the Machine page, through
//! [`Session::validate_machine`] as the CLI calls it, and its profile as the
//! page shows it.

use reprise_session::Session;
use reprise_validate::Ceiling;

use crate::commands::error;
use crate::views::{CommandError, Validation};

/// Validates this machine through the session (`quick`: about 15 s, else
/// about a minute), telling `progress` each stage as the CLI prints it;
/// saved in the history. Refused while a run goes on.
pub fn validate(
    session: &Session,
    quick: bool,
    progress: impl FnMut(&str),
) -> Result<Validation, CommandError> {
    let (profile, history) = session
        .validate_machine(quick, true, progress)
        .map_err(error)?;
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
        history: history.unwrap_or(reprise_session::HistoryOutcome::NothingToStore),
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
