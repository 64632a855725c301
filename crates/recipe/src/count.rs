//! How many workers or threads a lane's server runs: a number, or a share of
//! the CPUs the server may use, rounded up. Campfire's own `config/puma.rb`
//! forks `(processor_count * 0.666).ceil` workers, and the posts' harness
//! gives the emitted tree's `ruby` lane the same number and JRuby one thread
//! per CPU (rubys/roundhouse `scripts/bench-campfire`: `deployed_worker_count`,
//! `jvm_threads`): on the post's 12 threads that is 8 workers, on a reader's
//! machine its own count. `workers = { per_cpu = 0.666 }` says so.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// A lane's workers or threads.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(untagged)]
pub enum Count {
    /// This many, on any machine.
    Fixed(u32),
    /// This share of the CPUs the server may use, rounded up, at least 1.
    PerCpu { per_cpu: f64 },
}

impl Count {
    /// The count on a server that may use `cpus` CPUs.
    pub fn on(self, cpus: usize) -> u32 {
        match self {
            Count::Fixed(n) => n,
            // 12 × 0.666 is 7.992: Ruby's `.ceil` makes it 8, as here; the
            // slack keeps 3 × (1/3) at 1 rather than 2.
            Count::PerCpu { per_cpu } => ((cpus as f64 * per_cpu - 1e-9).ceil() as u32).max(1),
        }
    }

    /// The number, where it does not depend on the machine.
    pub fn fixed(self) -> Option<u32> {
        match self {
            Count::Fixed(n) => Some(n),
            Count::PerCpu { .. } => None,
        }
    }
}

impl fmt::Display for Count {
    /// `8`; `0.666 per CPU, rounded up`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Fixed(n) => write!(f, "{n}"),
            Count::PerCpu { per_cpu } => write!(f, "{per_cpu} per CPU, rounded up"),
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        struct CountVisitor;
        impl<'de> Visitor<'de> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a whole number such as 8, or a share of the server's CPUs such as { per_cpu = 0.666 }",
                )
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Count, E> {
                u32::try_from(v)
                    .map(Count::Fixed)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count, E> {
                u32::try_from(v)
                    .map(Count::Fixed)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Count, A::Error> {
                let mut per_cpu = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "per_cpu" || per_cpu.is_some() {
                        return Err(de::Error::unknown_field(&key, &["per_cpu"]));
                    }
                    per_cpu = Some(map.next_value::<f64>()?);
                }
                let per_cpu = per_cpu.ok_or_else(|| de::Error::missing_field("per_cpu"))?;
                Ok(Count::PerCpu { per_cpu })
            }
        }
        deserializer.deserialize_any(CountVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn campfires_formula_gives_the_posts_eight_on_twelve_threads_and_its_own_count_elsewhere() {
        let campfire = Count::PerCpu { per_cpu: 0.666 };
        assert_eq!(campfire.on(12), 8);
        assert_eq!(campfire.on(6), 4);
        assert_eq!(campfire.on(2), 2);
        assert_eq!(campfire.on(1), 1);
        assert_eq!(Count::PerCpu { per_cpu: 1.0 }.on(12), 12);
        assert_eq!(Count::PerCpu { per_cpu: 1.0 / 3.0 }.on(3), 1);
        assert_eq!(Count::Fixed(5).on(64), 5);
        assert_eq!(campfire.fixed(), None);
        assert_eq!(Count::Fixed(5).fixed(), Some(5));
    }

    #[derive(Debug, Deserialize)]
    struct Lane {
        workers: Count,
    }

    #[test]
    fn a_count_reads_as_a_number_or_a_share_and_anything_else_says_what_was_expected() {
        let read = |text: &str| toml::from_str::<Lane>(text).map(|l| l.workers);
        assert_eq!(read("workers = 8").unwrap(), Count::Fixed(8));
        assert_eq!(
            read("workers = { per_cpu = 0.666 }").unwrap(),
            Count::PerCpu { per_cpu: 0.666 }
        );
        assert_eq!(
            read("workers = { per_cpu = 1 }").unwrap(),
            Count::PerCpu { per_cpu: 1.0 }
        );
        let wrong = read("workers = \"eight\"").unwrap_err().to_string();
        assert!(wrong.contains("{ per_cpu = 0.666 }"), "{wrong}");
        let unknown = read("workers = { per_core = 1 }").unwrap_err().to_string();
        assert!(
            unknown.contains("per_core") && unknown.contains("per_cpu"),
            "{unknown}"
        );
    }
}
