//! A repository's Discussions over GitHub's GraphQL API, newest-updated
//! first, a page at a time, into the [`Cache`]: only what changed since
//! the last fetch is read (the pages stop at the first discussion older
//! than the cache's watermark, and a first page the server says is
//! unchanged — `304` to `If-None-Match` — ends the fetch at once), a
//! repository with fewer discussions than the cache is read again whole
//! (some were deleted), and GitHub's rate limit is read from every answer.
//!
//! GitHub's GraphQL API answers only with a token, even for a public
//! repository's discussions: the caller fetches only when signed in.

use std::collections::HashSet;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use reqwest::header::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::cache::{Cache, Discussion, Fresh};
use super::posts::find_block;
use crate::{GitHub, ShareError, answer_body, answer_text, local_text};

/// Discussions a page asks for (GitHub allows up to 100; bodies make pages
/// large).
const PAGE_SIZE: u64 = 50;

/// A listing that goes on past this many pages is not a repository's: a
/// server that always says there is another page is stopped here.
const MAX_PAGES: usize = 200;

/// The most an answer may be; a page of 50 bodies of GitHub's 65,536
/// characters is well below.
const MAX_ANSWER: usize = 16 * 1024 * 1024;

/// How long one request may take.
const PER_REQUEST: Duration = Duration::from_secs(30);

/// How long a whole fetch may take, however many pages it reads: a fetch
/// still going then stops, keeps what it read, and says so (a server slow
/// on each of 200 pages would otherwise hold a reader for 100 minutes).
pub const FETCH_WITHIN: Duration = Duration::from_secs(120);

const DISCUSSIONS: &str = "query($owner: String!, $name: String!, $after: String, $first: Int!) { viewer { login } repository(owner: $owner, name: $name) { discussions(first: $first, after: $after, orderBy: {field: UPDATED_AT, direction: DESC}) { totalCount pageInfo { hasNextPage endCursor } nodes { id number title updatedAt body author { login } } } } }";

/// GitHub's rate limit as its last answer told it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct RateLimit {
    /// Requests left in this window.
    #[ts(type = "number")]
    pub remaining: u64,
    /// When the window resets (Unix seconds).
    #[ts(type = "number")]
    pub reset: u64,
}

/// What one fetch did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refreshed {
    /// Discussions read (new or changed since the last fetch).
    pub read: usize,
    pub pages: usize,
    /// The server said nothing changed (`304` to `If-None-Match`).
    pub not_modified: bool,
    /// The repository had fewer discussions than the cache: read again whole.
    pub read_again: bool,
    pub rate: Option<RateLimit>,
}

/// How far a fetch has gone, after each page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub pages: usize,
    /// Discussions new or changed since the last fetch, so far.
    pub read: usize,
    pub elapsed: Duration,
    /// How long the fetch may take in all ([`GitHub::fetch_within`]).
    pub within: Duration,
}

/// What GitHub answered for one page: not modified since its ETag, or the page.
enum PageAnswer {
    NotModified,
    Page { etag: Option<String>, value: Value },
}

/// Brings `cache` up to date with its repository's Discussions. On an
/// error after some pages, what they held is in the cache (its watermark
/// not moved, so the next fetch reads them again).
pub fn refresh(github: &GitHub, token: &str, cache: &mut Cache) -> Result<Refreshed, ShareError> {
    refresh_with(github, token, cache, &mut |_| {})
}

/// [`refresh`], telling `progress` after each page. The whole fetch stops
/// at [`GitHub::fetch_within`] ([`FETCH_WITHIN`] unless set), keeping what
/// it read: [`ShareError::Stopped`] says how far it got.
pub fn refresh_with(
    github: &GitHub,
    token: &str,
    cache: &mut Cache,
    progress: &mut dyn FnMut(Progress),
) -> Result<Refreshed, ShareError> {
    let mut clock = Clock {
        started: Instant::now(),
        within: github.fetch_within,
        pages: 0,
        read: 0,
        progress,
    };
    let mut done = refresh_once(github, token, cache, &mut clock)?;
    let fewer_there = done
        .total
        .is_some_and(|total| (cache.discussions.len() as u64) > total);
    if fewer_there && !done.whole {
        cache.synced_to = None;
        cache.etag = None;
        let mut again = refresh_once(github, token, cache, &mut clock)?;
        again.refreshed.read_again = true;
        again.refreshed.pages += done.refreshed.pages;
        done = again;
    }
    cache.fetched_at = Some(now());
    Ok(done.refreshed)
}

