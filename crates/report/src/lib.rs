//! Reports of a reproduction: what the post claimed, what this machine
//! measured, the verdicts, and an environment appendix enough for the next
//! reader to reproduce the reproduction.
//!
//! A [`Report`] gathers a recipe's post, the [`Measurements`], the
//! [`Judgement`] and an [`Environment`]; exporters behind one [`Exporter`]
//! trait render it as GitHub-flavoured Markdown, a self-contained HTML page
//! with inline SVG charts, or JSON with everything. The Markdown ends with
//! a [`ResultBlock`]: the run's result as fenced JSON of a versioned schema,
//! which `reprise community` reads back from shared posts.
//!
//! Rendering only: storing reports is `reprise-history`'s, posting them
//! `reprise-share`'s, judging a run `reprise-session`'s, and the harness's
//! own files `reprise-harness-files`'s. This crate reads no files and talks to no
//! one.
//!
//! ```
//! use reprise_report::{Environment, Exporter, Format, Report, RunInfo};
//! use reprise_verdict::{Judgement, MachineMatch, Measurements, Settings};
//!
//! let judgement = Judgement {
//!     recipe: "hello".into(),
//!     machine: MachineMatch::Matches,
//!     settings: Settings::default(),
//!     cells: vec![],
//!     figures: vec![],
//!     verdicts: vec![],
//!     deviations: vec![],
//!     sequential: None,
//! };
//! let report = Report {
//!     run: RunInfo { id: "r1".into(), recipe: "hello".into(), title: "Hello".into(), ..RunInfo::default() },
//!     judgement,
//!     measurements: Measurements::default(),
//!     environment: Environment::default(),
//!     people: vec![],
//! };
//! let markdown = String::from_utf8(Format::Markdown.exporter().render(&report).unwrap()).unwrap();
//! assert!(markdown.starts_with("# Reprise: Hello"));
//! ```

mod cards;
mod html;
mod markdown;
mod model;
mod result_block;
mod svg;

pub use cards::{ClaimCard, MachineRow, NotMeasuredClaims, machine_rows, not_measured_claims};
pub use html::HtmlExporter;
pub use markdown::MarkdownExporter;
pub use model::*;
pub use result_block::{
    BlockCell, BlockClaim, BlockDeviation, Estimate, FENCE_TAG, MachineSummary, ResultBlock,
    SCHEMA_VERSION,
};

/// Why a report could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("unknown format `{0}` (expected md, html or json)")]
    UnknownFormat(String),
}

/// Renders a report in one format; JSON, Markdown and HTML are siblings.
pub trait Exporter {
    /// The file extension, without a dot.
    fn extension(&self) -> &'static str;
    fn render(&self, report: &Report) -> Result<Vec<u8>, ReportError>;
}

/// JSON with everything: the run, measurements, judgement and environment;
/// each verdict's why as data (`why`, `notes`) and, for a reader of the
/// file, in words (`reasoning`, as the other formats say it).
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn extension(&self) -> &'static str {
        "json"
    }

    fn render(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        let mut value = serde_json::to_value(report)?;
        if let Some(verdicts) = value["judgement"]["verdicts"].as_array_mut() {
            for (written, verdict) in verdicts.iter_mut().zip(&report.judgement.verdicts) {
                if let Some(fields) = written.as_object_mut() {
                    fields.insert("reasoning".into(), verdict.reasoning().into());
                }
            }
        }
        let mut out = serde_json::to_vec_pretty(&value)?;
        out.push(b'\n');
        Ok(out)
    }
}

/// The formats a report renders in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
    Json,
}

impl Format {
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Markdown => Box::new(MarkdownExporter),
            Format::Html => Box::new(HtmlExporter),
            Format::Json => Box::new(JsonExporter),
        }
    }
}

impl std::str::FromStr for Format {
    type Err = ReportError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "md" | "markdown" => Ok(Format::Markdown),
            "html" => Ok(Format::Html),
            "json" => Ok(Format::Json),
            other => Err(ReportError::UnknownFormat(other.to_string())),
        }
    }
}
