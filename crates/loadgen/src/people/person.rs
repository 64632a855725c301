//! One simulated person: signs in, holds a cable, navigates on a schedule
//! with the recipe's mix, posts into their rooms, and checks every page and
//! every delivery. Two tasks per person on one generator thread: the person
//! (HTTP) and their cable (WebSocket), sharing `Me`. A task lives as long as
//! its person and is as large as the largest future it holds across an
//! await, so the ones a person is rarely in (signing in, connecting, a page
//! load, a post, a subscribe) are boxed for their duration: a waiting person
//! holds only what waiting needs.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::browser::{Browser, FetchError};
use super::page::{
    PageExpectation, attr, check_page, message_client_ids, permalink_rooms, stream_sources,
};
use super::roster::{Dice, email, user_id};
use super::tally::NavKind;
use super::world::{World, client_id, parse_client_id, post_key};
use super::{Mix, PeopleSpec};
use crate::cable::{Cable, CableConfig, CableError, CableEvent, STALE_AFTER, stream_identifier};

/// What every generator thread shares between its people.
pub(crate) struct Shared {
    pub spec: PeopleSpec,
    pub addr: SocketAddr,
    pub memberships: Vec<Vec<u32>>,
    pub world: Mutex<World>,
    pub stopped: AtomicBool,
}