/// A fetch's time and pages, over both listings of one.
struct Clock<'a> {
    started: Instant,
    within: Duration,
    pages: usize,
    read: usize,
    progress: &'a mut dyn FnMut(Progress),
}

impl Clock<'_> {
    /// How long the next request may take: [`PER_REQUEST`], or what is
    /// left of the fetch's time where that is less; `None` when none is.
    fn next_request(&self) -> Option<Duration> {
        let left = self.within.checked_sub(self.started.elapsed())?;
        (!left.is_zero()).then(|| left.min(PER_REQUEST))
    }

    /// Whether the fetch's time is spent (within a timer's slack: a request
    /// cut short at the limit may end a moment before it).
    fn out_of_time(&self) -> bool {
        self.within
            .checked_sub(self.started.elapsed())
            .is_none_or(|left| left < Duration::from_millis(50))
    }

    fn page_read(&mut self, read: usize) {
        self.pages += 1;
        self.read = read;
        (self.progress)(Progress {
            pages: self.pages,
            read: self.read,
            elapsed: self.started.elapsed(),
            within: self.within,
        });
    }

    fn stopped(&self) -> ShareError {
        ShareError::Stopped {
            within: self.within,
            pages: self.pages,
            read: self.read,
        }
    }
}

/// What one pass over the listing read.
struct Pass {
    refreshed: Refreshed,
    total: Option<u64>,
    /// Every discussion was read (the listing reached its end).
    whole: bool,
}

