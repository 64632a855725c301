//! What a people load is: its server, its people and what they do, the
//! criterion a step is served by, and the checks that make a spec safe to
//! run (every count, rate, share and duration in range, every path a path,
//! the server one the run may load).

use std::net::SocketAddr;
use std::time::Duration;

use hyper::Uri;
use serde::{Deserialize, Serialize};

use crate::spec::MAX_LOAD_TIME;
use crate::target::{NotAPath, TargetError, Targets, check_path};

/// Seeding memberships costs accounts × rooms: past these it is a mistake, not a load.
pub const MAX_ACCOUNTS: u32 = 100_000;
pub const MAX_ROOMS: u32 = 1_000;
/// People in one step: two sockets and about 2 KiB each.
pub const MAX_PEOPLE: u32 = 1_000_000;
const MAX_THREADS: usize = 1024;

/// Shares of navigations by kind (post 004: 55 / 20 / 10 / 15).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mix {
    pub open_room: f64,
    pub scroll_history: f64,
    pub search: f64,
    pub return_to_room: f64,
}

impl Default for Mix {
    fn default() -> Mix {
        Mix {
            open_room: 0.55,
            scroll_history: 0.20,
            search: 0.10,
            return_to_room: 0.15,
        }
    }
}

/// When a step counts as served.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ServedCriterion {
    pub navigation_quantile: f64,
    pub navigation_ms: f64,
    pub max_failures: u64,
    pub delivery_quantile: f64,
    pub delivery_ms: f64,
}

impl Default for ServedCriterion {
    fn default() -> ServedCriterion {
        ServedCriterion {
            navigation_quantile: 0.99,
            navigation_ms: 100.0,
            max_failures: 0,
            delivery_quantile: 0.99,
            delivery_ms: 500.0,
        }
    }
}

/// A people load. Paths follow Campfire: `POST /session`, `/rooms/{room}`,
/// `/rooms/{room}/messages?before={message}`, `/searches?q={term}`,
/// `POST /rooms/{room}/messages`, and the cable at `cable_path`.
#[derive(Clone)]
pub struct PeopleSpec {
    /// The server, e.g. `http://127.0.0.1:3000`.
    pub base_url: String,
    /// The servers the base URL may name; anything else is refused before a connection.
    pub targets: Targets,
    pub cable_path: String,
    pub sign_in_path: String,
    /// Accounts `person{n}@example.test` (user id n + 1), all with this password.
    pub password: String,
    /// Sign-ins started per second at most (Campfire rate-limits sign-ins).
    pub sign_in_per_s: f64,
    pub accounts: u32,
    pub rooms: u32,
    /// People in each step, ascending, e.g. `[250, 500, 1000]`.
    pub steps: Vec<u32>,
    pub warmup: Duration,
    pub step_duration: Duration,
    pub navigate_every: Duration,
    pub post_every: Duration,
    pub mix: Mix,
    pub served: ServedCriterion,
    /// A path listing every saved post's client message id, one a line: the
    /// end-of-run check of every acknowledged write against the database.
    pub verify_writes_path: Option<String>,
    pub timeout: Duration,
    /// Keep each person's HTTP connection open between requests, as a browser
    /// does (two sockets a person); off, one socket a person plus requests in flight.
    pub keep_alive: bool,
    pub seed: u64,
    /// Generator threads; people are dealt to them in turn.
    pub threads: usize,
    /// CPUs for the generator threads (thread i on `cpus[i % len]`).
    pub cpus: Option<Vec<usize>>,
    /// Session cookies minted ahead of the run (`name=value`), one per
    /// account in account order: people use them instead of signing in.
    pub sessions: Option<Vec<String>>,
}

