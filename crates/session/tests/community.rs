//! Everyone's results for hello-ceiling, as both front ends get them from
//! the session: a cache of Discussions as a fetch leaves it (the fetch
//! itself is tested against a stand-in for GitHub in crates/share and
//! crates/cli), holding posts made by the share flow for other machines —
//! and an older post of one of them, another version of the recipe, a smoke
//! run, a malformed and a v2 block, another recipe's post and a question —
//! counted per claim and by CPU, with this machine's stored run among them.

use std::path::{Path, PathBuf};

use reprise_engine::DataDir;
use reprise_history::History;
use reprise_recipe::Catalog;
use reprise_report::{MachineSummary, Report, ResultBlock, RunInfo};
use reprise_session::community::{ApartWhy, Fetch, Reproduction};
use reprise_session::{Session, ShareSettings};
use reprise_share::community::{Cache, Discussion, find_block};
use reprise_share::{GitHub, Redactor, TokenStore, prepare};
use reprise_verdict::Outcome;

const REPO: &str = "rubys/reprise";

fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn session(data: &Path) -> Session {
    Session::new(
        Catalog::new(checkout()),
        DataDir::new(data),
        ShareSettings {
            // Never asked: these tests read the cache.
            github: GitHub::new("https://github.example", "http://127.0.0.1:9"),
            client_id: None,
            repo: Some(REPO.into()),
            token_store: Some(TokenStore::File(data.join("github-token"))),
            env_token: None,
            ask_gh: false,
        },
    )
}

