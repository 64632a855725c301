//! The published Campfire recipes start their lanes as the posts' harness
//! started them (rubys/roundhouse `scripts/bench-campfire` and
//! `scripts/campfire-oracle` at 004fe64f, `start_lane`, `wait_for_port`,
//! `find_jemalloc`): what a reader runs is what the post measured, or a
//! difference the recipe argues.

use std::path::Path;

use reprise_recipe::{Allocator, Lane, Recipe};

const CAMPFIRE: [&str; 4] = [
    "campfire-falcon",
    "campfire-nightly",
    "campfire-people",
    "campfire-runtimes",
];

fn published(id: &str) -> Recipe {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../recipes/{id}.toml"));
    reprise_recipe::load(&file).unwrap_or_else(|e| panic!("{e}"))
}

/// The lanes that serve Roundhouse's CRuby emit (Puma or Falcon), not
/// stock Rails through campfire-oracle.
fn emitted_cruby_lanes(recipe: &Recipe) -> Vec<&Lane> {
    recipe
        .lanes
        .iter()
        .filter(|l| l.runtime.as_deref() == Some("ruby"))
        .filter(|l| {
            l.command
                .as_ref()
                .is_some_and(|c| c.iter().any(|a| a == "puma" || a == "falcon"))
        })
        .filter(|l| !l.name.starts_with("rails"))
        .collect()
}

#[test]
fn every_emitted_cruby_lane_runs_with_yjit_and_jemalloc_found_not_assumed() {
    let mut seen = Vec::new();
    for id in CAMPFIRE {
        let recipe = published(id);
        for lane in emitted_cruby_lanes(&recipe) {
            seen.push(format!("{id}/{}", lane.name));
            assert_eq!(
                lane.env.get("RUBY_YJIT_ENABLE").map(String::as_str),
                Some("1"),
                "{id}: lane {} runs without YJIT",
                lane.name
            );
            assert_eq!(
                lane.allocator,
                Some(Allocator::Jemalloc),
                "{id}: lane {}",
                lane.name
            );
            assert!(
                !lane.env.contains_key("LD_PRELOAD"),
                "{id}: lane {} preloads a fixed path, silently absent where it is not installed",
                lane.name
            );
        }
    }
    // The pairs the Falcon posts compare are among them.
    for lane in [
        "campfire-falcon/ruby",
        "campfire-falcon/ruby-falcon",
        "campfire-nightly/ruby-falcon",
        "campfire-people/roundhouse-falcon",
        "campfire-runtimes/ruby",
        "campfire-runtimes/ruby-1p",
    ] {
        assert!(seen.iter().any(|s| s == lane), "{lane} not in {seen:?}");
    }
}

#[test]
fn the_spinel_lanes_start_the_binary_as_the_harness_does() {
    let mut lanes = 0;
    for id in ["campfire-nightly", "campfire-runtimes"] {
        let recipe = published(id);
        for lane in recipe
            .lanes
            .iter()
            .filter(|l| l.server.as_deref() == Some("spinel"))
        {
            lanes += 1;
            assert_eq!(
                lane.command.as_deref(),
                Some(&["build/bin/blog".to_string()][..]),
                "{id}: {}",
                lane.name
            );
            assert_eq!(
                lane.env.get("DATABASE_POOL_SIZE").map(String::as_str),
                Some("64"),
                "{id}: {}",
                lane.name
            );
            assert_eq!(
                lane.env.get("SECRET_KEY_BASE").map(String::as_str),
                Some("campfire-oracle-benchmark-secret-not-a-deployment"),
                "{id}: {}",
                lane.name
            );
        }
    }
    assert_eq!(lanes, 3, "spinel, and the nightly's spinel and spinel-1p");
}

#[test]
fn every_lane_is_waited_for_on_the_root_as_the_harness_waits() {
    for id in CAMPFIRE {
        let recipe = published(id);
        for lane in recipe.lanes.iter().filter(|l| l.is_runnable()) {
            assert_eq!(
                lane.health.as_deref(),
                Some("/"),
                "{id}: lane {} is waited for on another path: an emitted /up answering 500 would spend its whole boot budget",
                lane.name
            );
        }
    }
}

#[test]
fn the_redis_the_rails_lanes_need_is_the_machines_own_where_one_answers() {
    for id in ["campfire-nightly", "campfire-people", "campfire-runtimes"] {
        let recipe = published(id);
        let redis = recipe.service("redis").unwrap();
        let answers = redis.answers.as_ref().unwrap_or_else(|| panic!("{id}"));
        assert_eq!(
            (answers.send.as_str(), answers.expect.as_str()),
            ("PING", "+PONG")
        );
    }
}

#[test]
fn campfire_falcon_asks_for_the_avatar_and_stylesheet_the_room_page_gives() {
    // Campfire signs avatar URLs: a bare /users/1/avatar is 404 on
    // Campfire and on the emitted tree alike. The harness scrapes both
    // paths from the lane's own room page.
    let recipe = published("campfire-falcon");
    let workload = recipe.workload("campfire").unwrap();
    let path = |name: &str| {
        workload
            .endpoints
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.path.as_str())
    };
    assert_eq!(path("avatar"), Some("{avatar}"));
    assert_eq!(path("stylesheet"), Some("{stylesheet}"));
}

/// The Campfire recipes whose lanes the harness measured over HTTP (the
/// people benchmark's cable step pins its servers to a tier of CPUs, as the
/// harness's socket phase does, and is not among them).
const HTTP: [&str; 3] = ["campfire-falcon", "campfire-nightly", "campfire-runtimes"];

#[test]
fn the_http_lanes_share_the_cpus_and_size_themselves_to_them_as_the_harness_ran_them() {
    use reprise_recipe::{Count, CpuPlacement};
    for id in HTTP {
        let recipe = published(id);
        // bench-campfire pins nothing in its HTTP phase: servers and wrk
        // share every CPU, and campfire's config/puma.rb counts them all.
        assert_eq!(recipe.cpu_placement(), CpuPlacement::Shared, "{id}");
        let threads = recipe.machine.as_ref().and_then(|m| m.threads).unwrap() as usize;
        for lane in recipe.lanes.iter().filter(|l| l.is_runnable()) {
            let formula = lane.name.as_str() == "rails"
                || lane.name.as_str() == "ruby"
                || lane.name.as_str() == "ruby-falcon";
            if formula {
                // deployed_worker_count: (nproc * 0.666).ceil, the rails
                // lane's own formula, given to the emit so the two are one
                // shape on any machine; 8 on the post's 12 threads.
                assert_eq!(
                    lane.workers,
                    Some(Count::PerCpu { per_cpu: 0.666 }),
                    "{id}: lane {}",
                    lane.name
                );
                assert_eq!(lane.workers.unwrap().on(threads), 8, "{id}");
                assert!(
                    !lane.env.contains_key("WEB_CONCURRENCY"),
                    "{id}: lane {} fixes its workers in env",
                    lane.name
                );
            }
            if lane.name.as_str() == "jruby" || lane.name.as_str() == "jruby-512m" {
                // jvm_threads: one Puma thread per CPU.
                assert_eq!(lane.threads, Some(Count::PerCpu { per_cpu: 1.0 }), "{id}");
                assert_eq!(lane.threads.unwrap().on(threads), 12, "{id}");
                assert!(!lane.env.contains_key("RAILS_MAX_THREADS"), "{id}");
            }
        }
    }
}
