//! A post as both front ends show it: what it claims and on what, each
//! published figure as it reads (`≈ 54,000 req/s`), each claim with the
//! figures it rests on and its tolerance, the steps with their reasons, and
//! which toolchains and lanes are here. `reprise show` prints the same
//! readings.

use reprise_probe::preflight::LaneAvailability;
use reprise_recipe::{ChecksumStatus, Claim, Figure, Lane, Machine, Post, StepKind, Toolchain};
use serde::Serialize;
use ts_rs::TS;

use super::{MetricUnit, units};
use crate::{LoadedRecipe, Session, SessionError};

/// The Post page: what the post claims and on what.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PostView {
    pub post: Post,
    pub checksum: ChecksumStatus,
    pub machine: Option<Machine>,
    pub toolchains: Vec<ToolchainHere>,
    pub lanes: Vec<LaneOfPost>,
    pub steps: Vec<StepView>,
    pub figures: Vec<FigureOfPost>,
    pub claims: Vec<ClaimOfPost>,
    /// The unit and name of each metric the figures use.
    pub units: Vec<MetricUnit>,
}

/// A published figure and how it reads.
#[derive(Clone, Debug, Serialize, TS)]
pub struct FigureOfPost {
    pub figure: Figure,
    /// [`Figure::published_text`]: `≈ 54,000 req/s`, `360–716 ms`, `not given`.
    pub published: String,
}

/// A claim, the figures it rests on, and its tolerance as it reads.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ClaimOfPost {
    pub claim: Claim,
    /// What it asserts ([`Claim::statement`]): `falcon-hello / puma-hello =
    /// 1.96× ±15%`.
    pub statement: String,
    pub figures: Vec<String>,
    /// `±15%`; an ordering has none.
    pub tolerance: Option<String>,
}

/// A toolchain and whether its program is found here.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ToolchainHere {
    pub toolchain: Toolchain,
    pub on_path: bool,
}

/// A lane and whether it runs here.
#[derive(Clone, Debug, Serialize, TS)]
pub struct LaneOfPost {
    pub lane: Lane,
    pub here: LaneAvailability,
}

/// A step as the Post page lists it: its kind, the post's reason, and its
/// command as a person would type it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct StepView {
    pub id: String,
    pub kind: StepKind,
    pub why: String,
    pub after: Vec<String>,
    pub lanes: Vec<String>,
    pub command: Option<String>,
}

impl FigureOfPost {
    pub fn of(figure: &Figure) -> FigureOfPost {
        FigureOfPost {
            published: figure.published_text(),
            figure: figure.clone(),
        }
    }
}

impl ClaimOfPost {
    pub fn of(claim: &Claim) -> ClaimOfPost {
        ClaimOfPost {
            figures: claim
                .shape
                .figures()
                .iter()
                .map(|f| f.to_string())
                .collect(),
            tolerance: claim.tolerance_text(),
            statement: claim.statement(),
            claim: claim.clone(),
        }
    }
}

impl Session {
    /// The Post page of recipe `id`.
    pub fn post_view(&self, id: &str) -> Result<PostView, SessionError> {
        let LoadedRecipe {
            recipe, checksum, ..
        } = self.load_recipe(id)?;
        let here = self.found_here(&recipe);
        Ok(PostView {
            checksum,
            machine: recipe.machine.clone(),
            toolchains: recipe
                .toolchains
                .iter()
                .map(|t| ToolchainHere {
                    on_path: here
                        .toolchains
                        .get(&t.name)
                        .is_some_and(|p| p.status.is_present()),
                    toolchain: t.clone(),
                })
                .collect(),
            lanes: recipe
                .lanes
                .iter()
                .zip(here.lanes)
                .map(|(lane, standing)| LaneOfPost {
                    lane: lane.clone(),
                    here: standing.here,
                })
                .collect(),
            steps: recipe
                .ordered_steps()
                .into_iter()
                .map(|s| StepView {
                    id: s.id.to_string(),
                    kind: s.action.kind(),
                    why: s.why.clone(),
                    after: s.after.iter().map(|a| a.to_string()).collect(),
                    lanes: s.action.lanes().iter().map(|l| l.to_string()).collect(),
                    command: s
                        .action
                        .command()
                        .map(|c| reprise_recipe::shown::command_line(c.argv)),
                })
                .collect(),
            units: units(recipe.figures.iter().map(|f| f.metric)),
            figures: recipe.figures.iter().map(FigureOfPost::of).collect(),
            claims: recipe.claims.iter().map(ClaimOfPost::of).collect(),
            post: recipe.post,
        })
    }
}
