//! Preflight: a recipe's reference machine and toolchains against this
//! machine's, before anything runs. Each item says whether it matches,
//! differs (absolute figures are not comparable; ratios between lanes
//! measured here still are) or blocks (a lane cannot run), why it matters,
//! and how to fix it where a fix exists.

mod machine;
mod toolchains;

use std::time::Duration;

use reprise_recipe::Recipe;
use serde::{Deserialize, Serialize};

use crate::fingerprint::Fingerprint;
use crate::toolchain::{self, SearchPath, Status, ToolQuery, Toolchains};

/// How one item compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "PreflightVerdict")]
pub enum Verdict {
    Matches,
    /// A record of a machine (a published `env.json`) does not say: whether
    /// it matches is unknown. Blocks nothing.
    NotRecorded,
    /// Runs, but absolute figures are not comparable with the post's.
    Differs,
    /// A lane cannot run.
    Blocks,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Matches => "matches",
            Verdict::NotRecorded => "not recorded",
            Verdict::Differs => "differs",
            Verdict::Blocks => "blocks",
        }
    }
}

/// What an item is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    Cpu,
    Cores,
    Smt,
    Frequency,
    Governor,
    Boost,
    Memory,
    Virtualization,
    Toolchain,
    Lane,
}

/// One line of the preflight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[ts(rename = "PreflightItem")]
pub struct Item {
    pub subject: Subject,
    /// `CPU`, `governor`, `toolchain ruby`, `lane jruby`, …
    pub name: String,
    /// What the post had.
    pub reference: Option<String>,
    /// What this machine has.
    pub here: Option<String>,
    pub verdict: Verdict,
    /// Why it matters, in one sentence (the post's where it says).
    pub why: String,
    /// A command or step that would make it match, where one exists.
    pub fix: Option<String>,
}

/// The whole preflight of one recipe on one machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Preflight {
    pub recipe: String,
    pub items: Vec<Item>,
    /// Every machine item matches: absolute figures can be compared with the post's.
    pub absolute_comparable: bool,
    /// Lanes that can run here.
    pub runnable_lanes: Vec<String>,
    /// Lanes that cannot: a toolchain or the container engine is missing.
    pub blocked_lanes: Vec<String>,
    /// Lanes the post measured but the recipe cannot run, with the recipe's reason.
    pub published_only_lanes: Vec<PublishedOnly>,
    /// The recipe's version commands (`ruby --version`), escaped: what
    /// asking the toolchains their versions runs.
    pub version_commands: Vec<String>,
    /// Whether the versions were asked; when not, the programs were only
    /// found on the search path and nothing of the recipe's ran.
    pub versions_asked: bool,
    /// What a run here can judge ([`claims_here`], grouped).
    pub claims: ClaimsHere,
}

/// Whether a run here can judge one of the recipe's claims: where it
/// cannot, the one reason and the fix, if there is one. Front ends show
/// these grouped ([`ClaimsHere`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimHere {
    pub claim: String,
    pub judged: bool,
    /// Why a run here cannot judge it.
    pub why: Option<NotJudgedBecause>,
    /// A command that would let it be judged, where one exists.
    pub fix: Option<String>,
}

/// Why a run here cannot judge a claim, as data; worded here alone, for one
/// lane ([`Display`](std::fmt::Display)) or for the lanes that share it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotJudgedBecause {
    /// The lane is the post's only; the recipe's reason.
    PostsOnly { lane: String, why: String },
    /// The lane cannot run here: what it lacks.
    Blocked { lane: String, lacks: String },
    /// The reader left the lane out of this run.
    LeftOut { lane: String },
    /// The post gives no number for the figure the claim is judged against.
    NoNumber { figure: String },
    /// An absolute claim, on a machine unlike the post's.
    MachineDiffers,
}

impl NotJudgedBecause {
    fn lane(&self) -> Option<&str> {
        match self {
            Self::PostsOnly { lane, .. } | Self::Blocked { lane, .. } | Self::LeftOut { lane } => {
                Some(lane)
            }
            Self::NoNumber { .. } | Self::MachineDiffers => None,
        }
    }

