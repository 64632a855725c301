//! `reprise validate`: is this machine fit to benchmark on. Checks, stability,
//! loopback ceiling, verdict; saved in the history; `--json` prints the
//! profile another machine's is compared with (`--compare OTHER.json`).
//!
//! Exit status: 0 for `ready` and `usable with caveats`, 1 for `not
//! suitable`, 2 when it could not validate (bad input, a failure to measure).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_recipe::reading::number;
use reprise_session::HistoryOutcome;
use reprise_validate::checks::Level;
use reprise_validate::profile::compare;
use reprise_validate::reference_server::ReferenceServer;
use reprise_validate::{Fitness, Profile};

use crate::table::{Table, wrap};

#[derive(ClapArgs)]
pub struct Args {
    /// About 15 s instead of about a minute: fewer and shorter runs.
    #[arg(long)]
    quick: bool,
    /// Print the profile as JSON (progress goes to stderr).
    #[arg(long)]
    json: bool,
    /// Compare with another machine's `reprise validate --json` profile.
    #[arg(long, value_name = "OTHER.json")]
    compare: Option<PathBuf>,
    /// Read this machine's profile from a file instead of measuring (with
    /// `--compare`, or to print a saved profile again).
    #[arg(long, value_name = "PROFILE.json")]
    from: Option<PathBuf>,
    /// Do not save the validation in the history.
    #[arg(long)]
    no_save: bool,
    /// Only run the built-in reference server on ADDR until stopped (for
    /// loading it with another tool, as bench/validate-ceiling does).
    #[arg(long, value_name = "ADDR")]
    serve: Option<SocketAddr>,
    /// With `--serve`: the CPUs to pin its threads to, one thread per CPU.
    #[arg(long, value_delimiter = ',', requires = "serve")]
    server_cpus: Vec<usize>,
}

const CANNOT: u8 = 2;

pub fn run(args: Args) -> ExitCode {
    if let Some(addr) = args.serve {
        return serve(addr, &args.server_cpus);
    }
    let other = match args.compare.as_ref().map(read_profile).transpose() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let profile = match &args.from {
        Some(file) => match read_profile(file) {
            Ok(p) => p,
            Err(code) => return code,
        },
        None => match measure(&args) {
            Ok(p) => p,
            Err(code) => return code,
        },
    };
    if args.json {
        match serde_json::to_string_pretty(&profile) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                say!("error: {e}");
                return ExitCode::from(CANNOT);
            }
        }
    } else {
        print_profile(&profile);
    }
    if let Some(other) = &other {
        let out = render_comparison(&profile, other);
        if args.json {
            eprint!("{out}");
        } else {
            print!("{out}");
        }
    }
    match profile.fitness {
        Fitness::NotSuitable => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    }
}

fn read_profile(file: &PathBuf) -> Result<Profile, ExitCode> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        say!("error: {}: {e}", file.display());
        ExitCode::from(super::BAD_INPUT)
    })?;
    Profile::parse(&text).map_err(|e| {
        say!("error: {}: {e}", file.display());
        ExitCode::from(super::BAD_INPUT)
    })
}

fn measure(args: &Args) -> Result<Profile, ExitCode> {
    let session = super::session();
    say!(
        "reprise validate ({}): is this machine fit to benchmark on?",
        if args.quick { "quick" } else { "full" }
    );
    let (profile, history) = session
        .validate_machine(args.quick, !args.no_save, |line| say!("{line}"))
        .map_err(|e| {
            say!("error: {e}");
            ExitCode::from(CANNOT)
        })?;
    match history {
        Some(HistoryOutcome::Stored { id }) => say!(
            "saved as {id} in {} (`reprise report {id}`, `reprise share {id}`)",
            super::shown_path(&session.data.root)
        ),
        Some(HistoryOutcome::Failed { reason }) => {
            say!("warning: not saved in the history: {reason}")
        }
        _ => {}
    }
    Ok(profile)
}

