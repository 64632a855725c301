//! Every lane reads the seed, and `?before=` names the message the harness
//! names (rubys/roundhouse `scripts/bench-campfire`: the seed restored after
//! a lane that POSTs; the middle of the first room's history). Two lanes of
//! a Campfire-shaped Rack app under Debian's Puma share one real SQLite
//! database, read and written through Debian's `sqlite3`, as the emitted
//! Campfire's `ruby` and `ruby-falcon` lanes share their tree's. Each
//! sidebar the app serves records how many messages room 2 holds, the room
//! the suite POSTs to, and each `?before=` it is asked for.

mod support;

use rusqlite::Connection;
use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(ports: [u16; 2]) -> String {
    let [a, b] = ports;
    let lane = |name: &str, port: u16| {
        format!(
            r#"
[[lane]]
name = "{name}"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "2:2", "config.ru"]
dir = "files/app"
port = {port}
env = {{ LANE = "{name}", DB = "../../data/seed.sqlite3", SEEN = "../../seen.log" }}
health = "/up"
boot_budget = "30s"
warmup = "0s"
why = "The app, reading the run's one database."
"#
        )
    };
    format!(
        r##"
[post]
id = "seeded"
title = "Seeded"
author = "Test"
date = "2026"
summary = "Two lanes over one database, one route writing."

[[file]]
path = "app/config.ru"
why = "A Campfire-shaped app over SQLite."
content = '''
DB = ENV.fetch("DB")
def sql(text) = IO.popen(["sqlite3", "-cmd", ".timeout 10000", DB, text], &:read)
def seen(line) = File.open(ENV.fetch("SEEN"), "a") {{ |f| f.puts(line) }}
run lambda {{ |env|
  req = Rack::Request.new(env)
  signed = req.cookies["session_token"] == "ok"
  case [req.request_method, req.path_info]
  when ["GET", "/up"] then [200, {{}}, ["up"]]
  when ["GET", "/session/new"] then [200, {{"content-type" => "text/html"}}, ["<form></form>"]]
  when ["POST", "/session"] then [302, {{"location" => "/rooms/1", "set-cookie" => "session_token=ok; path=/"}}, []]
  when ["GET", "/rooms/1"]
    return [302, {{"location" => "/session/new"}}, []] unless signed
    newest = sql("SELECT id FROM messages WHERE room_id = 1 ORDER BY created_at DESC, id DESC LIMIT 10").split.reverse
    page = '<html><head><meta name="csrf-token" content="c"><meta name="current-room-id" content="1"></head><body>' +
      '<a data-room-id="2" href="/rooms/2">two</a>' + newest.map {{ |id| "<div data-message-id=\"#{{id}}\">m</div>" }}.join + '</body></html>'
    [200, {{"content-type" => "text/html"}}, [page]]
  when ["GET", "/users/me/sidebar"]
    seen("#{{ENV["LANE"]}} room2 #{{sql("SELECT COUNT(*) FROM messages WHERE room_id = 2").to_i}}")
    [200, {{"content-type" => "text/html"}}, ["<div>rooms</div>"]]
  when ["GET", "/rooms/1/messages"]
    seen("#{{ENV["LANE"]}} before #{{req.params["before"]}}")
    [200, {{"content-type" => "text/html"}}, ["<div>older</div>"]]
  when ["POST", "/rooms/2/messages"]
    sql("INSERT INTO messages (room_id, created_at) VALUES (2, datetime('now'))")
    [201, {{}}, ["<turbo-stream></turbo-stream>"]]
  else [404, {{}}, ["not found"]]
  end
}}
'''

[[step]]
id = "seed"
kind = "seed"
command = ["sh", "-c", "mkdir -p data && sqlite3 data/seed.sqlite3 \"CREATE TABLE messages (id INTEGER PRIMARY KEY, room_id INTEGER, created_at TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO messages (room_id, created_at) SELECT 1, printf('2026-01-01 00:%02d:%02d', i / 60, i % 60) FROM n; INSERT INTO messages (room_id, created_at) VALUES (2, '2026-01-02'), (2, '2026-01-03');\""]
database = "data/seed.sqlite3"
verify = {{ messages = 102 }}
why = "100 messages in room 1, 2 in room 2."

[[step]]
id = "serve"
kind = "serve"
after = ["seed"]
why = "Boot."

[[step]]
id = "sign-in"
kind = "sign_in"
email = "user1@example.com"
password = "pw"
flow = "header"
after = ["serve"]
why = "Sign in."

[[step]]
id = "check"
kind = "check"
workload = "suite"
after = ["sign-in"]
why = "Parity."

[[step]]
id = "load"
kind = "load"
workload = "suite"
after = ["check"]
why = "Measure."
{lane_a}{lane_b}
[[workload]]
name = "suite"
connections = 2
duration = "1s"
runs = 2

[[workload.endpoint]]
name = "/rooms/:id"
path = "/rooms/{{first}}"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "/users/me/sidebar"
path = "/users/me/sidebar"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "/rooms/:id/messages?before="
path = "/rooms/{{first}}/messages?before={{message}}"
expect = {{ status = 200 }}

[[workload.endpoint]]
name = "POST /rooms/:id/messages"
method = "POST"
path = "/rooms/{{second}}/messages"
body = "message[body]=hello"
expect = {{ status = 201 }}
"##,
        lane_a = lane("a", a),
        lane_b = lane("b", b),
    )
}

