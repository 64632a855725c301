//! `check`: one request per endpoint per lane before anything is measured
//! (status, tag count, bytes, SHA-256), kept in `check.json` and, for the
//! verdicts, `parity.json`: each response's [shape](CheckRow::shape), and
//! its tag count, which a figure in tags reads (the post's count is
//! compared, never a gate). A lane whose responses differ in shape from
//! the reference lane's (the first that answered an endpoint well) is
//! flagged, and the verdicts compare it with no other lane there.
//! An endpoint a lane answers with an error is not measured on that lane
//! (its cells are no data, and say why); the lane's other routes are, as
//! the harness measures them. A lane that answers every endpoint with an
//! error is not measured at all.

use std::time::Duration;

use reprise_loadgen::{ResponseChecks, ResponseFingerprint, check_response};
use reprise_recipe::shown::escaped;
use reprise_recipe::{CheckStep, Endpoint, Recipe};
use reprise_verdict::Parity;
use serde::{Deserialize, Serialize};

use super::{Kind, Lanes, NoLane, Produced, StepFailure, StepInput, named_lanes, workload};
use crate::lanes::http::{Body, LaneClient};
use crate::lanes::signed_in::resolve_endpoint;

/// One row of the check step's parity table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRow {
    pub lane: String,
    pub endpoint: String,
    pub status: u16,
    pub tags: u64,
    pub bytes: u64,
    pub sha256: String,
    /// Why the response fails the endpoint's expectations, if it does.
    pub error: Option<String>,
    /// The response differs from the reference lane's.
    pub differs: bool,
}

impl CheckRow {
    /// What lanes are compared on before their numbers are: a page by its
    /// status and tag count, as the harness's parity compares them (two
    /// lanes render one page with their own session's tokens, timestamps
    /// and whitespace, so its bytes differ while its shape is the same); a
    /// body without markup (a stylesheet, an image, plain text) whole.
    pub fn shape(&self) -> String {
        if self.tags > 0 {
            format!("status={} tags={}", self.status, self.tags)
        } else {
            format!(
                "status={} bytes={} sha256={}",
                self.status, self.bytes, self.sha256
            )
        }
    }
}

/// The checks an endpoint's `expect` asks for.
pub(crate) fn checks_of(endpoint: &Endpoint) -> ResponseChecks {
    ResponseChecks {
        status: endpoint.expect.status,
        tags: endpoint.expect.tags,
        bytes: endpoint.expect.bytes,
        sha256: endpoint.expect.sha256.clone(),
        contains: endpoint.expect.contains.clone(),
    }
}

impl Kind for CheckStep {
    fn describe(&self, _: &Recipe) -> String {
        format!(
            "one checked request per endpoint of {} per lane{}",
            escaped(&self.workload),
            named_lanes(&self.lanes)
        )
    }

    fn serves(&self) -> bool {
        true
    }

    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, lanes, &self.workload)
    }
}

fn run(s: &StepInput, lanes: &mut Lanes, workload_name: &str) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let endpoints = &workload(s.recipe, workload_name)?.endpoints;
    let server_cpus = s.ctx.lane_host.cpu_split(s.recipe.cpu_placement()).servers;
    let client = LaneClient::new(ctx.lane_host.address())?;
    let mut rows: Vec<CheckRow> = Vec::new();
    let mut passed = 0;
    let to_check = lanes.runnable(s)?;
    lanes.for_each_started(ctx, s.id(), &to_check, &server_cpus, |lanes, lane, port| {
        let name = lane.name.to_string();
        let session = lanes.session(&name);
        let mut errors = Vec::new();
        for endpoint in endpoints {
            let row = check_endpoint(&client, &name, port, endpoint, session);
            if let Some(e) = &row.error {
                errors.push((row.endpoint.clone(), e.clone()));
            }
            rows.push(row);
        }
        if errors.len() < endpoints.len() || endpoints.is_empty() {
            passed += 1;
            for (endpoint, e) in errors {
                s.note(format!(
                    "lane {name}: {endpoint} answered an error when checked ({e}); its cells are no data, the lane's other routes are measured"
                ));
                lanes.exclude_endpoint(&name, &endpoint, format!("answered an error when checked: {e}"));
            }
        } else {
            let listed: Vec<String> = errors.iter().map(|(ep, e)| format!("{ep}: {e}")).collect();
            let reason = format!("answered errors, not measured: {}", listed.join("; "));
            lanes.exclude(&name, reason.clone());
            let log = ctx.lane_log(&name);
            lanes.skip(ctx, s.id(), &name, "check", reason, Some(&log))?;
        }
        Ok(())
    })?;
    mark_differences(&mut rows, endpoints);
    for row in &rows {
        s.note(format!(
            "{:<12} {:<24} status {:>3} tags {:>5} bytes {:>8} sha256 {}{}{}",
            row.lane,
            row.endpoint,
            row.status,
            row.tags,
            row.bytes,
            row.sha256.get(..12).unwrap_or(""),
            if row.differs {
                "  DIFFERS from the reference lane"
            } else {
                ""
            },
            row.error
                .as_deref()
                .map(|e| format!("  ERROR {e}"))
                .unwrap_or_default()
        ));
    }
    let parity: Vec<Parity> = rows
        .iter()
        .filter(|r| r.error.is_none())
        .map(|r| Parity {
            lane: r.lane.clone(),
            endpoint: r.endpoint.clone(),
            fingerprint: r.shape(),
            tags: Some(r.tags),
        })
        .collect();
    ctx.results()
        .write(reprise_harness_files::PARITY_FILE, &parity)?;
    ctx.results()
        .write(crate::run::results::CHECK_FILE, &rows)?;
    lanes.checked(rows);
    if passed == 0 {
        return Err(StepFailure::NoLane(NoLane::Checked));
    }
    Ok(Produced::default())
}

