//! Checks that need the whole recipe: unique ids, references that resolve,
//! a step graph without cycles, figures and claims that agree.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use crate::claim::ClaimShape;
use crate::diagnostic::{Problem, did_you_mean};
use crate::model::{Metric, Placement, Published, Recipe};
use crate::name::Name;
use crate::spans::{Spans, at};
use crate::step::Action;

/// How far a published ratio may stray from its own figures before we call
/// it a transcription error (the posts round ratios to two figures).
const RATIO_ROUNDING: f64 = 0.05;

pub(crate) fn validate(recipe: &Recipe, file: &Path, spans: &Spans<'_>) -> Vec<Problem> {
    let mut p = Vec::new();
    if !crate::bounds::within_counts(recipe, spans, &mut p) {
        return p;
    }
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if !stem.is_empty() && recipe.post.id != stem {
        p.push(Problem::new(
            recipe.post.id.span(),
            format!("post id `{}` differs from the file name", recipe.post.id),
            Some(format!("`{stem}`, the file's name without .toml")),
        ));
    }
    check_date(recipe, spans, &mut p);
    check_post_url(recipe, spans, &mut p);
    unique(recipe.sources.iter().map(|s| &s.id), "source", &mut p);
    unique(
        recipe.toolchains.iter().map(|t| &t.name),
        "toolchain",
        &mut p,
    );
    unique(recipe.steps.iter().map(|s| &s.id), "step", &mut p);
    unique(recipe.lanes.iter().map(|l| &l.name), "lane", &mut p);
    unique(recipe.workloads.iter().map(|w| &w.name), "workload", &mut p);
    unique(recipe.figures.iter().map(|f| &f.id), "figure", &mut p);
    unique(recipe.claims.iter().map(|c| &c.id), "claim", &mut p);
    for w in &recipe.workloads {
        unique(w.endpoints.iter().map(|e| &e.name), "endpoint", &mut p);
    }
    unique(recipe.files.iter().map(|f| &f.path), "file", &mut p);
    crate::paths::check(recipe, spans, &mut p);
    crate::bounds::check(recipe, spans, &mut p);
    check_sources(recipe, &mut p);
    check_toolchains(recipe, spans, &mut p);
    check_services(recipe, spans, &mut p);
    check_lanes(recipe, spans, &mut p);
    check_campfire_runtimes(recipe, spans, &mut p);
    check_workloads(recipe, spans, &mut p);
    check_steps(recipe, spans, &mut p);
    check_figures(recipe, spans, &mut p);
    check_claims(recipe, spans, &mut p);
    crate::same_cell::check(recipe, &mut p);
    p
}

fn unique<'a>(names: impl Iterator<Item = &'a Name>, what: &str, p: &mut Vec<Problem>) {
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(name.as_str()) {
            p.push(Problem::new(
                name.span(),
                format!("duplicate {what} `{name}`"),
                Some(format!("a {what} name used once")),
            ));
        }
    }
}

/// An error for a reference that names nothing, with the closest name.
fn resolve<'a>(
    name: &Name,
    what: &str,
    known: impl Iterator<Item = &'a str> + Clone,
    p: &mut Vec<Problem>,
) -> bool {
    if known.clone().any(|k| k == name.as_str()) {
        return true;
    }
    // Past the errors a reader is shown, a suggestion (an edit distance to
    // every name) is work for nothing: a hostile recipe can have thousands.
    if p.len() >= crate::MAX_DIAGNOSTICS {
        p.push(Problem::new(
            name.span(),
            format!("no {what} named `{name}`"),
            None,
        ));
        return false;
    }
    let mut all: Vec<&str> = known.clone().collect();
    let help = did_you_mean(name, all.iter().copied()).map(|m| format!("did you mean `{m}`?"));
    all.sort_unstable();
    let expected = if all.is_empty() {
        format!("a {what}, but the recipe declares none")
    } else {
        format!("one of the recipe's {what}s: {}", all.join(", "))
    };
    p.push(
        Problem::new(
            name.span(),
            format!("no {what} named `{name}`"),
            Some(expected),
        )
        .with_help(help),
    );
    false
}

