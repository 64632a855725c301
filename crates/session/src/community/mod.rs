//! Everyone's results for a recipe, as both front ends show them: the
//! result blocks of the sharing repository's Discussions (fetched when
//! signed in, else what the data dir's cache has), each claim's count of
//! machines that reproduced it, did not, or could not say, by CPU model,
//! every machine's interval, and this machine's latest stored run placed
//! among them; the posts that cannot be counted are kept apart with why.
//!
//! GitHub's GraphQL API answers only with a token, even for a public
//! repository's discussions: without one this shows the cache and says so.

mod tally;

use reprise_harness_files::timestamp::iso8601_utc_secs;
use reprise_recipe::ChecksumStatus;
use reprise_report::{MachineSummary, ResultBlock};
use reprise_share::ShareError;
use reprise_share::community::{
    Cache, Discussion, LATEST_FETCH, RateLimit, Reading, Why, discussion_url, read_result,
    refresh_with,
};
use reprise_verdict::{Interval, Outcome};
use serde::Serialize;
use ts_rs::TS;

use crate::{Session, SessionError};

pub use reprise_share::community::Progress;
pub use tally::{AmongOthers, ClaimAmong, CpuTally, Point};

/// Everyone's results for one recipe.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Community {
    pub recipe: String,
    /// OWNER/NAME whose Discussions were read.
    pub repo: String,
    /// Its Discussions on the web: public, read in a browser without
    /// signing in.
    pub discussions_url: String,
    pub fetch: Fetch,
    /// When the cache was last brought up to date (RFC 3339 UTC).
    pub fetched_at: Option<String>,
    /// Why the cache file there could not be read, where it could not (it
    /// is started again): escaped.
    pub cache_unread: Option<String>,
    /// GitHub's rate limit as its last answer said it.
    pub rate: Option<RateLimit>,
    /// The recipe's reviewed digest here: what a counted post ran.
    pub reviewed_sha256: Option<String>,
    /// Discussions read (in the cache), of any kind.
    pub discussions: usize,
    /// Posts of this recipe's reviewed version that are counted: one per
    /// author and recipe version, the newest; a post without an author (a
    /// deleted account) only where its machine and its numbers (each within
    /// 1%) both differ from every such post counted.
    pub counted: usize,
    /// Posts left out of the count: older posts by the same author, and
    /// author-less posts of a machine or numbers already counted.
    pub superseded: usize,
    /// Discussions the cache left out to stay within its bounds.
    pub dropped: usize,
    pub claims: Vec<ClaimAmong>,
    /// Posts of this recipe that are not counted, and why.
    pub apart: Vec<Apart>,
    /// This machine's latest stored run of the recipe.
    pub this_machine: Option<ThisRun>,
}

/// Whether the Discussions were fetched this time, and if not why.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "fetch", rename_all = "snake_case")]
pub enum Fetch {
    /// Read from GitHub: `read` discussions new or changed since the cache.
    Fetched {
        read: usize,
        pages: usize,
        /// Fewer discussions on GitHub than cached: read again whole.
        read_again: bool,
    },
    /// GitHub said nothing changed since the cache (its ETag).
    Unchanged,
    /// No token: GitHub's GraphQL API answers only signed-in requests.
    NotSignedIn,
    /// Asked not to fetch.
    Offline,
    /// The fetch stopped at its time limit: `read` discussions new or
    /// changed in `pages` pages were read and kept, the rest is read next
    /// time; `reason` says it whole.
    Stopped {
        read: usize,
        pages: usize,
        reason: String,
    },
    /// The fetch failed; what it said (redacted, capped, escaped).
    Failed { reason: String },
}

/// A post of this recipe that is not counted.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Apart {
    pub number: u64,
    /// The discussion's title, escaped.
    pub title: String,
    pub author: Option<String>,
    pub url: String,
    pub why: ApartWhy,
    /// As a person reads it.
    pub words: String,
}

/// Why a post is kept apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApartWhy {
    /// Of other bytes of the recipe than the reviewed ones here.
    OtherVersion,
    SmokeRun,
    /// Judges claims the reviewed recipe does not make.
    UnknownClaims,
    Malformed,
    OtherSchema,
    SeveralBlocks,
    TooLarge,
    /// States an outcome its own numbers do not come to against this
    /// recipe's band (its words say which claims, and what they come to).
    Disagrees,
}

