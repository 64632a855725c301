//! Redaction before sharing, on constructed fingerprints, host files and
//! reports: what a reader's machine would leak if it were missed.

#[path = "../../report/tests/fixture/mod.rs"]
mod fixture;

use std::collections::HashMap;

use reprise_report::SourceRevision;
use reprise_share::{Redactor, prepare};

fn recorded(record: serde_json::Value) -> Redactor {
    let mut r = Redactor::new();
    r.learn_recorded(&record);
    r
}

#[test]
fn host_names_are_matched_whatever_their_case() {
    let r = recorded(serde_json::json!({"os": {"hostname": "Bench-Box-7"}}));
    assert_eq!(
        r.redact("bench-box-7, BENCH-BOX-7 and Bench-Box-7 but not bench-box-70"),
        "[hostname], [hostname] and [hostname] but not bench-box-70"
    );
}

#[test]
fn the_machine_s_fully_qualified_name_and_search_domains_are_redacted() {
    let root = tempfile::tempdir().unwrap();
    let etc = root.path().join("etc");
    std::fs::create_dir_all(&etc).unwrap();
    std::fs::write(etc.join("hostname"), "bench-box-7\n").unwrap();
    std::fs::write(
        etc.join("hosts"),
        "127.0.0.1 localhost\n127.0.1.1 bench-box-7.Corp.Example.com bench-box-7\n",
    )
    .unwrap();
    std::fs::write(
        etc.join("resolv.conf"),
        "nameserver 10.0.0.2\nsearch corp.example.com lab.example.net lan\n",
    )
    .unwrap();
    let mut r = Redactor::new();
    r.learn_host_files(root.path());
    assert_eq!(
        r.redact(
            "ssh BENCH-BOX-7.corp.example.com; git.corp.example.com; ci.lab.example.net; \
             the lan; localhost; github.com"
        ),
        "ssh [hostname]; git.[domain]; ci.[domain]; the lan; localhost; github.com"
    );
    // The recorded FQDN gives its domain too.
    let r = recorded(serde_json::json!({"hostname": "box9.dept.uni.example"}));
    assert_eq!(
        r.redact("box9 at mirror.dept.uni.example"),
        "[hostname] at mirror.[domain]"
    );
}

#[test]
fn e_mail_and_mac_addresses_are_redacted() {
    let r = Redactor::new();
    assert_eq!(
        r.redact(
            "by Alice.Smith+ci@corp.example.org; link/ether 52:54:00:12:AB:cd brd ff:ff:ff:ff:ff:ff; \
             NIC 00-1A-2B-3C-4D-5E, 0011.2233.4455; remote git@github.com:rubys/roundhouse.git; \
             account person0@example.test; at 04:33:03"
        ),
        "by [email]; link/ether [mac] brd [mac]; NIC [mac], [mac]; \
         remote git@github.com:rubys/roundhouse.git; account person0@example.test; at 04:33:03"
    );
}

#[test]
fn a_home_is_replaced_only_as_a_whole_path_segment() {
    let r = recorded(serde_json::json!({"user": "alice", "home": "/srv/alice"}));
    let out = r.redact(
        "/srv/alice/reprise, /srv/alice2/x, /home/alice2/y, /home/alice, alice2 and alice, /mnt/home/z",
    );
    assert_eq!(
        out,
        "~/reprise, /srv/alice2/x, ~/y, ~, alice2 and [user], /mnt/home/z"
    );
    assert!(!out.contains("~2"), "{out}");
}

#[test]
fn under_sudo_the_user_who_ran_sudo_is_redacted_not_root() {
    let env: HashMap<&str, &str> = [
        ("USER", "root"),
        ("LOGNAME", "root"),
        ("HOME", "/root"),
        ("SUDO_USER", "alice"),
    ]
    .into();
    let mut r = Redactor::new();
    r.learn_env(|name| env.get(name).map(|v| v.to_string()));
    assert_eq!(r.users(), ["alice"]);
    assert_eq!(
        r.redact("alice in /root and /home/alice/x; root stays"),
        "[user] in /root and ~/x; root stays"
    );
}

/// A report of a run by alice on bench-box-7.corp.example.com, shared by
/// someone else (this test's process: neither its user nor its host is
/// alice's): everything identifying comes from what the run recorded.
#[test]
fn a_report_is_redacted_with_what_its_run_recorded_whoever_shares_it() {
    let mut report = fixture::report("hello-ceiling-20261130-050000");
    report.environment.fingerprint = serde_json::json!({"os": {"hostname": "bench-box-7"}});
    report.environment.bench_env = serde_json::json!({
        "host": {"hostname": "bench-box-7.corp.example.com", "user": "alice"},
        "toolchain_paths": {"ruby": "/home/alice/.rbenv/versions/3.3.0/bin/ruby"},
    });
    report.run.origin =
        Some("reprise run, /home/alice/.local/share/reprise/runs/hello-ceiling-1".into());
    report.environment.commands = vec![vec![
        "/home/alice/reprise/bin/setup".into(),
        "--owner".into(),
        "alice".into(),
        "--notify".into(),
        "alice@corp.example.com".into(),
    ]];
    let post = prepare(&report, Some(&Redactor::for_report(&report))).unwrap();
    for leak in ["alice", "bench-box-7", "corp.example.com", "/home/"] {
        assert!(!post.body.contains(leak), "{leak} leaked:\n{}", post.body);
    }
    assert!(post.body.contains("~/reprise/bin/setup"));
}

#[test]
fn credentials_inside_source_urls_are_removed_before_posting() {
    let mut report = fixture::report("hello-ceiling-20261130-050000");
    report.environment.sources = vec![
        SourceRevision {
            id: "app".into(),
            url: "https://alice:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/rubys/app.git"
                .into(),
            revision: "0123abc".into(),
        },
        SourceRevision {
            id: "bundle".into(),
            url: "https://oauth2:glpat-Zx9Yw8Vu7@gitlab.example.org/r/bundle.git".into(),
            revision: "4567def".into(),
        },
        SourceRevision {
            id: "mirror".into(),
            url: "https://mirror.example.net/seed.tar?ref=main&access_token=s3cr3tT0ken&x=1".into(),
            revision: "89ab".into(),
        },
    ];
    let post = prepare(&report, Some(&Redactor::new())).unwrap();
    for leak in [
        "ghp_",
        "abcdefghij",
        "glpat",
        "Zx9Yw8Vu7",
        "s3cr3tT0ken",
        "oauth2:",
    ] {
        assert!(!post.body.contains(leak), "{leak} leaked:\n{}", post.body);
    }
    assert!(
        post.body
            .contains("https://[credentials]@github.com/rubys/app.git"),
        "{}",
        post.body
    );
    assert!(
        post.body
            .contains("seed.tar?ref=main&access_token=[redacted]&x=1")
    );
    // A token on its own, outside a URL, is taken out too.
    assert_eq!(
        Redactor::new().redact("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 and Authorization: Bearer abcdefghijklmnopqrstuvwxyz"),
        "token [token] and Authorization: [redacted]"
    );
}
