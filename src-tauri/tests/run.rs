//! Running a recipe from the app: the engine's real plan and a quick real
//! run of hello-ceiling (Debian's puma and nginx on loopback), its events
//! through the throttle, re-entering (the plan shows where the last run got
//! to), and refusing a recipe whose checksum does not match.

use std::path::Path;

use reprise_desktop::commands::Shell;
use reprise_desktop::run::{Runs, cancel, plan, start};
use reprise_desktop::views::StreamMessage;
use reprise_recipe::Catalog;

fn checkout() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn shell(root: &Path, data: &Path) -> Shell {
    Shell {
        catalog: Catalog::new(root),
        data_dir: data.to_path_buf(),
        share: reprise_desktop::share::ShareConfig::from_env(),
    }
}

fn events(batches: &[Vec<StreamMessage>]) -> Vec<serde_json::Value> {
    batches
        .iter()
        .flatten()
        .filter_map(|m| match m {
            StreamMessage::Event { payload } => serde_json::from_str(payload).ok(),
            _ => None,
        })
        .collect()
}

#[test]
fn a_run_streams_the_engines_events_and_can_be_re_entered() {
    let data = tempfile::tempdir().unwrap();
    let shell = shell(checkout(), data.path());
    let before = plan(&shell, "hello-ceiling").unwrap();
    assert_eq!(before.latest_run, None);
    assert!(before.steps.iter().all(|s| !s.why.is_empty()));

    let runs = Runs::default();
    let mut batches = Vec::new();
    let outcome = start(&shell, &runs, "hello-ceiling", false, true, |b| {
        batches.push(b);
        Ok::<(), ()>(())
    })
    .unwrap();
    let seen = events(&batches);
    assert_eq!(seen[0]["event"], "run");
    assert_eq!(seen[0]["id"], outcome.run.as_str());
    // Every planned step ends in exactly one of the outcome's lists, and the
    // stream said so for each.
    let ended = outcome.finished.len()
        + outcome.reused.len()
        + outcome.skipped.len()
        + outcome.failed.len();
    assert_eq!(ended, before.steps.len(), "{outcome:?}");
    for step in &outcome.skipped {
        assert!(
            seen.iter()
                .any(|e| e["event"] == "skipped" && e["step"] == step.as_str()),
            "{seen:?}"
        );
    }
    assert!(
        !cancel(&runs, "hello-ceiling"),
        "nothing is running any more"
    );

    let after = plan(&shell, "hello-ceiling").unwrap();
    assert_eq!(after.latest_run.as_deref(), Some(outcome.run.as_str()));

    // With Debian's puma and nginx (scripts/test installs them) the quick run
    // measures, and the measurements are judged into the results history.
    assert_eq!(
        outcome.stored.as_deref(),
        Some(outcome.run.as_str()),
        "{outcome:?}"
    );
    let stored = reprise_desktop::commands::results(&shell, &outcome.run).unwrap();
    assert!(!stored.verdicts.is_empty());
    assert!(
        stored.figures.iter().any(|f| f.measured.is_some()),
        "{:?}",
        stored.figures
    );
}

#[test]
fn a_modified_recipe_is_refused_with_what_to_do() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::create_dir_all(root.path().join("checksums")).unwrap();
    let text = std::fs::read_to_string(checkout().join("recipes/hello-ceiling.toml")).unwrap();
    std::fs::write(
        root.path().join("recipes/hello-ceiling.toml"),
        format!("# edited\n{text}"),
    )
    .unwrap();
    std::fs::copy(
        checkout().join("checksums/recipes.sha256"),
        root.path().join("checksums/recipes.sha256"),
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let shell = shell(root.path(), data.path());
    let err = start(
        &shell,
        &Runs::default(),
        "hello-ceiling",
        false,
        true,
        |_| Ok::<(), ()>(()),
    )
    .unwrap_err();
    assert_eq!(err.kind, "modified");
    assert!(err.hint.contains("reprise checksums update"));
    assert!(!data.path().join("runs").exists(), "nothing ran");
}
