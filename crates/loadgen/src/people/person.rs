//! One simulated person as a state machine their thread's event loop
//! drives: signs in, opens a cable, navigates on a schedule with the
//! recipe's mix, posts into their rooms, and checks every page and every
//! delivery. Two sockets a person (their browser's HTTP connection and
//! their cable) and one entry standing in their thread's timers: the
//! earliest thing they wait for.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use mio::Registry;

use super::browser::{Browser, FetchError, Fetched, Progress, Request};
use super::cable_socket::{CableSocket, OpenWith, SocketEvent};
use super::page::{
    PageExpectation, attr, check_page, message_client_ids, permalink_rooms, stream_sources,
};
use super::roster::{SplitMix, email, user_id};
use super::shard::{Socket, token};
use super::simulation::{Simulation, client_id, parse_client_id, post_key};
use super::tally::NavKind;
use super::{Mix, PeopleSpec};
use crate::cable::stream_identifier;
use crate::connection::Readiness;

/// What every generator thread shares between its people.
pub(crate) struct Shared {
    pub spec: PeopleSpec,
    pub addr: std::net::SocketAddr,
    pub memberships: Vec<Vec<u32>>,
    pub world: Mutex<Simulation>,
    pub stopped: AtomicBool,
}

impl Shared {
    /// The shared state; a panic elsewhere does not hide it.
    pub fn world(&self) -> MutexGuard<'_, Simulation> {
        self.world.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    fn fail(&self, cause: &'static str, detail: impl FnOnce() -> String) {
        if !self.is_stopped() {
            self.world().tally.fail(cause, detail);
        }
    }
}

/// What a person acts on besides themself, lent by their thread's loop for one event.
pub(crate) struct Ctx<'a> {
    pub shared: &'a Shared,
    pub registry: &'a Registry,
    /// The thread's read buffer.
    pub buffer: &'a mut [u8],
    /// A delivery's HTML, unescaped.
    pub scratch: &'a mut String,
    /// Response bodies, lent to a person for one request: memory grows with
    /// the requests in flight, not with the people.
    pub bodies: &'a mut Vec<Vec<u8>>,
    /// What the cable said, heard after each of its events.
    pub news: &'a mut Vec<SocketEvent>,
}

/// A page asked for.
struct Visit {
    kind: NavKind,
    room: Option<u32>,
    path: String,
    started: Instant,
    /// A history fragment, not a whole page.
    fragment: bool,
    /// The room's newest acknowledged post when the page was asked for.
    newest: Option<(String, Option<u64>)>,
    /// The first page after signing in: the person's schedule starts after it.
    first: bool,
}

/// A post sent.
struct Post {
    key: u64,
    room: u32,
    id: String,
    path: String,
}

enum Phase {
    /// Signing in: a pause before asking for a sign-in slot.
    SignInPause {
        until: Instant,
    },
    /// Signing in: waiting for the slot taken.
    SignInSlot {
        until: Instant,
    },
    SigningIn,
    /// Opening the cable, signed in.
    Connecting,
    /// Between visits: the next navigation or post is due at `next_nav` / `next_post`.
    Idle,
    /// Like a user, waiting for the last page to finish subscribing before moving on.
    Settling {
        kind: NavKind,
        until: Instant,
    },
    Visiting(Box<Visit>),
    Posting(Box<Post>),
    /// Out of the load: they could not sign in or open their cable.
    Gone,
}

pub(crate) struct Person {
    id: usize,
    /// Where the person sits on their thread: their sockets' tokens and timers.
    slot: usize,
    account: u32,
    dice: SplitMix,
    browser: Browser,
    cable: CableSocket,
    phase: Phase,
    /// The room whose page is up (its subscriptions may still be unconfirmed).
    viewing: Option<u32>,
    previous: Option<u32>,
    /// Rooms opened before, for "return to a room" (the last five).
    opened: Vec<u32>,
    /// The navigation waiting for its subscriptions: its kind and start.
    nav: Option<(NavKind, Instant)>,
    oldest_message: Option<u64>,
    seq: u32,
    next_nav: Instant,
    next_post: Instant,
    /// The earliest entry standing for this person in the thread's timers.
    pub armed: Option<Instant>,
}

