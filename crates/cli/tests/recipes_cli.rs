//! `reprise recipes`, `show`, `check` and `checksums` as a reader runs them,
//! over a copy of the repository's recipes made by each test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A copy of recipes/ and checksums/ in a temp dir, as a fresh checkout has them.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["recipes", "checksums"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for entry in std::fs::read_dir(repo().join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.path().join(sub).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

fn reprise(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reprise"))
        .args(args)
        .env("REPRISE_ROOT", root)
        .current_dir(root)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn recipes_lists_every_recipe_with_its_counts() {
    let dir = checkout();
    let out = reprise(dir.path(), &["recipes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("hello-ceiling "))
        .expect(&text);
    let cells: Vec<&str> = line
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    // id, post, date, steps, figures, claims, runnable lanes, checksum
    assert_eq!(&cells[3..6], ["3", "2", "4"], "{line}");
    assert_eq!(cells.last(), Some(&"reviewed"), "{line}");
    let files = std::fs::read_dir(dir.path().join("recipes"))
        .unwrap()
        .count();
    assert_eq!(text.lines().count(), files + 1, "{text}");
}

#[test]
fn show_prints_steps_in_order_with_reasons_and_figures_with_sentences() {
    let dir = checkout();
    let out = reprise(dir.path(), &["show", "hello-ceiling"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let serve = text.find("1. serve [serve]").expect(&text);
    let check = text.find("2. check [check]").expect(&text);
    let measure = text.find("3. measure [load]").expect(&text);
    assert!(serve < check && check < measure);
    assert!(text.contains("≈ 54,000 req/s"), "{text}");
    assert!(
        text.contains("serves about 54,000 requests a second"),
        "{text}"
    );
    assert!(text.contains("matches checksums/recipes.sha256"), "{text}");
    // Every lane's command, quoted as the run's plan quotes it.
    assert!(
        text.contains("nginx runs: nginx -p . -c nginx.conf -g 'daemon off;'"),
        "{text}"
    );
}

#[test]
fn show_suggests_the_id_that_was_meant() {
    let dir = checkout();
    let out = reprise(dir.path(), &["show", "hello-cieling"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `hello-ceiling`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_reports_file_line_and_column_and_exits_2() {
    let dir = checkout();
    let file = dir.path().join("recipes/hello-ceiling.toml");
    let text =
        std::fs::read_to_string(&file)
            .unwrap()
            .replacen("kind = \"load\"", "kind = \"lod\"", 1);
    std::fs::write(&file, &text).unwrap();
    let out = reprise(dir.path(), &["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let line = text[..text.find("\"lod\"").unwrap()].matches('\n').count() + 1;
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "hello-ceiling.toml:{line}:8: unknown step kind `lod`"
        )),
        "{err}"
    );
    assert!(err.contains("did you mean `load`?"), "{err}");
}

#[test]
fn check_passes_every_recipe_of_the_repository() {
    let dir = checkout();
    let out = reprise(dir.path(), &["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).lines().all(|l| l.starts_with("ok  ")),
        "{}",
        stdout(&out)
    );
}

#[test]
fn checksums_catch_a_one_byte_change_until_updated() {
    let dir = checkout();
    let out = reprise(dir.path(), &["checksums", "verify"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));

    let file = dir.path().join("recipes/hello-ceiling.toml");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.iter().position(|b| *b == b'6').unwrap();
    bytes[at] = b'7';
    std::fs::write(&file, &bytes).unwrap();

    let out = reprise(dir.path(), &["checksums", "verify"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("MODIFIED  recipes/hello-ceiling.toml"),
        "{}",
        stdout(&out)
    );
    let shown = reprise(dir.path(), &["show", "hello-ceiling"]);
    assert!(stdout(&shown).contains("MODIFIED"), "{}", stdout(&shown));

    let out = reprise(dir.path(), &["checksums", "update"]);
    assert!(
        stdout(&out).contains("updated  recipes/hello-ceiling.toml"),
        "{}",
        stdout(&out)
    );
    assert!(
        reprise(dir.path(), &["checksums", "verify"])
            .status
            .success()
    );
    // The manifest is sha256sum's format: coreutils agrees.
    let coreutils = Command::new("sha256sum")
        .args(["-c", "checksums/recipes.sha256"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(coreutils.status.success(), "{}", stdout(&coreutils));
}

#[test]
fn recipes_lists_the_others_when_one_is_broken_and_check_locates_its_error() {
    let dir = checkout();
    let hello = std::fs::read_to_string(dir.path().join("recipes/hello-ceiling.toml")).unwrap();
    let huge = hello
        .replacen("id = \"hello-ceiling\"", "id = \"huge\"", 1)
        .replacen("duration = \"20s\"", "duration = \"5124095576030432h\"", 1);
    std::fs::write(dir.path().join("recipes/huge.toml"), &huge).unwrap();
    let mut binary = hello
        .replacen("id = \"hello-ceiling\"", "id = \"binary\"", 1)
        .into_bytes();
    binary.insert(0, 0xff);
    std::fs::write(dir.path().join("recipes/binary.toml"), &binary).unwrap();

    let out = reprise(dir.path(), &["recipes"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stdout(&out);
    for id in ["hello-ceiling", "campfire-runtimes", "machine"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{id} ")) && !l.contains("invalid")),
            "{id} not listed:\n{text}"
        );
    }
    for id in ["huge", "binary"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{id} ")) && l.contains("invalid")),
            "{id} not listed as invalid:\n{text}"
        );
    }

    let out = reprise(
        dir.path(),
        &["check", "recipes/huge.toml", "recipes/binary.toml"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let line = huge[..huge.find("\"5124095576030432h\"").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert!(err.contains(&format!("huge.toml:{line}:12:")), "{err}");
    assert!(
        err.contains("binary.toml:1:1: the file is not UTF-8"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// The lanes issue 17 made runnable: a reader with internet access can run
/// them, so the recipes give each a command rather than a `not_runnable`.
const NOW_RUNNABLE: &[(&str, &[&str])] = &[
    ("campfire-runtimes", &["spinel"]),
    ("campfire-nightly", &["spinel", "spinel-1p", "ruby-falcon"]),
    ("campfire-people", &["rails", "roundhouse-falcon"]),
];

#[test]
fn recipes_and_show_present_spinel_ruby_falcon_and_the_people_lanes_as_runnable() {
    let dir = checkout();
    for (id, lanes) in NOW_RUNNABLE {
        let out = reprise(dir.path(), &["show", id, "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let shown: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        for name in *lanes {
            let lane = shown["lanes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["name"] == *name)
                .unwrap_or_else(|| panic!("{id} has no lane {name}"));
            assert!(lane["not_runnable"].is_null(), "{id}/{name}: {lane}");
            assert!(
                lane["command"].as_array().is_some_and(|c| !c.is_empty()),
                "{id}/{name}: {lane}"
            );
            assert!(
                lane["port"].is_u64() && lane["health"].is_string(),
                "{lane}"
            );
        }
        // The table says the same: none of them is "published only".
        let out = reprise(dir.path(), &["show", id]);
        let text = stdout(&out);
        let table = &text[text.find("\nLanes\n").expect(&text)..];
        for name in *lanes {
            let row = table
                .lines()
                .find(|l| l.split_whitespace().next() == Some(name))
                .unwrap_or_else(|| panic!("no row for {name}:\n{table}"));
            assert!(!row.contains("published only"), "{id}: {row}");
        }
    }
    // `reprise recipes` counts them among the lanes with a command.
    let out = reprise(dir.path(), &["recipes"]);
    let text = stdout(&out);
    for (id, runnable) in [
        ("campfire-runtimes", 15),
        ("campfire-nightly", 7),
        ("campfire-people", 2),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .expect(&text);
        assert!(line.contains(&format!("/{runnable} ")), "{line}");
    }
}

/// Each of those lanes says how it differs from the post where it does:
/// unpinned Spinel and Falcon, and the people lanes as a variant.
#[test]
fn the_new_lanes_say_what_they_deviate_from_in_the_post() {
    let dir = checkout();
    let out = reprise(dir.path(), &["show", "campfire-people", "--json"]);
    let people: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        people["post"]["summary"]
            .as_str()
            .unwrap()
            .contains("variant of the post"),
        "{}",
        people["post"]["summary"]
    );
    for lane in people["lanes"].as_array().unwrap() {
        if !lane["command"].is_null() {
            assert!(
                lane["why"]
                    .as_str()
                    .unwrap()
                    .contains("variant of the post"),
                "{lane}"
            );
        }
    }
    for id in ["campfire-runtimes", "campfire-nightly"] {
        let out = reprise(dir.path(), &["show", id, "--json"]);
        let shown: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let spinel = shown["sources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == "spinel")
            .expect("a spinel source");
        assert_eq!(spinel["url"], "https://github.com/matz/spinel");
        assert_eq!(spinel["branch"], "master");
        assert!(spinel["rev"].is_null());
        assert!(
            spinel["unpinned"]
                .as_str()
                .is_some_and(|r| r.contains("CI")),
            "{spinel}"
        );
        // An emitted tree of an unpinned source has no published digest.
        let emit = shown["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == "emit-spinel")
            .expect("an emit-spinel step");
        assert!(emit["expected"]["manifest"].is_null(), "{emit}");
        assert!(emit["expected"]["digest"].is_null(), "{emit}");
    }
    let out = reprise(dir.path(), &["show", "campfire-nightly", "--json"]);
    let nightly: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let falcon = nightly["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "ruby-falcon")
        .unwrap();
    assert!(
        falcon["why"].as_str().unwrap().contains("deviation"),
        "{falcon}"
    );
}

/// Recipes are for readers: none explains a lane it cannot run by the limits
/// of the machine it was written on.
#[test]
fn no_recipe_explains_unavailability_by_the_build_machine() {
    const PHRASES: &[&str] = &[
        "registries this recipe can use",
        "not available from the registries",
        "sandbox",
        "this build machine",
    ];
    let dir = checkout();
    for entry in std::fs::read_dir(dir.path().join("recipes")).unwrap() {
        let path = entry.unwrap().path();
        let id = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
        let shown = stdout(&reprise(dir.path(), &["show", &id])).to_lowercase();
        for phrase in PHRASES {
            assert!(!text.contains(phrase), "{id}.toml says {phrase:?}");
            assert!(
                !shown.contains(phrase),
                "`reprise show {id}` says {phrase:?}"
            );
        }
    }
}

/// The people variant's seed puts every account in the rooms Reprise's people
/// generator expects it in: its roster file, run by Ruby, against the
/// generator's own roster, at the workload's shape and the seed's row counts.
#[test]
fn the_people_seed_roster_is_the_generators() {
    use reprise_recipe::Action;
    let recipe = reprise_recipe::load(&repo().join("recipes/campfire-people.toml")).unwrap();
    let people = recipe
        .workload("people")
        .and_then(|w| w.people.as_ref())
        .expect("a people workload");
    let Some(Action::Seed(reprise_recipe::SeedStep { env, verify, .. })) =
        recipe.step("seed-people").map(|s| &s.action)
    else {
        panic!("no seed-people step");
    };
    assert_eq!(env["PEOPLE_ACCOUNTS"], people.accounts.to_string());
    assert_eq!(env["PEOPLE_ROOMS"], people.rooms.to_string());
    assert_eq!(verify["users"], u64::from(people.accounts));
    assert_eq!(verify["sessions"], u64::from(people.accounts));
    assert_eq!(
        Some(env["PEOPLE_PASSWORD"].as_str()),
        people.password.as_deref()
    );
    let messages: u64 = env["PEOPLE_MESSAGES"].parse().unwrap();
    assert_eq!(verify["messages"], messages * u64::from(people.rooms));

    let roster = recipe
        .files
        .iter()
        .find(|f| &*f.path == "people-roster.rb")
        .expect("the roster file");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("people-roster.rb");
    std::fs::write(&file, &roster.content).unwrap();
    let script = format!(
        "(0...{}).each {{ |a| puts [PeopleRoster.email(a), *PeopleRoster.rooms_of(a, {})].join(' ') }}",
        people.accounts, people.rooms
    );
    let out = Command::new("ruby")
        .arg("-r")
        .arg(&file)
        .args(["-e", &script])
        .output()
        .expect("ruby runs the seed's roster");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut memberships = 0u64;
    let mut lines = 0;
    for (account, line) in text.lines().enumerate() {
        let account = account as u32;
        let mut words = line.split(' ');
        assert_eq!(
            words.next(),
            Some(reprise_loadgen::people::roster::email(account).as_str())
        );
        let rooms: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
        assert_eq!(
            rooms,
            reprise_loadgen::people::roster::seeded_rooms(account, people.rooms),
            "{line}"
        );
        memberships += rooms.len() as u64;
        lines += 1;
    }
    assert_eq!(lines, people.accounts as usize);
    assert_eq!(verify["memberships"], memberships);
}
