//! Recipes: what a published benchmark did and claimed, in a file a person
//! can read and the program can check.
//!
//! A recipe names the post, the sources pinned by revision, the toolchains and
//! their versions, the reference machine, the steps (each with the post's own
//! reason), the lanes and workloads, the published figures with the sentence
//! each came from, and the claims built on them. Errors point at the text:
//! file, line, column, what was found and what was expected.
//!
//! The schema and its checks only, the crate every other one builds on: it
//! runs nothing, reads no machine and knows no result files.
//!
//! ```
//! let text = r#"
//! [post]
//! id = "hello"
//! title = "Hello"
//! author = "A. Writer"
//! date = "2026-10-16"
//! summary = "A hello-world ceiling."
//!
//! [[lane]]
//! name = "puma"
//! command = ["puma", "hello.ru"]
//! why = "The server under test."
//!
//! [[figure]]
//! id = "puma-hello"
//! lane = "puma"
//! metric = "req_per_s"
//! value = 54000
//! approx = true
//! quote = "A hello-world app under Puma on the same box serves about 54,000 requests a second."
//! "#;
//! let recipe = reprise_recipe::parse("recipes/hello.toml".as_ref(), text).unwrap();
//! assert_eq!(recipe.figures[0].value, Some(54000.0));
//!
//! let err = reprise_recipe::parse("recipes/hello.toml".as_ref(), &text.replace("metric", "metrc")).unwrap_err();
//! assert!(err.to_string().contains("did you mean `metric`?"));
//! ```

mod bounds;
mod catalog;
mod checksum;
mod claim;
mod count;
mod diagnostic;
mod duration;
mod model;
mod name;
mod paths;
pub mod reading;
mod same_cell;
pub mod shown;
mod spans;
mod step;
mod substitute;
mod text;
mod validate;
mod version;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use catalog::{Catalog, CatalogError};
pub use checksum::{ChecksumStatus, Checksums, sha256_hex};
pub use claim::{Claim, ClaimKind, ClaimShape};
pub use count::Count;
pub use diagnostic::{Diagnostic, did_you_mean};
pub use duration::{Span, SpanError};
pub use model::*;
pub use name::Name;
pub use paths::not_a_request_path;
pub use step::{
    Action, BuildStep, BundleStep, CableStep, CheckStep, CloneStep, CommandStep, DigestStep,
    EmitStep, ExpectedTree, LoadStep, SeedStep, ServeStep, SignInFlow, SignInStep, StageStep, Step,
    StepCommand, StepKind,
};
pub use substitute::{Change, Substitution, substitute};
pub use version::{Version, VersionReq};

/// Why a recipe could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RecipeError {
    #[error("{}: {source}", diagnostic::shown(&file.display().to_string(), 400))]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{}", Invalid(.0))]
    Invalid(Vec<Diagnostic>),
}

struct Invalid<'a>(&'a [Diagnostic]);

impl fmt::Display for Invalid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {d}")?;
        }
        Ok(())
    }
}

impl RecipeError {
    /// The located errors, when the recipe was read but is not valid.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            RecipeError::Invalid(d) => d,
            RecipeError::Io { .. } => &[],
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    post: Post,
    #[serde(default, rename = "source")]
    sources: Vec<Source>,
    #[serde(default, rename = "toolchain")]
    toolchains: Vec<Toolchain>,
    machine: Option<Machine>,
    #[serde(default, rename = "step")]
    steps: Vec<step::RawStep>,
    #[serde(default, rename = "lane")]
    lanes: Vec<Lane>,
    #[serde(default, rename = "workload")]
    workloads: Vec<Workload>,
    #[serde(default, rename = "figure")]
    figures: Vec<Figure>,
    #[serde(default, rename = "claim")]
    claims: Vec<claim::RawClaim>,
    #[serde(default, rename = "file")]
    files: Vec<FileSpec>,
    #[serde(default, rename = "service")]
    services: Vec<Service>,
}

/// The largest recipe file read: ten times the largest recipe written, and
/// small enough that checking any file of this size takes well under a second.
pub const MAX_RECIPE_BYTES: usize = 1 << 20;

/// How many errors one file reports; the rest are counted.
pub(crate) const MAX_DIAGNOSTICS: usize = 50;

/// Reads and validates a recipe file.
pub fn load(file: &Path) -> Result<Recipe, RecipeError> {
    let bytes = std::fs::read(file).map_err(|source| RecipeError::Io {
        file: file.to_path_buf(),
        source,
    })?;
    parse_bytes(file, &bytes)
}

