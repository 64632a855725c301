//! The original benchmark harness's result files (rubys/roundhouse
//! `scripts/bench-env`, `scripts/bench`), read and written in one place: a
//! published run is a folder of these files, and a Reprise run writes the
//! same ones so the harness's own tools read it.
//!
//! - [`bench_env`]: `env.json`, the machine, toolchains, checkout and
//!   conditions of a run, captured as bench-env captures them (the same
//!   commands and files, Reprise's fingerprint under `reprise`) and read
//!   back as a machine ([`parse_machine_file`] also takes `reprise probe --json`).
//! - [`per_run`]: `per-run.json`, one line per lane, endpoint and run, read
//!   into and written from `reprise-verdict`'s measurements.
//! - [`summary`]: `summary.json` and `summary.md`, aggregated from
//!   `per-run.json` byte for byte as the harness's own Ruby does it
//!   ([`ruby_output`]: numbers and JSON printed Ruby's way).
//! - [`records`]: `coldstart.json` and `skipped.json`.
//! - [`timestamp`]: the UTC times these files (and run folders) carry.
//!
//! This crate reads files, renders their bytes and captures `env.json`
//! (bench-env's commands: uname, lscpu, the tools' version flags, git);
//! writing them (atomically, into a run's folder) is the engine's. What does not live here: judging
//! (`reprise-verdict`), reports (`reprise-report`), and Reprise's own result
//! files (`results.json`, `check.json`, people reports).
//!
//! ```
//! use reprise_harness_files::{per_run, summary};
//!
//! let m = per_run::parse(r#"{"target":"ruby","workers":1,"endpoint":"/up","run":1,"req_sec":478.0}
//! {"target":"ruby","workers":1,"endpoint":"/up","run":2,"req_sec":482.0}
//! {"target":"ruby","workers":1,"endpoint":"/up","run":3,"req_sec":480.0}
//! "#).unwrap();
//! assert_eq!(m.lanes["ruby"].workers, Some(1));
//! let summary = summary::aggregate(&per_run::render(&m)).unwrap();
//! assert!(summary.json().contains("\"req_sec\": 480.0,"));
//! ```

pub mod bench_env;
pub mod per_run;
pub mod records;
pub mod ruby_output;
pub mod summary;
pub mod timestamp;

use std::path::{Path, PathBuf};

use reprise_probe::Snapshot;
use reprise_verdict::{Measurements, Parity};
use serde::Serialize;

/// `per-run.json`: one line per lane, endpoint and run.
pub const PER_RUN_FILE: &str = "per-run.json";
/// `summary.json`: medians per lane and endpoint.
pub const SUMMARY_FILE: &str = "summary.json";
/// `summary.md`: the same medians as a table per endpoint.
pub const SUMMARY_MD_FILE: &str = "summary.md";
/// `env.json`: bench-env's record of the machine.
pub const ENV_FILE: &str = "env.json";
/// `coldstart.json`: boot times per lane.
pub const COLDSTART_FILE: &str = "coldstart.json";
/// `shapes.json`: the CPUs and workers each lane's server was given and ran.
pub const SHAPES_FILE: &str = "shapes.json";
/// `skipped.json`: lanes that did not run or stopped.
pub const SKIPPED_FILE: &str = "skipped.json";
/// Reprise's record of the checked request per lane and endpoint (status,
/// tags, bytes, SHA-256): lanes compare only where these agree.
pub const PARITY_FILE: &str = "parity.json";

/// Why a harness file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    #[error("per-run.json line {line}: {source}")]
    PerRun {
        line: usize,
        source: serde_json::Error,
    },
    #[error("per-run.json line {line}: `{field}` is {value}, not a number")]
    NotANumber {
        line: usize,
        field: String,
        value: String,
    },
    /// A value no measurement has (below zero, or past [`per_run::LARGEST`]):
    /// its statistics would not be finite, and a run stored with it would
    /// not read back.
    #[error(
        "per-run.json line {line}: `{field}` is {value}: no measurement is below 0 or above {}",
        per_run::LARGEST
    )]
    NotAMeasurement {
        line: usize,
        field: String,
        value: f64,
    },
    /// Text no printer may show as it is ([`reprise_recipe::shown::shows_as_is`]):
    /// refused where the file is read, so that none reaches a terminal, a
    /// report or a post, whichever prints it.
    #[error(
        "{}{at} holds U+{code:04X}, a character that could change what a reader sees (a control, bidi or invisible character, a blank that is not a space, or a combining mark): a harness file's text is visible text only",
        file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default()
    )]
    UnsafeText {
        /// The file, where the text came from one.
        file: Option<PathBuf>,
        /// Where in it: `line 3: cpu.model`.
        at: String,
        code: u32,
    },
    #[error("not a bench-env env.json: {0}")]
    BenchEnv(#[source] serde_json::Error),
    #[error("not a `reprise probe --json` snapshot: {0}")]
    Snapshot(#[source] serde_json::Error),
    #[error(
        "neither a `reprise probe --json` snapshot nor a bench-env env.json (no `fingerprint`, `captured_at` or `host` key)"
    )]
    UnknownMachineFile,
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", file.display())]
    Json {
        file: PathBuf,
        source: serde_json::Error,
    },
}

