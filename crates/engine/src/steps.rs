//! The preparation steps of a guided run: `sign_in` (per lane), `seed`'s
//! row-count check, `stage`, `bundle` per runtime, and the figures a plain
//! command prints as its last JSON line.

use std::collections::BTreeMap;

use reprise_recipe::{Recipe, SignInFlow, Step};

use crate::bench::{Bench, cpu_split, note, skipped, write_json};
use crate::bundle;
use crate::database;
use crate::run::{RunContext, StepFailure, run_process, within};
use crate::sign_in::{self, UsedFlow};

/// `sign_in`: signs in to every lane's server; the session is handed to
/// the check and load steps. The password and cookie never reach a log.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sign_in(
    bench: &mut Bench,
    ctx: &RunContext,
    recipe: &Recipe,
    step: &Step,
    plan_lanes: &[String],
    email: &str,
    password: &str,
    flow: SignInFlow,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let (server_cpus, _) = cpu_split();
    let mut signed = 0;
    let lanes = Bench::lanes(recipe, step, plan_lanes);
    for lane in &lanes {
        let name = lane.name.to_string();
        if let Some(reason) = bench.unavailable(recipe, lane) {
            bench.skip(ctx, id, skipped(&name, "preflight", reason, String::new()))?;
            continue;
        }
        let port = match bench.ensure_server(ctx, lane, server_cpus.clone()) {
            Ok(s) => s.spec.port,
            Err(e) => {
                let tail = crate::lane_server::log_tail(&crate::bench::lane_log(ctx, &name), 20);
                bench.skip(ctx, id, skipped(&name, "boot", e.to_string(), tail))?;
                continue;
            }
        };
        match sign_in::sign_in(port, email, password, flow) {
            Ok((session, used)) => {
                note(
                    ctx,
                    id,
                    format!(
                        "lane {name}: signed in as {email} ({}), session cookie kept; page offers {:?}",
                        match used {
                            UsedFlow::Form => "form token",
                            UsedFlow::Header => "Sec-Fetch-Site/Origin headers",
                        },
                        session.placeholders
                    ),
                );
                bench.sessions.insert(name, session);
                signed += 1;
            }
            Err(e) => {
                bench
                    .excluded
                    .insert(name.clone(), format!("sign-in failed: {e}"));
                bench.skip(
                    ctx,
                    id,
                    skipped(&name, "sign_in", e.to_string(), String::new()),
                )?;
            }
        }
    }
    if signed == 0 && !lanes.is_empty() {
        return Err(StepFailure::Failed("no lane could be signed in to".into()));
    }
    Ok(())
}

/// `seed`'s check: the recipe's row counts, through rusqlite.
pub(crate) fn verify_seed(
    ctx: &RunContext,
    id: &str,
    database: &str,
    verify: &BTreeMap<String, u64>,
) -> Result<(), StepFailure> {
    let path = within(&ctx.run.path, database)?;
    let counts = database::verify_counts(&path, verify)?;
    note(ctx, id, format!("seed verified: {counts:?}"));
    write_json(ctx, &format!("{id}.json"), &counts)
}

/// `stage`: the database into the tree; returns the copy's SHA-256.
pub(crate) fn stage(
    ctx: &RunContext,
    id: &str,
    database: &str,
    tree: &str,
    to: &str,
) -> Result<String, StepFailure> {
    let source = within(&ctx.run.path, database)?;
    let dest = within(&within(&ctx.run.trees(), tree)?, to)?;
    let digest = database::stage(&source, &dest)?;
    note(
        ctx,
        id,
        format!("staged {database} into trees/{tree}/{to}, sha256 {digest}"),
    );
    Ok(digest)
}

/// `bundle`: `bundle install` (always, never only `bundle check`) for one
/// runtime with its own lockfile; the main lock must come out unchanged.
pub(crate) fn bundle(
    recipe: &Recipe,
    step: &Step,
    ctx: &RunContext,
    runtime: &str,
    tree: &str,
    lockfile: &str,
    env: &BTreeMap<String, String>,
) -> Result<(), StepFailure> {
    let id = step.id.as_str();
    let tree_dir = within(&ctx.run.trees(), tree)?;
    let (layout, seeded) = bundle::prepare(&tree_dir, lockfile)?;
    let before = bundle::file_digest(&layout.main_lock)?;
    if seeded {
        note(
            ctx,
            id,
            format!("{runtime}: seeded {lockfile} from the main Gemfile.lock"),
        );
    }
    let mut env = env.clone();
    env.insert(
        "BUNDLE_GEMFILE".into(),
        layout.gemfile.display().to_string(),
    );
    if !layout.is_main {
        env.entry("BUNDLE_LOCKFILE".into())
            .or_insert(layout.lockfile.display().to_string());
    }
    env.entry("BUNDLE_APP_CONFIG".into()).or_insert(
        tree_dir
            .join(format!(".bundle-{runtime}"))
            .display()
            .to_string(),
    );
    // The runtime's own binary runs Bundler (jruby -S bundle, …).
    let program = recipe
        .toolchain(runtime)
        .and_then(|t| t.command.first().cloned())
        .unwrap_or_else(|| "ruby".into());
    let command: Vec<String> = if program == "ruby" {
        vec!["bundle".into(), "install".into()]
    } else {
        vec![program, "-S".into(), "bundle".into(), "install".into()]
    };
    run_process(
        step,
        &command,
        Some(&format!("trees/{tree}")),
        &env,
        &[],
        ctx,
    )?;
    let after = bundle::file_digest(&layout.main_lock)?;
    if !layout.is_main && before != after {
        return Err(
            bundle::BundleError::MainLockModified(layout.main_lock.display().to_string()).into(),
        );
    }
    note(
        ctx,
        id,
        format!(
            "{runtime}: bundled into {}; main lock {}",
            layout.lockfile.display(),
            match &after {
                Some(d) => format!("unchanged (sha256 {d})"),
                None => "absent".into(),
            }
        ),
    );
    Ok(())
}

/// A command that prints a JSON object as its last line of output leaves
/// it in `results/<step>.json`, for the report.
pub(crate) fn keep_command_figures(ctx: &RunContext, id: &str) -> Result<(), StepFailure> {
    let log = ctx.run.logs().join(format!("{id}.log"));
    let Ok(text) = std::fs::read_to_string(&log) else {
        return Ok(());
    };
    let figures = text.lines().rev().find_map(|l| {
        serde_json::from_str::<serde_json::Value>(l.trim())
            .ok()
            .filter(|v| v.is_object())
    });
    if let Some(figures) = figures {
        write_json(ctx, &format!("{id}.json"), &figures)?;
    }
    Ok(())
}