/// One checked request to one endpoint of a lane.
fn check_endpoint(
    client: &LaneClient,
    lane: &str,
    port: u16,
    endpoint: &Endpoint,
    session: Option<&crate::lanes::signed_in::SignedIn>,
) -> CheckRow {
    let row = |status, tags, bytes, sha256, error| CheckRow {
        lane: lane.to_string(),
        endpoint: endpoint.name.to_string(),
        status,
        tags,
        bytes,
        sha256,
        error,
        differs: false,
    };
    // Every error may quote what the lane answered: shown escaped.
    let row = |status, tags, bytes, sha256, error: Option<String>| {
        row(
            status,
            tags,
            bytes,
            sha256,
            error.map(|e| escaped(&e).into_owned()),
        )
    };
    let request = match resolve_endpoint(endpoint, session) {
        Ok(r) => r,
        Err(e) => return row(0, 0, 0, String::new(), Some(e.to_string())),
    };
    let body = match request.body {
        Some(b) => Body::Bytes(b.into_bytes()),
        None => Body::None,
    };
    match client.request(
        port,
        &endpoint.method,
        &request.path,
        &request.headers,
        body,
        Duration::from_secs(10),
    ) {
        Ok(r) => {
            let f = ResponseFingerprint::of(r.status, &r.body);
            let error = check_response(
                &checks_of(endpoint),
                r.status,
                r.body.len() as u64,
                Some(&r.body),
            )
            .err()
            .map(|e| e.to_string());
            row(f.status, f.tags, f.bytes, f.sha256, error)
        }
        Err(e) => row(0, 0, 0, String::new(), Some(e.to_string())),
    }
}

/// Flags each row whose response differs from the endpoint's reference: the
/// first lane that answered it well.
fn mark_differences(rows: &mut [CheckRow], endpoints: &[Endpoint]) {
    for endpoint in endpoints {
        let name = endpoint.name.as_str();
        let reference = rows
            .iter()
            .find(|r| r.endpoint == name && r.error.is_none())
            .map(CheckRow::shape);
        for row in rows.iter_mut().filter(|r| r.endpoint == name) {
            row.differs = reference.as_ref().is_some_and(|f| *f != row.shape());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(lane: &str, body: &[u8]) -> CheckRow {
        let f = ResponseFingerprint::of(200, body);
        CheckRow {
            lane: lane.into(),
            endpoint: "/rooms/1".into(),
            status: f.status,
            tags: f.tags,
            bytes: f.bytes,
            sha256: f.sha256,
            error: None,
            differs: false,
        }
    }

    #[test]
    fn lanes_rendering_one_page_with_their_own_tokens_are_alike_and_a_page_of_another_shape_is_not()
    {
        let mut rows = vec![
            row(
                "rails",
                b"<html><meta name=\"csrf-token\" content=\"aaaa\"><p>hi</p></html>",
            ),
            row(
                "ruby",
                b"<html><meta name=\"csrf-token\" content=\"bbbbbb\"><p>hi</p></html>",
            ),
            row(
                "spinel",
                b"<html><meta name=\"csrf-token\" content=\"cccc\"></html>",
            ),
        ];
        let endpoint: Endpoint =
            toml::from_str("name = \"/rooms/1\"\npath = \"/rooms/1\"").unwrap();
        mark_differences(&mut rows, &[endpoint]);
        let differs: Vec<bool> = rows.iter().map(|r| r.differs).collect();
        assert_eq!(differs, [false, false, true]);
        // A body without markup is compared whole.
        assert_ne!(row("a", b"body{}").shape(), row("b", b"body{ }").shape());
    }
}
