//! The toolchain and lane items: each toolchain's version against the
//! recipe's requirement (through the recipe's own matching), and each lane
//! against the toolchains it needs.

use std::path::Path;

use reprise_recipe::{Action, Lane, Placement, Recipe, Toolchain, Version};

use super::{Item, Subject, Verdict};
use crate::ContainerEngine;
use crate::toolchain::{Origin, Status, ToolProbe, Toolchains};

/// The post's words on the C-extension lock (post 001).
const CEXTS_LOCK: &str = "TruffleRuby gives every C extension that has not declared itself \
    thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 \
    (the post measured 432 req/s locked, 1,078 unlocked).";

/// The post's words on a second runtime's lockfile (post 001).
const SECOND_LOCKFILE: &str = "A precompiled gem in the lockfile is a landmine for a second \
    runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one.";

/// The version as the recipe reads it: its own pattern over the tool's
/// answer (or over the first line, for a machine read back from a file). No
/// fallback: a pattern that refuses a banner (TruffleRuby's JVM build where
/// the post ran the native one) means the version is not the post's.
fn version_of(tc: &Toolchain, probe: &ToolProbe) -> Option<Version> {
    let answer = if probe.output.is_empty() {
        probe.first_line.as_deref()?
    } else {
        &probe.output
    };
    tc.read_version(answer)
}

fn describe(probe: &ToolProbe, version: Option<&Version>) -> String {
    let what = match (&probe.banner, version) {
        (Some(b), _) => b.describe(),
        (None, Some(v)) => v.to_string(),
        (None, None) if probe.status == Status::Located => "version not asked".into(),
        (None, None) => probe
            .first_line
            .clone()
            .unwrap_or_else(|| "version unreadable".into()),
    };
    match (&probe.path, probe.origin) {
        (Some(path), Some(Origin::Mise)) => format!("{what} (mise: {})", path.display()),
        (Some(path), _) => format!("{what} ({})", path.display()),
        _ => what,
    }
}

/// How mise names a toolchain version, where mise manages it; `program` is
/// what the recipe runs to ask (a `yjit` toolchain asks `ruby`).
fn mise_spec(program: &str, version: &Version) -> Option<String> {
    Some(match program {
        "ruby" => format!("ruby@{version}"),
        "jruby" => format!("ruby@jruby-{version}"),
        "truffleruby" => format!("ruby@truffleruby-{version}"),
        "java" => format!("java@openjdk-{version}"),
        "node" => format!("node@{version}"),
        "rustc" | "cargo" => format!("rust@{version}"),
        _ => return None,
    })
}

/// `ruby@4.0.5` from `<installs>/ruby/4.0.5/bin/ruby`.
fn mise_spec_of(path: &Path) -> Option<String> {
    let version_dir = path.parent()?.parent()?;
    let tool_dir = version_dir.parent()?;
    Some(format!(
        "{}@{}",
        tool_dir.file_name()?.to_str()?,
        version_dir.file_name()?.to_str()?
    ))
}

/// Programs that come from a gem of the same name.
const GEMS: &[&str] = &["puma", "falcon", "thin", "rails", "bundle", "bundler"];

/// Programs Debian and Ubuntu package under the same name.
const APT: &[&str] = &[
    "redis-server",
    "wrk",
    "sqlite3",
    "nginx",
    "git",
    "podman",
    "make",
    "curl",
    "npm",
];

fn install_fix(tc: &Toolchain) -> String {
    let program = tc
        .command
        .first()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .unwrap_or(tc.name.as_str());
    let exact = tc.version.exact();
    if let Some(spec) = exact.and_then(|v| mise_spec(program, v)) {
        return format!("mise install {spec} && mise use {spec}");
    }
    let any = tc.version.is_any();
    if any && APT.contains(&program) {
        return format!("sudo apt-get install {program}");
    }
    if GEMS.contains(&program) {
        let gem = if program == "bundle" {
            "bundler"
        } else {
            program
        };
        return match (exact, any) {
            (Some(v), _) => format!("gem install {gem} -v {v}"),
            (None, true) => format!("gem install {gem}"),
            (None, false) => format!("gem install {gem} -v '{}'", tc.version),
        };
    }
    match (exact, any) {
        (Some(v), _) => format!("install {} {v}", tc.name),
        (None, true) => format!("install {}", tc.name),
        (None, false) => format!("install {} {}", tc.name, tc.version),
    }
}