impl ApartWhy {
    fn of(why: Why) -> ApartWhy {
        match why {
            Why::Malformed => ApartWhy::Malformed,
            Why::OtherSchema => ApartWhy::OtherSchema,
            Why::SeveralBlocks => ApartWhy::SeveralBlocks,
            Why::TooLarge => ApartWhy::TooLarge,
            Why::OtherVersion => ApartWhy::OtherVersion,
            Why::SmokeRun => ApartWhy::SmokeRun,
            Why::UnknownClaims => ApartWhy::UnknownClaims,
            Why::Disagrees => ApartWhy::Disagrees,
        }
    }
}

/// This machine's run among the others.
#[derive(Clone, Debug, Serialize, TS)]
pub struct ThisRun {
    pub run: String,
    pub created_at: String,
    pub smoke_run: bool,
    pub machine: MachineSummary,
    /// Whether it ran the recipe's reviewed version (by its digest).
    pub reviewed: bool,
    /// The discussion it was shared as, where it is among the posts.
    pub shared_as: Option<u64>,
}

impl Session {
    /// Everyone's results for `recipe` (id or path) in `repo` (default:
    /// where [`Session::post_to`] posts), fetching what changed first when
    /// `fetch` and signed in.
    pub fn community(
        &self,
        recipe: &str,
        repo: Option<&str>,
        fetch: bool,
    ) -> Result<Community, SessionError> {
        self.community_with(recipe, repo, fetch, &mut |_| {})
    }

