//! Cold start as the harness times it (rubys/roundhouse
//! `scripts/bench-campfire`'s `cold_start`): each of the serve step's boots
//! from cold, timed to the first answer and to the signed-in room page,
//! once the sign-in has a cookie. A Rack app under Debian's Puma answers
//! its health path at once but renders the room page only 600 ms after the
//! first request it answered (a cold cache), as a real app's first page
//! comes after its health check. Counted from its first answer, not from
//! when it loaded, the 600 ms come after the port accepted however slowly
//! a busy machine boots it.

mod support;

use support::{execute, free_port, log_lines, read_json, setup};

fn recipe(port: u16) -> String {
    format!(
        r##"
[post]
id = "cold"
title = "Cold"
author = "Test"
date = "2026"
summary = "A page slower to come than the health path."

[[file]]
path = "app/config.ru"
why = "Up at once, its room page 600 ms after its first answer."
content = '''
ROOM = '<html><head><meta name="current-room-id" content="1"></head><body>room</body></html>'
$first = nil
run lambda {{ |env|
  req = Rack::Request.new(env)
  signed = req.cookies["session_token"] == "ok"
  now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  $first ||= now
  warm = now - $first >= 0.6
  case [req.request_method, req.path_info]
  when ["GET", "/up"] then [200, {{}}, ["up"]]
  when ["GET", "/session/new"] then [200, {{"content-type" => "text/html"}}, ["<form></form>"]]
  when ["POST", "/session"] then [302, {{"location" => "/rooms/1", "set-cookie" => "session_token=ok; path=/"}}, []]
  when ["GET", "/rooms/1"]
    if !signed then [302, {{"location" => "/session/new"}}, []]
    else [warm ? 200 : 503, {{"content-type" => "text/html"}}, [ROOM]]
    end
  else [404, {{}}, ["not found"]]
  end
}}
'''

[[lane]]
name = "app"
command = ["puma", "--bind", "tcp://127.0.0.1:{port}", "--threads", "1:1", "config.ru"]
dir = "files/app"
port = {port}
health = "/up"
boot_budget = "30s"
why = "The app."

[[step]]
id = "serve"
kind = "serve"
repeat = 2
why = "Boot twice from cold."

[[step]]
id = "sign-in"
kind = "sign_in"
email = "user1@example.com"
password = "pw"
flow = "header"
after = ["serve"]
why = "Sign in."
"##
    )
}

#[test]
fn each_boot_is_timed_to_the_signed_in_room_page() {
    let s = setup("cold", &recipe(free_port()));
    let a = execute(&s, None, false, &|_| {});
    let lines = log_lines(&a.events);
    assert_eq!(a.report.finished, ["serve", "sign-in"], "{lines:#?}");
    let boots = read_json(&a.run.results().join("coldstart.json"));
    let boots = boots.as_array().unwrap();
    // The serve step's count, each timed again once the cookie is there,
    // in place of the serve step's.
    assert_eq!(boots.len(), 2, "{boots:?}");
    for (rep, boot) in boots.iter().enumerate() {
        assert_eq!(boot["target"], "app", "{boot}");
        assert_eq!(boot["rep"], rep + 1, "{boot}");
        assert_eq!(boot["page_code"], 200, "{boot}");
        let (accept, page) = (
            boot["accept_ms"].as_f64().unwrap(),
            boot["page_ms"].as_f64().unwrap(),
        );
        // Not the health path's time: the page came 600 ms after the first
        // answer, which came after the port accepted.
        assert!(page >= accept + 600.0, "{boot}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("lane app boot 2: accepts after")
                && l.contains("the signed-in /rooms/1 answers 200 after")),
        "{lines:#?}"
    );
}
