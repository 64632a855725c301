//! `per-run.json` read into measurements and written back, and its lanes
//! named after a recipe's.

use reprise_harness_files::per_run;
use reprise_recipe::Metric;
use reprise_verdict::{CellKey, MachineMatch, Outcome, Settings, judge};

#[test]
fn per_run_files_round_trip() {
    let per_run = r#"{"target":"ruby","workers":1,"endpoint":"/up","run":1,"warmup_sec":20,"rss_kb":2048,"pss_kb":1024,"req_sec":478.5,"p50_ms":30.1,"p99_ms":60.2,"socket_errors":0}
{"target":"ruby","workers":4,"endpoint":"/up","run":1,"warmup_sec":20,"rss_kb":4096,"pss_kb":3072,"req_sec":1400,"p50_ms":10,"p99_ms":22,"socket_errors":0,"client_cpu":0.42}
"#;
    let m = per_run::parse(per_run).unwrap();
    // One target at two worker counts: two lanes.
    assert!(m.lanes.contains_key("ruby/w1") && m.lanes.contains_key("ruby/w4"));
    let rss = m
        .cell(&CellKey::new("ruby/w4", Some("/up"), Metric::RssMb))
        .unwrap();
    assert_eq!(rss.runs[0].value, Some(4.0));
    let again = per_run::parse(&per_run::render(&m)).unwrap();
    assert_eq!(again, m);
    assert!(per_run::render(&m).contains(r#""target":"ruby","workers":4"#));
}

#[test]
fn a_malformed_per_run_line_is_an_error_naming_the_line() {
    let err = per_run::parse("{\"target\":\"a\",\"run\":1}\n{oops}\n").unwrap_err();
    assert!(err.to_string().starts_with("per-run.json line 2:"), "{err}");
}

#[test]
fn a_value_no_measurement_has_is_refused_naming_the_line_and_field() {
    // 1e308 req/s: the cell's statistics would overflow, and a run stored
    // with it would not read back for report, share, compare or clean.
    for (field, value) in [("req_sec", "1e308"), ("p99_ms", "-1"), ("rss_kb", "2e12")] {
        let text = format!(
            "{{\"target\":\"a\",\"run\":1,\"req_sec\":10}}\n{{\"target\":\"a\",\"run\":2,\"req_sec\":10,\"{field}\":{value}}}\n"
        );
        let err = per_run::parse(&text).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("per-run.json line 2: `{field}` is ")),
            "{err}"
        );
        assert!(err.contains("no measurement is below 0 or above"), "{err}");
    }
}

#[test]
fn harness_lanes_take_the_recipe_s_names_by_their_harness_mapping() {
    let text = r#"
[post]
id = "shapes"
title = "Shapes"
author = "A. Writer"
date = "2026"
summary = "One runtime, two shapes."

[[lane]]
name = "ruby"
workers = 8
command = ["puma"]
why = "Eight workers."

[[lane]]
name = "ruby-1p"
workers = 1
harness = { target = "ruby", workers = 1 }
command = ["puma"]
why = "One worker."

[[figure]]
id = "eight"
lane = "ruby"
metric = "req_per_s"
value = 2366
quote = "2,366."

[[figure]]
id = "one"
lane = "ruby-1p"
metric = "req_per_s"
value = 478
quote = "478."

[[claim]]
id = "eight-over-one"
kind = "ratio"
numerator = "eight"
denominator = "one"
value = 4.95
tolerance = 0.1
quote = "About five times."
"#;
    let recipe = reprise_recipe::parse("recipes/shapes.toml".as_ref(), text).unwrap();
    let mut per_run = String::new();
    for (workers, v) in [(8, 2366.0), (1, 478.0)] {
        for run in 1..=3 {
            per_run.push_str(&format!(
                "{{\"target\":\"ruby\",\"workers\":{workers},\"endpoint\":null,\"run\":{run},\"req_sec\":{}}}\n",
                v + run as f64
            ));
        }
    }
    let mut m = per_run::parse(&per_run).unwrap();
    assert!(m.lanes.contains_key("ruby/w8"));
    let renames = reprise_verdict::align_lanes(&mut m, &recipe);
    assert_eq!(renames.get("ruby/w8").map(String::as_str), Some("ruby"));
    assert_eq!(renames.get("ruby/w1").map(String::as_str), Some("ruby-1p"));
    let differs = MachineMatch::Differs(vec![reprise_verdict::MachineDifference::not_compared(
        "2 cores, the post had 6",
    )]);
    let j = judge(&recipe, &m, &differs, &Settings::default());
    assert_eq!(
        j.verdict("eight-over-one").unwrap().outcome,
        Outcome::Reproduced
    );
}

#[test]
fn a_zero_rss_and_a_null_latency_are_runs_without_a_number() {
    // rss_kb 0 is the harness's sampler finding no process (a server that
    // died); p50_ms null is wrk printing no distribution. Neither is a
    // number, and neither is dropped: the cell is no data.
    let m = per_run::parse(
        r#"{"target":"ruby","workers":1,"endpoint":"/up","run":1,"rss_kb":183000,"req_sec":480.5,"p50_ms":30.1,"p99_ms":60.2}
{"target":"ruby","workers":1,"endpoint":"/up","run":2,"rss_kb":0,"req_sec":481.5,"p50_ms":null,"p99_ms":61.0}
"#,
    )
    .unwrap();
    let runs = |metric| {
        m.cell(&CellKey::new("ruby", Some("/up"), metric))
            .unwrap_or_else(|| panic!("no {metric:?} cell"))
            .runs
            .iter()
            .map(|r| r.value)
            .collect::<Vec<_>>()
    };
    assert_eq!(runs(Metric::RssMb), [Some(183000.0 / 1024.0), None]);
    assert_eq!(runs(Metric::P50Ms), [Some(30.1), None]);
    let j = judge_cells(&m);
    let status = |metric| {
        j.iter()
            .find(|c| c.cell.key == CellKey::new("ruby", Some("/up"), metric))
            .unwrap()
            .status
            .describe()
    };
    assert_eq!(status(Metric::P50Ms), "no data: run 2 produced no number");
    assert_eq!(status(Metric::RssMb), "no data: run 2 produced no number");
}

fn judge_cells(m: &reprise_verdict::Measurements) -> Vec<reprise_verdict::CellReading> {
    reprise_verdict::read_cells(m, &reprise_verdict::Thresholds::default())
}
