//! Names that become file names, paths that must stay inside the run's
//! folder, paths requested from a lane's server, and what a spawned process
//! is given: checked in `check`, before a reader is asked to consent, at the
//! value that is wrong. The engine refuses the same at run time; this is
//! where a reader learns it first, with file, line and column.

use std::ops::Range;

use crate::diagnostic::{Problem, shown};
use crate::model::Recipe;
use crate::name::Name;
use crate::spans::{Spans, at, key_at};
use crate::step::Action;

/// The longest name that becomes a file name.
pub(crate) const NAME_MAX: usize = 64;
/// The longest path a recipe may write.
const PATH_MAX: usize = 1024;
/// The longest request path.
const REQUEST_MAX: usize = 8192;

pub(crate) fn check(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    // Names the engine puts into file names: `logs/{step}.log`,
    // `results/{step}.json`, `logs/lane-{lane}.log`, `results/{step}/{lane}/…`,
    // `sources/{source}`, `trees/{tree}`, `results/{tree}.sha256`, the run
    // folder `{post}-{stamp}`.
    file_name(&recipe.post.id, "post id", p);
    for s in &recipe.sources {
        file_name(&s.id, "source id", p);
    }
    for s in &recipe.steps {
        file_name(&s.id, "step id", p);
    }
    for l in &recipe.lanes {
        file_name(&l.name, "lane name", p);
    }
    for w in &recipe.workloads {
        file_name(&w.name, "workload name", p);
    }
    for (i, f) in recipe.files.iter().enumerate() {
        let span = at!(spans, "file", i, "path").unwrap_or_else(|| f.path.span());
        inside(&f.path, span, "file path", "the run's files/ folder", p);
    }
    for (i, step) in recipe.steps.iter().enumerate() {
        check_step(i, step, spans, p);
    }
    for (i, lane) in recipe.lanes.iter().enumerate() {
        let fallback = || lane.name.span();
        if let Some(dir) = &lane.dir {
            let span = at!(spans, "lane", i, "dir").unwrap_or_else(fallback);
            inside(dir, span, "`dir`", "the run's folder", p);
        }
        if let Some(health) = &lane.health {
            let span = at!(spans, "lane", i, "health").unwrap_or_else(fallback);
            request_path(health, span, "`health`", p);
        }
        if let Some(command) = &lane.command {
            let span = at!(spans, "lane", i, "command").unwrap_or_else(fallback);
            argv(command, span, p);
        }
        env(&lane.env, spans, ("lane", i), fallback(), p);
    }
    for (i, t) in recipe.toolchains.iter().enumerate() {
        let span = at!(spans, "toolchain", i, "command").unwrap_or_else(|| t.name.span());
        argv(&t.command, span, p);
    }
    for (i, service) in recipe.services.iter().enumerate() {
        file_name(&service.name, "service name", p);
        let fallback = || service.name.span();
        if let Some(dir) = &service.dir {
            let span = at!(spans, "service", i, "dir").unwrap_or_else(fallback);
            inside(dir, span, "`dir`", "the run's folder", p);
        }
        let span = at!(spans, "service", i, "command").unwrap_or_else(fallback);
        argv(&service.command, span, p);
        env(&service.env, spans, ("service", i), fallback(), p);
    }
    for (i, w) in recipe.workloads.iter().enumerate() {
        for (j, e) in w.endpoints.iter().enumerate() {
            let span =
                at!(spans, "workload", i, "endpoint", j, "path").unwrap_or_else(|| e.name.span());
            request_path(&e.path, span, "endpoint `path`", p);
            if !is_token(&e.method) {
                let span = at!(spans, "workload", i, "endpoint", j, "method")
                    .unwrap_or_else(|| e.name.span());
                p.push(Problem::new(
                    span,
                    format!("`{}` is not an HTTP method", e.method),
                    Some("a method such as GET or POST".into()),
                ));
            }
            for name in e.headers.keys() {
                if !is_token(name) {
                    let span = key_at!(
                        spans,
                        "workload",
                        i,
                        "endpoint",
                        j,
                        "headers",
                        name.as_str()
                    )
                    .unwrap_or_else(|| e.name.span());
                    p.push(Problem::new(
                        span,
                        format!("`{name}` is not an HTTP header name"),
                        Some("letters, digits and -, e.g. Content-Type".into()),
                    ));
                }
            }
        }
        if let Some(people) = &w.people {
            let fallback = || w.name.span();
            if let Some(path) = &people.verify_writes {
                let span =
                    at!(spans, "workload", i, "people", "verify_writes").unwrap_or_else(fallback);
                request_path(path, span, "`verify_writes`", p);
            }
            if let Some(file) = &people.sessions {
                let span = at!(spans, "workload", i, "people", "sessions").unwrap_or_else(fallback);
                inside(file, span, "`sessions`", "the run's folder", p);
            }
        }
    }
}

