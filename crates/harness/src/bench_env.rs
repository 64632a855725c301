//! The original harness's `env.json` (rubys/roundhouse `scripts/bench-env`):
//! written from a [`Fingerprint`] and [`Toolchains`], and read back as a
//! reference machine. Fields the harness could not probe are omitted, never
//! null; fields Reprise does not know are kept as they were.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use reprise_probe::Fingerprint;
use reprise_probe::toolchain::{Origin, Status, ToolProbe, Toolchains, banner};

use crate::HarnessError;
use crate::timestamp::iso8601_utc;

/// One `env.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchEnv {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<Host>,
    /// os-release's keys, lower-cased (`pretty_name`, `id`, `version_id`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuSection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mb: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSection>,
    /// Tool name → first line of its version output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolchains: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolchain_paths: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<GitState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Conditions>,
    /// workers, concurrency, runs, duration_sec, … as the harness recorded them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Value>,
    /// Anything else (`mise_current`, later additions), kept verbatim.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// `uname -a`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uname: Option<String>,
    /// `linux`, `darwin`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuSection {
    /// `lscpu --json` output: `{"lscpu": [{"field": "Model name:", "data": …, "children": […]}]}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lscpu: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logical: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_name: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClockSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    /// The harness copies `cpufreq/boost` verbatim: `"0"` or `"1"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boost: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cur_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_khz: Option<u64>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// The state of the checkout the benchmark ran from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GitState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dirty: Option<bool>,
}

