//! `sign_in`: signs in to every lane's server (see `crate::lanes::signed_in`);
//! the session is handed to the check, load and cable steps. The password
//! and the cookie never reach a log.

use reprise_recipe::SignInFlow;
use reprise_recipe::shown::escaped;

use super::{Lanes, NoLane, Produced, StepFailure, StepInput};
use crate::lanes::signed_in::{self, UsedFlow};

pub(crate) fn run(
    s: &StepInput,
    lanes: &mut Lanes,
    email: &str,
    password: &str,
    flow: SignInFlow,
) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let server_cpus = s.ctx.lane_host.cpu_split().servers;
    let to_sign = lanes.runnable(s)?;
    let mut signed = 0;
    lanes.for_each_started(ctx, s.id(), &to_sign, &server_cpus, |lanes, lane, port| {
        let name = lane.name.to_string();
        match signed_in::sign_in(ctx.lane_host.address(), port, email, password, flow) {
            Ok((session, used)) => {
                let offered: Vec<String> = session
                    .placeholders
                    .iter()
                    // What the page offered, escaped: it came from the server.
                    .map(|(k, v)| format!("{{{k}}} = {}", escaped(v)))
                    .collect();
                s.note(format!(
                    "lane {name}: signed in as {email} ({}), session cookie kept; the page offers {}",
                    match used {
                        UsedFlow::Form => "form token",
                        UsedFlow::Header => "Sec-Fetch-Site/Origin headers",
                    },
                    if offered.is_empty() {
                        "no placeholders".to_string()
                    } else {
                        offered.join(", ")
                    }
                ));
                lanes.signed_in(&name, session);
                signed += 1;
            }
            Err(e) => {
                lanes.exclude(&name, format!("sign-in failed: {e}"));
                lanes.skip(ctx, s.id(), &name, "sign_in", e.to_string(), None)?;
            }
        }
        Ok(())
    })?;
    if signed == 0 && !to_sign.is_empty() {
        return Err(StepFailure::NoLane(NoLane::SignedIn));
    }
    Ok(Produced::default())
}