fn check_date(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let date = &recipe.post.date;
    let parts: Vec<&str> = date.split('-').collect();
    let ok = !parts.is_empty()
        && parts.len() <= 3
        && parts[0].len() == 4
        && parts
            .iter()
            .all(|x| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit()))
        && parts
            .get(1)
            .is_none_or(|m| (1..=12).contains(&m.parse::<u32>().unwrap_or(0)))
        && parts
            .get(2)
            .is_none_or(|d| (1..=31).contains(&d.parse::<u32>().unwrap_or(0)));
    if !ok {
        p.push(Problem::new(
            at!(spans, "post", "date").unwrap_or_else(|| recipe.post.id.span()),
            format!("post date `{date}` is not a date"),
            Some("YYYY-MM-DD, YYYY-MM or YYYY".into()),
        ));
    }
}

/// The post's link is opened by the app and written into the report as a
/// link: a web page's address, never a `javascript:` or `data:` URL.
fn check_post_url(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let Some(url) = &recipe.post.url else { return };
    if !is_web_url(url) {
        p.push(Problem::new(
            at!(spans, "post", "url").unwrap_or_else(|| recipe.post.id.span()),
            format!(
                "post url `{}` is not a web page's address",
                crate::diagnostic::shown(url, 80)
            ),
            Some("an http:// or https:// URL with a host, e.g. https://example.com/post".into()),
        ));
    }
}

/// `http://` or `https://` (any case), a host, and nothing a link could be
/// broken out of: no whitespace, quotes, angle brackets or backslashes.
pub(crate) fn is_web_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or("");
    !host.is_empty()
        && !host.starts_with(':')
        && !url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`".contains(c))
}

fn check_sources(recipe: &Recipe, p: &mut Vec<Problem>) {
    for s in &recipe.sources {
        match (&s.rev, &s.branch) {
            (Some(rev), None) => {
                let hex = rev.chars().all(|c| c.is_ascii_hexdigit());
                if !hex || !(7..=40).contains(&rev.len()) {
                    p.push(Problem::new(
                        rev.span(),
                        format!("`{rev}` is not a commit SHA"),
                        Some("7 to 40 hexadecimal digits".into()),
                    ));
                }
            }
            (None, Some(_)) if s.unpinned.is_none() => p.push(Problem::new(
                s.id.span(),
                format!(
                    "source `{}` follows a branch but does not say why it is unpinned",
                    s.id
                ),
                Some("`unpinned = \"…\"`: why the post gives no revision".into()),
            )),
            (None, Some(_)) => {}
            (Some(rev), Some(_)) => p.push(Problem::new(
                rev.span(),
                "a source has either `rev` or `branch`, not both".into(),
                None,
            )),
            (None, None) => p.push(Problem::new(
                s.id.span(),
                format!("source `{}` has no revision", s.id),
                Some("`rev = \"<sha>\"`, or `branch` with `unpinned = \"why\"`".into()),
            )),
        }
    }
}

fn check_toolchains(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    for (i, t) in recipe.toolchains.iter().enumerate() {
        if t.command.is_empty() {
            p.push(Problem::new(
                at!(spans, "toolchain", i, "command").unwrap_or_else(|| t.name.span()),
                format!("toolchain `{}` has an empty command", t.name),
                Some("e.g. [\"ruby\", \"--version\"]".into()),
            ));
        }
        if let Some(spec) = &t.mise {
            let well_formed = t.mise_tool().is_some_and(|(tool, version)| {
                let fits = |s: &str, extra: &str| {
                    !s.is_empty()
                        && s.chars().all(|c| {
                            c.is_ascii_alphanumeric() || "-_.".contains(c) || extra.contains(c)
                        })
                };
                fits(tool, ":/") && fits(version, "+")
            });
            if !well_formed {
                p.push(Problem::new(
                    spec.span(),
                    format!("`{}` is not a mise tool and version", crate::shown::escaped(spec)),
                    Some("`TOOL@VERSION` as `mise use` takes it, e.g. `ruby@4.0.5` or `gem:falcon@0.47.7`".into()),
                ));
            }
        }
        match pattern_groups(&t.pattern) {
            Ok(groups) if groups >= 1 => {}
            Ok(_) => p.push(Problem::new(
                t.pattern.span(),
                "the pattern has no capture group".into(),
                Some(
                    "a regex whose first group is the version, e.g. `ruby (\\d+\\.\\d+\\.\\d+)`"
                        .into(),
                ),
            )),
            Err(e) => p.push(Problem::new(
                t.pattern.span(),
                format!("not a regular expression Reprise can use: {e}"),
                Some("a short regex whose first group is the version".into()),
            )),
        }
    }
}

