//! The original harness's `env.json` (rubys/roundhouse `scripts/bench-env`):
//! captured as bench-env captures it ([`BenchEnv::capture`]), and read back
//! as a machine. Fields the harness could not probe are omitted, never
//! null; fields Reprise does not know are kept as they were. Reprise's own
//! record of the machine rides along under one key, [`REPRISE_KEY`].

mod capture;

pub use capture::{REPRISE_KEY, TOOLCHAINS, commands};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use reprise_probe::Fingerprint;
use reprise_probe::toolchain::{Origin, Status, ToolProbe, Toolchains, banner};

use crate::HarnessError;

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
    /// `/sys/class/dmi/id/board_name` and `board_vendor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_vendor: Option<String>,
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

    /// Adds Reprise's record of the machine under [`REPRISE_KEY`]: its
    /// fingerprint, the toolchains it asked (the recipe's own), and
    /// whatever else the run notes (`quick`, `load_generator`).
    pub fn with_reprise(
        mut self,
        fp: &Fingerprint,
        tools: &Toolchains,
        notes: serde_json::Map<String, Value>,
    ) -> BenchEnv {
        let mut extras = serde_json::Map::new();
        extras.insert(
            "fingerprint".into(),
            serde_json::to_value(fp).unwrap_or(Value::Null),
        );
        extras.insert(
            "toolchains".into(),
            serde_json::to_value(tools).unwrap_or(Value::Null),
        );
        extras.extend(notes);
        self.extra.insert(REPRISE_KEY.into(), Value::Object(extras));
        self
    }

    /// The machine this env.json describes, as a fingerprint: Reprise's own
    /// where it wrote the file, else read from bench-env's fields (lscpu's
    /// rows, boost's "0"/"1"); facts it does not carry stay `None`.
    pub fn to_fingerprint(&self) -> Fingerprint {
        if let Some(fp) = self
            .reprise_extra("fingerprint")
            .and_then(|v| serde_json::from_value::<Fingerprint>(v.clone()).ok())
        {
            return fp;
        }
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

    /// One of Reprise's extras, where Reprise wrote the file.
    fn reprise_extra(&self, key: &str) -> Option<&Value> {
        self.extra.get(REPRISE_KEY)?.get(key)
    }

    /// The toolchains this env.json names, with their banners parsed:
    /// those Reprise asked (the recipe's own), then bench-env's list. A
    /// tool neither names was not recorded (`Toolchains::recorded`).
    pub fn to_toolchains(&self) -> Toolchains {
        let paths = self.toolchain_paths.clone().unwrap_or_default();
        let asked: Vec<ToolProbe> = self
            .reprise_extra("toolchains")
            .and_then(|v| serde_json::from_value::<Toolchains>(v.clone()).ok())
            .map(|t| t.tools)
            .unwrap_or_default();
        let listed = self
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
            .filter(|t| !asked.iter().any(|a| a.tool == t.tool));
        Toolchains {
            tools: asked.iter().cloned().chain(listed).collect(),
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