fn check_step(i: usize, step: &crate::step::Step, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let span = |key: &str| at!(spans, "step", i, key).unwrap_or_else(|| step.id.span());
    match &step.action {
        Action::Clone(clone) => inside(&clone.into, span("into"), "`into`", "sources/", p),
        Action::Bundle(bundle) => {
            tree_name(&bundle.tree, span("tree"), p);
            lockfile_path(&bundle.lockfile, span("lockfile"), p);
        }
        Action::Seed(seed) => {
            inside(
                &seed.database,
                span("database"),
                "`database`",
                "the run's folder",
                p,
            );
        }
        Action::Stage(stage) => {
            inside(
                &stage.database,
                span("database"),
                "`database`",
                "the run's folder",
                p,
            );
            tree_name(&stage.tree, span("tree"), p);
            inside(&stage.to, span("to"), "`to`", "the tree", p);
        }
        _ => {}
    }
    if let Some((tree, expected)) = step.action.tree() {
        tree_name(tree, span("tree"), p);
        if let Some(manifest) = &expected.manifest {
            inside(manifest, span("manifest"), "`manifest`", "the checkout", p);
        }
    }
    let command = step.action.command();
    if let Some(dir) = command.and_then(|c| c.dir) {
        inside(dir, span("dir"), "`dir`", "the run's folder", p);
    }
    if let Action::Build(build) = &step.action {
        for (j, output) in build.outputs.iter().enumerate() {
            let span = at!(spans, "step", i, "outputs", j).unwrap_or_else(|| span("outputs"));
            inside(output, span, "an output", "the step's `dir`", p);
        }
    }
    if let Some(command) = command {
        argv(command.argv, span("command"), p);
    }
    if let Some(vars) = step.action.env() {
        env(vars, spans, ("step", i), step.id.span(), p);
    }
}

/// A name that becomes (part of) a file name: a conservative charset,
/// bounded, never `.`, `..` or hidden, never read as an option.
fn file_name(name: &Name, what: &str, p: &mut Vec<Problem>) {
    if !is_file_name(name) {
        p.push(Problem::new(
            name.span(),
            format!("{what} `{}` cannot be used as a file name", shown(name, 80)),
            Some(format!(
                "1 to {NAME_MAX} ASCII letters, digits, `-`, `_` or `.`, starting with a letter or digit (it names the run's files, e.g. logs/<id>.log)"
            )),
        ));
    }
}

pub(crate) fn is_file_name(name: &str) -> bool {
    name.len() <= NAME_MAX
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A tree is one folder of the run's `trees/`, and names `results/{tree}.sha256`.
fn tree_name(tree: &str, span: Range<usize>, p: &mut Vec<Problem>) {
    if !is_file_name(tree) {
        p.push(Problem::new(
            span,
            format!("tree `{}` cannot be a folder of the run's trees/", shown(tree, 80)),
            Some(format!(
                "a folder name: 1 to {NAME_MAX} ASCII letters, digits, `-`, `_` or `.`, starting with a letter or digit"
            )),
        ));
    }
}

/// Why `path` does not stay inside the folder it is relative to, climbing at
/// most `climb` levels above it on the way.
fn escape(path: &str, climb: usize) -> Option<&'static str> {
    if path.is_empty() {
        return Some("it is empty");
    }
    if path.len() > PATH_MAX {
        return Some("it is too long");
    }
    if path.starts_with('/') {
        return Some("it is absolute");
    }
    if path.contains('\\') {
        return Some("it holds a backslash, which some systems read as a separator");
    }
    if path
        .split('/')
        .next()
        .is_some_and(|first| first.ends_with(':'))
    {
        return Some("it names a drive");
    }
    let mut depth: isize = 0;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if climb == 0 {
                    return Some("it has a `..` component");
                }
                if depth < -(climb as isize) {
                    return Some("its `..` components climb out of the run's folder");
                }
            }
            _ => depth += 1,
        }
    }
    None
}

/// A path relative to a folder of the run that must stay inside it.
fn inside(path: &str, span: Range<usize>, what: &str, base: &str, p: &mut Vec<Problem>) {
    if let Some(why) = escape(path, 0) {
        p.push(Problem::new(
            span,
            format!("{what} `{}` leaves {base}: {why}", shown(path, 80)),
            Some(format!("a relative path inside {base}, without `..`")),
        ));
    }
}

/// A runtime's lockfile, relative to its tree: it may sit beside the tree in
/// the run's `trees/` (`../ruby-bundle/Gemfile.lock`), never further out.
fn lockfile_path(path: &str, span: Range<usize>, p: &mut Vec<Problem>) {
    let why = escape(path, 1).or_else(|| {
        let parts: Vec<&str> = path
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let climbs = parts.iter().take_while(|s| **s == "..").count();
        if parts[climbs..].contains(&"..") {
            Some("a `..` after a folder name")
        } else if climbs > 0 && parts.len() < climbs + 2 {
            Some("it names no tree")
        } else if !path.ends_with(".lock") {
            Some("it does not end in `.lock`")
        } else {
            None
        }
    });
    if let Some(why) = why {
        p.push(Problem::new(
            span,
            format!("lockfile `{}` is not a lockfile in the run's trees/: {why}", shown(path, 80)),
            Some("a path ending in `.lock`, relative to the tree, inside the run's trees/ (e.g. Gemfile.falcon.lock, ../ruby-bundle/Gemfile.lock)".into()),
        ));
    }
}