/// The longest version pattern: they match one line of `--version` output.
const PATTERN_MAX: usize = 256;

/// The capture groups of a toolchain's version pattern, when it compiles
/// within a small size (a pattern such as `\w{1000}` would take the regex
/// compiler a long while to refuse). Results are kept: the same recipes are
/// checked again and again (listing, show, run), and compiling is the
/// dearest part of checking one.
fn pattern_groups(pattern: &str) -> Result<usize, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static KNOWN: OnceLock<Mutex<HashMap<String, Result<usize, String>>>> = OnceLock::new();
    if pattern.len() > PATTERN_MAX {
        return Err(format!("longer than {PATTERN_MAX} bytes"));
    }
    let known = KNOWN.get_or_init(Default::default);
    if let Some(found) = known.lock().ok().and_then(|k| k.get(pattern).cloned()) {
        return found;
    }
    let result = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 16)
        .build()
        .map(|re| re.captures_len() - 1)
        .map_err(|e| e.to_string());
    if let Ok(mut known) = known.lock() {
        if known.len() > 1000 {
            known.clear();
        }
        known.insert(pattern.to_string(), result.clone());
    }
    result
}

fn check_services(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    for (i, service) in recipe.services.iter().enumerate() {
        if service.command.is_empty() {
            p.push(Problem::new(
                at!(spans, "service", i, "command").unwrap_or_else(|| service.name.span()),
                format!("service `{}` has an empty command", service.name),
                Some("e.g. [\"redis-server\", \"--port\", \"6379\"]".into()),
            ));
        }
        if let Some(other) = recipe.services[..i].iter().find(|o| o.name == service.name) {
            p.push(Problem::new(
                service.name.span(),
                format!("a second service named `{}`", other.name),
                Some("one `[[service]]` per name".into()),
            ));
        }
        if let Some(answers) = &service.answers
            && (answers.send.is_empty() || answers.expect.is_empty())
        {
            p.push(Problem::new(
                at!(spans, "service", i, "answers").unwrap_or_else(|| service.name.span()),
                format!("service `{}` answers nothing to tell it by", service.name),
                Some("`answers = { send = \"PING\", expect = \"+PONG\" }`: both non-empty".into()),
            ));
        }
        if let Some(lane) = recipe.lanes.iter().find(|l| l.port == Some(service.port)) {
            p.push(Problem::new(
                at!(spans, "service", i, "port").unwrap_or_else(|| service.name.span()),
                format!(
                    "service `{}` and lane `{}` both listen on port {}",
                    service.name, lane.name, service.port
                ),
                Some("a port of the service's own".into()),
            ));
        }
    }
}

