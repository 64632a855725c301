//! Reports of a constructed hello-ceiling run, in every format, and the
//! HTML checked in a real browser (Debian's Chromium, headless).

mod fixture;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use reprise_report::{Format, Report};
use reprise_verdict::Outcome;

fn render(report: &Report, format: Format) -> String {
    String::from_utf8(format.exporter().render(report).unwrap()).unwrap()
}

/// The claims of an HTML report's cards, in order.
fn cards(html: &str) -> Vec<&str> {
    html.split("<section class=\"claim-card\" data-claim=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect()
}

/// The text of every `p`, `li`, `td` and `dd` element of an HTML page, tags
/// taken out and the escaping undone.
fn element_texts(html: &str) -> Vec<String> {
    let mut texts = Vec::new();
    for tag in ["p", "li", "td", "dd"] {
        let mut rest = html;
        while let Some(start) = rest.find(&format!("<{tag}")) {
            let after = &rest[start + tag.len() + 1..];
            if !after.starts_with(['>', ' ']) {
                rest = after;
                continue;
            }
            let open_end = after.find('>').unwrap() + 1;
            let close = after.find(&format!("</{tag}>")).unwrap_or(after.len());
            let inner = &after[open_end..close.max(open_end)];
            let mut text = String::new();
            let mut in_tag = false;
            for c in inner.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            texts.push(
                text.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&amp;", "&"),
            );
            rest = &after[close.max(open_end)..];
        }
    }
    texts
}

/// The sentences longer than 30 characters said more than once among
/// `texts`, split at full stops.
fn repeated_sentences(texts: &[String]) -> Vec<String> {
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    for text in texts {
        for raw in text.split(". ") {
            let sentence = raw.split_whitespace().collect::<Vec<_>>().join(" ");
            let sentence = sentence.trim_end_matches('.').to_string();
            if sentence.chars().count() > 30 {
                *seen.entry(sentence).or_default() += 1;
            }
        }
    }
    seen.into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(s, n)| format!("{n}× {s}"))
        .collect()
}