fn refresh_once(
    github: &GitHub,
    token: &str,
    cache: &mut Cache,
    clock: &mut Clock,
) -> Result<Pass, ShareError> {
    let (owner, name) = crate::discussions::split_repo(&cache.repo)?;
    let (owner, name) = (owner.to_string(), name.to_string());
    let mut refreshed = Refreshed::default();
    let mut fresh = Fresh::default();
    let mut cursors = HashSet::new();
    let mut after: Option<String> = None;
    let mut first_etag = None;
    let mut total = None;
    let watermark = cache.synced_to.clone();
    // What the cache has as it is: listed again (at the watermark's
    // second), not read again.
    let known: HashSet<(String, String)> = cache
        .discussions
        .iter()
        .map(|d| (d.id.clone(), d.updated_at.clone()))
        .collect();
    let mut listed = HashSet::new();
    let mut caught_up = false;
    let mut whole = false;
    let read_before = clock.read;
    for page in 0..MAX_PAGES {
        let Some(timeout) = clock.next_request() else {
            fresh.merge_into(cache);
            return Err(clock.stopped());
        };
        let etag = if page == 0 { cache.etag.clone() } else { None };
        let variables = json!({ "owner": owner, "name": name, "after": after, "first": PAGE_SIZE });
        let answer = post(
            github,
            token,
            &cache.repo,
            variables,
            etag.as_deref(),
            timeout,
            &mut refreshed.rate,
        );
        let (etag, value) = match answer {
            // Only an ETag sent makes "not modified" an answer: to a request
            // that named none, a 304 says nothing of what is there.
            Ok(PageAnswer::NotModified) if etag.is_none() => {
                fresh.merge_into(cache);
                return Err(ShareError::Unexpected {
                    url: format!("{}/graphql", github.api),
                    message: "304 Not Modified to a request that sent no If-None-Match".into(),
                });
            }
            Ok(PageAnswer::NotModified) => {
                refreshed.not_modified = true;
                return Ok(Pass {
                    refreshed,
                    total: cache.total,
                    whole: false,
                });
            }
            Ok(PageAnswer::Page { etag, value }) => (etag, value),
            Err(e) => {
                fresh.merge_into(cache);
                // A request cut short by the fetch's own limit.
                return Err(if clock.out_of_time() {
                    clock.stopped()
                } else {
                    e
                });
            }
        };
        refreshed.pages += 1;
        let repository = &value["data"]["repository"];
        if repository.is_null() {
            return Err(ShareError::NoRepository(cache.repo.clone()));
        }
        let Some(listing) = listing_of(repository) else {
            // Not GitHub's shape: nothing in it says what is there, so
            // nothing the cache holds goes.
            fresh.merge_into(cache);
            return Err(ShareError::Unexpected {
                url: format!("{}/graphql", github.api),
                message: "an answer without the shape of GitHub's: `discussions` with `totalCount`, `nodes` and `pageInfo { hasNextPage }`".into(),
            });
        };
        if page == 0 {
            first_etag = etag;
            total = listing["totalCount"].as_u64();
            cache.viewer = value["data"]["viewer"]["login"]
                .as_str()
                .filter(|login| is_login(login))
                .map(str::to_string);
        }
        for node in listing["nodes"].as_array().into_iter().flatten() {
            let Some(discussion) = discussion_of(node, token) else {
                continue;
            };
            if watermark
                .as_ref()
                .is_some_and(|w| discussion.updated_at < *w)
            {
                caught_up = true;
                break;
            }
            listed.insert(discussion.id.clone());
            if !known.contains(&(discussion.id.clone(), discussion.updated_at.clone())) {
                fresh.push(discussion);
            }
        }
        clock.page_read(read_before + fresh.read());
        if caught_up {
            break;
        }
        if listing["pageInfo"]["hasNextPage"].as_bool() != Some(true) {
            whole = true;
            break;
        }
        let cursor = listing["pageInfo"]["endCursor"]
            .as_str()
            .map(str::to_string);
        let Some(cursor) = cursor.filter(|c| cursors.insert(c.clone())) else {
            fresh.merge_into(cache);
            return Err(ShareError::NoNewCursor {
                url: format!("{}/graphql", github.api),
            });
        };
        if refreshed.rate.is_some_and(|r| r.remaining == 0) {
            fresh.merge_into(cache);
            return Err(ShareError::RateLimited {
                reset: refreshed.rate.map(|r| r.reset),
            });
        }
        after = Some(cursor);
    }
    if !caught_up && !whole {
        fresh.merge_into(cache);
        return Err(ShareError::Unexpected {
            url: format!("{}/graphql", github.api),
            message: format!("more than {MAX_PAGES} pages of discussions"),
        });
    }
    refreshed.read = fresh.read();
    if whole {
        // Everything there is: what the cache has beyond it was deleted.
        cache.discussions.retain(|d| listed.contains(&d.id));
    }
    fresh.merge_into(cache);
    cache.synced_to = cache.discussions.iter().map(|d| d.updated_at.clone()).max();
    cache.etag = first_etag;
    cache.total = total;
    Ok(Pass {
        refreshed,
        total,
        whole,
    })
}

/// A repository's `discussions` where they have the shape of GitHub's
/// answer: a count, a list of nodes, and whether another page follows.
fn listing_of(repository: &Value) -> Option<&Value> {
    let listing = &repository["discussions"];
    (listing["totalCount"].is_u64()
        && listing["nodes"].is_array()
        && listing["pageInfo"]["hasNextPage"].is_boolean())
    .then_some(listing)
}