/// Why `path` is not a path on the lane's own server: the engine builds
/// `http://127.0.0.1:{port}{path}`, so anything but an absolute path could
/// name another host (`@host:port/`, `//host/`) or split the request line.
///
/// A path may start with a `{placeholder}` filled from the signed-in page
/// (`{avatar}`): what fills it is checked when it is filled, at run time.
pub fn not_a_request_path(path: &str) -> Option<&'static str> {
    let placeholder = path.strip_prefix('{').and_then(|rest| rest.split_once('}'));
    if let Some((name, _)) = placeholder
        && (name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        return Some("`{…}` at the start must name a placeholder, e.g. `{avatar}`");
    }
    if placeholder.is_none() && !path.starts_with('/') {
        Some("it must start with `/`")
    } else if path.starts_with("//") {
        Some("`//` at the start would name another host")
    } else if path.contains('\\') {
        Some("it holds a backslash, which URLs read as `/`")
    } else if path.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("it holds a space, a line break or a control character")
    } else if path.len() > REQUEST_MAX {
        Some("it is too long")
    } else {
        None
    }
}

fn request_path(path: &str, span: Range<usize>, what: &str, p: &mut Vec<Problem>) {
    if let Some(why) = not_a_request_path(path) {
        p.push(Problem::new(
            span,
            format!("{what} `{}` is not a path on the lane's server: {why}", shown(path, 80)),
            Some("a path such as `/rooms/1?before=5`: `/` first, no `//` at the start, no spaces, backslashes or control characters".into()),
        ));
    }
}

/// An argument vector: a program first.
fn argv(command: &[String], span: Range<usize>, p: &mut Vec<Problem>) {
    if command
        .first()
        .is_some_and(|program| program.trim().is_empty())
    {
        p.push(Problem::new(
            span,
            "the command's program is empty".into(),
            Some("a program name first, e.g. [\"ruby\", \"bench.rb\"]".into()),
        ));
    }
}

/// Environment variable names a process can be given: those of the
/// `[[owner]]` at `index` (a lane, a step), each a shell variable's name, so
/// that the plan's `NAME=value` reads as exactly one assignment.
fn env(
    vars: &std::collections::BTreeMap<String, String>,
    spans: &Spans<'_>,
    (owner, index): (&str, usize),
    fallback: Range<usize>,
    p: &mut Vec<Problem>,
) {
    for key in vars.keys() {
        if !crate::shown::is_shell_name(key) {
            p.push(Problem::new(
                key_at!(spans, owner, index, "env", key.as_str())
                    .unwrap_or_else(|| fallback.clone()),
                format!(
                    "`{}` cannot be an environment variable's name",
                    shown(key, 80)
                ),
                Some(
                    "a shell variable's name: letters, digits and `_`, not starting with a digit, e.g. RAILS_ENV"
                        .into(),
                ),
            ));
        }
    }
}

/// An HTTP token (RFC 9110): a method or a header name.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 256
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_conservative() {
        for ok in ["serve", "bundle-ruby", "ruby_3.4", "a", "0day"] {
            assert!(is_file_name(ok), "{ok}");
        }
        let long = "a".repeat(NAME_MAX + 1);
        for bad in [
            "", ".", "..", ".hidden", "-rf", "a/b", "a b", "é", "a\\b", &long,
        ] {
            assert!(!is_file_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn run_paths_stay_inside() {
        for ok in [
            "files/app",
            "served/ruby/storage/development.sqlite3",
            "./a",
            "a//b",
        ] {
            assert_eq!(escape(ok, 0), None, "{ok}");
        }
        for bad in ["", "/etc", "../x", "a/../../x", "a/..", "C:/x", "a\\..\\x"] {
            assert!(escape(bad, 0).is_some(), "{bad:?}");
        }
        assert_eq!(escape("../other/Gemfile.lock", 1), None);
        assert!(escape("../../Gemfile.lock", 1).is_some());
    }

    #[test]
    fn request_paths_cannot_name_another_host() {
        for ok in [
            "/",
            "/rooms/1?before=5",
            "/@evil.example:80/",
            "/users/{user}/avatar",
            "{avatar}",
            "{first}/messages",
        ] {
            assert_eq!(not_a_request_path(ok), None, "{ok}");
        }
        for bad in [
            "@evil.example:80/",
            "//evil.example/",
            "/\\evil.example/",
            "rooms",
            "",
            "/a b",
            "/a\r\nHost: x",
            "{@evil}/",
            "{}x",
            "{a} b",
        ] {
            assert!(not_a_request_path(bad).is_some(), "{bad:?}");
        }
    }
}