    /// [`Session::community`], telling `progress` after each page fetched.
    pub fn community_with(
        &self,
        recipe: &str,
        repo: Option<&str>,
        fetch: bool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Community, SessionError> {
        let loaded = self.load_recipe(recipe)?;
        let recipe = &loaded.recipe;
        let repo = self.post_to(repo)?.ok_or(SessionError::NoRepository)?.repo;
        let mut cache = Cache::load(&self.data.root, &repo)?;
        let cache_unread = cache
            .unread
            .as_deref()
            .map(|why| reprise_recipe::shown::escaped(why).into_owned());
        let mut rate = None;
        let fetched = if !fetch {
            Fetch::Offline
        } else {
            match self.token() {
                Ok(None) => Fetch::NotSignedIn,
                Err(e) => Fetch::Failed {
                    reason: e.to_string(),
                },
                Ok(Some(token)) => {
                    let done = refresh_with(&self.share.github, &token, &mut cache, progress);
                    // What was read is kept, whole or in part.
                    cache.save(&self.data.root)?;
                    match done {
                        Ok(r) if r.not_modified => {
                            rate = r.rate;
                            Fetch::Unchanged
                        }
                        Ok(r) => {
                            rate = r.rate;
                            Fetch::Fetched {
                                read: r.read,
                                pages: r.pages,
                                read_again: r.read_again,
                            }
                        }
                        Err(e @ ShareError::Stopped { read, pages, .. }) => Fetch::Stopped {
                            read,
                            pages,
                            reason: e.to_string(),
                        },
                        Err(e) => Fetch::Failed {
                            reason: e.to_string(),
                        },
                    }
                }
            }
        };
        let reviewed = reviewed_digest(&loaded);
        let web = &self.share.github.web;
        let mut counted: Vec<(&Discussion, ResultBlock)> = Vec::new();
        let mut apart = Vec::new();
        for discussion in &cache.discussions {
            // The one place a stranger's result is read.
            let Some(reading) = read_result(&discussion.found, recipe, reviewed.as_deref()) else {
                continue;
            };
            match reading {
                Reading::Counted(block) => counted.push((discussion, *block)),
                Reading::Apart { why, words } => apart.push(Apart {
                    number: discussion.number,
                    title: reprise_recipe::shown::escaped(&discussion.title).into_owned(),
                    author: discussion.author.clone(),
                    url: discussion_url(web, &repo, discussion.number),
                    why: ApartWhy::of(why),
                    words,
                }),
            }
        }
        let posts_found = counted.len();
        let counted = tally::one_per_author(counted);
        let superseded = posts_found - counted.len();
        // Whose posts are this person's: the login the cache was fetched
        // as, while signed in.
        let signed_in = matches!(self.token(), Ok(Some(_)));
        let viewer = cache.viewer.as_deref().filter(|_| signed_in);
        let this_run = self.this_machine_run(recipe.id())?;
        let this_machine = this_run.as_ref().map(|block| ThisRun {
            run: block.run.clone(),
            created_at: block.created_at.clone(),
            smoke_run: block.smoke_run,
            machine: block.machine.clone(),
            reviewed: reviewed.is_some() && block.recipe_sha256 == reviewed,
            shared_as: counted
                .iter()
                .find(|(d, b)| is_shared_as(block, d, b, viewer))
                .map(|(d, _)| d.number),
        });
        let shared_as = this_machine.as_ref().and_then(|t| t.shared_as);
        Ok(Community {
            recipe: recipe.id().to_string(),
            claims: recipe
                .claims
                .iter()
                .map(|claim| {
                    tally::claim_among(
                        claim,
                        recipe,
                        &counted,
                        this_run.as_ref(),
                        shared_as,
                        |number| discussion_url(web, &repo, number),
                    )
                })
                .collect(),
            discussions_url: reprise_share::community::discussions_url(web, &repo),
            repo,
            fetch: fetched,
            fetched_at: cache
                .fetched_at
                .filter(|at| *at <= LATEST_FETCH)
                .map(iso8601_utc_secs),
            cache_unread,
            rate,
            reviewed_sha256: reviewed,
            discussions: cache.discussions.len(),
            counted: counted.len(),
            superseded,
            dropped: cache.dropped,
            apart,
            this_machine,
        })
    }

    /// This machine's latest stored run of `recipe` that was a whole
    /// measurement (not a smoke run, not cancelled or failed part-way), else
    /// its latest, as the block sharing it would carry.
    fn this_machine_run(&self, recipe: &str) -> Result<Option<ResultBlock>, SessionError> {
        let runs = self.history()?.list()?;
        let mine: Vec<_> = runs.iter().filter(|r| r.recipe == recipe).collect();
        let whole = |r: &&&reprise_history::RunSummary| {
            !r.smoke_run && r.ending.is_none_or(|e| e.succeeded())
        };
        let Some(latest) = mine.iter().find(whole).or_else(|| mine.first()) else {
            return Ok(None);
        };
        Ok(Some(ResultBlock::of(&self.report(&latest.id)?)))
    }
}

/// Whether `posted` is this machine's run `mine` as its share wrote it:
/// posted by the signed-in login (`viewer`) — a stranger's copy of it is the
/// stranger's — and the same run, made at the same time, with the same
/// numbers (run ids are made from the time, so two machines' can meet).
fn is_shared_as(
    mine: &ResultBlock,
    discussion: &Discussion,
    posted: &ResultBlock,
    viewer: Option<&str>,
) -> bool {
    let by_viewer = matches!(
        (viewer, discussion.author.as_deref()),
        (Some(viewer), Some(author)) if viewer.eq_ignore_ascii_case(author)
    );
    if !by_viewer {
        return false;
    }
    let numbers = |b: &ResultBlock| -> Vec<(String, Option<f64>)> {
        b.cells
            .iter()
            .map(|c| (format!("{} {}", c.lane, c.metric), c.median))
            .collect()
    };
    posted.run == mine.run
        && posted.created_at == mine.created_at
        && numbers(posted) == numbers(mine)
}

/// The recipe's reviewed digest here: its bytes where they are the
/// reviewed ones, else the manifest's; `None` where it is not listed.
fn reviewed_digest(loaded: &crate::LoadedRecipe) -> Option<String> {
    match &loaded.checksum {
        ChecksumStatus::Matches => std::fs::read(&loaded.recipe.file)
            .ok()
            .map(|bytes| reprise_recipe::sha256_hex(&bytes)),
        ChecksumStatus::Modified { expected, .. } => Some(expected.clone()),
        ChecksumStatus::Unlisted | ChecksumStatus::Unreadable { .. } => None,
    }
}

/// The three answers a reader wants of each machine: did it hold?
pub(crate) fn reproduction_of(outcome: Outcome) -> Reproduction {
    match outcome {
        Outcome::Reproduced => Reproduction::Reproduced,
        Outcome::NotReproduced => Reproduction::NotReproduced,
        Outcome::Inconclusive | Outcome::NoData | Outcome::NotMeasured | Outcome::NotComparable => {
            Reproduction::CouldNotSay
        }
    }
}

/// Whether a claim held on a machine, as a reader asks it: reproduced, not
/// reproduced, or could not say (inconclusive, no data, not measured, not
/// comparable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Reproduction {
    Reproduced,
    NotReproduced,
    CouldNotSay,
}

pub(crate) fn interval_of(estimate: &reprise_report::Estimate, scale: f64) -> Interval {
    Interval {
        estimate: estimate.estimate * scale,
        low: estimate.low * scale,
        high: estimate.high * scale,
    }
}