impl Person {
    pub fn new(shared: &Shared, id: usize, slot: usize) -> Person {
        let spec = &shared.spec;
        let seed = spec.seed ^ (id as u64).wrapping_mul(0x1000_0001);
        let now = Instant::now();
        Person {
            id,
            slot,
            account: (id % spec.accounts.max(1) as usize) as u32,
            dice: SplitMix::new(seed),
            browser: Browser::new(shared.addr, spec.timeout, spec.keep_alive),
            cable: CableSocket::new(!seed),
            phase: Phase::Idle,
            viewing: None,
            previous: None,
            opened: Vec::new(),
            nav: None,
            oldest_message: None,
            seq: 0,
            next_nav: now,
            next_post: now,
            armed: None,
        }
    }

    /// Signs in, or with a minted session opens the cable at once.
    pub fn start(&mut self, ctx: &mut Ctx) {
        let shared = ctx.shared;
        match &shared.spec.sessions {
            Some(minted) => {
                self.browser.cookie = minted.get(self.account as usize).cloned();
                self.open_cable(ctx);
            }
            None => self.take_sign_in_slot(shared),
        }
    }

    /// When the person next needs the clock.
    pub fn deadline(&self) -> Option<Instant> {
        let phase = match &self.phase {
            Phase::SignInPause { until }
            | Phase::SignInSlot { until }
            | Phase::Settling { until, .. } => Some(*until),
            Phase::Idle => Some(self.next_nav.min(self.next_post)),
            _ => None,
        };
        [phase, self.browser.deadline(), self.cable.deadline()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Does what is due at `now`.
    pub fn on_timer(&mut self, now: Instant, ctx: &mut Ctx) {
        if let Progress::Done(outcome) = self.browser.on_deadline(now) {
            self.fetched(outcome, ctx);
        }
        if self.cable.on_timer(now, ctx.news) {
            self.open_cable(ctx);
        }
        self.hear(ctx);
        match self.phase {
            Phase::SignInPause { until } if until <= now => self.take_sign_in_slot(ctx.shared),
            Phase::SignInSlot { until } if until <= now => self.sign_in(ctx),
            Phase::Settling { kind, until } if until <= now => self.visit(kind, false, ctx),
            Phase::Idle if !ctx.shared.is_stopped() => {
                if self.next_post <= now {
                    self.post(ctx);
                } else if self.next_nav <= now {
                    let kind = pick_kind(&ctx.shared.spec.mix, &mut self.dice);
                    self.navigate(kind, ctx);
                }
            }
            _ => {}
        }
    }

    /// An event for one of the person's sockets.
    pub fn on_event(&mut self, socket: Socket, generation: usize, event: Readiness, ctx: &mut Ctx) {
        let slot = self.slot;
        match socket {
            Socket::Browser => {
                let token = |g| token(slot, Socket::Browser, g);
                let progress =
                    self.browser
                        .on_event(generation, event, token, ctx.registry, ctx.buffer);
                if let Progress::Done(outcome) = progress {
                    self.fetched(outcome, ctx);
                }
            }
            Socket::Cable => {
                let shared = ctx.shared;
                let (person, viewing, previous) = (self.id, self.viewing, self.previous);
                let mut deliver = |html: &str| received(shared, person, viewing, previous, html);
                self.cable.on_event(
                    generation,
                    event,
                    Instant::now(),
                    ctx.buffer,
                    ctx.scratch,
                    ctx.news,
                    &mut deliver,
                );
                self.hear(ctx);
            }
        }
    }

    fn take_sign_in_slot(&mut self, shared: &Shared) {
        if shared.is_stopped() {
            return;
        }
        let until = shared.world().sign_in_slot(shared.spec.sign_in_per_s);
        self.phase = Phase::SignInSlot { until };
    }

    fn sign_in(&mut self, ctx: &mut Ctx) {
        let spec = &ctx.shared.spec;
        let form = format!(
            "email_address={}&password={}",
            form_escape(&email(self.account)),
            form_escape(&spec.password)
        );
        self.phase = Phase::SigningIn;
        let request = Request {
            method: "POST",
            path: &spec.sign_in_path,
            form: Some(&form),
            accept: "text/html",
        };
        self.fetch(&request, ctx);
    }

    fn signed_in(&mut self, outcome: Result<Fetched, FetchError>, ctx: &mut Ctx) {
        let shared = ctx.shared;
        let now = Instant::now();
        match outcome {
            Ok(f) if (300..400).contains(&f.status) && f.cookie.is_some() => {
                self.browser.cookie = f.cookie;
                ctx.bodies.push(f.body);
                self.open_cable(ctx);
            }
            Ok(f) if f.status == 429 => {
                shared.world().sign_in_retries += 1;
                ctx.bodies.push(f.body);
                self.phase = Phase::SignInPause {
                    until: now + Duration::from_secs(1),
                };
            }
            Ok(f) => {
                let account = self.account;
                shared.fail("sign_in", || {
                    format!("{} answered {}", email(account), f.status)
                });
                ctx.bodies.push(f.body);
                self.phase = Phase::Gone;
            }
            Err(e) => {
                shared.fail(e.cause(), || format!("signing in: {e}"));
                self.phase = Phase::SignInPause {
                    until: now + shared.spec.navigate_every,
                };
            }
        }
    }

    fn open_cable(&mut self, ctx: &mut Ctx) {
        let spec = &ctx.shared.spec;
        if self.cable.is_closed() {
            // Signed in: the cable opens, then the first page.
            self.phase = Phase::Connecting;
        }
        let with = OpenWith {
            addr: ctx.shared.addr,
            path: &spec.cable_path,
            cookie: self.browser.cookie.as_deref(),
            timeout: spec.timeout,
        };
        let slot = self.slot;
        let token = |g| token(slot, Socket::Cable, g);
        self.cable.open(&with, token, ctx.registry, ctx.news);
        self.hear(ctx);
    }

    /// Acts on what the cable said.
    fn hear(&mut self, ctx: &mut Ctx) {
        if ctx.news.is_empty() {
            return;
        }
        let shared = ctx.shared;
        // What was heard while acting on the news is heard next.
        while !ctx.news.is_empty() {
            let mut news = std::mem::take(ctx.news);
            for heard in news.drain(..) {
                self.heard(heard, shared, ctx);
            }
            if ctx.news.is_empty() {
                *ctx.news = news;
            }
        }
    }

    fn heard(&mut self, heard: SocketEvent, shared: &Shared, ctx: &mut Ctx) {
        match heard {
            SocketEvent::Opened { again: false } => {
                if matches!(self.phase, Phase::Connecting) {
                    self.visit(NavKind::OpenRoom, true, ctx);
                }
            }
            SocketEvent::Opened { again: true } => shared.world().tally.cable_reconnects += 1,
            SocketEvent::OpenFailed { lost: None, error } => {
                shared.fail("cable_connect", || error.to_string());
                self.phase = Phase::Gone;
            }
            SocketEvent::OpenFailed {
                lost: Some(why),
                error,
            } => shared.fail("cable_closed", || {
                format!("{why}; opening it again: {error}")
            }),
            SocketEvent::Confirmed => self.maybe_settled(ctx),
            SocketEvent::Rejected(id) => {
                shared.fail("subscription_rejected", || id);
                if !self.cable.protocol.any_pending() {
                    self.nav = None;
                    self.settled(ctx);
                }
            }
            SocketEvent::Disconnected(reason) => {
                shared.fail("cable_disconnected", || format!("{reason:?}"));
            }
            SocketEvent::Resent(n) => shared.world().tally.resends += n,
        }
    }

    /// A subscription was confirmed: the navigation waiting for it ends once
    /// every subscription of its page is answered.
    fn maybe_settled(&mut self, ctx: &mut Ctx) {
        if self.cable.protocol.any_pending() {
            return;
        }
        let Some((kind, started)) = self.nav.take() else {
            return;
        };
        if let Some(room) = self.viewing {
            ctx.shared.world().start_viewing(self.id, room);
        }
        record_navigation(ctx.shared, kind, started);
        self.settled(ctx);
    }

    /// The last page is settled: a navigation waiting for it goes on.
    fn settled(&mut self, ctx: &mut Ctx) {
        if let Phase::Settling { kind, .. } = self.phase {
            self.visit(kind, false, ctx);
        }
    }

    fn navigate(&mut self, kind: NavKind, ctx: &mut Ctx) {
        if self.nav.is_some() {
            let until = Instant::now() + ctx.shared.spec.timeout;
            self.phase = Phase::Settling { kind, until };
        } else {
            self.visit(kind, false, ctx);
        }
    }

    /// Asks for a page of the navigation's kind.
    fn visit(&mut self, kind: NavKind, first: bool, ctx: &mut Ctx) {
        let shared = ctx.shared;
        if let Some((kind, _)) = self.nav.take() {
            let awaiting = self.cable.protocol.pending().collect::<Vec<_>>().join(", ");
            shared.fail("subscription_unconfirmed", || {
                format!("{} page: {awaiting}", kind.name())
            });
        }
        let rooms = &shared.memberships[self.account as usize];
        let viewing = self.viewing;
        let (kind, room) = match kind {
            NavKind::ScrollHistory if viewing.is_some() && self.oldest_message.is_some() => {
                (kind, viewing)
            }
            NavKind::Search => (kind, None),
            NavKind::ReturnToRoom => {
                let earlier: Vec<u32> = (self.opened.iter().copied())
                    .filter(|&r| Some(r) != viewing)
                    .collect();
                if earlier.is_empty() {
                    (kind, Some(rooms[self.dice.below(rooms.len())]))
                } else {
                    (kind, Some(earlier[self.dice.below(earlier.len())]))
                }
            }
            _ => (NavKind::OpenRoom, Some(rooms[self.dice.below(rooms.len())])),
        };
        let path = match (kind, room) {
            (NavKind::ScrollHistory, Some(room)) => format!(
                "/rooms/{room}/messages?before={}",
                self.oldest_message.unwrap_or(0)
            ),
            (NavKind::Search, _) => format!("/searches?q=hello+{}", self.dice.below(100)),
            (_, room) => format!("/rooms/{}", room.unwrap_or(1)),
        };
        let fragment = kind == NavKind::ScrollHistory;
        let newest = match (fragment, room) {
            (false, Some(room)) => shared.world().newest[room as usize].clone(),
            _ => None,
        };
        let visit = Box::new(Visit {
            kind,
            room,
            path,
            started: Instant::now(),
            fragment,
            newest,
            first,
        });
        let request = Request {
            method: "GET",
            path: &visit.path,
            form: None,
            accept: "text/html",
        };
        let progress = self.start_fetch(&request, ctx);
        self.phase = Phase::Visiting(visit);
        self.progressed(progress, ctx);
    }

    /// The page came, or did not: checked, and the page's subscriptions made.
    fn visited(&mut self, visit: Visit, outcome: Result<Fetched, FetchError>, ctx: &mut Ctx) {
        let shared = ctx.shared;
        let Visit {
            kind,
            room,
            path,
            started,
            fragment,
            newest,
            ..
        } = visit;
        let fetched = match outcome {
            Ok(fetched) => fetched,
            Err(e) => return shared.fail(e.cause(), || format!("GET {path}: {e}")),
        };
        let status = fetched.status;
        let body = fetched.body;
        let checked = (|| {
            if status != 200 {
                return Err(("status", format!("GET {path}: {status}")));
            }
            let Ok(html) = std::str::from_utf8(&body) else {
                return Err(("not_utf8", format!("GET {path}")));
            };
            let expect = PageExpectation {
                user_id: user_id(self.account),
                room,
                rooms: (!fragment).then_some(&shared.memberships[self.account as usize][..]),
                newest: newest.as_ref().map(|(client, id)| (client.as_str(), *id)),
                whole: !fragment,
            };
            if let Err(problem) = check_page(html, &expect) {
                return Err((problem.cause(), format!("GET {path}: {problem:?}")));
            }
            Ok(html)
        })();
        let html = match checked {
            Ok(html) => html,
            Err((cause, detail)) => {
                shared.fail(cause, || detail);
                ctx.bodies.push(body);
                return;
            }
        };
        let oldest = attr(html, "data-message-id").and_then(|id| id.parse().ok());
        if fragment {
            self.oldest_message = oldest.or(self.oldest_message);
            record_navigation(shared, kind, started);
            ctx.bodies.push(body);
            return;
        }
        // A whole page: Turbo disconnects the old page's stream sources and connects the new ones.
        let identifiers: Vec<String> = stream_sources(html)
            .iter()
            .map(|(channel, name)| stream_identifier(channel, name))
            .collect();
        ctx.bodies.push(body);
        if let Some(old) = self.viewing {
            shared.world().stop_viewing(self.id, old);
        }
        self.previous = self.viewing;
        self.viewing = room;
        self.oldest_message = oldest;
        if let Some(room) = room {
            self.opened.retain(|&r| r != room);
            self.opened.push(room);
            if self.opened.len() > 5 {
                self.opened.remove(0);
            }
        }
        for old in self.cable.protocol.subscribed() {
            self.cable.unsubscribe(&old);
        }
        let now = Instant::now();
        for id in &identifiers {
            self.cable.subscribe(id, now);
        }
        if identifiers.is_empty() {
            if let Some(room) = room {
                shared.world().start_viewing(self.id, room);
            }
            record_navigation(shared, kind, started);
        } else {
            self.nav = Some((kind, started));
        }
    }

    fn post(&mut self, ctx: &mut Ctx) {
        let shared = ctx.shared;
        let rooms = &shared.memberships[self.account as usize];
        let room = {
            let world = shared.world();
            let weight = |r: &u32| {
                u64::from(
                    world
                        .room_sizes
                        .get(*r as usize)
                        .copied()
                        .unwrap_or(1)
                        .max(1),
                )
            };
            let total: u64 = rooms.iter().map(weight).sum();
            let mut roll = self.dice.next() % total.max(1);
            let mut chosen = rooms[0];
            for r in rooms {
                if roll < weight(r) {
                    chosen = *r;
                    break;
                }
                roll -= weight(r);
            }
            chosen
        };
        self.seq += 1;
        let key = post_key(self.id, self.seq);
        let id = client_id(key);
        {
            let mut world = shared.world();
            world.expect_post(key, room);
            world.tally.posts += 1;
        }
        let form = format!("message%5Bbody%5D=hello+from+{id}&message%5Bclient_message_id%5D={id}");
        let post = Box::new(Post {
            key,
            room,
            path: format!("/rooms/{room}/messages"),
            id,
        });
        let request = Request {
            method: "POST",
            path: &post.path,
            form: Some(&form),
            accept: "text/vnd.turbo-stream.html, text/html",
        };
        let progress = self.start_fetch(&request, ctx);
        self.phase = Phase::Posting(post);
        self.progressed(progress, ctx);
    }

    fn posted(&mut self, post: Post, outcome: Result<Fetched, FetchError>, ctx: &mut Ctx) {
        let shared = ctx.shared;
        let Post {
            key,
            room,
            id,
            path,
        } = post;
        match outcome {
            Ok(f) if (200..300).contains(&f.status) => {
                let message_id = std::str::from_utf8(&f.body)
                    .ok()
                    .and_then(|html| attr(html, "data-message-id"))
                    .and_then(|m| m.parse().ok());
                ctx.bodies.push(f.body);
                let mut world = shared.world();
                world.tally.acknowledged += 1;
                if let Some(message) = message_id {
                    world.answered(key, message);
                }
                world.newest[room as usize] = Some((id.clone(), message_id));
                world.acknowledged.push(id);
            }
            Ok(f) => {
                shared.world().forget(key);
                let status = f.status;
                ctx.bodies.push(f.body);
                shared.fail("post_status", || format!("POST {path}: {status}"));
            }
            Err(e) => {
                shared.world().forget(key);
                shared.fail(e.cause(), || format!("POST {path}: {e:?}"));
            }
        }
    }

    fn fetch(&mut self, request: &Request, ctx: &mut Ctx) {
        let progress = self.start_fetch(request, ctx);
        self.progressed(progress, ctx);
    }

    fn start_fetch(&mut self, request: &Request, ctx: &mut Ctx) -> Progress {
        let slot = self.slot;
        let token = |g| token(slot, Socket::Browser, g);
        let body = ctx.bodies.pop().unwrap_or_default();
        self.browser.fetch(request, body, token, ctx.registry)
    }

    fn progressed(&mut self, progress: Progress, ctx: &mut Ctx) {
        if let Progress::Done(outcome) = progress {
            self.fetched(outcome, ctx);
        }
    }

    /// The request in flight ended: its sign-in, page or post goes on.
    fn fetched(&mut self, outcome: Result<Fetched, FetchError>, ctx: &mut Ctx) {
        let shared = ctx.shared;
        let reconnects = std::mem::take(&mut self.browser.reconnects);
        if reconnects > 0 {
            shared.world().tally.reconnects += reconnects;
        }
        let spec = &shared.spec;
        match std::mem::replace(&mut self.phase, Phase::Idle) {
            Phase::SigningIn => self.signed_in(outcome, ctx),
            Phase::Visiting(visit) => {
                let first = visit.first;
                self.visited(*visit, outcome, ctx);
                let now = Instant::now();
                self.next_nav = now + jitter(spec.navigate_every, &mut self.dice);
                if first {
                    self.next_post = now + spec.post_every.mul_f64(self.dice.unit());
                }
            }
            Phase::Posting(post) => {
                self.posted(*post, outcome, ctx);
                self.next_post = Instant::now() + jitter(spec.post_every, &mut self.dice);
            }
            other => {
                self.phase = other;
                if let Ok(f) = outcome {
                    ctx.bodies.push(f.body);
                }
            }
        }
    }
}

/// Between half and one and a half times `every`, so people do not march in step.
fn jitter(every: Duration, dice: &mut SplitMix) -> Duration {
    every.mul_f64(0.5 + dice.unit())
}

fn pick_kind(mix: &Mix, dice: &mut SplitMix) -> NavKind {
    let total = mix.open_room + mix.scroll_history + mix.search + mix.return_to_room;
    let mut roll = dice.unit() * total;
    for (kind, share) in [
        (NavKind::OpenRoom, mix.open_room),
        (NavKind::ScrollHistory, mix.scroll_history),
        (NavKind::Search, mix.search),
    ] {
        if roll < share {
            return kind;
        }
        roll -= share;
    }
    NavKind::ReturnToRoom
}

/// `application/x-www-form-urlencoded` escaping.
fn form_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn record_navigation(shared: &Shared, kind: NavKind, started: Instant) {
    let mut world = shared.world();
    if world.measuring {
        world.tally.navigated(kind, started.elapsed());
    }
}

/// A broadcast reached `person`: a post's delivery, checked for its room. A
/// message is known by the client message id in its DOM id (Campfire on
/// Rails), else by its `data-message-id` (the emitted Campfire numbers its
/// DOM ids), matched with the id the server's answer to the post gave.
fn received(
    shared: &Shared,
    person: usize,
    viewing: Option<u32>,
    previous: Option<u32>,
    html: &str,
) {
    enum Known {
        Key(u64),
        Message(u64),
    }
    let known = match message_client_ids(html).next().and_then(parse_client_id) {
        Some(key) => Known::Key(key),
        None => match attr(html, "data-message-id").and_then(|m| m.parse().ok()) {
            Some(id) => Known::Message(id),
            None => return,
        },
    };
    let room = permalink_rooms(html)
        .next()
        .and_then(|r| r.parse::<u32>().ok());
    if room.is_none() || (room != viewing && room != previous) {
        shared.fail("wrong_room_delivery", || {
            let what = match known {
                Known::Key(key) => client_id(key),
                Known::Message(id) => format!("message {id}"),
            };
            format!("{what} for room {room:?} reached a viewer of room {viewing:?}")
        });
        return;
    }
    match known {
        Known::Key(key) => {
            shared.world().delivered(key, person);
        }
        Known::Message(id) => shared.world().delivered_message(id, person),
    }
}
