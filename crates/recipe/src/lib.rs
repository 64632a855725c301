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

mod catalog;
mod checksum;
mod claim;
mod diagnostic;
mod duration;
mod model;
mod name;
pub mod shown;
mod step;
mod validate;
mod version;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use catalog::{Catalog, CatalogError};
pub use checksum::{ChecksumStatus, Checksums, sha256_hex};
pub use claim::{Claim, ClaimKind, ClaimShape};
pub use diagnostic::{Diagnostic, did_you_mean};
pub use duration::Span;
pub use model::*;
pub use name::Name;
pub use step::{Action, ExpectedTree, SignInFlow, Step, StepKind};
pub use version::{Version, VersionReq};

/// Why a recipe could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RecipeError {
    #[error("{}: {source}", file.display())]
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
}

/// Reads and validates a recipe file.
pub fn load(file: &Path) -> Result<Recipe, RecipeError> {
    let bytes = std::fs::read(file).map_err(|source| RecipeError::Io {
        file: file.to_path_buf(),
        source,
    })?;
    parse_bytes(file, &bytes)
}

/// Validates a recipe from the bytes read from `file`: for a caller that
/// also digests those same bytes, so what is checked is what runs.
pub fn parse_bytes(file: &Path, bytes: &[u8]) -> Result<Recipe, RecipeError> {
    let text = std::str::from_utf8(bytes).map_err(|e| RecipeError::Io {
        file: file.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    parse(file, text)
}

/// Parses and validates recipe text; `file` names it in errors and its stem
/// must equal the post id.
pub fn parse(file: &Path, text: &str) -> Result<Recipe, RecipeError> {
    let locate = |problems: Vec<diagnostic::Problem>| {
        RecipeError::Invalid(
            problems
                .into_iter()
                .map(|p| Diagnostic::locate(file, text, p))
                .collect(),
        )
    };
    let raw: RawRecipe =
        toml::from_str(text).map_err(|e| locate(vec![diagnostic::from_toml(&e, text)]))?;
    let mut problems = Vec::new();
    let steps = raw
        .steps
        .into_iter()
        .filter_map(|s| s.into_step().map_err(|p| problems.extend(p)).ok())
        .collect();
    let claims = raw
        .claims
        .into_iter()
        .filter_map(|c| c.into_claim().map_err(|p| problems.extend(p)).ok())
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
    };
    if problems.is_empty() {
        problems = validate::validate(&recipe, file);
    }
    if problems.is_empty() {
        Ok(recipe)
    } else {
        problems.sort_by_key(|p| p.span.start);
        Err(locate(problems))
    }
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
