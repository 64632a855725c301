//! What every person on every generator thread shares: the running step's
//! tally, who is viewing which room, posts waiting for their deliveries, and
//! the newest acknowledged post per room.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::tally::Tally;

/// A post sent into a room, waiting to reach everyone who was viewing it.
pub(crate) struct Pending {
    pub room: u32,
    pub sent: Instant,
    pub step: usize,
    /// People viewing the room when the post was sent, not yet reached.
    pub waiting: PeopleSet,
    /// The message id the server's answer gave it, once answered.
    pub message: Option<u64>,
}

/// A set of people as one bit each: a post owed to thousands of viewers
/// is made, and each delivery struck off, without hashing.
#[derive(Debug, Default, Clone)]
pub(crate) struct PeopleSet {
    bits: Vec<u64>,
    len: usize,
}

impl PeopleSet {
    pub fn of(people: &[usize]) -> PeopleSet {
        let words = people.iter().max().map_or(0, |&max| max / 64 + 1);
        let mut set = PeopleSet {
            bits: vec![0; words],
            len: 0,
        };
        for &person in people {
            let (word, bit) = (person / 64, 1u64 << (person % 64));
            if set.bits[word] & bit == 0 {
                set.bits[word] |= bit;
                set.len += 1;
            }
        }
        set
    }