    /// The same reason, but for its lane.
    fn same_but_lane(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::PostsOnly { why: a, .. }, Self::PostsOnly { why: b, .. }) => a == b,
            (Self::Blocked { lacks: a, .. }, Self::Blocked { lacks: b, .. }) => a == b,
            (Self::LeftOut { .. }, Self::LeftOut { .. }) => true,
            _ => self == other,
        }
    }

    /// The reason for `lanes` (this one's and those that share it).
    fn words(&self, lanes: &[&str]) -> String {
        let (named, are) = match lanes {
            [one] => (format!("lane {one}"), "is"),
            many => (format!("lanes {}", many.join(", ")), "are"),
        };
        match self {
            // Said inside a sentence the page ends itself.
            Self::PostsOnly { why, .. } => {
                format!(
                    "{named} {are} the post's only: {}",
                    why.trim_end_matches('.')
                )
            }
            Self::Blocked { lacks, .. } => format!("{named} cannot run here: {lacks}"),
            Self::LeftOut { .. } => format!("{named} {are} left out of this run"),
            Self::NoNumber { figure } => format!("the post gives no number for {figure}"),
            Self::MachineDiffers => "an absolute figure is judged only on a machine like the \
                                     post's, and this one differs"
                .into(),
        }
    }
}

impl std::fmt::Display for NotJudgedBecause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&[self.lane().unwrap_or_default()]))
    }
}

/// What a run here can judge: the claims it judges, and those it does not
/// grouped by their one reason and fix, as every front end says it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct ClaimsHere {
    /// How many claims the recipe makes.
    pub total: usize,
    pub judged: Vec<String>,
    pub not_judged: Vec<NotJudged>,
    /// `none of its 4 claims`, `all 4 claims`, `2 of 4 claims: a, b`.
    pub summary: String,
}

/// Claims a run here does not judge, for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct NotJudged {
    pub claims: Vec<String>,
    pub why: String,
    /// A command that would let them be judged, where one exists.
    pub fix: Option<String>,
}

impl ClaimsHere {
    /// Claims not judged for the same reason and fix are one group, the
    /// lanes it names together (`lanes jruby, jruby-40t cannot run here`).
    pub fn of(claims: Vec<ClaimHere>) -> ClaimsHere {
        let total = claims.len();
        let mut judged = Vec::new();
        /// Claims not judged for one reason (on `lanes`) and fix.
        struct Group {
            why: Option<NotJudgedBecause>,
            lanes: Vec<String>,
            claims: Vec<String>,
            fix: Option<String>,
        }
        let mut groups: Vec<Group> = Vec::new();
        for c in claims {
            if c.judged {
                judged.push(c.claim);
                continue;
            }
            let lane = c.why.as_ref().and_then(|w| w.lane()).map(str::to_string);
            let same = groups.iter_mut().find(|g| {
                g.fix == c.fix
                    && match (&g.why, &c.why) {
                        (Some(a), Some(b)) => a.same_but_lane(b),
                        (a, b) => a == b,
                    }
            });
            match same {
                Some(g) => {
                    g.claims.push(c.claim);
                    if let Some(lane) = lane.filter(|l| !g.lanes.contains(l)) {
                        g.lanes.push(lane);
                    }
                }
                None => groups.push(Group {
                    why: c.why,
                    lanes: lane.into_iter().collect(),
                    claims: vec![c.claim],
                    fix: c.fix,
                }),
            }
        }
        let not_judged = groups
            .into_iter()
            .map(|g| NotJudged {
                why: g.why.map_or_else(
                    || "not judged here".into(),
                    |w| w.words(&g.lanes.iter().map(String::as_str).collect::<Vec<_>>()),
                ),
                claims: g.claims,
                fix: g.fix,
            })
            .collect();
        let summary = match judged.len() {
            0 => format!("none of its {total} claims"),
            n if n == total => format!("all {n} claims"),
            n => format!("{n} of {total} claims: {}", judged.join(", ")),
        };
        ClaimsHere {
            total,
            judged,
            not_judged,
            summary,
        }
    }

    /// Whether the recipe makes claims and a run here judges none of them.
    pub fn judges_nothing(&self) -> bool {
        self.total > 0 && self.judged.is_empty()
    }
}

