//! Everyone's results: the result blocks of a repository's Discussions,
//! fetched over GitHub's GraphQL API ([`refresh`]), kept in the data dir
//! ([`Cache`]), and read as data from strangers against the recipe a reader
//! asks about by one function, [`read_result`]: parsed and checked
//! ([`read`]), set against the recipe ([`standing`]), and every outcome it
//! states checked against what its own numbers come to against this
//! recipe's band ([`disagreements`]).
//!
//! A post is a stranger's: only its one ```` ```reprise-result v1 ````
//! block is read (nothing of a body is rendered, nothing of it runs),
//! within size caps, its numbers checked and its texts escaped; the link
//! to a discussion is made from its number, never taken from an answer.
//!
//! ```
//! use reprise_share::community::{Found, find_block, read};
//!
//! let body = "My run.\n```reprise-result v2\n{}\n```\n";
//! assert!(matches!(find_block(body), Found::Block { ref version, .. } if version == "v2"));
//! let unreadable = read(&find_block(body)).unwrap().unwrap_err();
//! assert!(unreadable.describe().starts_with("another schema"));
//! ```

mod cache;
mod fetch;
mod posts;
mod reading;

pub use cache::{Cache, Discussion, LATEST_FETCH, MAX_BLOCKS, MAX_DISCUSSIONS};
pub(crate) use fetch::now;
pub use fetch::{FETCH_WITHIN, Progress, RateLimit, Refreshed, refresh, refresh_with};
pub use posts::{Found, MAX_BLOCK, MAX_BODY, Unreadable, find_block, read};
pub use reading::{Reading, Why, disagreements, published_band, read_result, unit_and_scale};

use reprise_report::ResultBlock;
use serde::Serialize;

/// How a readable result stands against the recipe a reader asks about.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "standing", rename_all = "snake_case")]
pub enum Standing {
    /// Of this recipe, the reviewed version, a measurement: counted.
    Counted,
    /// Of another recipe: not this one's to show.
    OtherRecipe,
    /// Of this recipe, but of other bytes than the reviewed ones here (or
    /// of bytes it did not record): shown apart, with its digest and
    /// whether it says it was the reviewed one where it ran.
    OtherVersion {
        sha256: Option<String>,
        reviewed_there: bool,
    },
    /// A smoke run (`--quick`): not a measurement.
    SmokeRun,
    /// Says it is this recipe's reviewed version, yet judges claims that
    /// version does not make.
    UnknownClaims { claims: Vec<String> },
}

/// Where a result stands against `recipe`, whose reviewed digest here is
/// `reviewed_sha256` and whose claims are `claims`.
pub fn standing(
    block: &ResultBlock,
    recipe: &str,
    reviewed_sha256: Option<&str>,
    claims: &[&str],
) -> Standing {
    if block.recipe != recipe {
        return Standing::OtherRecipe;
    }
    let same =
        reviewed_sha256.is_some_and(|reviewed| block.recipe_sha256.as_deref() == Some(reviewed));
    if !same {
        return Standing::OtherVersion {
            sha256: block.recipe_sha256.clone(),
            reviewed_there: block.reviewed,
        };
    }
    let unknown: Vec<String> = block
        .claims
        .iter()
        .filter(|c| !claims.contains(&c.id.as_str()))
        .map(|c| c.id.clone())
        .collect();
    if !unknown.is_empty() {
        return Standing::UnknownClaims { claims: unknown };
    }
    if block.smoke_run {
        return Standing::SmokeRun;
    }
    Standing::Counted
}

/// A discussion's page, made from the repository and its number (never a
/// URL from an answer, which could point anywhere).
pub fn discussion_url(web: &str, repo: &str, number: u64) -> String {
    format!("{}/{number}", discussions_url(web, repo))
}

/// The repository's Discussions on the web, which a browser reads without
/// signing in (GitHub's API does not).
pub fn discussions_url(web: &str, repo: &str) -> String {
    format!("{}/{repo}/discussions", web.trim_end_matches('/'))
}