    /// Strikes `person` off; false when they were not in the set.
    pub fn remove(&mut self, person: &usize) -> bool {
        let (word, bit) = (person / 64, 1u64 << (person % 64));
        match self.bits.get_mut(word) {
            Some(w) if *w & bit != 0 => {
                *w &= !bit;
                self.len -= 1;
                true
            }
            _ => false,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

pub(crate) struct Simulation {
    pub tally: Tally,
    /// Whether the running step is being measured (not warming up).
    pub measuring: bool,
    pub step: usize,
    /// Per room (index = room id), the people whose room page is up and subscribed.
    pub viewers: Vec<Vec<usize>>,
    /// Room sizes, for posting weighted by membership.
    pub room_sizes: Vec<u32>,
    pub pending: HashMap<u64, Pending>,
    /// Pending posts by the message id the server gave them: a delivery
    /// whose markup names no client message id (the emitted Campfire's
    /// `id="message_<id>"`) is matched by its `data-message-id`.
    pub by_message: HashMap<u64, u64>,
    /// Deliveries of message ids not answered yet (a broadcast can arrive
    /// before the answer to its post): who got them and when.
    pub early: HashMap<u64, Vec<(usize, Instant)>>,
    /// Per room, the newest post acknowledged in it: its client message id
    /// and the message id the server's answer gave it.
    pub newest: Vec<Option<(String, Option<u64>)>>,
    pub acknowledged: Vec<String>,
    /// When the next sign-in may start (Campfire rate-limits sign-ins).
    pub next_sign_in: Instant,
    pub sign_in_retries: u64,
    /// How long a post may take to reach a viewer before it counts as lost.
    pub lost_after: Duration,
}

impl Simulation {
    pub fn new(rooms: u32, room_sizes: Vec<u32>, lost_after: Duration) -> Simulation {
        Simulation {
            tally: Tally::new(),
            measuring: false,
            step: 0,
            viewers: vec![Vec::new(); rooms as usize + 1],
            room_sizes,
            pending: HashMap::new(),
            by_message: HashMap::new(),
            early: HashMap::new(),
            newest: vec![None; rooms as usize + 1],
            acknowledged: Vec::new(),
            next_sign_in: Instant::now(),
            sign_in_retries: 0,
            lost_after,
        }
    }

    /// Where step `step` of `people` stands, `elapsed` into its phase.
    pub fn live(&self, step: usize, people: u32, elapsed: Duration) -> super::LiveStep {
        // Until the step is measured, the tally still holds the last step's.
        let tally = self.measuring.then_some(&self.tally);
        super::LiveStep {
            step,
            people,
            measuring: self.measuring,
            elapsed,
            navigations: tally.map_or(0, |t| t.navigation.len()),
            navigation_p99_ms: tally
                .filter(|t| !t.navigation.is_empty())
                .map(|t| t.navigation.value_at_quantile(0.99) as f64 / 1000.0),
            failures: tally.map_or(0, |t| t.failures.values().sum()),
        }
    }

    /// A sign-in slot at most `per_s` a second: when this person may sign in.
    pub fn sign_in_slot(&mut self, per_s: f64) -> Instant {
        let now = Instant::now();
        let slot = self.next_sign_in.max(now);
        self.next_sign_in = slot + Duration::from_secs_f64(1.0 / per_s.max(1e-3));
        slot
    }

    pub fn start_viewing(&mut self, person: usize, room: u32) {
        if let Some(v) = self.viewers.get_mut(room as usize)
            && !v.contains(&person)
        {
            v.push(person);
        }
    }

    /// The person left the room: posts still on their way there are no longer
    /// owed to them, but a post that had `lost_after` to reach them and did not is lost.
    pub fn stop_viewing(&mut self, person: usize, room: u32) {
        if let Some(v) = self.viewers.get_mut(room as usize) {
            v.retain(|&p| p != person);
        }
        let now = Instant::now();
        let mut lost = Vec::new();
        for (key, pending) in self.pending.iter_mut().filter(|(_, p)| p.room == room) {
            if pending.waiting.remove(&person)
                && now.saturating_duration_since(pending.sent) > self.lost_after
            {
                lost.push(*key);
            }
        }
        for key in lost {
            self.tally.fail("lost_delivery", || {
                format!(
                    "post {} in room {room} did not reach a viewer in time",
                    client_id(key)
                )
            });
        }
    }

    /// A post is about to be sent: everyone viewing its room is owed it.
    pub fn expect_post(&mut self, key: u64, room: u32) {
        let waiting = self
            .viewers
            .get(room as usize)
            .map(|v| PeopleSet::of(v))
            .unwrap_or_default();
        self.pending.insert(
            key,
            Pending {
                room,
                sent: Instant::now(),
                step: self.step,
                waiting,
                message: None,
            },
        );
    }

    /// The server answered post `key` with message id `message`: deliveries
    /// of that id that came first are counted now, at the time they came.
    pub fn answered(&mut self, key: u64, message: u64) {
        let Some(pending) = self.pending.get_mut(&key) else {
            return;
        };
        pending.message = Some(message);
        self.by_message.insert(message, key);
        for (person, at) in self.early.remove(&message).unwrap_or_default() {
            self.delivered_at(key, person, at);
        }
    }

    /// Message `message` (known by its message id only) reached `person`.
    pub fn delivered_message(&mut self, message: u64, person: usize) {
        match self.by_message.get(&message) {
            Some(&key) => {
                self.delivered(key, person);
            }
            None => self
                .early
                .entry(message)
                .or_default()
                .push((person, Instant::now())),
        }
    }

    /// A message reached `person`; records its latency when it was owed and measured.
    /// Returns false when it was not owed to them (unknown post or not viewing).
    pub fn delivered(&mut self, key: u64, person: usize) -> bool {
        self.delivered_at(key, person, Instant::now())
    }

    fn delivered_at(&mut self, key: u64, person: usize, at: Instant) -> bool {
        let Some(pending) = self.pending.get_mut(&key) else {
            return false;
        };
        if !pending.waiting.remove(&person) {
            return false;
        }
        if pending.step == self.step {
            let took = at.saturating_duration_since(pending.sent);
            self.tally.delivered(took);
        }
        if pending.waiting.is_empty() {
            self.forget(key);
        }
        true
    }

    /// Post `key` is owed to no one any more.
    pub fn forget(&mut self, key: u64) {
        if let Some(Pending {
            message: Some(id), ..
        }) = self.pending.remove(&key)
        {
            self.by_message.remove(&id);
        }
    }

    /// At the end of step `step`: every post of that step sent before `cutoff`
    /// and still owed to someone is lost; younger posts are judged with the next step.
    pub fn settle_step(&mut self, step: usize, cutoff: Instant) {
        let mut lost = 0u64;
        let mut sample = None;
        // Deliveries of messages no post of ours was answered with (other
        // people's, or answers that never came) are not kept for ever.
        let lost_after = self.lost_after;
        self.early
            .retain(|_, got| got.iter().any(|(_, at)| at.elapsed() < lost_after));
        let by_message = &mut self.by_message;
        self.pending.retain(|key, p| {
            if p.step != step {
                return true;
            }
            if p.sent >= cutoff {
                p.step = step + 1;
                return true;
            }
            if !p.waiting.is_empty() {
                lost += p.waiting.len() as u64;
                sample.get_or_insert((*key, p.room, p.waiting.len()));
            }
            if let Some(id) = p.message {
                by_message.remove(&id);
            }
            false
        });
        if let Some((key, room, n)) = sample {
            let id = client_id(key);
            for _ in 0..lost {
                self.tally.fail("lost_delivery", || {
                    format!(
                        "post {id} in room {room} never reached {n} viewer{}",
                        if n == 1 { "" } else { "s" }
                    )
                });
            }
        }
    }
}

/// The post key of person `person`'s `seq`-th post.
pub(crate) fn post_key(person: usize, seq: u32) -> u64 {
    (person as u64) << 32 | u64::from(seq)
}

/// The client message id a post carries, e.g. `p12-3`.
pub(crate) fn client_id(key: u64) -> String {
    format!("p{}-{}", key >> 32, key & 0xffff_ffff)
}

/// The post key in a client message id.
pub(crate) fn parse_client_id(id: &str) -> Option<u64> {
    let (person, seq) = id.strip_prefix('p')?.split_once('-')?;
    Some(post_key(person.parse().ok()?, seq.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world_with_viewers(viewers: &[usize]) -> Simulation {
        let mut world = Simulation::new(2, vec![10, 10], Duration::from_secs(5));
        for &p in viewers {
            world.start_viewing(p, 1);
        }
        world
    }

    #[test]
    fn a_delivery_known_by_message_id_counts_once_the_post_is_answered() {
        let mut world = world_with_viewers(&[1, 2]);
        let key = post_key(7, 1);
        world.expect_post(key, 1);
        // The broadcast to person 1 comes before the answer to the post.
        world.delivered_message(41, 1);
        assert_eq!(world.tally.delivery.len(), 0);
        world.answered(key, 41);
        assert_eq!(world.tally.delivery.len(), 1);
        // Person 2's comes after it; then the post is owed to no one.
        world.delivered_message(41, 2);
        assert_eq!(world.tally.delivery.len(), 2);
        assert!(world.pending.is_empty() && world.by_message.is_empty());
        assert!(world.early.is_empty());
    }

    #[test]
    fn a_post_still_owed_at_the_end_of_its_step_is_lost() {
        let mut world = world_with_viewers(&[1, 2]);
        let key = post_key(7, 1);
        world.expect_post(key, 1);
        world.answered(key, 41);
        world.delivered_message(41, 1);
        world.settle_step(0, Instant::now() + Duration::from_secs(1));
        assert_eq!(world.tally.failures.get("lost_delivery"), Some(&1));
        assert!(world.pending.is_empty() && world.by_message.is_empty());
    }
}

#[cfg(test)]
mod people_set_tests {
    use super::PeopleSet;

    #[test]
    fn a_person_is_struck_off_once_and_the_set_knows_when_it_is_empty() {
        let mut set = PeopleSet::of(&[3, 64, 3, 700]);
        assert_eq!(set.len(), 3, "a duplicate counts once");
        assert!(set.remove(&64));
        assert!(!set.remove(&64), "already struck off");
        assert!(!set.remove(&5) && !set.remove(&100_000), "never in it");
        assert!(set.remove(&3) && set.remove(&700));
        assert!(set.is_empty());
        assert!(PeopleSet::of(&[]).is_empty());
    }
}