/// What a run here can judge, claim by claim, from a preflight's lanes and
/// machine: a claim whose figure's lane cannot run here, or that rests on a
/// figure the post gives no number for, is not judged; an absolute claim is
/// judged only on a machine like the post's, and against its figure's
/// published number ([`ClaimShape::judged_against_published`]).
///
/// [`ClaimShape::judged_against_published`]: reprise_recipe::ClaimShape::judged_against_published
pub fn claims_here(recipe: &Recipe, report: &Preflight) -> Vec<ClaimHere> {
    let lane_item = |lane: &str| {
        report
            .items
            .iter()
            .find(|i| i.subject == Subject::Lane && i.name == format!("lane {lane}"))
    };
    recipe
        .claims
        .iter()
        .map(|claim| {
            let mut why = None;
            let mut fix = None;
            for id in claim.shape.figures() {
                let Some(figure) = recipe.figure(id.as_str()) else {
                    continue;
                };
                let lane = figure.lane.as_str();
                if let Some(p) = report.published_only_lanes.iter().find(|p| p.lane == lane) {
                    why = Some(NotJudgedBecause::PostsOnly {
                        lane: lane.to_string(),
                        why: p.why.clone(),
                    });
                } else if report.blocked_lanes.iter().any(|l| l == lane) {
                    let item = lane_item(lane);
                    // The lane's first sentence: what it lacks.
                    let lacks = item.map_or("it is blocked", |i| {
                        let first = i.why.split(". ").next().unwrap_or(&i.why);
                        first
                            .trim_start_matches("Cannot run: ")
                            .trim_end_matches('.')
                    });
                    why = Some(NotJudgedBecause::Blocked {
                        lane: lane.to_string(),
                        lacks: lacks.to_string(),
                    });
                    fix = item.and_then(|i| i.fix.clone());
                } else if claim.shape.judged_against_published() == Some(id)
                    && figure.value.is_none()
                    && figure.range.is_none()
                {
                    why = Some(NotJudgedBecause::NoNumber {
                        figure: figure.id.to_string(),
                    });
                }
                if why.is_some() {
                    break;
                }
            }
            let shape_only = claim
                .shape
                .figures()
                .iter()
                .filter_map(|id| recipe.figure(id.as_str()))
                .all(|f| f.metric.is_shape());
            if why.is_none()
                && claim.shape.kind() == reprise_recipe::ClaimKind::Absolute
                && !report.absolute_comparable
                && !shape_only
            {
                why = Some(NotJudgedBecause::MachineDiffers);
            }
            ClaimHere {
                claim: claim.id.to_string(),
                judged: why.is_none(),
                why,
                fix,
            }
        })
        .collect()
}

/// A lane the post measured that the recipe cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct PublishedOnly {
    pub lane: String,
    pub why: String,
}

impl Preflight {
    /// True when some lane cannot run.
    pub fn blocks(&self) -> bool {
        !self.blocked_lanes.is_empty()
    }

    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }
}

/// The version queries a recipe asks for: its toolchains' own commands.
pub fn recipe_queries(recipe: &Recipe) -> Vec<ToolQuery> {
    recipe
        .toolchains
        .iter()
        .filter_map(|t| {
            let (program, args) = t.command.split_first()?;
            Some(ToolQuery {
                tool: t.name.to_string(),
                program: program.clone(),
                args: args.to_vec(),
            })
        })
        .collect()
}

/// Asks this machine for every toolchain the recipe names.
pub fn probe_recipe_toolchains(
    recipe: &Recipe,
    search: &SearchPath,
    timeout: Duration,
) -> Toolchains {
    toolchain::probe(&recipe_queries(recipe), search, timeout)
}

/// Whether a lane can run on this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum LaneAvailability {
    Runs,
    /// A toolchain it needs does not answer (or is not there), or it runs
    /// in a container and no engine answers.
    Blocked {
        why: String,
        fix: Option<String>,
    },
    /// The post measured it, and what it needs is unpublished.
    PublishedOnly {
        why: String,
    },
}

/// Which of the recipe's lanes can run here, in the recipe's order: the one
/// rule preflight, the engine, `reprise recipes` and the app's Library share.
/// `tools` may be a full [`probe_recipe_toolchains`] or only
/// [`toolchain::locate`]d (nothing run): a tool found counts as there.
pub fn lanes_here(
    recipe: &Recipe,
    tools: &Toolchains,
    container_engine: Option<&crate::ContainerEngine>,
) -> Vec<(String, LaneAvailability)> {
    let toolchain_items = toolchains::toolchain_items(recipe, tools);
    let items = toolchains::lane_items(recipe, container_engine, &toolchain_items);
    recipe
        .lanes
        .iter()
        .map(|lane| {
            let name = lane.name.to_string();
            let item = items.iter().find(|(l, _)| *l == name).map(|(_, i)| i);
            let here = match (item, &lane.not_runnable) {
                (Some(item), _) if item.verdict == Verdict::Blocks => LaneAvailability::Blocked {
                    why: item.why.clone(),
                    fix: item.fix.clone(),
                },
                (Some(_), _) => LaneAvailability::Runs,
                (None, why) => LaneAvailability::PublishedOnly {
                    why: why
                        .clone()
                        .unwrap_or_else(|| "the recipe gives it no command".into()),
                },
            };
            (name, here)
        })
        .collect()
}

