//! The machine-readable block every Markdown report ends with: one fenced
//! `reprise-result v1` block whose JSON reads back to the run's verdicts
//! and cells.

mod fixture;

use reprise_report::{Exporter, MachineSummary, MarkdownExporter, ResultBlock};
use reprise_verdict::Outcome;

/// The JSON between the one ```` ```reprise-result v1 ```` fence and its close.
fn block_of(markdown: &str) -> String {
    let opened: Vec<usize> = markdown
        .match_indices("```reprise-result v1\n")
        .map(|(at, _)| at)
        .collect();
    assert_eq!(opened.len(), 1, "one block:\n{markdown}");
    let rest = &markdown[opened[0] + "```reprise-result v1\n".len()..];
    rest[..rest.find("\n```\n").expect("the block is closed")].to_string()
}

#[test]
fn the_markdown_carries_one_block_with_every_claim_and_cell() {
    let mut report = fixture::report("hello-ceiling-20261130-050000");
    report.run.recipe_sha256 = Some("ab".repeat(32));
    report.run.machine = Some(MachineSummary {
        cpu: Some("Intel Xeon".into()),
        threads: Some(2),
        ..MachineSummary::default()
    });
    let markdown = String::from_utf8(MarkdownExporter.render(&report).unwrap()).unwrap();
    let block: ResultBlock = serde_json::from_str(&block_of(&markdown)).unwrap();
    assert_eq!(block, ResultBlock::of(&report));
    assert_eq!(block.recipe, "hello-ceiling");
    assert_eq!(
        block.recipe_sha256.as_deref(),
        Some("ab".repeat(32).as_str())
    );
    assert_eq!(block.run, "hello-ceiling-20261130-050000");
    assert!(block.reviewed && !block.smoke_run && !block.machine_matches_post);
    assert_eq!(block.machine.cpu.as_deref(), Some("Intel Xeon"));
    assert_eq!(block.reprise, env!("CARGO_PKG_VERSION"));

    let verdicts = &report.judgement.verdicts;
    assert_eq!(block.claims.len(), verdicts.len());
    for (claim, verdict) in block.claims.iter().zip(verdicts) {
        assert_eq!(claim.id, verdict.claim);
        assert_eq!(claim.outcome, verdict.outcome);
        assert_eq!(claim.band, verdict.band);
        assert_eq!(
            claim.measured.map(|m| (m.estimate, m.low, m.high)),
            verdict.measured.map(|m| (m.estimate, m.low, m.high))
        );
    }
    let ratio = block
        .claims
        .iter()
        .find(|c| c.kind == "ratio" && c.measured.is_some())
        .expect("the fixture measures a ratio");
    assert_eq!(ratio.unit, "×");

    assert_eq!(block.cells.len(), report.judgement.cells.len());
    let puma = block
        .cells
        .iter()
        .find(|c| c.lane == "puma" && c.metric == "req_per_s")
        .unwrap();
    assert_eq!(
        (puma.status.as_str(), puma.runs, puma.median),
        ("valid", 3, Some(21_000.0))
    );
    // Runs of 21,000, 21,400 and 20,800: over three runs the interval
    // reaches past their range (a Student-t quantile of 4.30), within 5%.
    let [low, high] = puma.interval.unwrap();
    assert!(
        (19_950.0..20_800.0).contains(&low) && (21_400.0..22_050.0).contains(&high),
        "{low}–{high}"
    );
    // nginx's second run erred: no data, never a clean number.
    let nginx = block
        .cells
        .iter()
        .find(|c| c.lane == "nginx" && c.metric == "req_per_s")
        .unwrap();
    assert_eq!(nginx.status, "no_data");
}

#[test]
fn a_run_without_a_recorded_digest_or_machine_says_so_with_nulls() {
    let report = fixture::report("hello-ceiling-20261130-050000");
    let block = ResultBlock::of(&report);
    let json: serde_json::Value = serde_json::from_str(&block_of(&block.fenced())).unwrap();
    assert!(json["recipe_sha256"].is_null());
    assert!(json["machine"]["cpu"].is_null());
}

#[test]
fn changing_the_text_leaves_field_names_numbers_and_outcomes_alone() {
    let mut report = fixture::report("hello-ceiling-20261130-050000");
    report.run.machine = Some(MachineSummary {
        cpu: Some("Intel Xeon".into()),
        ..MachineSummary::default()
    });
    let block = ResultBlock::of(&report);
    // A redactor that knows a user called "claims" or "reproduced" must not
    // rename the field or change a verdict.
    let changed = block.map_text(&|text: &str| {
        text.replace("claims", "[user]")
            .replace("reproduced", "[user]")
            .replace("Xeon", "[hostname]")
    });
    assert_eq!(changed.machine.cpu.as_deref(), Some("Intel [hostname]"));
    assert_eq!(changed.claims.len(), block.claims.len());
    assert!(
        changed
            .claims
            .iter()
            .zip(&block.claims)
            .all(|(a, b)| a.outcome == b.outcome && a.measured == b.measured)
    );
    let fixture_outcomes: Vec<Outcome> = block.claims.iter().map(|c| c.outcome).collect();
    assert!(
        fixture_outcomes.contains(&Outcome::Reproduced),
        "{fixture_outcomes:?}"
    );
}