fn check_lanes(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let toolchains = || recipe.toolchains.iter().map(|t| t.name.as_str());
    let services = || recipe.services.iter().map(|s| s.name.as_str());
    for (i, lane) in recipe.lanes.iter().enumerate() {
        for t in lane.runtime.iter().chain(&lane.needs) {
            resolve(t, "toolchain", toolchains(), p);
        }
        for service in &lane.services {
            resolve(service, "service", services(), p);
        }
        match &lane.command {
            Some(c) if c.is_empty() => p.push(Problem::new(
                at!(spans, "lane", i, "command").unwrap_or_else(|| lane.name.span()),
                format!("lane `{}` has an empty command", lane.name),
                None,
            )),
            None if lane.not_runnable.is_none() => p.push(Problem::new(
                lane.name.span(),
                format!("lane `{}` has no command and does not say why", lane.name),
                Some(
                    "`command = [...]`, or `not_runnable = \"why the recipe cannot run it\"`"
                        .into(),
                ),
            )),
            _ => {}
        }
        let name = lane.harness_name();
        if let Some((j, other)) = recipe.lanes[..i]
            .iter()
            .enumerate()
            .find(|(_, o)| name.fits(&o.harness_name().target, o.harness_name().workers))
        {
            // At the mapping that made the two meet: this lane's, else the other's.
            let span = at!(spans, "lane", i, "harness")
                .or_else(|| at!(spans, "lane", j, "harness"))
                .unwrap_or_else(|| lane.name.span());
            p.push(Problem::new(
                span,
                format!(
                    "lanes `{}` and `{}` both read the harness's `{}` cells{}",
                    other.name,
                    lane.name,
                    name.target,
                    match name.workers {
                        Some(1) => " with one worker".to_string(),
                        Some(w) => format!(" with {w} workers"),
                        None => String::new(),
                    }
                ),
                Some(
                    "a `harness = { target = \"…\", workers = N }` that names one lane only".into(),
                ),
            ));
        }
        if let Some(allocator) = lane.allocator
            && lane.env.contains_key("LD_PRELOAD")
        {
            p.push(Problem::new(
                crate::spans::key_at!(spans, "lane", i, "env", "LD_PRELOAD")
                    .unwrap_or_else(|| lane.name.span()),
                format!(
                    "lane `{}` preloads a library by hand beside `allocator = \"{allocator}\"`",
                    lane.name
                ),
                Some(format!(
                    "`allocator = \"{allocator}\"` alone: it preloads {} where this machine has it and records what the server loaded",
                    allocator.library()
                )),
            ));
        }
        if lane.placement == Placement::Container && lane.image.is_none() {
            p.push(Problem::new(
                lane.name.span(),
                format!(
                    "lane `{}` runs in a container but names no image",
                    lane.name
                ),
                Some("`image = \"…\"`".into()),
            ));
        }
    }
}

/// Whether the recipe builds Campfire: it clones basecamp/once-campfire.
fn builds_campfire(recipe: &Recipe) -> bool {
    recipe.sources.iter().any(|s| {
        s.url
            .trim_end_matches('/')
            .trim_end_matches(".git")
            .ends_with("/once-campfire")
    })
}

/// Campfire's Rails main needs Ruby 3.3 or newer and the emitted tree 3.4,
/// newer than the Ruby Debian 12 (3.1) or Ubuntu 24.04 (3.2) packages: a
/// lane on the host that serves Campfire on a runtime the recipe does not
/// pin, and that `reprise setup` therefore does not install, fails at its
/// bundle.
fn check_campfire_runtimes(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    if !builds_campfire(recipe) {
        return;
    }
    let mut said = HashSet::new();
    // A container lane's image carries its runtime, pinned by its digest.
    let on_host = |l: &&crate::model::Lane| l.is_runnable() && l.placement == Placement::Host;
    for lane in recipe.lanes.iter().filter(on_host) {
        let Some(runtime) = &lane.runtime else {
            continue;
        };
        let Some((i, toolchain)) = recipe
            .toolchains
            .iter()
            .enumerate()
            .find(|(_, t)| t.name == *runtime)
        else {
            continue;
        };
        if (toolchain.version.is_any() || toolchain.mise.is_none())
            && said.insert(toolchain.name.as_str())
        {
            let what = if toolchain.version.is_any() {
                "`*`, any version"
            } else {
                "pinned, but with nothing for `reprise setup` to install (`mise`)"
            };
            p.push(Problem::new(
                at!(spans, "toolchain", i, "version").unwrap_or_else(|| toolchain.name.span()),
                format!(
                    "lane `{}` serves Campfire on toolchain `{}`, whose version is {what}",
                    lane.name, toolchain.name
                ),
                Some(
                    "the version the post ran and `mise = \"TOOL@VERSION\"` to install it \
                     (e.g. `version = \"4.0.5\"`, `mise = \"ruby@4.0.5\"`): Campfire's Rails \
                     needs Ruby 3.3 or newer, the emitted tree 3.4, and a system Ruby \
                     (Debian 12's 3.1, Ubuntu 24.04's 3.2) bundles neither"
                        .into(),
                ),
            ));
        }
    }
}

fn check_workloads(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    for (i, w) in recipe.workloads.iter().enumerate() {
        if let Some(people) = &w.people {
            let total: f64 = people.mix.values().sum();
            let off = (total - 1.0).abs();
            if off.is_nan() || off > 1e-6 {
                p.push(Problem::new(
                    at!(spans, "workload", i, "people", "mix").unwrap_or_else(|| w.name.span()),
                    format!("the navigation mix of `{}` adds up to {total}", w.name),
                    Some("shares that add up to 1".into()),
                ));
            }
        }
    }
}