/// A harness file's text, each of its strings visible text only ([`visible_text`]).
fn read(file: &Path) -> Result<String, HarnessError> {
    let text = std::fs::read_to_string(file).map_err(|source| HarnessError::Io {
        file: file.to_path_buf(),
        source,
    })?;
    visible_text(&text, Some(file))?;
    Ok(text)
}

/// Refuses JSON text (one document, or one per line) with a key or string
/// that holds a character [`escaped`](reprise_recipe::shown::escaped) would
/// not show as it is, naming `file` where the text is one's. Text that is
/// not JSON is left to its parser.
fn visible_text(text: &str, file: Option<&Path>) -> Result<(), HarnessError> {
    fn walk(
        value: &serde_json::Value,
        path: &mut String,
        line: usize,
        file: Option<&Path>,
    ) -> Result<(), HarnessError> {
        let refuse =
            |path: &str, s: &str| match s.chars().find(|&c| !reprise_recipe::shown::shows_as_is(c))
            {
                Some(c) => Err(HarnessError::UnsafeText {
                    file: file.map(Path::to_path_buf),
                    at: format!(
                        "line {line}: {}",
                        if path.is_empty() { "the value" } else { path }
                    ),
                    code: c as u32,
                }),
                None => Ok(()),
            };
        match value {
            serde_json::Value::String(s) => refuse(path, s),
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    walk(item, path, line, file)?;
                    path.truncate(len);
                }
                Ok(())
            }
            serde_json::Value::Object(map) => {
                for (key, item) in map {
                    refuse(path, key)?;
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                    walk(item, path, line, file)?;
                    path.truncate(len);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    let mut end = 0;
    while let Some(Ok(value)) = values.next() {
        // The line the value starts on.
        let rest = &text[end..];
        let begin = end + (rest.len() - rest.trim_start().len());
        walk(
            &value,
            &mut String::new(),
            text[..begin].matches('\n').count() + 1,
            file,
        )?;
        end = values.byte_offset();
    }
    Ok(())
}

/// A `reprise probe --json` snapshot, or a bench-env `env.json` read as
/// one (told apart by its `captured_at`/`host` keys).
pub fn parse_machine_file(text: &str) -> Result<Snapshot, HarnessError> {
    visible_text(text, None)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(HarnessError::Snapshot)?;
    if value.get("fingerprint").is_some() {
        return serde_json::from_value(value).map_err(HarnessError::Snapshot);
    }
    if value.get("captured_at").is_some() || value.get("host").is_some() {
        let env: bench_env::BenchEnv =
            serde_json::from_value(value).map_err(HarnessError::BenchEnv)?;
        return Ok(Snapshot {
            fingerprint: env.to_fingerprint(),
            toolchains: env.to_toolchains(),
        });
    }
    Err(HarnessError::UnknownMachineFile)
}

/// The measurements of a results folder: its `per-run.json`, with
/// `parity.json` where there is one.
pub fn read_measurements(dir: &Path) -> Result<Measurements, HarnessError> {
    let mut measurements = per_run::parse(&read(&dir.join(PER_RUN_FILE))?)?;
    measurements.attach_parity(read_parity(dir)?);
    Ok(measurements)
}

/// A results folder's `coldstart.json`, or none where the run timed no boot.
pub fn read_cold_starts(dir: &Path) -> Result<Vec<records::ColdStart>, HarnessError> {
    let file = dir.join(COLDSTART_FILE);
    if !file.exists() {
        return Ok(Vec::new());
    }
    read_json(&file)
}

/// A results folder's `shapes.json`, or none where the run started no lane.
pub fn read_shapes(dir: &Path) -> Result<Vec<records::ShapeSeen>, HarnessError> {
    let file = dir.join(SHAPES_FILE);
    if !file.exists() {
        return Ok(Vec::new());
    }
    read_json(&file)
}

/// A results folder's `parity.json`, or none where the run checked nothing.
pub fn read_parity(dir: &Path) -> Result<Vec<Parity>, HarnessError> {
    let file = dir.join(PARITY_FILE);
    if !file.exists() {
        return Ok(Vec::new());
    }
    read_json(&file)
}

/// A results folder's `env.json` as JSON, or `None` where it has none.
pub fn read_env(dir: &Path) -> Result<Option<serde_json::Value>, HarnessError> {
    let file = dir.join(ENV_FILE);
    if !file.exists() {
        return Ok(None);
    }
    read_json(&file).map(Some)
}

fn read_json<T: serde::de::DeserializeOwned>(file: &Path) -> Result<T, HarnessError> {
    serde_json::from_str(&read(file)?).map_err(|source| HarnessError::Json {
        file: file.to_path_buf(),
        source,
    })
}

/// JSON as the harness writes its arrays and objects: pretty, with a
/// final newline.
pub fn pretty<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Serialising plain data (strings, numbers, maps with string keys) cannot fail.
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
