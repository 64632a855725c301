//! One generator thread: its people, `shard`, `shard + threads`, …, in one
//! event loop, as the load's workers run their connections: one
//! `epoll_wait` (through mio) hands over the sockets that became ready, a
//! heap holds each person's earliest deadline, and a delivery is read,
//! checked and counted where it lands, with no task, channel or allocation
//! of its own.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mio::{Events, Poll, Token, Waker};

use super::TICK;
use super::person::{Ctx, Person, Shared};
use crate::connection::{self, Readiness};
use crate::spec::STOP_POLL;

/// How the controller and the tick thread reach one generator thread.
pub(crate) struct ShardLink {
    /// Wakes the thread's wait for sockets.
    pub waker: Waker,
    /// The people wanted across every thread: this one runs its share.
    pub people: AtomicUsize,
    /// When the oldest tick not yet handled fired, in nanoseconds after
    /// the run's start (0: none waiting).
    pub tick: AtomicU64,
}

/// The token of the thread's waker.
pub(crate) const WAKE: Token = Token(usize::MAX);

/// A person's two sockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Socket {
    Browser,
    Cable,
}

/// The token of a person's socket: the load's token (an index and the
/// socket's number), two indices a person.
pub(crate) fn token(slot: usize, socket: Socket, generation: usize) -> Token {
    let socket = match socket {
        Socket::Browser => 0,
        Socket::Cable => 1,
    };
    connection::token(slot * 2 + socket, generation)
}

fn untoken(token: Token) -> (usize, Socket, usize) {
    let (index, generation) = connection::untoken(token);
    let socket = if index % 2 == 0 {
        Socket::Browser
    } else {
        Socket::Cable
    };
    (index / 2, socket, generation)
}

/// Runs the thread's people until the load stops.
pub(crate) fn run_shard(
    shared: &Shared,
    shard: usize,
    threads: usize,
    mut poll: Poll,
    link: &ShardLink,
    started: Instant,
) -> Result<(), String> {
    let mut people: Vec<Person> = Vec::new();
    let mut timers: BinaryHeap<Reverse<(Instant, usize)>> = BinaryHeap::new();
    let mut buffer = vec![0u8; READ_BUFFER_BYTES].into_boxed_slice();
    let mut scratch = String::new();
    let mut bodies = Vec::new();
    let mut news = Vec::new();
    let mut events = Events::with_capacity(WORK_A_PASS);
    macro_rules! ctx {
        () => {
            &mut Ctx {
                shared,
                registry: poll.registry(),
                buffer: &mut buffer,
                scratch: &mut scratch,
                bodies: &mut bodies,
                news: &mut news,
            }
        };
    }
    // After a person acts: a timer entry stands no later than their next deadline.
    let arm = |person: &mut Person, slot: usize, timers: &mut BinaryHeap<_>| {
        if let Some(at) = person.deadline()
            && person.armed.is_none_or(|armed| at < armed)
        {
            timers.push(Reverse((at, slot)));
            person.armed = Some(at);
        }
    };
    let mut woke = Instant::now();
    // The last wait ended within BATCH; it handed over a full pass.
    let (mut busy, mut backlog) = (false, false);
    while !shared.is_stopped() {
        // A pass starts, acts for and reads at most WORK_A_PASS people
        // each; what is left (`pending`) is done in the next pass, which
        // does not wait.
        let wanted = link.people.load(Ordering::Relaxed);
        let mut next = shard + people.len() * threads;
        let mut started_now = 0;
        while next < wanted && started_now < WORK_A_PASS && !shared.is_stopped() {
            let slot = people.len();
            let mut person = Person::new(shared, next, slot);
            person.start(ctx!());
            arm(&mut person, slot, &mut timers);
            people.push(person);
            next += threads;
            started_now += 1;
        }
        let mut pending = next < wanted;
        let now = Instant::now();
        let fired = link.tick.swap(0, Ordering::Relaxed);
        if fired != 0 {
            let late = now.saturating_duration_since(started + Duration::from_nanos(fired));
            let mut world = shared.world();
            if world.measuring {
                world.tally.lagged(late, TICK);
            }
        }
        let mut due_now = 0;
        while let Some(&Reverse((at, slot))) = timers.peek()
            && at <= now
            && !shared.is_stopped()
        {
            if due_now == WORK_A_PASS {
                pending = true;
                break;
            }
            due_now += 1;
            timers.pop();
            let person = &mut people[slot];
            if person.armed == Some(at) {
                person.armed = None;
            }
            person.on_timer(now, ctx!());
            arm(person, slot, &mut timers);
        }
        // Busy, the thread waits no sooner than BATCH after its last
        // wake-up (unless sockets or due work are still waiting from the last pass):
        // what arrives meanwhile is read in one pass.
        let mut now = now;
        if busy && !backlog && !pending && woke + BATCH > now {
            std::thread::sleep(woke + BATCH - now);
            now = Instant::now();
        }
        let wait = match timers.peek() {
            _ if pending => Duration::ZERO,
            Some(Reverse((at, _))) => at.saturating_duration_since(now).min(STOP_POLL),
            None => STOP_POLL,
        };
        if let Err(e) = poll.poll(&mut events, Some(wait))
            && e.kind() != std::io::ErrorKind::Interrupted
        {
            return Err(format!("waiting for sockets: {e}"));
        }
        woke = Instant::now();
        busy = woke - now < BATCH;
        backlog = events.iter().count() == WORK_A_PASS;
        for event in &events {
            if event.token() == WAKE {
                continue;
            }
            let (slot, socket, generation) = untoken(event.token());
            let Some(person) = people.get_mut(slot) else {
                continue;
            };
            let readiness = Readiness::from(event);
            person.on_event(socket, generation, readiness, ctx!());
            arm(person, slot, &mut timers);
        }
    }
    Ok(())
}

/// While the thread is busy (its last wait for sockets ended within this
/// much), it waits no sooner than this after its last wake-up, so that a
/// burst of deliveries is read in a few passes rather than with a wake-up
/// each: a wake-up costs a busy generator more than the delivery it reads
/// (and the server, which would wake it, as much again). What arrives
/// meanwhile is seen up to this much later, which the timer lag shows.
const BATCH: Duration = Duration::from_micros(200);

/// People started, timers handled and sockets read between two looks at
/// the clock: a burst (a post to a busy room reaches thousands at once; a
/// stalled server's thousands of requests time out together; a step adds
/// thousands of people) holds up the thread's ticks and the rest of its
/// work for no longer than this many of each take.
const WORK_A_PASS: usize = 64;

/// How much one read takes: a page in one or two reads, or a burst of deliveries.
const READ_BUFFER_BYTES: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_person_socket_and_generation() {
        for (slot, socket, generation) in [
            (0, Socket::Browser, 1),
            (0, Socket::Cable, 1),
            (9_999, Socket::Cable, 65_535),
            (123_456, Socket::Browser, 7),
        ] {
            assert_eq!(
                untoken(token(slot, socket, generation)),
                (slot, socket, generation)
            );
        }
        assert_eq!(
            untoken(token(3, Socket::Cable, connection::GENERATIONS + 2)).2,
            2
        );
        assert_ne!(
            token(500_000, Socket::Cable, connection::GENERATIONS - 1),
            WAKE
        );
    }
}
