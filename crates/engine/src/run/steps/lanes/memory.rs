//! No more lanes up at once than the machine's memory holds. The harness
//! boots one lane, measures it and stops it before the next; Reprise keeps a
//! step's lanes up and rotates rounds between them, which on a reader's
//! 16 GB laptop would hold campfire-runtimes' fifteen servers (JVM and
//! TruffleRuby heaps of 1–2 GB among them) at once. So before a lane
//! starts, the lanes that have been idle longest are stopped ("parked")
//! until the lane fits, and a parked lane starts again, cold, when a step
//! next needs it (its warm-up comes before each of its runs anyway).
//!
//! What a lane holds is what it was seen to hold: its process tree's RSS at
//! boot and at the peak of each of its cells. A lane not yet seen is taken
//! to hold as much as the largest lane seen. What fits is the machine's
//! `MemAvailable` less a reserve for everything else (a tenth of its
//! memory, at least 512 MB), and, where the run sets one, under its own
//! limit on what the lanes hold together.

use std::collections::{BTreeMap, BTreeSet};

/// What the lanes of an attempt were seen to hold, and which were parked.
#[derive(Default)]
pub(crate) struct LaneMemory {
    /// The most each lane was seen to hold, in kB.
    seen_kb: BTreeMap<String, u64>,
    /// When each lane was last started or measured (a counter).
    used: BTreeMap<String, u64>,
    clock: u64,
    /// Lanes stopped to make room: started again when next needed.
    pub parked: BTreeSet<String>,
}

/// What a lane about to start needs and what is free for it.
pub(crate) struct Room {
    pub needs_kb: u64,
    pub free_kb: u64,
}

impl LaneMemory {
    /// `lane` was started or measured now.
    pub fn used(&mut self, lane: &str) {
        self.clock += 1;
        self.used.insert(lane.to_string(), self.clock);
        self.parked.remove(lane);
    }

    /// `lane`'s process tree was seen holding `kb`.
    pub fn seen(&mut self, lane: &str, kb: u64) {
        let most = self.seen_kb.entry(lane.to_string()).or_default();
        *most = (*most).max(kb);
    }

    /// What `lane` is taken to hold: what it was seen to hold, else as much
    /// as the largest lane seen (nothing before any was).
    pub fn needs(&self, lane: &str) -> u64 {
        self.seen_kb
            .get(lane)
            .copied()
            .unwrap_or_else(|| self.seen_kb.values().copied().max().unwrap_or(0))
    }

    /// Whether `lane`, about to start while `running` are up, fits; where it
    /// does not, what it needs and what is free. `available_kb` is the
    /// machine's `MemAvailable` (None: not known, no reserve applies), with
    /// `total_kb` its memory, and `limit_kb` the run's own limit on the
    /// lanes together.
    pub fn room(
        &self,
        lane: &str,
        running: &[String],
        machine: Option<(u64, u64)>,
        limit_kb: Option<u64>,
    ) -> Option<Room> {
        let needs_kb = self.needs(lane);
        let mut free = Vec::new();
        if let Some((available_kb, total_kb)) = machine {
            let reserve = (total_kb / 10).max(512 * 1024);
            free.push(available_kb.saturating_sub(reserve));
        }
        if let Some(limit) = limit_kb {
            let held: u64 = running.iter().map(|r| self.needs(r)).sum();
            free.push(limit.saturating_sub(held));
        }
        let free_kb = free.into_iter().min()?;
        (needs_kb > free_kb).then_some(Room { needs_kb, free_kb })
    }

    /// Of `running`, the lane idle longest.
    pub fn idlest<'r>(&self, running: &'r [String]) -> Option<&'r String> {
        running
            .iter()
            .min_by_key(|r| self.used.get(r.as_str()).copied().unwrap_or(0))
    }
}

/// The machine's `MemAvailable` and `MemTotal`, in kB, from /proc/meminfo.
pub(crate) fn machine_memory() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    Some((kb("MemAvailable")?, kb("MemTotal")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lane_not_yet_seen_needs_as_much_as_the_largest_seen() {
        let mut m = LaneMemory::default();
        assert_eq!(m.needs("a"), 0);
        m.seen("a", 100);
        m.seen("b", 300);
        m.seen("b", 200);
        assert_eq!(m.needs("b"), 300);
        assert_eq!(m.needs("c"), 300);
    }

    #[test]
    fn a_lane_fits_under_the_limit_less_what_the_running_hold() {
        let mut m = LaneMemory::default();
        m.seen("a", 150);
        m.seen("b", 150);
        let running = vec!["a".to_string()];
        assert!(m.room("b", &running, None, Some(400)).is_none());
        let both = vec!["a".to_string(), "b".to_string()];
        let room = m.room("c", &both, None, Some(400)).unwrap();
        assert_eq!((room.needs_kb, room.free_kb), (150, 100));
        // The machine's own: what is available less a reserve.
        let gb = 1024 * 1024;
        assert!(m.room("c", &both, Some((gb, 16 * gb)), None).is_some());
        assert!(m.room("c", &both, Some((4 * gb, 16 * gb)), None).is_none());
        // Nothing known: nothing to hold back.
        assert!(m.room("c", &both, None, None).is_none());
    }

    #[test]
    fn the_lane_idle_longest_is_parked_first() {
        let mut m = LaneMemory::default();
        m.used("a");
        m.used("b");
        m.used("a");
        let running = vec!["a".to_string(), "b".to_string()];
        assert_eq!(m.idlest(&running).map(String::as_str), Some("b"));
    }

    #[test]
    fn this_machines_memory_is_read() {
        let (available, total) = machine_memory().unwrap();
        assert!(
            available > 0 && available <= total,
            "{available} of {total}"
        );
    }
}
