//! Substitutions: what a machine forces a published recipe to do otherwise,
//! written in a file of their own, each with why (`reprise run RECIPE
//! --substitutions FILE`).
//!
//! The file holds the recipe's own tables, each with a `because`: a
//! `[[source]]`, `[[toolchain]]`, `[[file]]`, `[[service]]`, `[[step]]`,
//! `[[lane]]` or `[[workload]]` replaces the recipe's entry of the same id
//! (name, path), whole, or is added when the recipe has none; a `[[remove]]`
//! names one entry to leave out (not a lane: the post's figures name it;
//! `--lane` chooses the lanes that run). Several files apply one after
//! another: a machine's own beside a recipe's. What the post published (its machine,
//! figures and claims) cannot be substituted. The published file stays the
//! one a run records and digests; each substitution is shown before the run
//! and recorded as a deviation from the post.
//!
//! ```
//! let recipe = r#"
//! [post]
//! id = "hello"
//! title = "Hello"
//! author = "A. Writer"
//! date = "2026"
//! summary = "A hello-world ceiling."
//!
//! [[lane]]
//! name = "puma"
//! command = ["puma", "hello.ru"]
//! why = "The server under test."
//! "#;
//! let substitutions = r#"
//! [[lane]]
//! because = "This machine's Puma is Debian's, started by its own path."
//! name = "puma"
//! command = ["/usr/bin/puma", "hello.ru"]
//! why = "The server under test."
//! "#;
//! let (recipe, done) = reprise_recipe::substitute(
//!     "recipes/hello.toml".as_ref(), recipe,
//!     &[("hello.substitutions.toml".as_ref(), substitutions)],
//! ).unwrap();
//! assert_eq!(recipe.lanes[0].command.as_ref().unwrap()[0], "/usr/bin/puma");
//! assert_eq!(done[0].to_string(), "lane `puma` replaced");
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::de::{DeTable, DeValue};

use crate::diagnostic::{self, Problem};
use crate::model::{FileSpec, Lane, Service, Source, Toolchain, Workload};
use crate::{Name, Recipe, RecipeError, did_you_mean, step};

/// The tables a substitution may replace, add or remove, in the order they
/// are applied, each with the key that names its entries.
const TABLES: [(&str, &str); 7] = [
    ("source", "id"),
    ("toolchain", "name"),
    ("file", "path"),
    ("service", "name"),
    ("step", "id"),
    ("lane", "name"),
    ("workload", "name"),
];

/// One entry of the recipe the substitutions changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Substitution {
    /// The recipe's table: `step`, `lane`, …
    pub table: &'static str,
    /// The entry's id (name, path).
    pub id: String,
    pub change: Change,
    /// Why this machine needs it, as the file says.
    pub because: String,
    /// The substitutions file that says it.
    pub file: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Replaced,
    Added,
    Removed,
}

impl fmt::Display for Substitution {
    /// What changed, without why: "step `seed` replaced".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let change = match self.change {
            Change::Replaced => "replaced",
            Change::Added => "added",
            Change::Removed => "left out",
        };
        write!(f, "{} `{}` {change}", self.table, self.id)
    }
}

impl Substitution {
    /// The lane it bears on, when it is one lane's (every lane otherwise).
    pub fn lane(&self) -> Option<&str> {
        (self.table == "lane").then_some(self.id.as_str())
    }
}