fn check_steps(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let ids = || recipe.steps.iter().map(|s| s.id.as_str());
    let lanes = || recipe.lanes.iter().map(|l| l.name.as_str());
    for (i, step) in recipe.steps.iter().enumerate() {
        for dep in &step.after {
            if dep == &step.id {
                p.push(Problem::new(
                    dep.span(),
                    format!("step `{}` waits for itself", step.id),
                    None,
                ));
            } else {
                resolve(dep, "step", ids(), p);
            }
        }
        for lane in step.action.lanes() {
            resolve(lane, "lane", lanes(), p);
        }
        match &step.action {
            Action::Clone(clone) => {
                resolve(
                    &clone.source,
                    "source",
                    recipe.sources.iter().map(|s| s.id.as_str()),
                    p,
                );
            }
            Action::Bundle(bundle) => {
                resolve(
                    &bundle.runtime,
                    "toolchain",
                    recipe.toolchains.iter().map(|t| t.name.as_str()),
                    p,
                );
            }
            _ => {}
        }
        if let Some(workload) = step.action.workload() {
            resolve(
                workload,
                "workload",
                recipe.workloads.iter().map(|w| w.name.as_str()),
                p,
            );
        }
        if let Some((_, expected)) = step.action.tree()
            && (expected.manifest.is_some() || expected.digest.is_some())
        {
            let unpinned = recipe.unpinned_sources_upstream(step);
            if let Some(source) = unpinned.first() {
                p.push(Problem::new(
                    step.id.span(),
                    format!(
                        "step `{}` compares its tree with a published digest, but the tree comes from `{}`, which is not pinned",
                        step.id, source.id
                    ),
                    Some(
                        "no `manifest` or `digest` for a tree of unpinned sources: the step then records the digest it finds"
                            .into(),
                    ),
                ));
            }
        }
        if let Some(command) = step.action.command()
            && command.argv.is_empty()
        {
            p.push(Problem::new(
                at!(spans, "step", i, "command").unwrap_or_else(|| step.id.span()),
                format!("step `{}` has an empty command", step.id),
                None,
            ));
        }
    }
    if let Some(cycle) = find_cycle(recipe) {
        let names: Vec<&str> = cycle.iter().map(|n| n.as_str()).collect();
        let closing = cycle.last().map(|n| n.span()).unwrap_or(0..0);
        p.push(Problem::new(
            closing,
            format!(
                "the steps wait for each other in a cycle: {}",
                names.join(" → ")
            ),
            Some("`after` lists that form no cycle".into()),
        ));
    }
}

/// A cycle in the `after` graph, as the path of references that closes it.
fn find_cycle(recipe: &Recipe) -> Option<Vec<Name>> {
    let index: HashMap<&str, usize> = recipe
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    // 0 unvisited, 1 on the current path, 2 done
    let mut state = vec![0u8; recipe.steps.len()];
    fn visit(
        i: usize,
        recipe: &Recipe,
        index: &HashMap<&str, usize>,
        state: &mut [u8],
        path: &mut Vec<Name>,
    ) -> Option<Vec<Name>> {
        state[i] = 1;
        for dep in &recipe.steps[i].after {
            let Some(&j) = index.get(dep.as_str()) else {
                continue;
            };
            if j == i {
                continue; // reported as waiting for itself
            }
            path.push(dep.clone());
            if state[j] == 1 {
                let target = recipe.steps[j].id.as_str();
                let start = path[..path.len() - 1]
                    .iter()
                    .rposition(|n| n.as_str() == target)
                    .unwrap_or(0);
                return Some(path[start..].to_vec());
            }
            if state[j] == 0
                && let Some(c) = visit(j, recipe, index, state, path)
            {
                return Some(c);
            }
            path.pop();
        }
        state[i] = 2;
        None
    }
    for i in 0..recipe.steps.len() {
        if state[i] == 0 {
            let mut path = vec![recipe.steps[i].id.clone()];
            if let Some(cycle) = visit(i, recipe, &index, &mut state, &mut path) {
                return Some(cycle);
            }
        }
    }
    None
}