#[test]
fn each_round_reads_the_rows_the_lanes_read_before_any_write_and_before_names_the_middle_message() {
    let s = setup("seeded", &recipe([free_port(), free_port()]));
    let a = execute(&s, None, false, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(
        a.report.finished,
        ["seed", "serve", "sign-in", "check", "load"],
        "{lines:#?}"
    );
    let results = read_json(&a.run.results().join("results.json"));
    let cells = results["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 16, "{results}");
    let posted: u64 = cells
        .iter()
        .filter(|c| c["endpoint"] == "POST /rooms/:id/messages")
        .map(|c| c["requests"].as_u64().unwrap())
        .sum();
    assert!(posted > 0, "the POST cells wrote: {results}");

    let seen = std::fs::read_to_string(a.run.path.join("seen.log")).unwrap();
    let seen: Vec<(&str, &str, u64)> = seen
        .lines()
        .map(|l| {
            let mut words = l.split(' ');
            let (lane, what) = (words.next().unwrap(), words.next().unwrap());
            (lane, what, words.next().unwrap().parse().unwrap())
        })
        .collect();

    // `?before=` is the 50th of room 1's 100 messages by time, as the
    // harness picks it, not the first the room page shows (91).
    let befores: std::collections::BTreeSet<u64> = seen
        .iter()
        .filter(|(_, what, _)| *what == "before")
        .map(|(_, _, id)| *id)
        .collect();
    assert_eq!(befores, [50].into(), "the ids asked for");

    // Each lane's first sidebar is the check's; every one after it, in
    // every round of both lanes, read room 2 as it was when the load
    // began: no round saw another round's writes.
    let db = Connection::open(a.run.path.join("data/seed.sqlite3")).unwrap();
    let room2: i64 = db
        .query_row("SELECT COUNT(*) FROM messages WHERE room_id = 2", [], |r| {
            r.get(0)
        })
        .unwrap();
    let room2 = room2 as u64;
    for lane in ["a", "b"] {
        let pages: Vec<u64> = seen
            .iter()
            .filter(|(l, what, _)| *l == lane && *what == "room2")
            .map(|(_, _, n)| *n)
            .collect();
        assert!(pages.len() > 1, "lane {lane}: {pages:?}");
        let after_check: std::collections::BTreeSet<u64> = pages[1..].iter().copied().collect();
        assert_eq!(
            after_check,
            [room2].into(),
            "lane {lane}: room 2's counts its load's sidebars read"
        );
    }
    // And the run leaves the database as the load found it: the POSTs'
    // rows are gone.
    assert!(
        room2 < 2 + 2 + posted,
        "{room2} messages in room 2 after {posted} POSTs"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("every round starts from the rows the lanes read now")),
        "{lines:#?}"
    );
    let left: Vec<_> = std::fs::read_dir(&a.run.path)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("kept-databases")
        })
        .collect();
    assert!(left.is_empty(), "the copies are removed: {left:?}");
}