/// Every field but the password and the minted sessions (only their number).
impl std::fmt::Debug for PeopleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeopleSpec")
            .field("base_url", &self.base_url)
            .field("targets", &self.targets)
            .field("cable_path", &self.cable_path)
            .field("sign_in_path", &self.sign_in_path)
            .field("password", &crate::secret::HIDDEN)
            .field("sign_in_per_s", &self.sign_in_per_s)
            .field("accounts", &self.accounts)
            .field("rooms", &self.rooms)
            .field("steps", &self.steps)
            .field("warmup", &self.warmup)
            .field("step_duration", &self.step_duration)
            .field("navigate_every", &self.navigate_every)
            .field("post_every", &self.post_every)
            .field("mix", &self.mix)
            .field("served", &self.served)
            .field("verify_writes_path", &self.verify_writes_path)
            .field("timeout", &self.timeout)
            .field("keep_alive", &self.keep_alive)
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("cpus", &self.cpus)
            .field("sessions", &self.sessions.as_ref().map(Vec::len))
            .finish()
    }
}

impl PeopleSpec {
    pub fn new(base_url: impl Into<String>) -> PeopleSpec {
        PeopleSpec {
            base_url: base_url.into(),
            targets: Targets::Loopback,
            cable_path: "/cable".into(),
            sign_in_path: "/session".into(),
            password: "secret123".into(),
            sign_in_per_s: 200.0,
            accounts: 5000,
            rooms: 30,
            steps: vec![250, 500, 1000, 2000, 3000],
            warmup: Duration::from_secs(10),
            step_duration: Duration::from_secs(60),
            navigate_every: Duration::from_secs(10),
            post_every: Duration::from_secs(300),
            mix: Mix::default(),
            served: ServedCriterion::default(),
            verify_writes_path: None,
            timeout: Duration::from_secs(5),
            keep_alive: true,
            seed: 4,
            threads: 1,
            cpus: None,
            sessions: None,
        }
    }
}

