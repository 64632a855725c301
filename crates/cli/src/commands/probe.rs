//! `reprise probe [--json | --format bench-env]`: this machine's fingerprint
//! and toolchains, as a list, as JSON, or as the original harness's env.json.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use clap::{Args as ClapArgs, ValueEnum};
use reprise_harness::bench_env::BenchEnv;
use reprise_probe::toolchain::{self, SearchPath, Status, Toolchains};
use reprise_probe::{Fingerprint, Snapshot};

use crate::table::Table;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// An aligned list for people.
    Human,
    /// `{fingerprint, toolchains}`, for `reprise preflight --machine`.
    Json,
    /// The original harness's env.json, as scripts/bench-env writes it
    /// (Reprise's fingerprint under `reprise`).
    BenchEnv,
}

#[derive(ClapArgs)]
pub struct Args {
    /// Print JSON (same as --format json).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// How long each toolchain may take to print its version (JVMs are
    /// slow): seconds, or e.g. 500ms, 30s; held between 0.1 s and 10 min.
    #[arg(long, default_value = "10s", value_parser = crate::flags::duration)]
    timeout: Duration,
    /// Read /proc and /sys under this directory instead of / (fixture trees).
    #[arg(long, hide = true)]
    root: Option<PathBuf>,
}

/// The fingerprint and the standard toolchains, asked at the same time.
pub fn snapshot(root: Option<&PathBuf>, timeout: Duration) -> Snapshot {
    let search = SearchPath::from_env();
    std::thread::scope(|scope| {
        let machine = scope.spawn(|| match root {
            Some(root) => Fingerprint::read(root),
            None => Fingerprint::probe(Duration::from_secs(2)),
        });
        let toolchains = toolchain::probe(&toolchain::standard_queries(), &search, timeout);
        Snapshot {
            fingerprint: machine.join().unwrap_or_default(),
            toolchains,
        }
    })
}

pub fn run(args: Args) -> ExitCode {
    let timeout = args
        .timeout
        .clamp(Duration::from_millis(100), Duration::from_secs(600));
    let snap = snapshot(args.root.as_ref(), timeout);
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&snap).unwrap_or_default()
        ),
        Format::BenchEnv => {
            // What scripts/bench-env prints here (run in this folder), with
            // Reprise's fingerprint and toolchains under `reprise`.
            let cwd = std::env::current_dir().ok();
            let root = args.root.clone().unwrap_or_else(|| PathBuf::from("/"));
            let env = BenchEnv::capture_under(&root, cwd.as_deref(), None, SystemTime::now())
                .with_reprise(&snap.fingerprint, &snap.toolchains, Default::default());
            println!("{}", env.to_json());
        }
        Format::Human => print!("{}", render(&snap.fingerprint, &snap.toolchains)),
    }
    ExitCode::SUCCESS
}

fn or_dash(value: Option<String>) -> String {
    value.unwrap_or_else(|| "—".to_string())
}

fn ghz(khz: u64) -> String {
    format!("{:.2} GHz", khz as f64 / 1e6)
}