/// The prose of a Markdown report: its paragraphs, list items and quotes,
/// not its tables, code blocks or machine-readable result.
fn markdown_prose(md: &str) -> Vec<String> {
    let md = md.split("## Machine-readable result").next().unwrap();
    let mut fenced = false;
    md.lines()
        .filter(|l| {
            if l.starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced && !l.starts_with('|') && !l.starts_with('#') && !l.trim().is_empty()
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn html_and_markdown_have_a_card_per_claim_and_say_no_sentence_twice() {
    for report in [fixture::report("run-1"), falcon_skipped_puma_erring()] {
        let html = render(&report, Format::Html);
        let judged: Vec<&str> = report
            .judgement
            .verdicts
            .iter()
            .filter(|v| v.outcome != Outcome::NotMeasured)
            .map(|v| v.claim.as_str())
            .collect();
        assert_eq!(cards(&html), judged, "one card per claim measured here");
        let texts = element_texts(&html);
        assert!(texts.len() > 10, "{texts:?}");
        assert_eq!(repeated_sentences(&texts), Vec::<String>::new(), "{html}");
        let md = render(&report, Format::Markdown);
        for claim in &judged {
            assert_eq!(md.matches(&format!("### `{claim}`:")).count(), 1, "{md}");
        }
        assert_eq!(
            repeated_sentences(&markdown_prose(&md)),
            Vec::<String>::new(),
            "{md}"
        );
    }
}

/// Text from a recipe or a run goes into the HTML cards escaped.
#[test]
fn html_cards_escape_recipe_text() {
    let mut report = fixture::report("run-1");
    let hostile = "<script>alert(1)</script> \"quoted\" & 'single'";
    for v in &mut report.judgement.verdicts {
        v.quote = hostile.into();
        v.claim = format!("{}<b>", v.claim);
        v.why = reprise_verdict::Why::Worded {
            text: hostile.into(),
        };
        v.deviations = vec![hostile.into()];
    }
    report.judgement.machine =
        reprise_verdict::MachineMatch::Differs(vec![reprise_verdict::MachineDifference::Item {
            item: "CPU".into(),
            here: Some(hostile.into()),
            post: Some(hostile.into()),
        }]);
    let html = render(&report, Format::Html);
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<b>"), "{html}");
    assert!(
        html.contains(
            "&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;"
        ),
        "{html}"
    );
}

#[test]
fn markdown_has_every_verdict_every_cell_and_the_appendix() {
    let report = fixture::report("run-1");
    let md = render(&report, Format::Markdown);
    assert!(md.starts_with("# Reprise: Campfire under Falcon: the hello-world ceilings\n"));
    // Falcon ÷ Puma is 1.96 ± 15%: measured 41,200 / 21,000 = 1.96.
    // A section per claim: its verdict, its numbers on one line, why.
    // Falcon ÷ Puma is 1.96 ± 15%: measured 41,200 / 21,000 = 1.96.
    assert!(
        md.contains(
            "### `falcon-twice-puma`: reproduced\n\n> A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.\n\n`1.4 ··········==========[=●=]=========······ 2.4×`\n\nMeasured 1.96× (1.9–2.02): inside the 1.67–2.25× the claim accepts (published 1.96×).\n"
        ),
        "{md}"
    );
    // On a machine unlike the post's, absolute figures are for information:
    // said in a few words, the machine's differences once, in its table.
    assert!(md.contains("### `puma-ceiling`: not comparable\n"), "{md}");
    assert!(
        md.contains("Not judged: 54,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 21,000 req/s (20,321–21,836), for information.\n"),
        "{md}"
    );
    assert!(
        md.contains(
            "| Item | Here | The post's |\n|---|---|---|\n| CPU | Intel Xeon | AMD Ryzen 5 3600 |\n"
        ),
        "{md}"
    );
    assert_eq!(md.matches("AMD Ryzen 5 3600").count(), 1, "{md}");
    assert!(md.contains("### `falcon-above-puma`: reproduced\n"), "{md}");
    assert!(md.contains("**2 reproduced · 2 not comparable.**"));
    assert!(
        md.contains("| nginx | / | req_per_s | 3 | 70,550 req/s |"),
        "{md}"
    );
    assert!(md.contains("no data: run 2 had 12 errors"), "{md}");
    assert!(md.contains("| puma | / | req_per_s | 3 | 21,000 req/s | 20,800–21,400 req/s | 1.2% | — | 54,000 req/s (`puma-hello`) | valid |"), "{md}");
    assert!(md.contains("\"hostname\": \"bench-box-7\""));
    assert!(md.contains("| puma | 5.6.5 |"));
    assert!(md.contains("nginx -g 'daemon off;'"), "{md}");
    assert!(md.contains(&format!("| hello | `{}` |", "ab".repeat(32))));
}

/// The fixture's run with Falcon skipped at preflight and a Puma run with
/// errors, on the post's machine, a smoke run: its deviations as a run
/// records them (the session's `deviations_of`), the skipped lane's among
/// them.
fn falcon_skipped_puma_erring() -> Report {
    let recipe = fixture::recipe();
    let mut m = fixture::measurements();
    m.cells.retain(|c| c.key.lane != "falcon");
    m.lanes.remove("falcon");
    m.not_measured.insert(
        "falcon".into(),
        vec![reprise_verdict::LaneSkip {
            stage: Some("preflight".into()),
            because: "it needs falcon, which this machine lacks".into(),
        }],
    );
    let puma = m
        .cells
        .iter_mut()
        .find(|c| c.key.lane == "puma" && c.key.metric() == reprise_recipe::Metric::ReqPerS)
        .unwrap();
    puma.runs[1].errors = 3;
    puma.runs[1].value = None;
    let judgement = reprise_verdict::judge(
        &recipe,
        &m,
        &reprise_verdict::MachineMatch::Matches,
        &reprise_verdict::Settings::default(),
    )
    .with_deviations(vec![
        reprise_verdict::Deviation::new(
            reprise_verdict::DeviationKind::Quick,
            "a smoke run (--quick): durations, warm-ups and runs capped",
        ),
        reprise_verdict::Deviation {
            kind: reprise_verdict::DeviationKind::Lane,
            what: "lane falcon was not measured (preflight): it needs falcon, which this machine lacks".into(),
            lanes: vec!["falcon".into()],
        },
    ]);
    Report {
        run: reprise_report::RunInfo::for_recipe(&recipe, "run-2", "2026-11-30T05:00:00Z"),
        judgement,
        measurements: m,
        environment: fixture::environment(),
        people: Vec::new(),
    }
}

#[test]
fn markdown_and_html_say_no_data_and_not_measured_with_why() {
    let report = falcon_skipped_puma_erring();
    let md = render(&report, Format::Markdown);
    assert!(md.contains("**1 no data · 3 not measured.**"), "{md}");
    // No interval, so no line: the reason says why.
    assert!(
        md.contains(
            "### `puma-ceiling`: no data\n\n> A hello-world app under Puma on the same box serves about 54,000 requests a second\n\npuma-hello: no data: run 2 had 3 errors.\n"
        ),
        "{md}"
    );
    // The claims not measured here: no section each, their reason once.
    for claim in ["falcon-ceiling", "falcon-twice-puma", "falcon-above-puma"] {
        assert!(!md.contains(&format!("### `{claim}`")), "{md}");
    }
    assert!(
        md.contains(
            "- **Not measured here:** lane falcon was not measured (preflight): it needs falcon, which this machine lacks. Claims: `falcon-ceiling`, `falcon-twice-puma`, `falcon-above-puma`.\n"
        ),
        "{md}"
    );
    // Said once, under the claims it stops: not also as a deviation (the
    // machine-readable block at the end carries the record whole).
    let prose = md.split("## Machine-readable result").next().unwrap();
    assert_eq!(prose.matches("it needs falcon").count(), 1, "{md}");
    assert!(
        md.contains("## How this run differs from the post\n\n- a smoke run (--quick): durations, warm-ups and runs capped\n\n"),
        "{md}"
    );
    let html = render(&report, Format::Html);
    assert!(
        html.contains(r#"<span class="badge no-data">no data</span>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<li><span class="badge not-measured">not measured here</span> lane falcon was not measured (preflight): it needs falcon, which this machine lacks. Claims: <code>falcon-ceiling</code>, <code>falcon-twice-puma</code>, <code>falcon-above-puma</code>.</li>"#),
        "{html}"
    );
    assert_eq!(html.matches("it needs falcon").count(), 1, "{html}");
    assert!(
        html.contains("<ul class=\"deviations\"><li>a smoke run (--quick): durations, warm-ups and runs capped</li></ul>"),
        "{html}"
    );
    assert_eq!(cards(&html), vec!["puma-ceiling"], "{html}");
    assert_eq!(
        html.matches("class=\"claim-picture\"").count(),
        0,
        "no bare axes"
    );
    let json: serde_json::Value = serde_json::from_str(&render(&report, Format::Json)).unwrap();
    assert_eq!(json["judgement"]["verdicts"][0]["outcome"], "no_data");
    assert_eq!(json["judgement"]["verdicts"][1]["outcome"], "not_measured");
    assert_eq!(
        json["measurements"]["not_measured"]["falcon"],
        serde_json::json!([{"stage": "preflight", "because": "it needs falcon, which this machine lacks"}])
    );
    let back: Report = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
}

#[test]
fn json_carries_everything_and_reads_back() {
    let report = fixture::report("run-1");
    let json = render(&report, Format::Json);
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, report);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["judgement"]["verdicts"][2]["outcome"], "reproduced");
    assert_eq!(value["environment"]["harness"]["connections"], 16);
    // Each verdict's why as data, and in the words the other formats use.
    for (written, verdict) in value["judgement"]["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&report.judgement.verdicts)
    {
        assert!(written["why"]["why"].is_string(), "{written}");
        assert_eq!(written["reasoning"], verdict.reasoning().as_str());
    }
}

/// Runs Chromium headless with the given extra arguments, bounded in time,
/// and returns its standard output.
fn chromium(args: &[String]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Debian's chromium is installed (scripts/test installs it)");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium exited with {status}");
            break;
        }
        if started.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    reader.join().unwrap()
}

fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn html_loads_in_chromium_with_one_mark_per_cell_and_per_claim() {
    let report = fixture::report("run-1");
    let html = render(&report, Format::Html);
    assert!(!html.contains("<script"), "self-contained and static");
    assert!(
        !html.contains("http://") || !html.contains("src=\"http"),
        "no external files"
    );
    let dir = artifacts();
    let page = dir.join("hello-ceiling.html");
    std::fs::write(&page, &html).unwrap();
    let url = format!("file://{}", page.display());

    let dom = chromium(&["--dump-dom".into(), url.clone()]);
    assert!(dom.contains("<h1>Reprise: Campfire under Falcon: the hello-world ceilings</h1>"));
    let cells = report.judgement.cells.len();
    assert_eq!(cells, 6);
    assert_eq!(
        dom.matches("class=\"cell-mark\"").count(),
        cells,
        "one mark per cell"
    );
    for reading in &report.judgement.cells {
        let key = reading.cell.key.to_string();
        assert_eq!(
            dom.matches(&format!("data-cell=\"{key}\"")).count(),
            1,
            "one mark for {key}"
        );
    }
    // Published values are drawn for the two cells the post gives.
    assert_eq!(dom.matches("class=\"published-mark\"").count(), 2);
    // A card per claim; the ratio and absolute claims have intervals drawn
    // against their bands, the ordering none.
    let claims: Vec<&str> = report
        .judgement
        .verdicts
        .iter()
        .map(|v| v.claim.as_str())
        .collect();
    assert_eq!(cards(&dom), claims);
    let measured = report
        .judgement
        .verdicts
        .iter()
        .filter(|v| v.band.is_some() && v.measured.is_some())
        .count();
    assert_eq!(measured, 3);
    assert_eq!(dom.matches("class=\"claim-picture\"").count(), measured);
    assert_eq!(dom.matches("class=\"claim-mark\"").count(), measured);
    assert_eq!(dom.matches("class=\"tolerance-band\"").count(), measured);
    assert!(dom.contains("data-claim=\"falcon-twice-puma\" data-outcome=\"reproduced\""));
    assert!(dom.contains("data-status=\"no-data\""));

    let shot = dir.join("hello-ceiling.png");
    let _ = std::fs::remove_file(&shot);
    chromium(&[
        format!("--screenshot={}", shot.display()),
        "--window-size=1200,2000".into(),
        url,
    ]);
    let png = std::fs::read(&shot).expect("a screenshot was written");
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    assert_eq!(
        report
            .judgement
            .verdict("falcon-twice-puma")
            .unwrap()
            .outcome,
        Outcome::Reproduced
    );
}

#[test]
fn a_smoke_run_says_so_in_its_headline_and_a_measured_one_does_not() {
    let mut report = fixture::report("run-1");
    let md = render(&report, Format::Markdown);
    assert!(!md.contains("smoke run"), "{md}");
    report
        .judgement
        .deviations
        .push(reprise_verdict::Deviation::new(
            reprise_verdict::DeviationKind::Quick,
            "a smoke run (--quick): durations, warm-ups and runs capped",
        ));
    let md = render(&report, Format::Markdown);
    assert!(
        md.starts_with(&format!(
            "# Reprise: {} (a smoke run, not a measurement)\n",
            report.run.title
        )),
        "{md}"
    );
    let html = render(&report, Format::Html);
    assert!(
        html.contains("(a smoke run, not a measurement)</h1>"),
        "{html}"
    );
}

/// Text from a recipe or a run (a title, an author, a quote, a deviation, a
/// lane's name, a toolchain's version) is shown literally in the Markdown a
/// report is shared as: no link, tag, emphasis, heading or extra column.
#[test]
fn recipe_text_goes_into_markdown_as_text_not_markup() {
    let mut report = fixture::report("run-1");
    let hostile = "[click](javascript:alert(1)) <b>bold</b> </details> `code` a|b \\ &lt; &#x202e; ![img](x)\n# Heading";
    report.run.title = hostile.into();
    report.run.author = hostile.into();
    report.run.post_run = Some(hostile.into());
    report.run.post_url = Some("https://example.com/a_(b)".into());
    report.judgement.verdicts[0].quote = hostile.into();
    report
        .judgement
        .deviations
        .push(reprise_verdict::Deviation::new(
            reprise_verdict::DeviationKind::Recipe,
            hostile,
        ));
    report.environment.toolchains[0].version = hostile.into();
    let whole = render(&report, Format::Markdown);
    // The machine-readable block is JSON in a fence: literal there.
    let (md, _) = whole
        .split_once("## Machine-readable result")
        .expect("a result block");
    for raw in [
        "[click]",
        "](javascript",
        "<b>",
        "</details>",
        "`code`",
        "a|b",
        "&lt;",
        "&#x202e;",
        "![img]",
        "\n# Heading",
    ] {
        // Markup where it is not escaped: not right after a backslash. The
        // report's own folds (`<details>` on lines of their own) close theirs.
        let unescaped = md
            .match_indices(raw)
            .filter(|(i, _)| !md[..*i].ends_with('\\'))
            .count();
        let own = match raw {
            "</details>" => md.matches("<details><summary>").count(),
            _ => 0,
        };
        assert_eq!(unescaped, own, "{raw} is in the markdown as markup:\n{md}");
    }
    assert!(
        md.contains(r"\[click\](javascript:alert(1)) \<b\>bold\</b\> \</details\>"),
        "{md}"
    );
    assert!(md.contains("](https://example.com/a_%28b%29)"), "{md}");
}

#[test]
fn the_machine_is_a_short_table_and_its_whole_record_is_folded() {
    let mut report = fixture::report("run-1");
    report.environment.fingerprint = serde_json::json!({"cpu": {"brand": "AMD Ryzen 5 3600"}});
    report.run.machine = Some(reprise_report::MachineSummary {
        cpu: Some("AMD Ryzen 5 3600 6-Core Processor".into()),
        cores: Some(6),
        threads: Some(12),
        memory_mib: Some(64 * 1024),
        virtual_machine: Some(false),
        ..Default::default()
    });
    let md = render(&report, Format::Markdown);
    assert!(
        md.contains("| CPU | AMD Ryzen 5 3600 6-Core Processor |"),
        "{md}"
    );
    assert!(md.contains("| Cores / threads | 6 / 12 |"), "{md}");
    assert!(md.contains("| Virtualisation | bare metal |"), "{md}");
    // The JSON only inside a fold, never as the machine's description.
    let json_at = md.find("```json\n{\n  \"cpu\"").unwrap();
    let fold_at = md.find("<details><summary>Machine fingerprint").unwrap();
    assert!(fold_at < json_at, "{md}");
    let html = render(&report, Format::Html);
    assert!(
        html.contains("<tr><td>Memory</td><td>64.0 GiB</td></tr>"),
        "{html}"
    );
    assert!(
        html.contains("<details><summary>Machine fingerprint"),
        "{html}"
    );
}