/// Which of a people load's bounds it breaks.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvalidSpec {
    #[error("a step has {0} people; each needs between 1 and {MAX_PEOPLE}")]
    People(u32),
    #[error("accounts must be between 1 and {MAX_ACCOUNTS}, not {0}")]
    Accounts(u32),
    #[error("rooms must be between 1 and {MAX_ROOMS} (room 1 holds everyone), not {0}")]
    Rooms(u32),
    #[error("threads must be at most {MAX_THREADS}, not {0}")]
    Threads(usize),
    #[error("sign-ins per second must be a positive number, not {0}")]
    SignInRate(f64),
    /// A wait or a duration past 30 days.
    #[error("{name} must fit in 30 days, not {:.0} s", took.as_secs_f64())]
    TooLong { name: &'static str, took: Duration },
    #[error("the step duration and the timeout must be above zero")]
    ZeroDuration,
    #[error(
        "the navigation mix needs shares of 0 or more, not all 0: open room {}, \
         scroll history {}, search {}, return to room {}",
        .0.open_room, .0.scroll_history, .0.search, .0.return_to_room
    )]
    Mix(Mix),
    #[error("the {name} must be above 0 and at most 1, not {q}")]
    Quantile { name: &'static str, q: f64 },
    #[error("the {name} must be 0 to 30 days in milliseconds, not {ms}")]
    Limit { name: &'static str, ms: f64 },
    /// A path (the cable's, the sign-in's, the written check's) that is
    /// not a request path.
    #[error(transparent)]
    Path(#[from] NotAPath),
}

/// Why a people load could not run.
#[derive(Debug, thiserror::Error)]
pub enum PeopleError {
    #[error("bad base URL {0:?}: expected http://host:port")]
    Url(String),
    #[error("refusing to load {url}: {reason}")]
    NotAllowed { url: String, reason: TargetError },
    #[error("invalid people load: {0}")]
    Invalid(InvalidSpec),
    #[error("steps must be non-empty and ascending, got {0:?}")]
    Steps(Vec<u32>),
    #[error("{have} minted sessions for {accounts} accounts: every account needs one")]
    Sessions { have: usize, accounts: u32 },
    #[error("{0}")]
    Runtime(String),
}

impl PeopleSpec {
    /// Checks everything a run divides by, indexes with or waits for, and
    /// where the load goes; returns the server's address.
    pub(crate) fn validate(&self) -> Result<SocketAddr, PeopleError> {
        let invalid = |why: InvalidSpec| Err(PeopleError::Invalid(why));
        if self.steps.is_empty() || self.steps.windows(2).any(|w| w[0] > w[1]) {
            return Err(PeopleError::Steps(self.steps.clone()));
        }
        if let Some(&people) = self.steps.iter().find(|&&p| p == 0 || p > MAX_PEOPLE) {
            return invalid(InvalidSpec::People(people));
        }
        if self.accounts == 0 || self.accounts > MAX_ACCOUNTS {
            return invalid(InvalidSpec::Accounts(self.accounts));
        }
        if self.rooms == 0 || self.rooms > MAX_ROOMS {
            return invalid(InvalidSpec::Rooms(self.rooms));
        }
        if self.threads > MAX_THREADS {
            return invalid(InvalidSpec::Threads(self.threads));
        }
        if !(self.sign_in_per_s.is_finite() && self.sign_in_per_s > 0.0) {
            return invalid(InvalidSpec::SignInRate(self.sign_in_per_s));
        }
        for (name, d) in [
            ("warm-up", self.warmup),
            ("step duration", self.step_duration),
            ("navigate_every", self.navigate_every),
            ("post_every", self.post_every),
            ("timeout", self.timeout),
        ] {
            if d > MAX_LOAD_TIME {
                return invalid(InvalidSpec::TooLong { name, took: d });
            }
        }
        if self.step_duration.is_zero() || self.timeout.is_zero() {
            return invalid(InvalidSpec::ZeroDuration);
        }
        let Mix {
            open_room,
            scroll_history,
            search,
            return_to_room,
        } = self.mix;
        let shares = [open_room, scroll_history, search, return_to_room];
        if shares.iter().any(|s| !(s.is_finite() && *s >= 0.0)) || shares.iter().sum::<f64>() <= 0.0
        {
            return invalid(InvalidSpec::Mix(self.mix));
        }
        let s = &self.served;
        for (name, q) in [
            ("navigation quantile", s.navigation_quantile),
            ("delivery quantile", s.delivery_quantile),
        ] {
            if !(q > 0.0 && q <= 1.0) {
                return invalid(InvalidSpec::Quantile { name, q });
            }
        }
        let longest_ms = MAX_LOAD_TIME.as_millis() as f64;
        for (name, ms) in [
            ("navigation limit", s.navigation_ms),
            ("delivery limit", s.delivery_ms),
        ] {
            if !(ms >= 0.0 && ms <= longest_ms) {
                return invalid(InvalidSpec::Limit { name, ms });
            }
        }
        for path in [Some(&self.cable_path), Some(&self.sign_in_path)]
            .into_iter()
            .chain([self.verify_writes_path.as_ref()])
            .flatten()
        {
            check_path(path).map_err(|why| PeopleError::Invalid(why.into()))?;
        }
        if let Some(sessions) = &self.sessions
            && (sessions.len() as u64) < u64::from(self.accounts)
        {
            return Err(PeopleError::Sessions {
                have: sessions.len(),
                accounts: self.accounts,
            });
        }
        self.address()
    }

    /// The server's address: `http://host:port` (a trailing `/` allowed), a
    /// server [`PeopleSpec::targets`] allows.
    fn address(&self) -> Result<SocketAddr, PeopleError> {
        let bad = || PeopleError::Url(self.base_url.clone());
        let uri: Uri = self.base_url.parse().map_err(|_| bad())?;
        let authority = uri.authority().ok_or_else(bad)?;
        let root = matches!(
            uri.path_and_query().map(|p| p.as_str()),
            None | Some("" | "/")
        );
        if uri.scheme_str() != Some("http") || authority.as_str().contains('@') || !root {
            return Err(bad());
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        self.targets
            .resolve(host, authority.port_u16().unwrap_or(80))
            .map_err(|reason| PeopleError::NotAllowed {
                url: self.base_url.clone(),
                reason,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> PeopleSpec {
        let mut spec = PeopleSpec::new("http://127.0.0.1:3000");
        spec.steps = vec![10];
        spec
    }

    #[test]
    fn every_count_the_model_divides_by_or_indexes_with_is_refused_out_of_range() {
        assert!(spec().validate().is_ok());
        type Change = fn(&mut PeopleSpec);
        type Said = fn(&InvalidSpec) -> bool;
        let cases: [(Said, Change); 14] = [
            (|i| *i == InvalidSpec::Rooms(0), |s| s.rooms = 0),
            (
                |i| *i == InvalidSpec::Rooms(u32::MAX),
                |s| s.rooms = u32::MAX,
            ),
            (|i| *i == InvalidSpec::Accounts(0), |s| s.accounts = 0),
            (
                |i| *i == InvalidSpec::Accounts(u32::MAX),
                |s| s.accounts = u32::MAX,
            ),
            (|i| *i == InvalidSpec::People(0), |s| s.steps = vec![0, 10]),
            (
                |i| *i == InvalidSpec::People(u32::MAX),
                |s| s.steps = vec![u32::MAX],
            ),
            (
                |i| matches!(i, InvalidSpec::SignInRate(r) if r.is_nan()),
                |s| s.sign_in_per_s = f64::NAN,
            ),
            (
                |i| *i == InvalidSpec::SignInRate(0.0),
                |s| s.sign_in_per_s = 0.0,
            ),
            (
                |i| {
                    matches!(
                        i,
                        InvalidSpec::TooLong {
                            name: "navigate_every",
                            ..
                        }
                    )
                },
                |s| s.navigate_every = Duration::MAX,
            ),
            (
                |i| matches!(i, InvalidSpec::Mix(m) if m.search.is_nan()),
                |s| s.mix.search = f64::NAN,
            ),
            (
                |i| matches!(i, InvalidSpec::Mix(m) if m.open_room == 0.0 && m.return_to_room == 0.0),
                |s| {
                    s.mix = Mix {
                        open_room: 0.0,
                        scroll_history: 0.0,
                        search: 0.0,
                        return_to_room: 0.0,
                    }
                },
            ),
            (
                |i| matches!(i, InvalidSpec::Quantile { name: "navigation quantile", q } if q.is_nan()),
                |s| s.served.navigation_quantile = f64::NAN,
            ),
            (
                |i| matches!(i, InvalidSpec::Limit { name: "delivery limit", ms } if ms.is_infinite()),
                |s| s.served.delivery_ms = f64::INFINITY,
            ),
            (
                |i| matches!(i, InvalidSpec::Path(NotAPath::NoLeadingSlash(p)) if p == "@evil.example:80/cable"),
                |s| s.cable_path = "@evil.example:80/cable".into(),
            ),
        ];
        for (at, (said, change)) in cases.into_iter().enumerate() {
            let mut s = spec();
            change(&mut s);
            let e = s.validate().unwrap_err();
            assert!(
                matches!(&e, PeopleError::Invalid(why) if said(why)),
                "case {at}: {e}"
            );
        }
    }

    #[test]
    fn the_base_url_names_one_allowed_server_and_nothing_else() {
        let mut s = spec();
        s.targets = Targets::Only("127.0.0.1:3000".parse().unwrap());
        assert_eq!(s.validate().unwrap(), "127.0.0.1:3000".parse().unwrap());
        for url in ["http://127.0.0.1:3001", "http://localhost:3000"] {
            s.base_url = url.into();
            assert!(
                matches!(s.validate(), Err(PeopleError::NotAllowed { .. })),
                "{url}"
            );
        }
        for url in [
            "http://127.0.0.1:3000@192.0.2.1:80",
            "http://127.0.0.1:3000/prefix",
            "https://127.0.0.1:3000",
        ] {
            s.base_url = url.into();
            assert!(matches!(s.validate(), Err(PeopleError::Url(_))), "{url}");
        }
        let mut s = spec();
        s.base_url = "http://192.0.2.1:3000".into();
        assert!(matches!(s.validate(), Err(PeopleError::NotAllowed { .. })));
    }
}