fn gib(kib: u64) -> String {
    format!("{:.1} GiB", kib as f64 / (1024.0 * 1024.0))
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// The machine as `key  value` lines, then the toolchains as a table.
pub fn render(fp: &Fingerprint, tools: &Toolchains) -> String {
    let cpu = &fp.cpu;
    let clock = &fp.clock;
    let mut facts: Vec<(&str, String)> = Vec::new();
    let mut model = Vec::new();
    model.extend(cpu.vendor.clone());
    if let (Some(f), Some(m)) = (cpu.family, cpu.model) {
        model.push(format!("family {f} model {m}"));
    }
    facts.push((
        "CPU",
        format!(
            "{}{}",
            or_dash(cpu.brand.clone()),
            if model.is_empty() {
                String::new()
            } else {
                format!(" ({})", model.join(", "))
            }
        ),
    ));
    let mut shape = Vec::new();
    shape.extend(cpu.physical_cores.map(|c| format!("{c} cores")));
    shape.extend(cpu.logical_threads.map(|t| format!("{t} threads")));
    shape.extend(
        cpu.sockets
            .map(|s| format!("{s} socket{}", if s == 1 { "" } else { "s" })),
    );
    shape.extend(cpu.smt_active.map(|s| format!("SMT {}", on_off(s))));
    facts.push((
        "Cores",
        or_dash((!shape.is_empty()).then(|| shape.join(", "))),
    ));
    if !cpu.caches.is_empty() {
        let caches: Vec<String> = cpu
            .caches
            .iter()
            .map(|c| {
                let name = match (c.level, c.kind.as_str()) {
                    (1, "Data") => "L1d".to_string(),
                    (1, "Instruction") => "L1i".to_string(),
                    (l, _) => format!("L{l}"),
                };
                let size = if c.size_kib >= 1024 {
                    format!("{} MiB", c.size_kib / 1024)
                } else {
                    format!("{} KiB", c.size_kib)
                };
                format!("{name} {size} ×{}", c.instances)
            })
            .collect();
        facts.push(("Caches", caches.join(", ")));
    }
    let mut freq = Vec::new();
    if let (Some(lo), Some(hi)) = (clock.min_khz, clock.max_khz) {
        freq.push(format!("{}–{}", ghz(lo), ghz(hi)));
    }
    freq.extend(clock.base_khz.map(|b| format!("base {}", ghz(b))));
    freq.extend(clock.cur_khz.map(|c| format!("now {}", ghz(c))));
    facts.push((
        "Frequency",
        or_dash((!freq.is_empty()).then(|| freq.join(", "))),
    ));
    let governor = match (clock.governors_agree, &clock.governor) {
        (Some(true), Some(g)) => format!("{g} (all {} policies)", clock.policies.len()),
        (Some(false), _) => {
            let all: Vec<String> = clock
                .policies
                .iter()
                .map(|p| format!("{}={}", p.name, or_dash(p.governor.clone())))
                .collect();
            format!("mixed: {}", all.join(" "))
        }
        _ => "— (no cpufreq)".to_string(),
    };
    facts.push(("Governor", governor));
    facts.push((
        "Boost",
        match (clock.boost, clock.boost_control) {
            (Some(b), Some(c)) => format!("{} ({})", on_off(b), c.path()),
            _ => "— (no boost switch)".to_string(),
        },
    ));
    if let Some(epp) = &clock.energy_performance_preference {
        facts.push(("Energy pref.", epp.clone()));
    }
    let mem = &fp.memory;
    let mut memory = vec![or_dash(mem.total_kib.map(gib))];
    memory.extend(mem.available_kib.map(|a| format!("{} available", gib(a))));
    memory.extend(mem.swap_total_kib.map(|s| format!("swap {}", gib(s))));
    facts.push(("Memory", memory.join(", ")));
    facts.push(("Huge pages", or_dash(mem.transparent_hugepages.clone())));
    let os = &fp.os;
    facts.push((
        "Kernel",
        or_dash(os.kernel.as_ref().map(|k| {
            format!("{} {k}", os.kernel_name.as_deref().unwrap_or(""))
                .trim()
                .to_string()
        })),
    ));
    facts.push(("OS", or_dash(os.pretty_name.clone())));
    facts.push((
        "Host",
        format!(
            "{} ({})",
            or_dash(os.hostname.clone()),
            or_dash(os.arch.clone())
        ),
    ));
    let v = &fp.virtualization;
    facts.push((
        "Virtualisation",
        match (v.virtual_machine, &v.container) {
            (Some(true), container) => format!(
                "virtual machine ({}){}",
                [v.dmi_vendor.clone(), v.dmi_product.clone()]
                    .into_iter()
                    .flatten()
                    .chain(
                        v.hypervisor_flag
                            .filter(|f| *f)
                            .map(|_| "hypervisor flag".to_string())
                    )
                    .collect::<Vec<_>>()
                    .join(", "),
                container
                    .as_ref()
                    .map(|c| format!(", inside a {c} container"))
                    .unwrap_or_default()
            ),
            (_, Some(c)) => format!("{c} container"),
            (Some(false), None) => "none (bare metal)".to_string(),
            (None, None) => "—".to_string(),
        },
    ));
    let a = &fp.cpu_access;
    let mut limits = Vec::new();
    limits.extend(a.affinity.as_ref().map(|c| format!("affinity {c}")));
    limits.extend(a.cpuset.as_ref().map(|c| format!("cpuset {c}")));
    limits.extend(a.quota_cpus.map(|q| format!("quota {q} CPUs")));
    facts.push((
        "Usable CPUs",
        format!(
            "{}{}",
            or_dash(a.usable_cpus.map(|u| u.to_string())),
            if limits.is_empty() {
                String::new()
            } else {
                format!(" ({})", limits.join(", "))
            }
        ),
    ));
    let load = &fp.load;
    let mut conditions =
        vec![or_dash(load.loadavg.map(|l| {
            format!("load {:.2} {:.2} {:.2}", l[0], l[1], l[2])
        }))];
    conditions.extend(load.steal_percent.map(|s| format!("steal {s:.1}%")));
    facts.push(("Conditions", conditions.join(", ")));
    facts.push((
        "Containers",
        match &fp.container_engine {
            Some(e) => format!(
                "{} {} (API {}, {} CPUs) at {}",
                or_dash(e.name.clone()),
                or_dash(e.version.clone()),
                or_dash(e.api_version.clone()),
                or_dash(e.cpus.map(|c| c.to_string())),
                e.host
            ),
            None => "no Docker-compatible engine answers".to_string(),
        },
    ));

    let width = facts
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Machine\n");
    for (key, value) in &facts {
        out.push_str(&format!("  {key:<width$}  {value}\n"));
    }
    out.push_str("\nToolchains\n");
    let mut table = Table::new(&["tool", "version", "where"]);
    for t in &tools.tools {
        let version = match (t.status, &t.banner) {
            (Status::Answered, Some(b)) => b.describe(),
            (Status::Answered, None) => or_dash(t.first_line.clone()),
            (Status::Missing, _) => "—".to_string(),
            (Status::TimedOut, _) => "timed out".to_string(),
            (Status::Failed, _) => "failed".to_string(),
            (Status::Located, _) => "not asked".to_string(),
        };
        let place = match (&t.path, &t.error) {
            (None, _) => "not found".to_string(),
            (Some(p), None) => format!("{} ({} ms)", p.display(), t.elapsed_ms),
            (Some(p), Some(e)) => format!("{}: {e}", p.display()),
        };
        table.row(vec![t.tool.clone(), version, place]);
    }
    out.push_str(&table.render(2));
    out
}