/// `sudo apt-get install` commands made one, where the first of them
/// stands: `sudo apt-get install make build-essential curl`, not three.
fn one_apt_get(commands: Vec<String>) -> Vec<String> {
    const APT_GET: &str = "sudo apt-get install ";
    let mut out: Vec<String> = Vec::new();
    let mut apt: Option<usize> = None;
    for command in commands {
        match (command.strip_prefix(APT_GET), apt) {
            (Some(packages), Some(at)) => {
                for package in packages.split_whitespace() {
                    if !out[at].split_whitespace().any(|p| p == package) {
                        out[at].push(' ');
                        out[at].push_str(package);
                    }
                }
            }
            (Some(_), None) => {
                apt = Some(out.len());
                out.push(command);
            }
            (None, _) => out.push(command),
        }
    }
    out
}

/// Whether a fix is a command a shell runs as it is (`gem install falcon`),
/// not a sentence (`install falcon 0.55`).
fn is_command(fix: &str) -> bool {
    [
        "sudo ", "mise ", "gem ", "apt-get ", "cargo ", "podman ", "export ", "rustup ",
    ]
    .iter()
    .any(|p| fix.starts_with(p))
}

fn default_why(tc: &Toolchain) -> String {
    match tc.name.as_str() {
        "truffleruby" => CEXTS_LOCK.to_string(),
        _ => format!(
            "{} {} is part of what the post measured: another version is another experiment.",
            tc.name, tc.version
        ),
    }
}

pub(super) fn toolchain_items(recipe: &Recipe, tools: &Toolchains) -> Vec<Item> {
    recipe
        .toolchains
        .iter()
        .map(|tc| {
            let why = tc.why.clone().unwrap_or_else(|| default_why(tc));
            let on_path = tools.get(&tc.name).filter(|p| p.status.is_present());
            let path_version = on_path.and_then(|p| version_of(tc, p));
            let mut item = Item {
                subject: Subject::Toolchain,
                name: format!("toolchain {}", tc.name),
                reference: Some(format!("{} {}", tc.name, tc.version)),
                here: on_path.map(|p| describe(p, path_version.as_ref())),
                verdict: Verdict::Matches,
                why,
                fix: None,
            };
            if path_version.as_ref().is_some_and(|v| tc.version.matches(v)) {
                return item;
            }
            let located = on_path.filter(|p| p.status == Status::Located);
            if located.is_some() && tc.version.is_any() {
                // Any version will do, and one is there.
                return item;
            }
            let in_mise = tools
                .candidates(&tc.name)
                .filter(|p| p.origin == Some(Origin::Mise))
                .find(|p| version_of(tc, p).is_some_and(|v| tc.version.matches(&v)));
            if let Some(found) = in_mise {
                item.verdict = Verdict::Differs;
                if item.here.is_none() {
                    item.here = Some(describe(found, version_of(tc, found).as_ref()));
                }
                item.fix = found
                    .path
                    .as_deref()
                    .and_then(mise_spec_of)
                    .map(|spec| format!("mise use {spec}"));
                return item;
            }
            match on_path {
                Some(_) => item.verdict = Verdict::Differs,
                None if tools.recorded && tools.get(&tc.name).is_none() => {
                    item.verdict = Verdict::NotRecorded;
                    item.here = Some("not recorded".into());
                    item.why = format!(
                        "The machine file does not record {} (bench-env records a fixed list of \
                         tools), so whether it matched the post's is unknown.",
                        tc.name
                    );
                    return item;
                }
                None => {
                    item.verdict = Verdict::Blocks;
                    item.here = Some(match tools.get(&tc.name) {
                        Some(p) if p.status == Status::TimedOut || p.status == Status::Failed => {
                            p.error.clone().unwrap_or_else(|| "did not answer".into())
                        }
                        _ => "not found".into(),
                    });
                }
            }
            item.fix = Some(match (located, &tc.fix) {
                (Some(_), _) => "accept the version commands so preflight can ask it".to_string(),
                (None, Some(fix)) => fix.clone(),
                (None, None) => install_fix(tc),
            });
            item
        })
        .collect()
}

fn is_second_ruby(recipe: &Recipe, lane: &Lane) -> bool {
    let runtime = lane.runtime.as_deref().unwrap_or("");
    let rubies = ["jruby", "truffleruby"];
    let bundles_own_lock = recipe
        .steps
        .iter()
        .any(|s| matches!(&s.action, Action::Bundle(b) if b.runtime.as_str() == runtime));
    rubies.contains(&runtime)
        && (bundles_own_lock
            || recipe
                .lanes
                .iter()
                .any(|l| l.runtime.as_deref() == Some("ruby")))
}