/// hello-ceiling judged from three runs of Puma and Falcon at these rates
/// (a Falcon run with errors when `falcon_errors`), on `cpu`.
fn run_of(id: &str, puma: f64, falcon: f64, falcon_errors: bool, cpu: &str) -> Report {
    let results = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for run in 1..=3 {
        let step = run as f64 * 50.0;
        let errors = if falcon_errors && run == 2 { 7 } else { 0 };
        lines.push_str(&format!("{{\"target\":\"puma\",\"workers\":2,\"endpoint\":\"/\",\"run\":{run},\"req_sec\":{},\"socket_errors\":0}}\n", puma + step));
        lines.push_str(&format!("{{\"target\":\"falcon\",\"workers\":2,\"endpoint\":\"/\",\"run\":{run},\"req_sec\":{},\"socket_errors\":{errors}}}\n", falcon + step));
    }
    std::fs::write(results.path().join("per-run.json"), lines).unwrap();
    std::fs::write(
        results.path().join("env.json"),
        format!(r#"{{"host":{{"hostname":"box-{id}","uname":"Linux box 6.1.0"}},"cpu":{{"brand":"{cpu}","physical":8,"logical":16}},"memory_mb":32768}}"#),
    )
    .unwrap();
    let recipe = reprise_recipe::load(&checkout().join("recipes/hello-ceiling.toml")).unwrap();
    let run = RunInfo::for_recipe(&recipe, id, "2026-12-01T05:00:00Z");
    reprise_session::judge::judge_results_dir(
        &recipe,
        results.path(),
        None,
        run,
        &Default::default(),
    )
    .unwrap()
}

/// A post as the share flow writes it for `report`, recorded as made from
/// the recipe's bytes `sha`.
fn shared(mut report: Report, sha: &str) -> String {
    report.run.recipe_sha256 = Some(sha.to_string());
    report.run.machine = reprise_session::machine_summary::of_report(&report);
    let redactor = Redactor::for_report(&report);
    prepare(&report, Some(&redactor)).unwrap().body
}

fn discussion(number: u64, author: &str, minute: u32, body: &str) -> Discussion {
    Discussion {
        id: format!("D_{number}"),
        number,
        title: format!("Reprise: run {number}"),
        author: Some(author.to_string()),
        updated_at: format!("2026-12-01T06:{minute:02}:00Z"),
        found: find_block(body),
    }
}

fn reviewed_sha() -> String {
    let bytes = std::fs::read(checkout().join("recipes/hello-ceiling.toml")).unwrap();
    reprise_recipe::sha256_hex(&bytes)
}

/// The cache a fetch of rubys/reprise would leave, and this machine's run.
fn everyone(data: &Path) -> String {
    let sha = reviewed_sha();
    let xeon = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
    let epyc = "AMD EPYC 7763 64-Core Processor";
    let mut smoke = ResultBlock::of(&run_of("s", 21_000.0, 41_000.0, false, xeon));
    smoke.recipe_sha256 = Some(sha.clone());
    smoke.smoke_run = true;
    let mut other_recipe = ResultBlock::of(&run_of("o", 21_000.0, 41_000.0, false, xeon));
    other_recipe.recipe = "campfire-runtimes".into();
    let posts = [
        // Newest first, as a fetch leaves them.
        discussion(
            9,
            "ana",
            59,
            &shared(run_of("a2", 21_000.0, 41_000.0, false, xeon), &sha),
        ),
        discussion(
            8,
            "ben",
            58,
            &shared(run_of("b", 30_000.0, 45_000.0, false, xeon), &sha),
        ),
        discussion(
            7,
            "chen",
            57,
            &shared(run_of("c", 50_000.0, 100_000.0, false, epyc), &sha),
        ),
        discussion(
            6,
            "dee",
            56,
            &shared(run_of("d", 50_000.0, 99_000.0, true, epyc), &sha),
        ),
        discussion(
            5,
            "ana",
            55,
            &shared(run_of("a1", 20_000.0, 30_000.0, false, xeon), &sha),
        ),
        discussion(
            4,
            "eve",
            54,
            &shared(
                run_of("e", 21_000.0, 41_000.0, false, xeon),
                &"0f".repeat(32),
            ),
        ),
        discussion(3, "fay", 53, &smoke.fenced()),
        discussion(
            2,
            "gus",
            52,
            "```reprise-result v1\n{\"recipe\": \"hello-ceiling\", \"claims\": 5}\n```\n",
        ),
        discussion(1, "hal", 51, "```reprise-result v2\n{}\n```\n"),
        discussion(10, "ida", 50, &other_recipe.fenced()),
        discussion(11, "jo", 49, "How do I run this on a Mac?"),
    ];
    let mut cache = Cache::load(data, REPO).unwrap();
    cache.merge(posts.into_iter().collect());
    cache.fetched_at = Some(1_796_101_200);
    cache.save(data).unwrap();

    // This machine: an EPYC too, its ratio a little above everyone's.
    let mut mine = run_of("mine", 50_000.0, 104_000.0, false, epyc);
    let mut history = History::open(data).unwrap();
    let id = history
        .new_id("hello-ceiling", "2026-12-02T05:00:00Z")
        .unwrap();
    mine.run.id = id.clone();
    mine.run.recipe_sha256 = Some(sha);
    history.store(&mine).unwrap();
    id
}

#[test]
fn each_claim_counts_every_machine_once_by_cpu_with_this_machine_placed() {
    let data = tempfile::tempdir().unwrap();
    let mine = everyone(data.path());
    let view = session(data.path())
        .community("hello-ceiling", None, false)
        .unwrap();
    assert_eq!(view.fetch, Fetch::Offline);
    assert_eq!(view.repo, REPO);
    assert_eq!(view.fetched_at.as_deref(), Some("2026-12-01T05:00:00Z"));
    assert_eq!(view.reviewed_sha256, Some(reviewed_sha()));
    assert_eq!(view.discussions, 11);
    assert_eq!(view.counted, 4, "ana's older post is left out");
    assert_eq!(view.superseded, 1);

    let ratio = view
        .claims
        .iter()
        .find(|c| c.claim == "falcon-twice-puma")
        .unwrap();
    assert_eq!(ratio.unit, "×");
    assert_eq!(ratio.band_reading.as_deref(), Some("1.67–2.25×"));
    // ana ~1.95 and chen ~2.0 held; ben's 1.5 did not; dee's Falcon erred.
    assert_eq!(
        (ratio.reproduced, ratio.not_reproduced, ratio.could_not_say),
        (2, 1, 1)
    );
    let xeon = ratio
        .by_cpu
        .iter()
        .find(|t| t.cpu.starts_with("Intel"))
        .unwrap();
    assert_eq!(
        (xeon.reproduced, xeon.not_reproduced, xeon.could_not_say),
        (1, 1, 0)
    );
    let epyc = ratio
        .by_cpu
        .iter()
        .find(|t| t.cpu.starts_with("AMD"))
        .unwrap();
    assert_eq!(
        (epyc.reproduced, epyc.not_reproduced, epyc.could_not_say),
        (1, 0, 1)
    );
    let dee = ratio.points.iter().find(|p| p.number == 6).unwrap();
    assert_eq!(
        (dee.outcome, dee.answer),
        (Outcome::NoData, Reproduction::CouldNotSay)
    );
    let chen = ratio.points.iter().find(|p| p.number == 7).unwrap();
    assert_eq!(
        chen.url,
        "https://github.example/rubys/reprise/discussions/7"
    );
    let m = chen.measured.unwrap();
    assert!(m.low <= 2.0 && 2.0 <= m.high, "{m:?}");

    let placed = ratio.this_machine.as_ref().unwrap();
    assert_eq!(placed.outcome, Outcome::Reproduced);
    assert_eq!(
        (placed.higher_than, placed.lower_than, placed.of),
        (3, 0, 3)
    );
    assert!(
        placed.words().starts_with("reproduced, 2.08× (")
            && placed
                .words()
                .ends_with(": higher than 3 of 3 other machines"),
        "{}",
        placed.words()
    );
    let this = view.this_machine.as_ref().unwrap();
    assert_eq!(this.run, mine);
    assert!(this.reviewed && !this.smoke_run && this.shared_as.is_none());
    assert_eq!(
        this.machine.cpu.as_deref(),
        Some("AMD EPYC 7763 64-Core Processor")
    );

    // An absolute figure on machines unlike the post's: measured, not judged.
    let puma = view
        .claims
        .iter()
        .find(|c| c.claim == "puma-ceiling")
        .unwrap();
    assert_eq!(
        (puma.reproduced, puma.not_reproduced, puma.could_not_say),
        (0, 0, 4)
    );
    assert_eq!(puma.unit, "req/s");
    assert!(puma.points.iter().all(|p| p.measured.is_some()));
}

#[test]
fn posts_that_cannot_be_counted_are_kept_apart_with_why() {
    let data = tempfile::tempdir().unwrap();
    everyone(data.path());
    let view = session(data.path())
        .community("hello-ceiling", None, false)
        .unwrap();
    let apart: Vec<(u64, ApartWhy)> = view.apart.iter().map(|a| (a.number, a.why)).collect();
    assert_eq!(
        apart,
        [
            (4, ApartWhy::OtherVersion),
            (3, ApartWhy::SmokeRun),
            (2, ApartWhy::Malformed),
            (1, ApartWhy::OtherSchema),
        ],
        "another recipe's post and a question are not this recipe's"
    );
    let eve = &view.apart[0];
    assert_eq!(
        eve.words,
        "another version of the recipe (SHA-256 0f0f0f0f0f0f…, the reviewed one where it ran)"
    );
    assert_eq!(
        eve.url,
        "https://github.example/rubys/reprise/discussions/4"
    );
    assert!(
        view.apart[2].words.starts_with("malformed: "),
        "{}",
        view.apart[2].words
    );
    assert_eq!(
        view.apart[3].words,
        "another schema (reprise-result v2; this Reprise reads v1)"
    );
}

#[test]
fn without_a_token_the_cache_is_shown_and_the_reason_said() {
    let data = tempfile::tempdir().unwrap();
    everyone(data.path());
    let view = session(data.path())
        .community("hello-ceiling", None, true)
        .unwrap();
    assert_eq!(view.fetch, Fetch::NotSignedIn);
    assert_eq!(view.counted, 4);

    // Nothing cached, nothing to fetch with: an empty view, not an error.
    let empty = tempfile::tempdir().unwrap();
    let view = session(empty.path())
        .community("hello-ceiling", None, true)
        .unwrap();
    assert_eq!(
        (view.fetch, view.discussions, view.fetched_at),
        (Fetch::NotSignedIn, 0, None)
    );
    assert!(
        view.claims
            .iter()
            .all(|c| c.points.is_empty() && c.this_machine.is_none())
    );
}

#[test]
fn a_stored_run_s_report_carries_its_machine_for_the_share() {
    let data = tempfile::tempdir().unwrap();
    everyone(data.path());
    let session = session(data.path());
    let runs = session.history().unwrap().list().unwrap();
    let report = session.report(&runs[0].id).unwrap();
    assert_eq!(
        report.run.machine,
        Some(MachineSummary {
            cpu: Some("AMD EPYC 7763 64-Core Processor".into()),
            cores: Some(8),
            threads: Some(16),
            smt: Some(true),
            memory_mib: Some(32_768),
            kernel: Some("6.1.0".into()),
            ..MachineSummary::default()
        })
    );
}

/// A run's folder records the digest of the recipe it ran; its report keeps
/// it, so a share made after `reprise clean` still says what it reproduced.
#[test]
fn a_run_s_recipe_digest_is_kept_with_its_report_past_its_folder() {
    let data = tempfile::tempdir().unwrap();
    let session = session(data.path());
    let loaded = session.load_recipe("hello-ceiling").unwrap();
    assert_eq!(loaded.sha256, reviewed_sha());
    let run = session.data.create_run("hello-ceiling").unwrap();
    reprise_engine::State::new("hello-ceiling", &loaded.sha256)
        .save(&run)
        .unwrap();
    let report = run_of("x", 21_000.0, 41_000.0, false, "Intel Xeon");
    std::fs::write(
        run.results().join("per-run.json"),
        reprise_harness_files::per_run::render(&report.measurements),
    )
    .unwrap();
    let stored = session.judge_and_store(&loaded.recipe, &run, "a test", None);
    let reprise_session::HistoryOutcome::Stored { id } = stored else {
        panic!("{stored:?}");
    };
    std::fs::remove_dir_all(&run.path).unwrap();
    let report = session.report(&id).unwrap();
    assert_eq!(report.run.recipe_sha256, Some(reviewed_sha()));
    assert_eq!(ResultBlock::of(&report).recipe_sha256, Some(reviewed_sha()));
}

/// This machine's run, once shared, is marked among the posts and not
/// placed against itself; another machine's run made in the same second
/// (run ids are made from the time) is not taken for it.
#[test]
fn this_machine_s_own_post_is_marked_and_not_counted_against_it() {
    let data = tempfile::tempdir().unwrap();
    let sha = reviewed_sha();
    let epyc = "AMD EPYC 7763 64-Core Processor";
    let mut mine = run_of("same-second", 50_000.0, 104_000.0, false, epyc);
    mine.run.recipe_sha256 = Some(sha.clone());
    History::open(data.path()).unwrap().store(&mine).unwrap();
    let twin = run_of("same-second", 50_000.0, 100_000.0, false, epyc);
    let mut cache = Cache::load(data.path(), REPO).unwrap();
    cache.merge(vec![
        // A stranger's copy of this machine's post, newer than it: the
        // stranger's, whatever it copied.
        discussion(3, "lee", 3, &shared(mine.clone(), &sha)),
        // The twin is the newer post: the first a weaker match would take.
        discussion(2, "kim", 2, &shared(twin, &sha)),
        discussion(1, "me", 1, &shared(mine, &sha)),
    ]);
    // The fetch was signed in as `me`.
    cache.viewer = Some("me".into());
    cache.save(data.path()).unwrap();
    // Signed out, no post is this person's.
    let view = session(data.path())
        .community("hello-ceiling", None, false)
        .unwrap();
    assert_eq!(view.this_machine.as_ref().unwrap().shared_as, None);
    TokenStore::File(data.path().join("github-token"))
        .save("gho_me_0000000000000000")
        .unwrap();
    let view = session(data.path())
        .community("hello-ceiling", None, false)
        .unwrap();
    assert_eq!(view.this_machine.as_ref().unwrap().shared_as, Some(1));
    let ratio = view
        .claims
        .iter()
        .find(|c| c.claim == "falcon-twice-puma")
        .unwrap();
    let marked: Vec<(u64, bool)> = ratio
        .points
        .iter()
        .map(|p| (p.number, p.this_machine))
        .collect();
    assert_eq!(marked, [(3, false), (2, false), (1, true)]);
    let placed = ratio.this_machine.as_ref().unwrap();
    // Level with lee's copy, higher than kim's twin.
    assert_eq!(
        (placed.higher_than, placed.lower_than, placed.of),
        (1, 0, 2)
    );
    let ordering = view
        .claims
        .iter()
        .find(|c| c.claim == "falcon-above-puma")
        .unwrap();
    assert_eq!(
        ordering.this_machine.as_ref().unwrap().words(),
        "reproduced"
    );
}

/// A block as `author`'s post of hello-ceiling's reviewed version, changed
/// by `change` (its JSON), as a stranger may write one.
fn forged(
    number: u64,
    author: Option<&str>,
    minute: u32,
    change: impl Fn(&mut serde_json::Value),
) -> Discussion {
    let xeon = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
    let mut report = run_of("f", 21_000.0, 41_000.0, false, xeon);
    report.run.recipe_sha256 = Some(reviewed_sha());
    report.run.machine = reprise_session::machine_summary::of_report(&report);
    let mut block = serde_json::to_value(ResultBlock::of(&report)).unwrap();
    change(&mut block);
    let body = format!("```reprise-result v1\n{block}\n```\n");
    let mut d = discussion(number, author.unwrap_or("nobody"), minute, &body);
    d.author = author.map(str::to_string);
    d
}

fn ratio_claim(block: &mut serde_json::Value) -> &mut serde_json::Value {
    block["claims"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["id"] == "falcon-twice-puma")
        .unwrap()
}

fn view_of(data: &Path, posts: Vec<Discussion>) -> reprise_session::community::Community {
    let mut cache = Cache::load(data, REPO).unwrap();
    cache.merge(posts);
    cache.save(data).unwrap();
    session(data)
        .community("hello-ceiling", None, false)
        .unwrap()
}

/// One login's fifty posts, each naming another machine, are one result:
/// its newest.
#[test]
fn one_login_s_posts_count_once_whatever_machines_they_name() {
    let data = tempfile::tempdir().unwrap();
    let posts = (0..50u64)
        .map(|n| {
            forged(100 + n, Some("sybil"), n as u32, |b| {
                b["machine"]["cpu"] = format!("Machine {n}").into();
                b["machine"]["memory_mib"] = (1024 * (n + 1)).into();
            })
        })
        .chain([forged(1, Some("ana"), 0, |_| {})])
        .collect();
    let view = view_of(data.path(), posts);
    assert_eq!(view.counted, 2, "sybil once, ana once");
    assert_eq!(view.superseded, 49);
    let ratio = view
        .claims
        .iter()
        .find(|c| c.claim == "falcon-twice-puma")
        .unwrap();
    let sybil: Vec<&str> = ratio
        .points
        .iter()
        .filter(|p| p.author.as_deref() == Some("sybil"))
        .map(|p| p.cpu.as_str())
        .collect();
    assert_eq!(sybil, ["Machine 49"], "the newest");
    // A login is one whatever its case.
    let data = tempfile::tempdir().unwrap();
    let view = view_of(
        data.path(),
        vec![
            forged(2, Some("Ana"), 2, |_| {}),
            forged(1, Some("ana"), 1, |_| {}),
        ],
    );
    assert_eq!(view.counted, 1);
}

/// Posts without an author (a deleted account) count once each only where
/// their machine and their numbers both differ.
#[test]
fn author_less_posts_count_once_each_only_where_machine_and_numbers_differ() {
    let data = tempfile::tempdir().unwrap();
    // Fifty copies of one post, some with the machine renamed by invisible
    // characters or its case, some with the numbers nudged.
    let mut posts: Vec<Discussion> = (0..50u64)
        .map(|n| {
            forged(100 + n, None, n as u32, |b| {
                if n % 3 == 1 {
                    b["machine"]["cpu"] = "intel(r) xeon(r) gold\u{200b} 6338 cpu @ 2.00ghz".into();
                }
                if n % 3 == 2 {
                    b["cells"][0]["median"] =
                        (b["cells"][0]["median"].as_f64().unwrap() + 1e-6).into();
                }
            })
        })
        .collect();
    // Two more of other machines: one with other numbers (counted), one
    // with the same numbers (a copy with its machine renamed).
    posts.push(forged(1, None, 0, |b| {
        b["machine"]["cpu"] = "AMD EPYC 7763 64-Core Processor".into();
        let claim = ratio_claim(b);
        claim["measured"] = serde_json::json!({"estimate": 2.0, "low": 1.9, "high": 2.1});
    }));
    posts.push(forged(2, None, 0, |b| {
        b["machine"]["cpu"] = "Apple M3".into();
    }));
    let view = view_of(data.path(), posts);
    assert_eq!(view.counted, 2, "{:?}", view.claims[0].points);
    assert_eq!(view.superseded, 50);
}

/// A post that says `reproduced` with its own interval 0.4–0.6× against the
/// band 1.67–2.25× is kept apart with why, not counted as it says; so is one
/// that says `not reproduced` inside the band, one without an interval, and
/// an ordering whose medians put its lanes the other way round.
#[test]
fn a_post_whose_stated_outcome_its_numbers_do_not_come_to_is_kept_apart_with_why() {
    let data = tempfile::tempdir().unwrap();
    let view = view_of(
        data.path(),
        vec![
            forged(5, Some("liar"), 5, |b| {
                let claim = ratio_claim(b);
                claim["outcome"] = "reproduced".into();
                claim["measured"] = serde_json::json!({"estimate": 0.5, "low": 0.4, "high": 0.6});
                // Its own band and kind say nothing: this recipe's band is used.
                claim["band"] = serde_json::json!([0.1, 1.0]);
                claim["kind"] = "ordering".into();
            }),
            forged(4, Some("denier"), 4, |b| {
                ratio_claim(b)["outcome"] = "not_reproduced".into();
            }),
            forged(3, Some("vague"), 3, |b| {
                ratio_claim(b)["measured"] = serde_json::Value::Null;
            }),
            forged(2, Some("upside"), 2, |b| {
                let cells = b["cells"].as_array_mut().unwrap();
                for cell in cells.iter_mut() {
                    if cell["lane"] == "falcon" && cell["metric"] == "req_per_s" {
                        cell["median"] = 1_000.0.into();
                        cell["interval"] = serde_json::json!([900.0, 1100.0]);
                    }
                }
            }),
            // Says it could not say: claims nothing either way, counted so.
            forged(1, Some("modest"), 1, |b| {
                ratio_claim(b)["outcome"] = "inconclusive".into();
            }),
            forged(0, Some("ana"), 0, |_| {}),
        ],
    );
    let apart: Vec<(u64, ApartWhy)> = view.apart.iter().map(|a| (a.number, a.why)).collect();
    assert_eq!(
        apart,
        [
            (5, ApartWhy::Disagrees),
            (4, ApartWhy::Disagrees),
            (3, ApartWhy::Disagrees),
            (2, ApartWhy::Disagrees)
        ]
    );
    assert_eq!(
        view.apart[0].words,
        "states outcomes its own numbers do not come to: falcon-twice-puma: says reproduced, yet its interval 0.4–0.6× against this recipe's band 1.67–2.25× is not reproduced"
    );
    assert!(
        view.apart[1]
            .words
            .contains("says not reproduced, yet its interval 1.9"),
        "{}",
        view.apart[1].words
    );
    assert!(
        view.apart[1].words.ends_with("is reproduced"),
        "{}",
        view.apart[1].words
    );
    assert!(
        view.apart[2]
            .words
            .contains("yet gives no measured interval"),
        "{}",
        view.apart[2].words
    );
    assert!(
        view.apart[3].words.contains(
            "falcon-above-puma: says reproduced, yet its medians put them the other way round"
        ),
        "{}",
        view.apart[3].words
    );
    assert_eq!(view.counted, 2);
    let ratio = view
        .claims
        .iter()
        .find(|c| c.claim == "falcon-twice-puma")
        .unwrap();
    assert_eq!(
        (ratio.reproduced, ratio.not_reproduced, ratio.could_not_say),
        (1, 0, 1)
    );
}

/// Forty author-less posts, each naming another kernel and with every
/// number 0.1% off the one before, are one result: a copy is told by its
/// numbers within 1%, not by their last digits.
#[test]
fn author_less_copies_with_one_field_and_their_numbers_nudged_count_once() {
    let data = tempfile::tempdir().unwrap();
    let nudge = |v: &mut serde_json::Value, by: f64| {
        if let Some(x) = v.as_f64() {
            *v = (x * by).into();
        }
    };
    let posts: Vec<Discussion> = (0..40u64)
        .map(|n| {
            forged(100 + n, None, n as u32, |b| {
                b["machine"]["kernel"] = format!("6.1.0-{n}-amd64").into();
                let by = 1.0 + 0.001 * (n % 2) as f64;
                for claim in b["claims"].as_array_mut().unwrap() {
                    for (_, end) in claim["measured"].as_object_mut().into_iter().flatten() {
                        nudge(end, by);
                    }
                }
                for cell in b["cells"].as_array_mut().unwrap() {
                    nudge(&mut cell["median"], by);
                    for end in cell["interval"].as_array_mut().into_iter().flatten() {
                        nudge(end, by);
                    }
                }
            })
        })
        .collect();
    let view = view_of(data.path(), posts);
    let apart: Vec<&str> = view.apart.iter().map(|a| a.words.as_str()).collect();
    assert_eq!(view.counted, 1, "{apart:?}");
    assert_eq!(view.superseded, 39);
}

/// A post contradicting itself is kept apart: an estimate outside its own
/// interval, and an ordering said reproduced whose medians (1.0000001×
/// apart) lie inside each other's intervals.
#[test]
fn a_post_that_contradicts_itself_is_kept_apart() {
    let data = tempfile::tempdir().unwrap();
    let view = view_of(
        data.path(),
        vec![
            forged(2, Some("outside"), 2, |b| {
                let claim = ratio_claim(b);
                claim["outcome"] = "reproduced".into();
                claim["measured"] = serde_json::json!({"estimate": 0.5, "low": 1.9, "high": 2.1});
            }),
            forged(1, Some("level"), 1, |b| {
                for cell in b["cells"].as_array_mut().unwrap() {
                    if cell["metric"] == "req_per_s" {
                        let median = if cell["lane"] == "falcon" {
                            1_000.000_1
                        } else {
                            1_000.0
                        };
                        cell["median"] = median.into();
                        cell["interval"] = serde_json::json!([900.0, 1100.0]);
                    }
                }
            }),
            forged(0, Some("ana"), 0, |_| {}),
        ],
    );
    let apart: Vec<(u64, ApartWhy)> = view.apart.iter().map(|a| (a.number, a.why)).collect();
    assert_eq!(apart, [(2, ApartWhy::Disagrees), (1, ApartWhy::Disagrees)]);
    assert_eq!(view.counted, 1, "ana's");
}

/// Posts whose own cells or machine belie the outcomes they state are kept
/// apart, with why: a ratio said reproduced at 1.9–2.1× (inside the band)
/// whose cells' medians give 0.5×; an absolute figure said reproduced by a
/// post that calls its machine the post's while naming another CPU; and one
/// said reproduced on a machine the post itself says is not the post's.
#[test]
fn a_post_whose_cells_or_machine_belie_its_outcomes_is_kept_apart() {
    let data = tempfile::tempdir().unwrap();
    let absolute = |b: &mut serde_json::Value| {
        let claim = b["claims"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|c| c["id"] == "puma-ceiling")
            .unwrap();
        claim["outcome"] = "reproduced".into();
        claim["measured"] =
            serde_json::json!({"estimate": 54000.0, "low": 52000.0, "high": 56000.0});
    };
    let view = view_of(
        data.path(),
        vec![
            forged(3, Some("medians"), 3, |b| {
                let claim = ratio_claim(b);
                claim["outcome"] = "reproduced".into();
                claim["measured"] = serde_json::json!({"estimate": 2.0, "low": 1.9, "high": 2.1});
                for cell in b["cells"].as_array_mut().unwrap() {
                    if cell["metric"] == "req_per_s" && cell["lane"] == "falcon" {
                        cell["median"] = 10_500.0.into();
                    }
                }
            }),
            forged(2, Some("mislabelled"), 2, |b| {
                b["machine_matches_post"] = true.into();
                absolute(b);
            }),
            forged(1, Some("elsewhere"), 1, |b| absolute(b)),
            forged(0, Some("ana"), 0, |_| {}),
        ],
    );
    let apart: Vec<(u64, ApartWhy)> = view.apart.iter().map(|a| (a.number, a.why)).collect();
    assert_eq!(
        apart,
        [
            (3, ApartWhy::Disagrees),
            (2, ApartWhy::Disagrees),
            (1, ApartWhy::Disagrees)
        ]
    );
    let words = |n: usize| view.apart[n].words.as_str();
    assert!(
        words(0).contains(
            "falcon-twice-puma: says reproduced, yet its own cells' medians give 0.5×, far outside its interval 1.9–2.1×"
        ),
        "{}",
        words(0)
    );
    assert!(
        words(1).contains(
            "says its machine is the post's, yet its CPU is the Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz, the post's the AMD Ryzen 5 3600 6-Core Processor"
        ),
        "{}",
        words(1)
    );
    assert!(
        words(2).contains(
            "puma-ceiling: says reproduced, yet its machine is not the post's, the only one an absolute figure is judged on"
        ),
        "{}",
        words(2)
    );
    assert_eq!(view.counted, 1, "ana's");
}