fn print_profile(p: &Profile) {
    let m = &p.machine;
    println!(
        "{} — {}, {}{}, {}",
        m.host.as_deref().unwrap_or("this machine"),
        m.cpu.as_deref().unwrap_or("unknown CPU"),
        m.usable_cpus
            .map_or("usable CPUs unknown".into(), |n| match n {
                1 => "1 usable CPU".to_string(),
                n => format!("{n} usable CPUs"),
            }),
        if m.virtual_machine == Some(true) {
            ", VM"
        } else {
            ""
        },
        m.os.as_deref().unwrap_or("unknown OS"),
    );
    println!("\nChecks");
    let mut table = Table::new(&["", "check", "found"]);
    for c in &p.checks {
        table.row(vec![c.level.word().into(), c.id.clone(), c.found.clone()]);
    }
    print!("{}", table.render(2));
    for c in p.checks.iter().filter(|c| c.level != Level::Ok) {
        println!("\n  {} {}: {}", c.level.word(), c.id, c.found);
        if !c.why.is_empty() {
            print!("{}", wrap(&format!("why: {}", c.why), 92, 4));
        }
        if let Some(fix) = &c.fix {
            print!("{}", wrap(&format!("fix: {fix}"), 92, 4));
        }
    }

    let s = &p.stability;
    println!(
        "\nStability: {} per run, {} runs per CPU{}",
        s.kernel,
        s.cores.first().map_or(0, |c| c.runs_ms.len()),
        if s.pinned { ", pinned" } else { ", unpinned" }
    );
    for c in &s.cores {
        println!(
            "  CPU {:<3} median {:8.2} ms   CV {:5.1}%",
            c.cpu,
            c.median_ms,
            c.cv * 100.0
        );
    }
    println!(
        "  between CPUs CV {:.1}%; background {}; timer lag p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} sleeps of {} ms)",
        s.core_cv * 100.0,
        s.background
            .busy_percent
            .map_or("unknown".into(), |b| format!("{b:.1}% of the allowed CPUs")),
        s.timer.p50_ms,
        s.timer.p99_ms,
        s.timer.max_ms,
        s.timer.sleeps,
        s.timer.requested_ms
    );

    let c = &p.ceiling;
    println!(
        "\nLoopback ceiling: built-in reference server, {}-byte body, {} connections, {:.0} s runs; {}",
        c.body_bytes,
        c.connections,
        c.duration_s,
        c.split.describe()
    );
    for (n, r) in c.runs.iter().enumerate() {
        match r.req_per_s {
            Some(rps) => println!(
                "  run {}: {:>9} req/s   p99 {}",
                n + 1,
                number(rps),
                r.p99_ms.map_or("—".into(), |v| format!("{v:.2} ms"))
            ),
            None => println!("  run {}: no data ({} errors)", n + 1, r.errors),
        }
    }
    // The line the app shows, with the runs' range where there are several.
    match (c.min_req_per_s, c.max_req_per_s) {
        (Some(min), Some(max)) if c.runs_with_data() > 1 => println!(
            "  {} (min {}, max {})",
            c.reading(),
            number(min),
            number(max)
        ),
        _ => println!("  {}", c.reading()),
    }

    println!("\nVerdict: {}", p.fitness.word());
    for caveat in &p.caveats {
        println!("  - {caveat}");
    }
    println!("\n{}", p.summary);
}

fn render_comparison(this: &Profile, other: &Profile) -> String {
    let cmp = compare(this, other);
    let mut out = format!(
        "\nCompared with {}\n  this machine: {}\n",
        cmp.other, cmp.this
    );
    let mut table = Table::new(&["figure", "this", "other", "this / other"]);
    let shown = |v: Option<f64>, unit: &str| {
        v.map_or("—".into(), |v| {
            if unit == "req/s" {
                format!("{} {unit}", number(v))
            } else {
                format!("{v:.2} {unit}")
            }
        })
    };
    for row in &cmp.rows {
        table.row(vec![
            format!(
                "{}{}",
                row.figure,
                if row.higher_is_better {
                    ""
                } else {
                    " (lower is better)"
                }
            ),
            shown(row.this, &row.unit),
            shown(row.other, &row.unit),
            row.ratio.map_or("—".into(), |r| format!("{r:.2}×")),
        ]);
    }
    out.push_str(&table.render(2));
    out.push_str(&format!("{}\n", cmp.headline()));
    out
}

fn serve(addr: SocketAddr, cpus: &[usize]) -> ExitCode {
    match ReferenceServer::start(addr, cpus) {
        Ok(server) => {
            say!(
                "reference server on {} ({}); stop with Ctrl-C",
                server.url(),
                match cpus.len().max(1) {
                    1 => "1 thread".to_string(),
                    n => format!("{n} threads"),
                }
            );
            loop {
                std::thread::park();
            }
        }
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(CANNOT)
        }
    }
}