pub(super) fn lane_items(
    recipe: &Recipe,
    container_engine: Option<&ContainerEngine>,
    toolchain_items: &[Item],
) -> Vec<(String, Item)> {
    recipe
        .lanes
        .iter()
        .filter(|l| l.is_runnable())
        .map(|lane| {
            let name = lane.name.to_string();
            let needed: Vec<&Toolchain> = recipe.lane_toolchains(lane).collect();
            let reference = needed
                .iter()
                .map(|t| format!("{} {}", t.name, t.version))
                .collect::<Vec<_>>()
                .join(", ");
            let mut item = Item {
                subject: Subject::Lane,
                name: format!("lane {name}"),
                reference: (!reference.is_empty()).then_some(reference),
                here: None,
                verdict: Verdict::Matches,
                why: String::new(),
                fix: None,
            };
            if lane.placement == Placement::Container {
                let image = lane.image.clone().unwrap_or_default();
                match container_engine {
                    Some(engine) => {
                        item.here = Some(format!(
                            "container engine {} {}",
                            engine.name.as_deref().unwrap_or("engine"),
                            engine.version.as_deref().unwrap_or("")
                        ));
                        item.why = format!("Runs in the container image {image}, which carries its own toolchains.");
                    }
                    None => {
                        item.verdict = Verdict::Blocks;
                        item.here = Some("no container engine answers".into());
                        item.why = format!("Runs in the container image {image}, and no Docker-compatible engine answers here.");
                        item.fix = Some(
                            "start Docker, or `podman system service --time=0 unix:///run/podman.sock` \
                             and export DOCKER_HOST=unix:///run/podman.sock"
                                .into(),
                        );
                    }
                }
                return (name, item);
            }
            let verdicts: Vec<(&Toolchain, &Item)> = needed
                .iter()
                .filter_map(|t| {
                    let key = format!("toolchain {}", t.name);
                    toolchain_items.iter().find(|i| i.name == key).map(|i| (*t, i))
                })
                .collect();
            item.verdict = verdicts
                .iter()
                .map(|(_, i)| i.verdict)
                .max()
                .unwrap_or(Verdict::Matches);
            item.here = Some(
                verdicts
                    .iter()
                    .map(|(t, i)| format!("{}: {}", t.name, i.here.as_deref().unwrap_or("?")))
                    .collect::<Vec<_>>()
                    .join("; "),
            )
            .filter(|h| !h.is_empty());
            let of = |v: Verdict| {
                verdicts
                    .iter()
                    .filter(|(_, i)| i.verdict == v)
                    .map(|(t, _)| t.name.to_string())
                    .collect::<Vec<_>>()
            };
            let mut why = match item.verdict {
                Verdict::Blocks => format!(
                    "Cannot run: it needs {}, which this machine lacks.",
                    of(Verdict::Blocks).join(" and ")
                ),
                Verdict::Differs => format!(
                    "Runs with another {} than the post's: compare its ratios to other lanes here, \
                     not its absolute figures.",
                    of(Verdict::Differs).join(" and ")
                ),
                Verdict::NotRecorded => format!(
                    "The machine file does not record {}: whether this lane ran the post's \
                     versions is unknown.",
                    of(Verdict::NotRecorded).join(" or ")
                ),
                // A lane that matches needs no words, unless a caveat below.
                Verdict::Matches => String::new(),
            };
            if matches!(item.verdict, Verdict::Differs | Verdict::Blocks) {
                let mut fixes: Vec<String> = verdicts
                    .iter()
                    .filter(|(_, i)| i.verdict == item.verdict)
                    .filter_map(|(_, i)| i.fix.clone())
                    .fold(Vec::new(), |mut seen, fix| {
                        if !seen.contains(&fix) {
                            seen.push(fix);
                        }
                        seen
                    });
                // A fix is one shell line of commands, or else a sentence,
                // never both run together: the commands where there are
                // any, else what to do in words, else the container route.
                let (commands, sentences): (Vec<String>, Vec<String>) =
                    fixes.drain(..).partition(|f| is_command(f));
                item.fix = Some(if !commands.is_empty() {
                    one_apt_get(commands).join(" && ")
                } else if !sentences.is_empty() {
                    sentences.join("; ")
                } else {
                    match &lane.image {
                        Some(image) => format!("run the lane in its container image {image}"),
                        None => "run the lane in a container image that has them".into(),
                    }
                });
            }
            let truffle = lane.runtime.as_deref() == Some("truffleruby");
            let unlocked = lane.env.values().any(|v| v.contains("--cexts-lock=false"));
            if truffle && !unlocked {
                why.push(' ');
                why.push_str(CEXTS_LOCK);
            }
            if is_second_ruby(recipe, lane) {
                why.push(' ');
                why.push_str(SECOND_LOCKFILE);
            }
            item.why = why.trim_start().to_string();
            (name, item)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_lanes_apt_get_installs_are_one_command() {
        let fixes = [
            "sudo apt-get install make",
            "sudo apt-get install build-essential",
            "gem install bundler",
            "sudo apt-get install libssl-dev pkg-config",
            "sudo apt-get install zlib1g-dev pkg-config",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            super::one_apt_get(fixes).join(" && "),
            "sudo apt-get install make build-essential libssl-dev pkg-config zlib1g-dev && gem install bundler"
        );
    }
}