fn check_figures(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let lanes = || recipe.lanes.iter().map(|l| l.name.as_str());
    let endpoints = || {
        recipe
            .workloads
            .iter()
            .flat_map(|w| w.endpoints.iter().map(|e| e.name.as_str()))
    };
    for (i, f) in recipe.figures.iter().enumerate() {
        resolve(&f.lane, "lane", lanes(), p);
        if let Some(endpoint) = &f.endpoint {
            resolve(endpoint, "endpoint", endpoints(), p);
        }
        let given = [f.value.is_some(), f.range.is_some(), f.unknown.is_some()]
            .iter()
            .filter(|x| **x)
            .count();
        if given != 1 {
            p.push(Problem::new(
                f.id.span(),
                format!(
                    "figure `{}` needs exactly one of `value`, `range`, `unknown`",
                    f.id
                ),
                None,
            ));
        }
        if let Some([lo, hi]) = f.range
            && lo > hi
        {
            p.push(Problem::new(
                at!(spans, "figure", i, "range").unwrap_or_else(|| f.id.span()),
                format!(
                    "figure `{}` has a range that runs backwards ({lo} > {hi})",
                    f.id
                ),
                None,
            ));
        }
    }
}

fn check_claims(recipe: &Recipe, spans: &Spans<'_>, p: &mut Vec<Problem>) {
    let figures: BTreeMap<&str, &crate::model::Figure> =
        recipe.figures.iter().map(|f| (f.id.as_str(), f)).collect();
    for (i, claim) in recipe.claims.iter().enumerate() {
        let mut all_resolve = true;
        for f in claim.shape.figures() {
            all_resolve &= resolve(f, "figure", figures.keys().copied(), p);
        }
        if !all_resolve {
            continue;
        }
        let metrics: HashSet<Metric> = claim
            .shape
            .figures()
            .iter()
            .map(|f| figures[f.as_str()].metric)
            .collect();
        if metrics.len() > 1 && !matches!(claim.shape, ClaimShape::Spread { .. }) {
            p.push(Problem::new(
                claim.id.span(),
                format!("claim `{}` compares figures of different metrics", claim.id),
                None,
            ));
            continue;
        }
        match &claim.shape {
            ClaimShape::Ratio {
                numerator,
                denominator,
                value,
            } => {
                let (n, d) = (figures[numerator.as_str()], figures[denominator.as_str()]);
                if let (Published::Value(a), Published::Value(b)) = (n.published(), d.published()) {
                    let computed = a / b;
                    let off = ((computed - value) / value).abs();
                    if b == 0.0 || off.is_nan() || off > RATIO_ROUNDING {
                        p.push(Problem::new(
                            at!(spans, "claim", i, "value").unwrap_or_else(|| claim.id.span()),
                            format!("claim `{}` says {value}× but its figures give {a} / {b} = {computed:.2}×", claim.id),
                            Some("a ratio that agrees with its figures (a transcription error?)".into()),
                        ));
                    }
                }
            }
            ClaimShape::Ordering { order } => {
                let values: Vec<Option<f64>> =
                    order.iter().map(|f| figures[f.as_str()].point()).collect();
                let metric = figures[order[0].as_str()].metric;
                let higher_first = metric.higher_is_better().unwrap_or(true);
                if values.iter().all(Option::is_some) {
                    for pair in order.windows(2).zip(values.windows(2)) {
                        let (names, vals) = pair;
                        let (a, b) = (vals[0].unwrap_or(0.0), vals[1].unwrap_or(0.0));
                        let in_order = if higher_first { a >= b } else { a <= b };
                        if !in_order {
                            p.push(Problem::new(
                                names[1].span(),
                                format!(
                                    "claim `{}` ranks `{}` ({a}) ahead of `{}` ({b})",
                                    claim.id, names[0], names[1]
                                ),
                                Some(format!(
                                    "figures listed best first ({})",
                                    if higher_first { "highest" } else { "lowest" }
                                )),
                            ));
                        }
                    }
                }
            }
            ClaimShape::Absolute { figure } => {
                if figures[figure.as_str()].published() == Published::Unknown {
                    p.push(Problem::new(
                        figure.span(),
                        format!(
                            "claim `{}` asserts a figure with no published value",
                            claim.id
                        ),
                        None,
                    ));
                }
            }
            ClaimShape::Spread { .. } => {}
        }
    }
}
