//! `reprise show ID`: the recipe as a person reads it — steps with their
//! reasons, lanes, figures with their sentences, claims.

use std::fmt::Write;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_probe::preflight::LaneAvailability;
use reprise_recipe::reading::count;
use reprise_recipe::reading::number;
use reprise_recipe::shown::{command_line, escaped_text};
use reprise_recipe::{ChecksumStatus, Recipe, Revision};

use crate::table::{Table, wrap};

const WIDTH: usize = 100;

#[derive(ClapArgs)]
pub struct Args {
    /// Recipe id (e.g. campfire-runtimes) or path.
    recipe: String,
    /// Print the recipe as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> ExitCode {
    let session = super::session();
    let loaded = match super::load_recipe(&session, &args.recipe) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let recipe = loaded.recipe;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&recipe).unwrap_or_default()
        );
        return ExitCode::SUCCESS;
    }
    let standings = session.found_here(&recipe).lanes;
    // Every line escaped once more as a whole: prose may hold a joiner (an
    // emoji's), which `check` lets through and a terminal must not hide.
    print!(
        "{}",
        escaped_text(&render(&recipe, &loaded.checksum, &standings))
    );
    ExitCode::SUCCESS
}

fn render(
    r: &Recipe,
    status: &ChecksumStatus,
    standings: &[reprise_session::recipes::LaneStanding],
) -> String {
    let mut o = String::new();
    let p = &r.post;
    let _ = writeln!(o, "{} — {}", p.id, p.title);
    let mut byline = format!("{}, {}", p.author, p.date);
    if let Some(run) = &p.run {
        byline.push_str(&format!(" · {run}"));
    }
    if let Some(url) = &p.url {
        byline.push_str(&format!(" · {url}"));
    }
    let _ = writeln!(o, "{byline}");
    let _ = writeln!(
        o,
        "recipe: {} ({})",
        super::shown_path(&r.file),
        match status {
            ChecksumStatus::Matches => "matches checksums/recipes.sha256".to_string(),
            ChecksumStatus::Modified { .. } =>
                "MODIFIED: differs from checksums/recipes.sha256 — read it before running it"
                    .to_string(),
            ChecksumStatus::Unlisted => "not listed in checksums/recipes.sha256".to_string(),
            ChecksumStatus::Unreadable { reason } => format!("checksums unreadable: {reason}"),
        }
    );
    o.push('\n');
    o.push_str(&wrap(&p.summary, WIDTH, 0));
    for unknown in &p.unknowns {
        o.push_str(&wrap(&format!("Unknown: {unknown}"), WIDTH, 2));
    }

    if let Some(m) = &r.machine {
        let _ = writeln!(o, "\nReference machine");
        let mut facts = vec![m.cpu.clone()];
        if let (Some(c), Some(t)) = (m.cores, m.threads) {
            facts.push(format!("{c} cores / {t} threads"));
        }
        if let Some(mhz) = m.base_mhz {
            facts.push(format!("{:.1} GHz", f64::from(mhz) / 1000.0));
        }
        if let Some(b) = m.boost {
            facts.push(format!("boost {}", if b { "on" } else { "off" }));
        }
        if let Some(g) = &m.governor {
            facts.push(format!("governor {g}"));
        }
        if let Some(mem) = m.memory_gb {
            facts.push(format!("{mem} GB"));
        }
        facts.extend(m.os.clone());
        facts.extend(m.kernel.clone());
        facts.extend(
            m.virtualization
                .as_ref()
                .map(|v| format!("virtualisation: {v}")),
        );
        o.push_str(&wrap(&facts.join(", "), WIDTH, 2));
        o.push_str(&wrap(&format!("“{}”", m.quote), WIDTH, 4));
    }

    if !r.sources.is_empty() {
        let _ = writeln!(o, "\nSources");
        for s in &r.sources {
            let rev = match s.revision() {
                Revision::Pinned(rev) => format!("at {rev}"),
                Revision::Unpinned { branch, reason } => format!("UNPINNED ({branch}): {reason}"),
            };
            let _ = writeln!(o, "  {}  {}  {}", s.id, s.url, rev);
            o.push_str(&wrap(&s.purpose, WIDTH, 4));
        }
    }

    if !r.toolchains.is_empty() {
        let _ = writeln!(o, "\nToolchains");
        let mut t = Table::new(&["name", "version", "asked with"]);
        for tc in &r.toolchains {
            t.row(vec![
                tc.name.to_string(),
                tc.version.to_string(),
                command_line(&tc.command),
            ]);
        }
        o.push_str(&t.render(2));
    }

    let _ = writeln!(o, "\nSteps");
    for (i, step) in r.ordered_steps().iter().enumerate() {
        let after = if step.after.is_empty() {
            String::new()
        } else {
            format!(
                "  (after {})",
                step.after
                    .iter()
                    .map(|a| a.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let _ = writeln!(
            o,
            "  {:>2}. {} [{}]{after}",
            i + 1,
            step.id,
            step.action.kind().name()
        );
        o.push_str(&wrap(
            &reprise_engine::run::plan::describe(r, step),
            WIDTH,
            7,
        ));
        o.push_str(&wrap(&step.why, WIDTH, 7));
    }

    if !r.lanes.is_empty() {
        let _ = writeln!(o, "\nLanes");
        let mut t = Table::new(&[
            "lane",
            "runtime",
            "server",
            "workers",
            "threads",
            "heap",
            "warm-up",
            "runs here",
        ]);
        // A count that is a share of the CPUs, as the post's machine and
        // this one give it: `8 (post), 2 here`.
        let post_cpus = r.machine.as_ref().and_then(|m| m.threads);
        let here = reprise_engine::lanes::shape::cpu_count(
            &reprise_engine::lanes::placement::LaneHost::ThisMachine
                .cpu_split(r.cpu_placement())
                .servers,
        );
        let count_words = |count: reprise_recipe::Count| match (count, post_cpus) {
            (reprise_recipe::Count::Fixed(n), _) => n.to_string(),
            (per_cpu, Some(post)) => format!(
                "{} (post), {} here",
                per_cpu.on(post as usize),
                per_cpu.on(here)
            ),
            (per_cpu, None) => format!("{per_cpu}: {} here", per_cpu.on(here)),
        };
        for (l, standing) in r.lanes.iter().zip(standings) {
            let here = match &standing.here {
                LaneAvailability::Runs => "yes",
                LaneAvailability::Blocked { .. } => "missing toolchain",
                LaneAvailability::PublishedOnly { .. } => "published only",
            }
            .to_string();
            t.row(vec![
                l.name.to_string(),
                l.runtime
                    .as_ref()
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
                l.server.clone().unwrap_or_default(),
                l.workers.map(count_words).unwrap_or_default(),
                l.threads.map(count_words).unwrap_or_default(),
                l.heap_mb.map(|h| format!("{h} MB")).unwrap_or_default(),
                l.warmup.map(|w| w.to_string()).unwrap_or_default(),
                here,
            ]);
        }
        o.push_str(&t.render(2));
        // Each lane's command as the run's plan shows it: quoted as a shell
        // reads it back, every character a reader cannot see escaped.
        for l in r.lanes.iter().filter(|l| l.command.is_some()) {
            let command = command_line(l.command.as_deref().unwrap_or_default());
            let _ = writeln!(o, "  {} runs: {command}", l.name);
        }
    }

    if !r.workloads.is_empty() {
        let _ = writeln!(o, "\nWorkloads");
        for w in &r.workloads {
            let rate = w
                .rate
                .map(|r| format!(", {} req/s open loop", number(r)))
                .unwrap_or_default();
            let warm = w
                .warmup
                .map(|d| format!(" after {d} warm-up"))
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "  {}: {} connections, {}, {} × {}{warm}{rate}",
                w.name,
                w.connections,
                count(w.threads, "thread"),
                count(w.runs, "run"),
                w.duration
            );
            for e in &w.endpoints {
                let _ = writeln!(o, "    {} {} {}", e.name, e.method, e.path);
            }
        }
    }

    if !r.figures.is_empty() {
        let _ = writeln!(o, "\nPublished figures");
        for f in &r.figures {
            let mut cell = f.lane.to_string();
            if let Some(e) = &f.endpoint {
                cell.push_str(&format!(" {e}"));
            }
            if let Some(c) = &f.condition {
                cell.push_str(&format!(" [{c}]"));
            }
            let _ = writeln!(
                o,
                "  {:<28} {:<44} {}",
                f.id.as_str(),
                cell,
                f.published_text()
            );
            if let Some(why) = &f.unknown {
                o.push_str(&wrap(why, WIDTH, 6));
            }
            o.push_str(&wrap(&format!("“{}”", f.quote), WIDTH, 6));
        }
    }

    if !r.claims.is_empty() {
        let _ = writeln!(o, "\nClaims");
        for c in &r.claims {
            let _ = writeln!(o, "  {} [{}] {}", c.id, c.shape.kind(), c.statement());
            o.push_str(&wrap(&format!("“{}”", c.quote), WIDTH, 6));
        }
    }
    o
}