/// The recipe's toolchains this machine has at another version than the
/// post's, with what it has instead (`ruby 3.1.2p20 (/usr/bin/ruby)`).
pub fn differing_toolchains<'r>(
    recipe: &'r Recipe,
    tools: &Toolchains,
) -> Vec<(&'r reprise_recipe::Toolchain, String)> {
    toolchains::toolchain_items(recipe, tools)
        .into_iter()
        .zip(&recipe.toolchains)
        .filter(|(item, _)| item.verdict == Verdict::Differs)
        .map(|(item, tc)| (tc, item.here.unwrap_or_else(|| "another version".into())))
        .collect()
}

/// The machine items alone: the recipe's reference machine against a
/// fingerprint, whether probed here or read from a published `env.json`.
/// Absolute figures compare only where every one matches.
pub fn machine_items(reference: &reprise_recipe::Machine, fp: &Fingerprint) -> Vec<Item> {
    machine::items(reference, fp)
}

/// Compares the recipe's reference machine and toolchains with this machine.
pub fn preflight(recipe: &Recipe, fp: &Fingerprint, tools: &Toolchains) -> Preflight {
    let mut items = match &recipe.machine {
        Some(reference) => machine_items(reference, fp),
        None => Vec::new(),
    };
    let absolute_comparable =
        recipe.machine.is_some() && items.iter().all(|i| i.verdict == Verdict::Matches);
    let toolchain_items = toolchains::toolchain_items(recipe, tools);
    let lanes = toolchains::lane_items(recipe, fp.container_engine.as_ref(), &toolchain_items);
    items.extend(toolchain_items);
    let mut runnable_lanes = Vec::new();
    let mut blocked_lanes = Vec::new();
    for (lane, item) in &lanes {
        if item.verdict == Verdict::Blocks {
            blocked_lanes.push(lane.clone());
        } else {
            runnable_lanes.push(lane.clone());
        }
    }
    items.extend(lanes.into_iter().map(|(_, item)| item));
    let published_only_lanes = recipe
        .lanes
        .iter()
        .filter(|l| !l.is_runnable())
        .map(|l| PublishedOnly {
            lane: l.name.to_string(),
            why: l.not_runnable.clone().unwrap_or_default(),
        })
        .collect();
    let mut report = Preflight {
        recipe: recipe.id().to_string(),
        items,
        absolute_comparable,
        runnable_lanes,
        blocked_lanes,
        published_only_lanes,
        version_commands: recipe
            .toolchains
            .iter()
            .map(|t| reprise_recipe::shown::command_line(&t.command))
            .collect(),
        versions_asked: !tools.tools.iter().any(|t| t.status == Status::Located),
        claims: ClaimsHere::default(),
    };
    report.claims = ClaimsHere::of(claims_here(recipe, &report));
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_judged(claim: &str, why: NotJudgedBecause, fix: Option<&str>) -> ClaimHere {
        ClaimHere {
            claim: claim.into(),
            judged: false,
            why: Some(why),
            fix: fix.map(str::to_string),
        }
    }

    #[test]
    fn lanes_not_judged_for_one_reason_and_fix_are_named_together_once() {
        let blocked = |lane: &str| NotJudgedBecause::Blocked {
            lane: lane.into(),
            lacks: "it needs jruby, which this machine lacks".into(),
        };
        let fix = Some("mise install ruby@jruby-10.1.1.0");
        let claims = ClaimsHere::of(vec![
            not_judged("a", blocked("jruby"), fix),
            not_judged("b", blocked("jruby-40t"), fix),
            not_judged("c", blocked("jruby"), fix),
            // Another fix is another row, though it lacks the same.
            not_judged("d", blocked("jruby-512m"), Some("apt install jruby")),
            not_judged("e", NotJudgedBecause::MachineDiffers, None),
        ]);
        let rows: Vec<(Vec<&str>, &str, Option<&str>)> = claims
            .not_judged
            .iter()
            .map(|n| {
                let claims = n.claims.iter().map(String::as_str).collect();
                (claims, n.why.as_str(), n.fix.as_deref())
            })
            .collect();
        assert_eq!(
            rows,
            vec![
                (
                    vec!["a", "b", "c"],
                    "lanes jruby, jruby-40t cannot run here: it needs jruby, which this machine lacks",
                    fix
                ),
                (
                    vec!["d"],
                    "lane jruby-512m cannot run here: it needs jruby, which this machine lacks",
                    Some("apt install jruby")
                ),
                (
                    vec!["e"],
                    "an absolute figure is judged only on a machine like the post's, and this one differs",
                    None
                ),
            ]
        );
    }
}