/// Parses and validates the bytes of a recipe file (for a caller that also
/// digests those same bytes, so what is checked is what runs): bytes that
/// are not UTF-8 are an error at the line and column of the first bad byte.
pub fn parse_bytes(file: &Path, bytes: &[u8]) -> Result<Recipe, RecipeError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(file, text),
        Err(e) => {
            // The text up to the bad byte is the file's own, so offsets agree.
            let text = String::from_utf8_lossy(bytes);
            let at = e.valid_up_to();
            let problem = diagnostic::Problem::new(
                at..at + 1,
                format!(
                    "the file is not UTF-8 text: byte 0x{:02x} is not valid UTF-8 here",
                    bytes[at]
                ),
                Some("a recipe saved as UTF-8".into()),
            );
            Err(RecipeError::Invalid(vec![Diagnostic::locate(
                file, &text, problem,
            )]))
        }
    }
}

/// Parses and validates recipe text; `file` names it in errors and its stem
/// must equal the post id.
pub fn parse(file: &Path, text: &str) -> Result<Recipe, RecipeError> {
    parse_problems(file, text).map_err(|problems| invalid(file, text, problems))
}

/// The problems of `file`'s `text`, each placed at its line and column.
pub(crate) fn invalid(file: &Path, text: &str, problems: Vec<diagnostic::Problem>) -> RecipeError {
    let lines = diagnostic::Lines::new(text);
    RecipeError::Invalid(
        problems
            .into_iter()
            .map(|p| Diagnostic::place(file, &lines, p))
            .collect(),
    )
}

/// A text larger than a recipe may be, said at its last allowed byte.
pub(crate) fn too_large(text: &str) -> Option<diagnostic::Problem> {
    if text.len() <= MAX_RECIPE_BYTES {
        return None;
    }
    let at = (0..=MAX_RECIPE_BYTES)
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    Some(diagnostic::Problem::new(
        at..at,
        format!(
            "the file is {} bytes, larger than a recipe may be",
            text.len()
        ),
        Some(format!("at most {MAX_RECIPE_BYTES} bytes")),
    ))
}

/// The recipe, or its problems in the order they are in the file (the first
/// [`MAX_DIAGNOSTICS`], then a count of the rest).
fn parse_problems(file: &Path, text: &str) -> Result<Recipe, Vec<diagnostic::Problem>> {
    if let Some(problem) = too_large(text) {
        return Err(vec![problem]);
    }
    let table =
        toml::de::DeTable::parse(text).map_err(|e| vec![diagnostic::from_toml(&e, text)])?;
    // Every key and string, whatever table it is in: no control characters.
    let mut problems = text::check(&table, text);
    let spans = spans::Spans::new(table.clone());
    let raw = RawRecipe::deserialize(toml::de::Deserializer::from(table));
    let raw = match raw {
        Ok(raw) => raw,
        Err(e) => {
            problems.push(diagnostic::from_toml(&e, text));
            return Err(ordered(problems));
        }
    };
    let mut converted = Vec::new();
    let steps = raw
        .steps
        .into_iter()
        .filter_map(|s| s.into_step().map_err(|p| converted.extend(p)).ok())
        .collect();
    let claims = raw
        .claims
        .into_iter()
        .filter_map(|c| c.into_claim().map_err(|p| converted.extend(p)).ok())
        .collect();
    let recipe = Recipe {
        file: file.to_path_buf(),
        post: raw.post,
        sources: raw.sources,
        toolchains: raw.toolchains,
        machine: raw.machine,
        steps,
        lanes: raw.lanes,
        workloads: raw.workloads,
        figures: raw.figures,
        claims,
        files: raw.files,
        services: raw.services,
    };
    // The whole-recipe checks index steps and claims as written, so they
    // run only when every one of them was read.
    if converted.is_empty() {
        problems.extend(validate::validate(&recipe, file, &spans));
    }
    problems.extend(converted);
    if problems.is_empty() {
        Ok(recipe)
    } else {
        Err(ordered(problems))
    }
}

/// Problems in file order, each once, at most [`MAX_DIAGNOSTICS`] and a count
/// of the rest.
fn ordered(mut problems: Vec<diagnostic::Problem>) -> Vec<diagnostic::Problem> {
    problems.sort_by_key(|p| (p.span.start, p.span.end));
    problems.dedup_by(|a, b| a.span == b.span && a.message == b.message);
    if problems.len() > MAX_DIAGNOSTICS {
        let more = problems.len() - MAX_DIAGNOSTICS;
        problems.truncate(MAX_DIAGNOSTICS + 1);
        let last = &mut problems[MAX_DIAGNOSTICS];
        *last = diagnostic::Problem::new(
            last.span.clone(),
            format!("{more} more errors from here on are not shown"),
            None,
        );
    }
    problems
}

/// Types that serialise as a plain string (an identifier, a duration, a
/// version requirement) are strings to TypeScript too.
macro_rules! typescript_string {
    ($($t:ty),*) => {$(
        impl ts_rs::TS for $t {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &ts_rs::Config) -> String {
                "string".into()
            }
            fn inline(cfg: &ts_rs::Config) -> String {
                <Self as ts_rs::TS>::name(cfg)
            }
        }
    )*};
}

typescript_string!(Name, Span, VersionReq);