impl GitState {
    /// Reads `dir`'s git state; `None` when it is not a git checkout.
    pub fn read(dir: &Path) -> Option<GitState> {
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .arg("-C")
                .arg(dir)
                .args(args)
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let sha = git(&["rev-parse", "HEAD"]).filter(|s| !s.is_empty())?;
        Some(GitState {
            sha: Some(sha),
            branch: git(&["rev-parse", "--abbrev-ref", "HEAD"]),
            subject: git(&["log", "-1", "--format=%s"]),
            dirty: git(&["status", "--porcelain"]).map(|s| !s.is_empty()),
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loadavg_1_5_15: Option<[f64; 3]>,
    /// `uptime`'s line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uptime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_utc: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl BenchEnv {
    /// Parses an `env.json`.
    pub fn parse(text: &str) -> Result<BenchEnv, HarnessError> {
        serde_json::from_str(text).map_err(HarnessError::BenchEnv)
    }

    /// Pretty JSON, as the harness prints it.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The env.json for this machine at `now`.
    pub fn from_fingerprint(
        fp: &Fingerprint,
        tools: &Toolchains,
        git: Option<GitState>,
        now: SystemTime,
    ) -> BenchEnv {
        let stamp = iso8601_utc(now);
        let os = &fp.os;
        let uname = match (&os.kernel_name, &os.hostname, &os.kernel) {
            (Some(name), Some(host), Some(kernel)) => Some(format!(
                "{name} {host} {kernel} {} {} GNU/Linux",
                os.kernel_build.as_deref().unwrap_or(""),
                os.arch.as_deref().unwrap_or("")
            )),
            _ => None,
        };
        let mut os_map = BTreeMap::new();
        for (k, v) in [
            ("pretty_name", &os.pretty_name),
            ("id", &os.id),
            ("version_id", &os.version_id),
        ] {
            if let Some(v) = v {
                os_map.insert(k.to_string(), v.clone());
            }
        }
        let policy0 = fp.clock.policies.first();
        let clock = ClockSection {
            governor: policy0
                .and_then(|p| p.governor.clone())
                .or(fp.clock.governor.clone()),
            boost: fp
                .clock
                .boost
                .map(|b| Value::String(if b { "1" } else { "0" }.into())),
            cur_khz: fp.clock.cur_khz,
            min_khz: policy0.and_then(|p| p.scaling_min_khz).or(fp.clock.min_khz),
            max_khz: policy0.and_then(|p| p.scaling_max_khz).or(fp.clock.max_khz),
            extra: BTreeMap::new(),
        };
        let on_path = || {
            tools
                .tools
                .iter()
                .filter(|t| t.origin == Some(Origin::Path))
        };
        let toolchains: BTreeMap<String, String> = on_path()
            .filter_map(|t| Some((t.tool.clone(), t.first_line.clone()?)))
            .collect();
        let paths: BTreeMap<String, String> = on_path()
            .filter_map(|t| Some((t.tool.clone(), t.path.as_ref()?.display().to_string())))
            .collect();
        let load = fp.load.loadavg;
        BenchEnv {
            captured_at: Some(stamp.clone()),
            host: Some(Host {
                uname,
                platform: os.kernel_name.as_ref().map(|n| n.to_lowercase()),
                arch: os.arch.clone(),
                hostname: os.hostname.clone(),
                extra: BTreeMap::new(),
            }),
            os: (!os_map.is_empty()).then_some(os_map),
            cpu: Some(CpuSection {
                lscpu: Some(lscpu_json(fp)),
                brand: fp.cpu.brand.clone(),
                physical: fp.cpu.physical_cores,
                logical: fp.cpu.logical_threads,
                product_name: fp.virtualization.dmi_product.clone(),
                extra: BTreeMap::new(),
            }),
            memory_mb: fp.memory.total_mib(),
            clock: Some(clock),
            toolchains: (!toolchains.is_empty()).then_some(toolchains),
            toolchain_paths: (!paths.is_empty()).then_some(paths),
            git,
            conditions: Some(Conditions {
                loadavg_1_5_15: load,
                uptime: uptime_line(now, fp.load.uptime_secs, load),
                date_utc: Some(stamp),
                extra: BTreeMap::new(),
            }),
            harness: None,
            extra: BTreeMap::new(),
        }
    }

    /// The machine this env.json describes, as a fingerprint (facts it does
    /// not carry stay `None`).
    pub fn to_fingerprint(&self) -> Fingerprint {
        let mut fp = Fingerprint::default();
        let lscpu = self
            .cpu
            .as_ref()
            .and_then(|c| c.lscpu.as_ref())
            .map(flatten_lscpu)
            .unwrap_or_default();
        let field = |k: &str| lscpu.get(k).cloned();
        let number = |k: &str| field(k).and_then(|v| v.trim().parse::<u32>().ok());
        let cpu = self.cpu.clone().unwrap_or_default();
        fp.cpu.brand = cpu.brand.or_else(|| field("Model name"));
        fp.cpu.vendor = field("Vendor ID");
        fp.cpu.family = number("CPU family");
        fp.cpu.model = number("Model");
        fp.cpu.stepping = number("Stepping");
        fp.cpu.sockets = number("Socket(s)");
        fp.cpu.logical_threads = cpu.logical.or_else(|| number("CPU(s)"));
        fp.cpu.physical_cores = cpu
            .physical
            .or_else(|| Some(number("Core(s) per socket")? * number("Socket(s)").unwrap_or(1)));
        fp.cpu.online = field("On-line CPU(s) list");
        fp.cpu.smt_active = number("Thread(s) per core")
            .map(|t| t > 1)
            .or_else(|| Some(fp.cpu.logical_threads? > fp.cpu.physical_cores?));
        fp.virtualization.dmi_product = cpu.product_name;
        // lscpu names a hypervisor whenever it detects one, so a recorded
        // lscpu without one is bare metal.
        if !lscpu.is_empty() {
            let hypervisor = field("Hypervisor vendor");
            fp.virtualization.virtual_machine = Some(hypervisor.is_some());
            fp.virtualization.dmi_vendor = hypervisor;
        }
        if let Some(clock) = &self.clock {
            fp.clock.governor = clock.governor.clone();
            fp.clock.governors_agree = clock.governor.as_ref().map(|_| true);
            fp.clock.boost = clock.boost.as_ref().and_then(|b| match b {
                Value::String(s) => Some(s.trim() == "1"),
                Value::Number(n) => Some(n.as_u64() == Some(1)),
                Value::Bool(b) => Some(*b),
                _ => None,
            });
            fp.clock.cur_khz = clock.cur_khz;
            fp.clock.min_khz = clock.min_khz;
            fp.clock.max_khz = clock.max_khz;
        }
        fp.memory.total_kib = self.memory_mb.map(|mb| mb * 1024);
        if let Some(host) = &self.host {
            let uname: Vec<&str> = host
                .uname
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            fp.os.kernel_name = uname.first().map(|s| s.to_string());
            fp.os.kernel = uname.get(2).map(|s| s.to_string());
            fp.os.hostname = host.hostname.clone();
            fp.os.arch = host.arch.clone();
        }
        if let Some(os) = &self.os {
            fp.os.pretty_name = os.get("pretty_name").cloned();
            fp.os.id = os.get("id").cloned();
            fp.os.version_id = os.get("version_id").cloned();
        }
        fp.load.loadavg = self.conditions.as_ref().and_then(|c| c.loadavg_1_5_15);
        fp
    }

    /// The toolchains this env.json names, with their banners parsed.
    pub fn to_toolchains(&self) -> Toolchains {
        let paths = self.toolchain_paths.clone().unwrap_or_default();
        let tools = self
            .toolchains
            .iter()
            .flatten()
            .map(|(tool, line)| ToolProbe {
                tool: tool.clone(),
                path: paths.get(tool).map(Into::into),
                origin: Some(Origin::Path),
                status: Status::Answered,
                first_line: Some(line.clone()),
                banner: banner::parse(tool, line),
                error: None,
                elapsed_ms: 0,
                output: line.clone(),
            })
            .collect();
        Toolchains {
            tools,
            recorded: true,
        }
    }
}

/// lscpu's JSON, flattened to `field (without colon) → data`, children included.
fn flatten_lscpu(value: &Value) -> BTreeMap<String, String> {
    fn walk(entries: &Value, out: &mut BTreeMap<String, String>) {
        for entry in entries.as_array().into_iter().flatten() {
            if let (Some(field), Some(data)) = (entry["field"].as_str(), entry["data"].as_str()) {
                out.entry(field.trim_end_matches(':').to_string())
                    .or_insert_with(|| data.to_string());
            }
            walk(&entry["children"], out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&value["lscpu"], &mut out);
    out
}

/// The fingerprint in `lscpu --json`'s flat form, without spawning lscpu.
fn lscpu_json(fp: &Fingerprint) -> Value {
    let cpu = &fp.cpu;
    let per = |a: Option<u32>, b: Option<u32>| Some(a? / b.filter(|b| *b > 0)?);
    let mhz = |khz: Option<u64>| khz.map(|k| format!("{:.4}", k as f64 / 1000.0));
    let mut rows: Vec<(&str, Option<String>)> = vec![
        ("Architecture:", fp.os.arch.clone()),
        ("CPU(s):", cpu.logical_threads.map(|n| n.to_string())),
        ("On-line CPU(s) list:", cpu.online.clone()),
        ("Vendor ID:", cpu.vendor.clone()),
        ("Model name:", cpu.brand.clone()),
        ("CPU family:", cpu.family.map(|n| n.to_string())),
        ("Model:", cpu.model.map(|n| n.to_string())),
        (
            "Thread(s) per core:",
            per(cpu.logical_threads, cpu.physical_cores).map(|n| n.to_string()),
        ),
        (
            "Core(s) per socket:",
            per(cpu.physical_cores, cpu.sockets).map(|n| n.to_string()),
        ),
        ("Socket(s):", cpu.sockets.map(|n| n.to_string())),
        ("Stepping:", cpu.stepping.map(|n| n.to_string())),
        ("CPU max MHz:", mhz(fp.clock.max_khz)),
        ("CPU min MHz:", mhz(fp.clock.min_khz)),
    ];
    if fp.virtualization.virtual_machine == Some(true) {
        let vendor = fp.virtualization.dmi_vendor.clone();
        rows.push(("Hypervisor vendor:", vendor.or(Some("unknown".into()))));
    }
    let cache_names: Vec<(String, String)> = cpu
        .caches
        .iter()
        .map(|c| {
            let name = match (c.level, c.kind.as_str()) {
                (1, "Data") => "L1d cache:".to_string(),
                (1, "Instruction") => "L1i cache:".to_string(),
                (level, _) => format!("L{level} cache:"),
            };
            let total = c.size_kib * c.instances as u64;
            let size = if total >= 1024 && total.is_multiple_of(1024) {
                format!("{} MiB", total / 1024)
            } else {
                format!("{total} KiB")
            };
            let plural = if c.instances == 1 {
                "instance"
            } else {
                "instances"
            };
            (name, format!("{size} ({} {plural})", c.instances))
        })
        .collect();
    rows.extend(
        cache_names
            .iter()
            .map(|(n, v)| (n.as_str(), Some(v.clone()))),
    );
    let entries: Vec<Value> = rows
        .into_iter()
        .filter_map(|(field, data)| Some(serde_json::json!({"field": field, "data": data?})))
        .collect();
    serde_json::json!({ "lscpu": entries })
}

/// `uptime`'s shape: ` 04:16:39 up 10 min,  load average: 0.98, 0.67, 0.30`.
fn uptime_line(
    now: SystemTime,
    uptime_secs: Option<f64>,
    load: Option<[f64; 3]>,
) -> Option<String> {
    let up = uptime_secs? as u64;
    let load = load?;
    let secs = now.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
    let (days, hours, mins) = (up / 86_400, (up / 3600) % 24, (up / 60) % 60);
    let since = match (days, hours) {
        (0, 0) => format!("{mins} min"),
        (0, _) => format!("{hours}:{mins:02}"),
        (d, _) => format!(
            "{d} day{}, {hours:2}:{mins:02}",
            if d == 1 { "" } else { "s" }
        ),
    };
    Some(format!(
        " {h:02}:{m:02}:{s:02} up {since},  load average: {:.2}, {:.2}, {:.2}",
        load[0], load[1], load[2]
    ))
}
