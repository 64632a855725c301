//! The Library: a card per recipe (its post, what it measures, how many of
//! its lanes run here) and the files that did not load; `reprise recipes`
//! prints the same counts.

use reprise_probe::preflight::LaneAvailability;
use reprise_recipe::{ChecksumStatus, Post};
use serde::Serialize;
use ts_rs::TS;

use super::{MetricUnit, units};
use crate::recipes::{LaneStanding, Problem};
use crate::{LoadedRecipe, Session, SessionError};

/// Every recipe as a card, and the files that did not load.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Library {
    pub recipes: Vec<RecipeCard>,
    pub problems: Vec<Problem>,
    /// The folder the recipes were read from (`REPRISE_ROOT`, a checkout, or
    /// the installed app's own).
    pub dir: String,
}

/// A recipe as the Library shows it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RecipeCard {
    pub post: Post,
    /// What its figures measure, each metric once: its name for a reader
    /// (`throughput`, `tail latency`, …) and its unit.
    pub units: Vec<MetricUnit>,
    pub figures: u32,
    pub claims: u32,
    pub steps: u32,
    /// Each lane and whether it runs here (judged from what is installed,
    /// without running anything).
    pub lanes: Vec<LaneStanding>,
    /// The lanes that can run anywhere (all but the published-only ones).
    pub runnable: u32,
    /// Of those, the ones that run here.
    pub runs_here: u32,
    pub checksum: ChecksumStatus,
}

impl RecipeCard {
    /// `loaded`'s card, its lanes judged on this machine.
    pub fn of(session: &Session, loaded: &LoadedRecipe) -> RecipeCard {
        let recipe = &loaded.recipe;
        let lanes = session.found_here(recipe).lanes;
        let count = |keep: &dyn Fn(&LaneAvailability) -> bool| {
            lanes.iter().filter(|l| keep(&l.here)).count() as u32
        };
        RecipeCard {
            post: recipe.post.clone(),
            units: units(recipe.figures.iter().map(|f| f.metric)),
            figures: recipe.figures.len() as u32,
            claims: recipe.claims.len() as u32,
            steps: recipe.steps.len() as u32,
            runnable: count(&|h| !matches!(h, LaneAvailability::PublishedOnly { .. })),
            runs_here: count(&|h| *h == LaneAvailability::Runs),
            lanes,
            checksum: loaded.checksum.clone(),
        }
    }
}

impl Session {
    /// The Library: every recipe in the checkout's `recipes/` as a card.
    pub fn library_view(&self) -> Result<Library, SessionError> {
        let library = self.library()?;
        Ok(Library {
            recipes: library
                .recipes
                .iter()
                .map(|loaded| RecipeCard::of(self, loaded))
                .collect(),
            problems: library.problems,
            dir: self.catalog.recipes_dir().display().to_string(),
        })
    }
}