thread_local! {
    /// Response buffers of this generator thread, lent to a person for one
    /// request: memory grows with the requests in flight, not with the people.
    static BUFFERS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// A response buffer borrowed from [`BUFFERS`], given back on drop.
struct Buffer {
    bytes: Vec<u8>,
}

impl Buffer {
    fn take() -> Buffer {
        Buffer {
            bytes: BUFFERS.with(|b| b.borrow_mut().pop()).unwrap_or_default(),
        }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let mut bytes = std::mem::take(&mut self.bytes);
        bytes.clear();
        BUFFERS.with(|b| b.borrow_mut().push(bytes));
    }
}

impl Shared {
    /// The shared state; a panic elsewhere does not hide it.
    pub fn world(&self) -> MutexGuard<'_, World> {
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

/// A person's page state, shared by their HTTP task and their cable task.
struct Me {
    person: usize,
    /// The room whose page is up (its subscriptions may still be unconfirmed).
    viewing: Option<u32>,
    previous: Option<u32>,
    /// Rooms opened before, for "return to a room".
    opened: Vec<u32>,
    subscriptions: Vec<String>,
    awaiting: Vec<String>,
    /// The navigation waiting for its subscriptions: its kind and start.
    nav: Option<(NavKind, Instant)>,
    oldest_message: Option<u64>,
    /// Woken when a navigation's subscriptions are all answered.
    settled: Rc<Notify>,
    /// What the cable is to send, in order: a queue here and a wake-up
    /// rather than a channel, which would cost a person its block of slots.
    commands: VecDeque<Command>,
    /// Woken when a command is queued.
    cable_wake: Rc<Notify>,
}

enum Command {
    Subscribe(String),
    Unsubscribe(String),
    /// The person is done: close the cable.
    Close,
}

impl Me {
    fn send(&mut self, command: Command) {
        self.commands.push_back(command);
        self.cable_wake.notify_one();
    }
}

/// Runs one person until the generator stops.
pub(crate) async fn run_person(shared: Arc<Shared>, person: usize) {
    let spec = &shared.spec;
    let account = (person % spec.accounts.max(1) as usize) as u32;
    let mut dice = Dice::new(spec.seed ^ (person as u64).wrapping_mul(0x1000_0001));
    let mut browser = Browser::new(shared.addr, spec.timeout, spec.keep_alive);
    match &spec.sessions {
        Some(minted) => browser.cookie = minted.get(account as usize).cloned(),
        None => {
            if !Box::pin(sign_in(
                &shared,
                &mut browser,
                account,
                &mut Buffer::take().bytes,
            ))
            .await
            {
                return;
            }
        }
    }
    let mut config = CableConfig::new(format!("ws://{}{}", shared.addr, spec.cable_path));
    config.cookie = browser.cookie.clone();
    config.origin = Some(format!("http://{}", shared.addr));
    config.timeout = spec.timeout;
    let cable = match Box::pin(Cable::connect(&config)).await {
        Ok(cable) => cable,
        Err(e) => {
            shared.fail("cable_connect", || e.to_string());
            return;
        }
    };
    let me = Rc::new(RefCell::new(Me {
        person,
        viewing: None,
        previous: None,
        opened: Vec::new(),
        subscriptions: Vec::new(),
        awaiting: Vec::new(),
        nav: None,
        oldest_message: None,
        settled: Rc::new(Notify::new()),
        commands: VecDeque::new(),
        cable_wake: Rc::new(Notify::new()),
    }));
    tokio::task::spawn_local(run_cable(shared.clone(), me.clone(), config, cable));

    let rooms = &shared.memberships[account as usize];
    let mut person_state = PersonLoop {
        shared: &shared,
        me: &me,
        browser,
        account,
        rooms,
        seq: 0,
    };
    Box::pin(person_state.navigate(NavKind::OpenRoom, &mut dice, &mut Buffer::take().bytes)).await;
    let mut next_nav = Instant::now() + jitter(spec.navigate_every, &mut dice);
    let mut next_post = Instant::now() + spec.post_every.mul_f64(dice.unit());
    // No polling for the stop: when the generator stops, its threads drop
    // every person's task. A timer a person only when they have something to do.
    while !shared.is_stopped() {
        let due = next_nav.min(next_post);
        let now = Instant::now();
        if due > now {
            tokio::time::sleep_until(due.into()).await;
            continue;
        }
        if next_post <= now {
            Box::pin(person_state.post(&mut dice, &mut Buffer::take().bytes)).await;
            next_post = Instant::now() + jitter(spec.post_every, &mut dice);
        } else {
            let kind = pick_kind(&spec.mix, &mut dice);
            Box::pin(person_state.navigate(kind, &mut dice, &mut Buffer::take().bytes)).await;
            next_nav = Instant::now() + jitter(spec.navigate_every, &mut dice);
        }
    }
    let viewing = me.borrow().viewing;
    if let Some(room) = viewing {
        shared.world().stop_viewing(person, room);
    }
    me.borrow_mut().send(Command::Close);
}

/// Between half and one and a half times `every`, so people do not march in step.
fn jitter(every: Duration, dice: &mut Dice) -> Duration {
    every.mul_f64(0.5 + dice.unit())
}

fn pick_kind(mix: &Mix, dice: &mut Dice) -> NavKind {
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

async fn sign_in(shared: &Shared, browser: &mut Browser, account: u32, body: &mut Vec<u8>) -> bool {
    let spec = &shared.spec;
    let form = format!(
        "email_address={}&password={}",
        form_escape(&email(account)),
        form_escape(&spec.password)
    );
    while !shared.is_stopped() {
        let slot = shared.world().sign_in_slot(spec.sign_in_per_s);
        tokio::time::sleep_until(slot.into()).await;
        match browser
            .fetch("POST", &spec.sign_in_path, Some(&form), "text/html", body)
            .await
        {
            Ok(f) if (300..400).contains(&f.status) && f.cookie.is_some() => {
                browser.cookie = f.cookie;
                return true;
            }
            Ok(f) if f.status == 429 => {
                shared.world().sign_in_retries += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Ok(f) => {
                shared.fail("sign_in", || {
                    format!("{} answered {}", email(account), f.status)
                });
                return false;
            }
            Err(e) => {
                shared.fail(e.cause(), || format!("signing in: {e}"));
                tokio::time::sleep(spec.navigate_every).await;
            }
        }
    }
    false
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

struct PersonLoop<'a> {
    shared: &'a Shared,
    me: &'a Rc<RefCell<Me>>,
    browser: Browser,
    account: u32,
    rooms: &'a [u32],
    seq: u32,
}

impl PersonLoop<'_> {
    async fn fetch(
        &mut self,
        method: &str,
        path: &str,
        form: Option<&str>,
        accept: &str,
        body: &mut Vec<u8>,
    ) -> Result<u16, FetchError> {
        let before = self.browser.reconnects;
        let fetched = self.browser.fetch(method, path, form, accept, body).await;
        let reconnects = self.browser.reconnects - before;
        if reconnects > 0 {
            self.shared.world().tally.reconnects += reconnects;
        }
        fetched.map(|f| f.status)
    }

    async fn navigate(&mut self, kind: NavKind, dice: &mut Dice, body: &mut Vec<u8>) {
        let shared = self.shared;
        let timeout = shared.spec.timeout;
        // Like a user, wait for the last page to finish subscribing before moving on.
        let until = Instant::now() + timeout;
        let settled = self.me.borrow().settled.clone();
        while self.me.borrow().nav.is_some() && Instant::now() < until {
            let _ = tokio::time::timeout_at(until.into(), settled.notified()).await;
        }
        let abandoned = self.me.borrow_mut().nav.take();
        if let Some((kind, _)) = abandoned {
            let awaiting = self.me.borrow().awaiting.join(", ");
            shared.fail("subscription_unconfirmed", || {
                format!("{} page: {awaiting}", kind.name())
            });
        }
        let (viewing, oldest) = {
            let me = self.me.borrow();
            (me.viewing, me.oldest_message)
        };
        let (kind, room) = match kind {
            NavKind::ScrollHistory if viewing.is_some() && oldest.is_some() => (kind, viewing),
            NavKind::Search => (kind, None),
            NavKind::ReturnToRoom => {
                let me = self.me.borrow();
                let earlier: Vec<u32> = me
                    .opened
                    .iter()
                    .copied()
                    .filter(|&r| Some(r) != viewing)
                    .collect();
                if earlier.is_empty() {
                    (kind, Some(self.rooms[dice.below(self.rooms.len())]))
                } else {
                    (kind, Some(earlier[dice.below(earlier.len())]))
                }
            }
            _ => (
                NavKind::OpenRoom,
                Some(self.rooms[dice.below(self.rooms.len())]),
            ),
        };
        let path = match (kind, room) {
            (NavKind::ScrollHistory, Some(room)) => {
                format!("/rooms/{room}/messages?before={}", oldest.unwrap_or(0))
            }
            (NavKind::Search, _) => format!("/searches?q=hello+{}", dice.below(100)),
            (_, room) => format!("/rooms/{}", room.unwrap_or(1)),
        };
        let fragment = kind == NavKind::ScrollHistory;
        let newest = match (fragment, room) {
            (false, Some(room)) => shared.world().newest[room as usize].clone(),
            _ => None,
        };
        let started = Instant::now();
        let status = match self.fetch("GET", &path, None, "text/html", body).await {
            Ok(status) => status,
            Err(e) => {
                shared.fail(e.cause(), || format!("GET {path}: {e}"));
                return;
            }
        };
        if status != 200 {
            shared.fail("status", || format!("GET {path}: {status}"));
            return;
        }
        let Ok(html) = std::str::from_utf8(body) else {
            shared.fail("not_utf8", || format!("GET {path}"));
            return;
        };
        let expect = PageExpectation {
            user_id: user_id(self.account),
            room,
            rooms: (!fragment).then_some(self.rooms),
            newest: newest.as_ref().map(|(client, id)| (client.as_str(), *id)),
            whole: !fragment,
        };
        if let Err(problem) = check_page(html, &expect) {
            shared.fail(problem.cause(), || format!("GET {path}: {problem:?}"));
            return;
        }
        let oldest = attr(html, "data-message-id").and_then(|id| id.parse().ok());
        if fragment {
            let mut me = self.me.borrow_mut();
            me.oldest_message = oldest.or(me.oldest_message);
            drop(me);
            record_navigation(shared, kind, started);
            return;
        }
        // A whole page: Turbo disconnects the old page's stream sources and connects the new ones.
        let identifiers: Vec<String> = stream_sources(html)
            .iter()
            .map(|(channel, name)| stream_identifier(channel, name))
            .collect();
        let mut me = self.me.borrow_mut();
        if let Some(old) = me.viewing {
            shared.world().stop_viewing(me.person, old);
        }
        me.previous = me.viewing;
        me.viewing = room;
        me.oldest_message = oldest;
        if let Some(room) = room {
            me.opened.retain(|&r| r != room);
            me.opened.push(room);
            if me.opened.len() > 5 {
                me.opened.remove(0);
            }
        }
        for old in std::mem::take(&mut me.subscriptions) {
            me.send(Command::Unsubscribe(old));
        }
        for id in &identifiers {
            me.send(Command::Subscribe(id.clone()));
        }
        me.awaiting = identifiers.clone();
        me.subscriptions = identifiers;
        if me.awaiting.is_empty() {
            if let Some(room) = room {
                shared.world().start_viewing(me.person, room);
            }
            record_navigation(shared, kind, started);
        } else {
            me.nav = Some((kind, started));
        }
    }

    async fn post(&mut self, dice: &mut Dice, body: &mut Vec<u8>) {
        let shared = self.shared;
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
            let total: u64 = self.rooms.iter().map(weight).sum();
            let mut roll = dice.next() % total.max(1);
            let mut chosen = self.rooms[0];
            for r in self.rooms {
                if roll < weight(r) {
                    chosen = *r;
                    break;
                }
                roll -= weight(r);
            }
            chosen
        };
        self.seq += 1;
        let person = self.me.borrow().person;
        let key = post_key(person, self.seq);
        let id = client_id(key);
        {
            let mut world = shared.world();
            world.expect_post(key, room);
            world.tally.posts += 1;
        }
        let form = format!("message%5Bbody%5D=hello+from+{id}&message%5Bclient_message_id%5D={id}");
        let path = format!("/rooms/{room}/messages");
        let accept = "text/vnd.turbo-stream.html, text/html";
        match self.fetch("POST", &path, Some(&form), accept, body).await {
            Ok(status) if (200..300).contains(&status) => {
                let message_id = std::str::from_utf8(body)
                    .ok()
                    .and_then(|html| attr(html, "data-message-id"))
                    .and_then(|m| m.parse().ok());
                let mut world = shared.world();
                world.tally.acknowledged += 1;
                if let Some(message) = message_id {
                    world.answered(key, message);
                }
                world.newest[room as usize] = Some((id.clone(), message_id));
                world.acknowledged.push(id);
            }
            outcome => {
                shared.world().forget(key);
                match outcome {
                    Ok(status) => shared.fail("post_status", || format!("POST {path}: {status}")),
                    Err(e) => shared.fail(e.cause(), || format!("POST {path}: {e:?}")),
                }
            }
        }
    }
}

fn record_navigation(shared: &Shared, kind: NavKind, started: Instant) {
    let mut world = shared.world();
    if world.measuring {
        world.tally.navigated(kind, started.elapsed());
    }
}

/// The person's cable: carries out subscribe / unsubscribe commands and
/// checks what arrives. Like `@rails/actioncable`'s connection monitor, a
/// cable that closes or goes stale is opened again and the page's
/// subscriptions sent again — counted, not failed; deliveries missed
/// meanwhile are still owed and count as lost.
async fn run_cable(
    shared: Arc<Shared>,
    me: Rc<RefCell<Me>>,
    config: CableConfig,
    mut cable: Cable,
) {
    let wake = me.borrow().cable_wake.clone();
    let mut resends_seen = 0;
    // One timer, due when the cable would be stale; moved on when pings have
    // come meanwhile (they come every 3 s), rather than a check every second.
    let stale = tokio::time::sleep_until((cable.last_ping() + STALE_AFTER).into());
    tokio::pin!(stale);
    let mut reopened: Option<Instant> = None;
    // One wait for commands, kept across turns: not a waiter added to and
    // taken from the Notify's list each time a delivery comes.
    let queued = wake.notified();
    tokio::pin!(queued);
    loop {
        let lost: Option<String> = tokio::select! {
            biased;
            () = &mut queued => {
                queued.set(wake.notified());
                // One command a turn, as they come; a wake-up for the rest.
                let command = {
                    let mut me = me.borrow_mut();
                    let command = me.commands.pop_front();
                    if !me.commands.is_empty() {
                        wake.notify_one();
                    }
                    command
                };
                let sent = match command {
                    None => Ok(()),
                    Some(Command::Close) => break,
                    Some(Command::Subscribe(id)) => Box::pin(cable.subscribe(&id)).await,
                    Some(Command::Unsubscribe(id)) => Box::pin(cable.unsubscribe(&id)).await,
                };
                sent.err().map(|e| e.to_string())
            }
            event = cable.next_event() => match event {
                Ok(CableEvent::Confirmed(id)) => { confirmed(&shared, &me, &id); None }
                Ok(CableEvent::Rejected(id)) => {
                    shared.fail("subscription_rejected", || id.clone());
                    let mut me = me.borrow_mut();
                    me.awaiting.retain(|a| a != &id);
                    if me.awaiting.is_empty() {
                        me.nav = None;
                        me.settled.notify_one();
                    }
                    None
                }
                Ok(CableEvent::Message { message, .. }) => { received(&shared, &me, &message); None }
                Ok(CableEvent::Ping) => None,
                Ok(CableEvent::Disconnect { reason, reconnect: false }) => {
                    shared.fail("cable_disconnected", || format!("{reason:?}"));
                    break;
                }
                Ok(CableEvent::Disconnect { reason, reconnect: true }) => {
                    Some(format!("the server disconnected ({reason:?})"))
                }
                Err(e) => Some(e.to_string()),
            },
            _ = &mut stale => {
                let due = cable.last_ping() + STALE_AFTER;
                stale.as_mut().reset((due.max(Instant::now() + Duration::from_millis(10))).into());
                cable.is_stale(Instant::now()).then(|| "no ping for over 6 s".to_owned())
            }
        };
        let resends = cable.resends();
        if resends > resends_seen {
            shared.world().tally.resends += resends - resends_seen;
        }
        resends_seen = resends;
        if let Some(why) = lost {
            if shared.is_stopped() {
                return;
            }
            // A cable that keeps dropping is reopened at most once a second,
            // not in a tight loop against a struggling server.
            if let Some(at) = reopened {
                tokio::time::sleep_until((at + REOPEN_AT_MOST_EVERY).into()).await;
            }
            reopened = Some(Instant::now());
            match Box::pin(reopen(&config, &me)).await {
                Ok(fresh) => {
                    cable = fresh;
                    resends_seen = 0;
                    stale
                        .as_mut()
                        .reset((cable.last_ping() + STALE_AFTER).into());
                    shared.world().tally.cable_reconnects += 1;
                }
                Err(e) => {
                    shared.fail("cable_closed", || format!("{why}; opening it again: {e}"));
                    return;
                }
            }
        }
    }
    cable.close().await;
}

const REOPEN_AT_MOST_EVERY: Duration = Duration::from_secs(1);

/// A new cable with the page's subscriptions sent again.
async fn reopen(config: &CableConfig, me: &RefCell<Me>) -> Result<Cable, CableError> {
    let mut cable = Cable::connect(config).await?;
    let subscriptions = me.borrow().subscriptions.clone();
    for id in &subscriptions {
        cable.subscribe(id).await?;
    }
    Ok(cable)
}

fn confirmed(shared: &Shared, me: &RefCell<Me>, id: &str) {
    let mut me = me.borrow_mut();
    let Some(at) = me.awaiting.iter().position(|a| a == id) else {
        return;
    };
    me.awaiting.swap_remove(at);
    if me.awaiting.is_empty()
        && let Some((kind, started)) = me.nav.take()
    {
        if let Some(room) = me.viewing {
            shared.world().start_viewing(me.person, room);
        }
        record_navigation(shared, kind, started);
        me.settled.notify_one();
    }
}

/// A broadcast: a post's delivery to this person, checked for its room. A
/// message is known by the client message id in its DOM id (Campfire on
/// Rails), else by its `data-message-id` (the emitted Campfire numbers its
/// DOM ids), matched with the id the server's answer to the post gave.
fn received(shared: &Shared, me: &RefCell<Me>, message: &serde_json::Value) {
    enum Known {
        Key(u64),
        Message(u64),
    }
    let Some(html) = message.as_str() else {
        return;
    };
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
    let me = me.borrow();
    if room.is_none() || (room != me.viewing && room != me.previous) {
        shared.fail("wrong_room_delivery", || {
            let what = match known {
                Known::Key(key) => client_id(key),
                Known::Message(id) => format!("message {id}"),
            };
            format!(
                "{what} for room {room:?} reached a viewer of room {:?}",
                me.viewing
            )
        });
        return;
    }
    match known {
        Known::Key(key) => {
            shared.world().delivered(key, me.person);
        }
        Known::Message(id) => shared.world().delivered_message(id, me.person),
    }
}
