//! The allocator a lane asks for (`allocator = "jemalloc"`). The posts'
//! harness preloads jemalloc only where it finds the library, and its shape
//! report says ABSENT otherwise; a recipe that set `LD_PRELOAD` by hand
//! ran glibc's malloc silently wherever the library was missing. Here the
//! library is looked for where Debian, Ubuntu and Fedora put it, preloaded
//! where found, and what the server's processes then mapped is read back
//! from `/proc/PID/maps` and recorded (`results/allocators.json`).

use std::path::{Path, PathBuf};

use reprise_recipe::{Allocator, Lane, Placement};
use serde::{Deserialize, Serialize};

use super::server_process::{LaneServer, group_members};

/// The variable the dynamic loader preloads a library from.
const PRELOAD: &str = "LD_PRELOAD";

/// The allocator the run preloads into `lane`'s server: the lane's, where
/// it runs on the host (a container's image has its own).
fn preloaded(lane: &Lane) -> Option<Allocator> {
    lane.allocator.filter(|_| lane.placement == Placement::Host)
}

/// What the run adds to `lane`'s environment for its allocator, found
/// under `root`: `LD_PRELOAD=/usr/lib/…/libjemalloc.so.2`, where this
/// machine has it.
pub fn preload_env(root: &Path, lane: &Lane) -> Option<(String, String)> {
    let library = find_library(root, preloaded(lane)?)?;
    Some((PRELOAD.to_string(), library.display().to_string()))
}

/// How the plan shows what [`preload_env`] may add, before anything runs.
pub fn consent_line(lane: &Lane) -> Option<String> {
    let allocator = preloaded(lane)?;
    Some(format!(
        "{PRELOAD}=…/{} ({allocator}, where this machine has it)",
        allocator.library()
    ))
}

/// Where distributions install shared libraries, in the order looked at.
const LIBRARY_DIRS: &[&str] = &[
    "usr/lib/x86_64-linux-gnu",
    "usr/lib/aarch64-linux-gnu",
    "usr/lib64",
    "usr/lib",
    "usr/local/lib",
    "lib/x86_64-linux-gnu",
    "lib/aarch64-linux-gnu",
];

/// The allocator's library under `root` (`/` but in tests), where one of
/// the usual folders has it.
pub fn find_library(root: &Path, allocator: Allocator) -> Option<PathBuf> {
    LIBRARY_DIRS
        .iter()
        .map(|dir| root.join(dir).join(allocator.library()))
        .find(|path| path.is_file())
}

/// What one lane's server ran with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocatorSeen {
    pub lane: String,
    /// What the recipe asked for.
    pub asked: Allocator,
    /// What the server's processes had mapped once it was up.
    pub loaded: Loaded,
}

/// Which allocator a server's processes mapped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "allocator", rename_all = "snake_case")]
pub enum Loaded {
    /// The asked-for library, at this path.
    Preloaded { library: String },
    /// The C library's malloc: the library was not found on this machine.
    LibraryMissing,
    /// The C library's malloc although the library was preloaded (the
    /// server, or a script in front of it, dropped `LD_PRELOAD`).
    NotLoaded { library: String },
    /// A container lane: its image decides, and its processes are not
    /// read from here.
    NotRead,
}

impl AllocatorSeen {
    /// What `lane`'s server, just up, was started with and mapped; `None`
    /// where the lane asks for no allocator.
    pub fn of(lane: &Lane, server: &LaneServer) -> Option<AllocatorSeen> {
        let asked = lane.allocator?;
        let loaded = match (server.pid(), server.spec.env.get(PRELOAD)) {
            (None, _) => Loaded::NotRead,
            (Some(_), None) => Loaded::LibraryMissing,
            (Some(pid), Some(library)) if mapped(&group_members(pid), asked) => Loaded::Preloaded {
                library: library.clone(),
            },
            (Some(_), Some(library)) => Loaded::NotLoaded {
                library: library.clone(),
            },
        };
        Some(AllocatorSeen {
            lane: lane.name.to_string(),
            asked,
            loaded,
        })
    }

    /// Whether the server ran with what the recipe asked for.
    pub fn as_asked(&self) -> bool {
        matches!(self.loaded, Loaded::Preloaded { .. })
    }
}

impl std::fmt::Display for AllocatorSeen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let asked = self.asked;
        match &self.loaded {
            Loaded::Preloaded { library } => write!(f, "{asked} loaded ({library})"),
            Loaded::LibraryMissing => write!(
                f,
                "the C library's malloc instead of {asked}: {} is not on this machine (Debian and Ubuntu: apt-get install {})",
                asked.library(),
                asked.package()
            ),
            Loaded::NotLoaded { library } => write!(
                f,
                "the C library's malloc instead of {asked}: {library} was preloaded but the server's processes did not map it"
            ),
            Loaded::NotRead => write!(
                f,
                "{asked} not preloaded: a container lane runs its image's allocator, not read from here"
            ),
        }
    }
}

/// Whether any of `pids` has a file named like `allocator`'s library mapped.
fn mapped(pids: &[u32], allocator: Allocator) -> bool {
    let name = allocator.library();
    pids.iter().any(|pid| {
        std::fs::read_to_string(format!("/proc/{pid}/maps"))
            .is_ok_and(|maps| maps.lines().any(|l| l.ends_with(name)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_found_in_the_first_usual_folder_that_has_it() {
        let root = tempfile::tempdir().unwrap();
        assert_eq!(find_library(root.path(), Allocator::Jemalloc), None);
        let lib = root.path().join("usr/lib64");
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(lib.join("libjemalloc.so.2"), b"").unwrap();
        assert_eq!(
            find_library(root.path(), Allocator::Jemalloc),
            Some(lib.join("libjemalloc.so.2"))
        );
    }

    #[test]
    fn a_process_that_mapped_no_such_library_is_not_said_to_have() {
        assert!(!mapped(&[std::process::id()], Allocator::Jemalloc));
    }
}