/// The file's shape: the recipe's own entry types, so a key that is not a
/// recipe's is an error at its place in this file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read for their checks; the merge takes the tables as written
struct RawSubstitutions {
    #[serde(default)]
    source: Vec<Source>,
    #[serde(default)]
    toolchain: Vec<Toolchain>,
    #[serde(default)]
    file: Vec<FileSpec>,
    #[serde(default)]
    service: Vec<Service>,
    #[serde(default)]
    step: Vec<step::RawStep>,
    #[serde(default)]
    lane: Vec<Lane>,
    #[serde(default)]
    workload: Vec<Workload>,
    #[serde(default)]
    remove: Vec<Removal>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Removal {
    because: toml::Spanned<String>,
    source: Option<Name>,
    toolchain: Option<Name>,
    file: Option<Name>,
    service: Option<Name>,
    step: Option<Name>,
    lane: Option<Name>,
    workload: Option<Name>,
}

impl Removal {
    fn target(&self) -> Vec<(&'static str, &Name)> {
        [
            ("source", &self.source),
            ("toolchain", &self.toolchain),
            ("file", &self.file),
            ("service", &self.service),
            ("step", &self.step),
            ("lane", &self.lane),
            ("workload", &self.workload),
        ]
        .into_iter()
        .filter_map(|(table, name)| name.as_ref().map(|n| (table, n)))
        .collect()
    }
}

/// The published recipe with the substitutions of each file applied, one
/// file after another, and what each entry changed. Errors in a file are
/// located in it; a recipe the substitutions make invalid is said with the
/// line of the recipe as substituted.
pub fn substitute(
    recipe_file: &Path,
    recipe_text: &str,
    files: &[(&Path, &str)],
) -> Result<(Recipe, Vec<Substitution>), RecipeError> {
    // Parsing the recipe first: one that does not load has its own errors.
    crate::parse(recipe_file, recipe_text)?;
    let mut published: toml::Table =
        toml::from_str(recipe_text).expect("a recipe that parsed is a TOML table");
    let mut done = Vec::new();
    for (file, text) in files {
        let located = |problems: Vec<Problem>| crate::invalid(file, text, problems);
        if let Some(problem) = crate::too_large(text) {
            return Err(located(vec![problem]));
        }
        let (entries, removals) = read(text).map_err(located)?;
        apply(&mut published, file, entries, &removals, &mut done).map_err(located)?;
    }
    let merged = toml::to_string(&published).expect("a TOML table serializes");
    let named: Vec<String> = files.iter().map(|(f, _)| f.display().to_string()).collect();
    let recipe = crate::parse(recipe_file, &merged).map_err(|e| match e {
        RecipeError::Invalid(diagnostics) => RecipeError::Invalid(
            diagnostics
                .into_iter()
                .map(|mut d| {
                    d.file = PathBuf::from(format!(
                        "{} as {} substitute{} it",
                        recipe_file.display(),
                        named.join(" and "),
                        if named.len() == 1 { "s" } else { "" }
                    ));
                    d
                })
                .collect(),
        ),
        e => e,
    })?;
    Ok((recipe, done))
}

/// One file's entries and removals applied to the recipe's tables, each
/// recorded in `done`; or where the file names what the recipe lacks.
fn apply(
    published: &mut toml::Table,
    file: &Path,
    entries: Vec<(&'static str, String, toml::Table)>,
    removals: &[Removal],
    done: &mut Vec<Substitution>,
) -> Result<(), Vec<Problem>> {
    for (table, key) in TABLES {
        for (_, because, entry) in entries.iter().filter(|e| e.0 == table) {
            let id = entry
                .get(key)
                .and_then(toml::Value::as_str)
                .unwrap_or_default()
                .to_string();
            let list = published
                .entry(table)
                .or_insert_with(|| toml::Value::Array(Vec::new()))
                .as_array_mut()
                .expect("a recipe's tables are arrays of tables");
            let at = list
                .iter()
                .position(|e| e.get(key).and_then(toml::Value::as_str) == Some(id.as_str()));
            let change = match at {
                Some(i) => {
                    list[i] = toml::Value::Table(entry.clone());
                    Change::Replaced
                }
                None => {
                    list.push(toml::Value::Table(entry.clone()));
                    Change::Added
                }
            };
            done.push(Substitution {
                table,
                id,
                change,
                because: because.clone(),
                file: file.to_path_buf(),
            });
        }
    }
    let mut problems = Vec::new();
    for removal in removals {
        let (table, name) = removal.target()[0];
        let key = TABLES.iter().find(|t| t.0 == table).map(|t| t.1).unwrap();
        let list = published.get_mut(table).and_then(toml::Value::as_array_mut);
        let ids: Vec<String> = list
            .as_ref()
            .map(|l| {
                l.iter()
                    .filter_map(|e| e.get(key).and_then(toml::Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        match (list, ids.iter().position(|id| id == name.as_str())) {
            (Some(list), Some(i)) => {
                list.remove(i);
                done.push(Substitution {
                    table,
                    id: name.to_string(),
                    change: Change::Removed,
                    because: removal.because.get_ref().clone(),
                    file: file.to_path_buf(),
                });
            }
            _ => problems.push(
                Problem::new(
                    name.span(),
                    format!("the recipe has no {table} `{name}` to leave out"),
                    Some(format!(
                        "the {key} of one of the recipe's [[{table}]] tables"
                    )),
                )
                .with_help(
                    did_you_mean(name.as_str(), ids.iter().map(String::as_str))
                        .map(|d| format!("did you mean `{d}`?")),
                ),
            ),
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}

/// Each entry as written (its table, its place in it, its `because`, and the
/// table without it), and the removals; or where the file is wrong.
#[allow(clippy::type_complexity)]
fn read(
    text: &str,
) -> Result<(Vec<(&'static str, String, toml::Table)>, Vec<Removal>), Vec<Problem>> {
    let mut root = DeTable::parse(text).map_err(|e| vec![diagnostic::from_toml(&e, text)])?;
    let mut problems = crate::text::check(&root, text);
    // Every entry says why; `because` is taken out before the entry is read
    // as the recipe's own table would be.
    let mut reasons = Vec::new();
    for (table, _) in TABLES {
        let Some(value) = root.get_mut().get_mut(table) else {
            continue;
        };
        let span = value.span();
        let DeValue::Array(entries) = value.get_mut() else {
            problems.push(Problem::new(
                span,
                format!("`{table}` is not a list of tables"),
                Some(format!("[[{table}]] tables, as in a recipe")),
            ));
            continue;
        };
        for (index, entry) in entries.iter_mut().enumerate() {
            let span = entry.span();
            let DeValue::Table(entry) = entry.get_mut() else {
                continue;
            };
            match entry.remove("because").map(|b| b.into_inner()) {
                Some(DeValue::String(because)) if !because.trim().is_empty() => {
                    reasons.push((table, index, because.to_string()))
                }
                _ => problems.push(Problem::new(
                    span.start..span.start,
                    format!("this [[{table}]] does not say why this machine needs it"),
                    Some("`because = \"…\"`: why the published entry cannot be run here".into()),
                )),
            }
        }
    }
    let raw = RawSubstitutions::deserialize(toml::de::Deserializer::from(root));
    let raw = match raw {
        Ok(raw) => raw,
        Err(e) => {
            problems.push(diagnostic::from_toml(&e, text));
            return Err(problems);
        }
    };
    for step in raw.step {
        if let Err(p) = step.into_step() {
            problems.extend(p);
        }
    }
    for removal in &raw.remove {
        if let Some(lane) = &removal.lane {
            problems.push(
                Problem::new(
                    lane.span(),
                    format!("lane `{lane}` cannot be left out: the post's figures name it"),
                    Some("a source, toolchain, file, service, step or workload".into()),
                )
                .with_help(Some(
                    "to run without it, name the lanes that run: `reprise run RECIPE --lane L`"
                        .into(),
                )),
            );
        } else if removal.target().len() != 1 {
            let at = removal
                .target()
                .get(1)
                .map(|(_, n)| n.span())
                .unwrap_or(removal.because.span());
            problems.push(Problem::new(
                at,
                "a [[remove]] leaves out one entry".into(),
                Some("one of `source`, `toolchain`, `file`, `service`, `step`, `workload`, and `because`".into()),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // The same text as owned tables, entry for entry.
    let owned: toml::Table = toml::from_str(text).expect("a file that parsed is a TOML table");
    let mut entries = Vec::new();
    for (table, index, because) in reasons {
        let mut entry = owned[table].as_array().expect("checked above")[index]
            .as_table()
            .expect("checked above")
            .clone();
        entry.remove("because");
        entries.push((table, because, entry));
    }
    Ok((entries, raw.remove))
}
