//! The CLI prints the values the app shows: each is computed once by the
//! session's views (or the crate rule they read), and the CLI's output is
//! checked against the view here — a post's published figures and claims'
//! tolerances, the Library's lane counts, a run's plan rows, a stored run's
//! verdict numbers, and a validation's ceiling.

#[path = "../../validate/tests/machine/mod.rs"]
mod machine;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use reprise_recipe::Catalog;
use reprise_session::run::RunChoices;
use reprise_session::views::{RecipeCard, Validation};
use reprise_session::{DataDir, Session, ShareSettings};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn reprise(root: &Path, data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", root)
        .env("REPRISE_DATA_DIR", data)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn session(root: &Path, data: &Path) -> Session {
    Session::new(
        Catalog::new(root),
        DataDir::new(data),
        ShareSettings::from_env(),
    )
}

#[test]
fn show_prints_the_posts_published_figures_and_tolerances_as_the_app_shows_them() {
    let data = tempfile::tempdir().unwrap();
    let view = session(&repo(), data.path())
        .post_view("hello-ceiling")
        .unwrap();
    let (out, err) = text(&reprise(&repo(), data.path(), &["show", "hello-ceiling"]));
    for f in &view.figures {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(f.figure.id.as_str()))
            .unwrap_or_else(|| panic!("no line for {} in:\n{out}{err}", f.figure.id));
        assert!(line.ends_with(&f.published), "{line} / {}", f.published);
    }
    for c in &view.claims {
        if let Some(tolerance) = &c.tolerance {
            let line = out
                .lines()
                .find(|l| l.trim_start().starts_with(c.claim.id.as_str()))
                .unwrap();
            assert!(line.ends_with(tolerance), "{line} / {tolerance}");
        }
    }
}

#[test]
fn recipes_counts_the_lanes_as_the_librarys_cards_do() {
    let data = tempfile::tempdir().unwrap();
    let s = session(&repo(), data.path());
    let loaded = s.load_recipe("hello-ceiling").unwrap();
    let card = RecipeCard::of(&s, &loaded);
    let (out, _) = text(&reprise(&repo(), data.path(), &["recipes"]));
    let row = out
        .lines()
        .find(|l| l.starts_with("hello-ceiling "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        row.contains(&format!(" {}/{} ", card.runs_here, card.runnable)),
        "{row}"
    );
}

#[test]
fn the_run_plan_prints_the_rows_the_app_shows() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("recipes")).unwrap();
    std::fs::copy(
        repo().join("recipes/hello-ceiling.toml"),
        root.path().join("recipes/hello-ceiling.toml"),
    )
    .unwrap();
    Catalog::new(root.path()).update_checksums().unwrap();
    let data = tempfile::tempdir().unwrap();
    let quick = RunChoices {
        quick: true,
        ..RunChoices::default()
    };
    let view = session(root.path(), data.path())
        .plan_for("hello-ceiling", quick)
        .unwrap();
    // Without --yes and a terminal, the plan is shown and nothing runs.
    let (_, plan) = text(&reprise(
        root.path(),
        data.path(),
        &["run", "hello-ceiling", "--quick"],
    ));
    for row in &view.steps {
        let line = format!("  {:<4} {:<12} ", row.decision, row.id);
        assert!(plan.contains(&line), "no `{line}` in:\n{plan}");
        if let Some(e) = &row.expected_quick {
            assert!(plan.contains(&format!("measures {}", e.summary)), "{plan}");
        }
        assert!(row.reason.is_none(), "a new run's rows give no reason");
    }
    assert!(!data.path().join("runs").exists(), "nothing ran");
}

#[test]
fn report_prints_each_verdicts_numbers_as_the_results_page_shows_them() {
    let data = tempfile::tempdir().unwrap();
    let results = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for (lane, base) in [("puma", 30_000.0), ("falcon", 60_000.0)] {
        for run in 1..=3 {
            lines.push_str(&format!(
                "{{\"target\":\"{lane}\",\"workers\":2,\"endpoint\":\"/\",\"run\":{run},\"req_sec\":{}}}\n",
                base + f64::from(run) * 100.0
            ));
        }
    }
    std::fs::write(results.path().join("per-run.json"), lines).unwrap();
    let stored = reprise(
        &repo(),
        data.path(),
        &["verdict", "hello-ceiling", results.path().to_str().unwrap()],
    );
    let (out, err) = text(&stored);
    let id = out
        .lines()
        .find_map(|l| l.strip_prefix("Stored as run "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("{out}{err}"))
        .to_string();
    let view = session(&repo(), data.path()).results_view(&id).unwrap();
    let (md, _) = text(&reprise(&repo(), data.path(), &["report", &id]));
    for v in &view.verdicts {
        // The claim's card: from its heading to the next heading.
        let heading = format!("### `{}`:", v.verdict.claim);
        let start = md
            .find(&heading)
            .unwrap_or_else(|| panic!("no card for {} in:\n{md}", v.verdict.claim));
        let rest = &md[start + heading.len()..];
        let card = &rest[..rest.find("\n#").unwrap_or(rest.len())];
        if v.verdict.measured.is_some() {
            assert!(card.contains(&v.measured), "{card} / {}", v.measured);
        }
        if v.verdict.published.is_some() {
            assert!(card.contains(&v.published), "{card} / {}", v.published);
        }
    }
}

#[test]
fn validate_prints_the_ceiling_line_the_app_shows() {
    let data = tempfile::tempdir().unwrap();
    for runs in [
        &[Some(74_210.0), None, None][..],
        &[Some(74_210.0), Some(73_900.0), Some(74_800.0)][..],
    ] {
        let profile = reprise_validate::Profile::new(
            "quick",
            reprise_probe::Fingerprint::default(),
            Vec::new(),
            machine::quiet_stability(),
            machine::ceiling(runs, true),
        );
        let file = data.path().join("profile.json");
        std::fs::write(&file, serde_json::to_string(&profile).unwrap()).unwrap();
        let view = Validation::of(profile, None);
        let (out, err) = text(&reprise(
            &repo(),
            data.path(),
            &["validate", "--from", file.to_str().unwrap()],
        ));
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("  {}", view.ceiling))),
            "no `{}` in:\n{out}{err}",
            view.ceiling
        );
        let ceiling = out
            .split("Loopback ceiling")
            .nth(1)
            .and_then(|c| c.split("Verdict:").next())
            .unwrap_or_default();
        assert!(!ceiling.contains("0.0%"), "{out}");
    }
}
