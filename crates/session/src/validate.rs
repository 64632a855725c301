//! "Is this machine fit to benchmark on?" for both front ends: the
//! validation crate measures and decides; the session keeps it from running
//! beside a recipe's run (two at once would measure each other) and saves
//! the profile in the history.

use reprise_validate::{Plan, Profile, record};

use crate::{HistoryOutcome, Session, SessionError};

/// The key a validation holds in the session's running map: no recipe id
/// has a space.
pub(crate) const VALIDATION: &str = "validation of this machine";

impl Session {
    /// Validates this machine (`quick`: about 15 s, else about a minute),
    /// telling `progress` each stage; refused while a run goes on, and a run
    /// is refused while it measures. With `save`, the profile is stored in
    /// the history (a failure to store is in the outcome, not an error).
    pub fn validate_machine(
        &self,
        quick: bool,
        save: bool,
        mut progress: impl FnMut(&str),
    ) -> Result<(Profile, Option<HistoryOutcome>), SessionError> {
        {
            let mut running = self.running();
            if let Some(other) = running.keys().next() {
                return Err(SessionError::MachineBusy(match other.as_str() {
                    VALIDATION => "this machine is already being validated".into(),
                    recipe => format!("a run of {recipe} is going on"),
                }));
            }
            running.insert(VALIDATION.into(), reprise_engine::CancelToken::new());
        }
        let result = self.validate_registered(quick, save, &mut progress);
        self.running().remove(VALIDATION);
        result
    }

    fn validate_registered(
        &self,
        quick: bool,
        save: bool,
        progress: &mut dyn FnMut(&str),
    ) -> Result<(Profile, Option<HistoryOutcome>), SessionError> {
        let plan = if quick { Plan::quick() } else { Plan::full() };
        let data_dir = &self.data.root;
        progress("fingerprint: reading this machine");
        let fingerprint = reprise_probe::Fingerprint::probe();
        let profile = reprise_validate::validate(&plan, fingerprint, data_dir, progress)?;
        let history = save.then(|| match record::save(&profile, data_dir) {
            Ok(id) => HistoryOutcome::Stored { id },
            Err(e) => HistoryOutcome::Failed {
                reason: e.to_string(),
            },
        });
        Ok((profile, history))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(data: &std::path::Path) -> Session {
        Session::new(
            reprise_recipe::Catalog::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")),
            crate::DataDir::new(data),
            crate::ShareSettings::from_env(),
        )
    }

    #[test]
    fn a_validation_is_refused_without_measuring_while_a_run_goes_on() {
        let data = tempfile::tempdir().unwrap();
        let s = session(data.path());
        s.running()
            .insert("hello-ceiling".into(), reprise_engine::CancelToken::new());
        let mut heard = Vec::new();
        let e = s
            .validate_machine(true, true, |l| heard.push(l.to_string()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "a run of hello-ceiling is going on: a run and a validation at once would measure each other"
        );
        assert!(heard.is_empty(), "nothing was measured: {heard:?}");
    }

    #[test]
    fn a_second_validation_is_refused_and_the_first_one_s_end_frees_the_machine() {
        let data = tempfile::tempdir().unwrap();
        let s = session(data.path());
        s.running()
            .insert(VALIDATION.into(), reprise_engine::CancelToken::new());
        let e = s.validate_machine(true, false, |_| {}).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("this machine is already being validated"),
            "{e}"
        );
    }

    #[test]
    fn a_run_is_refused_while_a_validation_measures() {
        let data = tempfile::tempdir().unwrap();
        let s = session(data.path());
        let loaded = s.load_recipe("hello-ceiling").unwrap();
        let prepared = s.prepare(&loaded, &crate::RunOptions::default()).unwrap();
        s.running()
            .insert(VALIDATION.into(), reprise_engine::CancelToken::new());
        let e = s.execute(prepared, &|_: crate::Event| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "this machine is being validated: a run and a validation at once would measure each other"
        );
    }
}