/// A GitHub login: letters, digits and hyphens, up to 39.
fn is_login(login: &str) -> bool {
    !login.is_empty()
        && login.len() <= 39
        && login
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A discussion node as the cache keeps it; `None` for a node that is not
/// one (no id, number or time of update). Its title and body come from a
/// server that was sent `token`: whatever of it they carry, in any of its
/// forms, is taken out before anything keeps or shows them.
fn discussion_of(node: &Value, token: &str) -> Option<Discussion> {
    let stranger = |text: &str| crate::redaction::without_secrets(text, &[token]);
    // GitHub's node ids (`D_kwDOA…`): letters, digits, `_`, `-` and `=`.
    let id = node["id"].as_str().filter(|id| {
        !id.is_empty()
            && id.len() <= 100
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-=".contains(&b))
    })?;
    let updated_at = node["updatedAt"].as_str().filter(|t| {
        t.len() <= 40
            && t.bytes()
                .all(|b| b.is_ascii_digit() || b"TZ:.+-".contains(&b))
    })?;
    let author = node["author"]["login"]
        .as_str()
        .filter(|login| is_login(login));
    Some(Discussion {
        id: id.to_string(),
        number: node["number"].as_u64()?,
        title: stranger(node["title"].as_str().unwrap_or_default())
            .chars()
            .take(super::cache::MAX_TITLE)
            .collect(),
        author: author.map(str::to_string),
        updated_at: updated_at.to_string(),
        found: match node["body"].as_str().unwrap_or_default() {
            // Refused whole for its size: nothing of it is kept to redact.
            body if body.len() > super::MAX_BODY => find_block(body),
            body => find_block(&stranger(body)),
        },
    })
}

/// POSTs the query; reads the rate limit into `rate` whatever the answer.
fn post(
    github: &GitHub,
    token: &str,
    repo: &str,
    variables: Value,
    etag: Option<&str>,
    timeout: Duration,
    rate: &mut Option<RateLimit>,
) -> Result<PageAnswer, ShareError> {
    github.token_destination()?;
    let url = format!("{}/graphql", github.api);
    let http = github.transport();
    let mut request = http
        .client
        .post(&url)
        .timeout(timeout)
        .bearer_auth(token)
        .header("Accept", "application/json")
        .json(&json!({ "query": DISCUSSIONS, "variables": variables }));
    if let Some(etag) = etag {
        request = request.header("If-None-Match", etag);
    }
    let transport = |e: reqwest::Error| ShareError::Transport {
        url: url.clone(),
        message: local_text(&e.to_string(), &[token]),
    };
    let (status, headers, body) = http.runtime.block_on(async {
        let mut response = request.send().await.map_err(transport)?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(transport)? {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_ANSWER {
                return Err(ShareError::Unexpected {
                    url: url.clone(),
                    message: format!("an answer larger than {} MiB", MAX_ANSWER >> 20),
                });
            }
        }
        Ok((status, headers, body))
    })?;
    *rate = rate_limit(&headers).or(*rate);
    let body = String::from_utf8_lossy(&body);
    let parsed: Option<Value> = serde_json::from_str(&body).ok();
    match status {
        304 => return Ok(PageAnswer::NotModified),
        401 => {
            let message = parsed
                .as_ref()
                .and_then(|v| v["message"].as_str())
                .unwrap_or("unauthorized");
            return Err(ShareError::Unauthorized(answer_text(message, &[token])));
        }
        403 | 429
            if rate.is_some_and(|r| r.remaining == 0) || headers.contains_key("retry-after") =>
        {
            return Err(ShareError::RateLimited {
                reset: rate.map(|r| r.reset),
            });
        }
        200..=299 => {}
        _ => {
            return Err(ShareError::Status {
                url,
                status,
                body: answer_body(&body, &[token]),
            });
        }
    }
    let Some(value) = parsed else {
        return Err(ShareError::Unexpected {
            url,
            message: format!("not JSON: {}", answer_text(&body, &[token])),
        });
    };
    if let Some(errors) = value["errors"].as_array().filter(|e| !e.is_empty()) {
        if errors.iter().any(|e| e["type"] == "RATE_LIMITED") {
            return Err(ShareError::RateLimited {
                reset: rate.map(|r| r.reset),
            });
        }
        if value["data"]["repository"].is_null() {
            let unknown = errors.iter().any(|e| {
                e["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("Could not resolve to a Repository"))
            });
            if unknown {
                return Err(ShareError::NoRepository(repo.to_string()));
            }
            return Err(ShareError::GraphQl(
                errors
                    .iter()
                    .take(5)
                    .map(|e| {
                        answer_text(e["message"].as_str().unwrap_or("unknown error"), &[token])
                    })
                    .collect(),
            ));
        }
    }
    let etag = headers
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.len() <= 200)
        .map(str::to_string);
    Ok(PageAnswer::Page { etag, value })
}

/// `x-ratelimit-remaining` and `x-ratelimit-reset`, where both are there.
fn rate_limit(headers: &HeaderMap) -> Option<RateLimit> {
    let number = |name: &str| headers.get(name)?.to_str().ok()?.trim().parse::<u64>().ok();
    Some(RateLimit {
        remaining: number("x-ratelimit-remaining")?,
        reset: number("x-ratelimit-reset")?,
    })
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
