//! `sign_in`: signs in to every lane's server (see `crate::lanes::signed_in`);
//! the session is handed to the check, load and cable steps. The password
//! and the cookie never reach a log.

use reprise_recipe::shown::escaped;
use reprise_recipe::{Action, Lane, Recipe, SignInFlow, SignInStep};

use super::{
    Kind, Lanes, NoLane, Produced, StepFailure, StepInput, named_lanes, step_lanes, within,
};
use crate::inputs::database;
use crate::lanes::signed_in::{self, SignedIn, UsedFlow};

impl Kind for SignInStep {
    fn describe(&self, recipe: &Recipe) -> String {
        let boots = step_lanes(recipe, &self.lanes)
            .map(|l| recipe.cold_starts(l))
            .max()
            .unwrap_or(1);
        format!(
            "sign in to each lane as {}, then boot it from cold {}, timed to its signed-in room page{}",
            escaped(&self.email),
            match boots {
                1 => "once more".to_string(),
                n => format!("{n} times"),
            },
            named_lanes(&self.lanes)
        )
    }

    fn serves(&self) -> bool {
        true
    }

    fn run(&self, s: &StepInput, lanes: &mut Lanes) -> Result<Produced, StepFailure> {
        run(s, lanes, &self.email, &self.password, self.flow)
    }
}

fn run(
    s: &StepInput,
    lanes: &mut Lanes,
    email: &str,
    password: &str,
    flow: SignInFlow,
) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let server_cpus = s.ctx.lane_host.cpu_split(s.recipe.cpu_placement()).servers;
    let to_sign = lanes.runnable(s)?;
    let mut signed = 0;
    lanes.for_each_started(ctx, s.id(), &to_sign, &server_cpus, |lanes, lane, port| {
        let name = lane.name.to_string();
        match signed_in::sign_in(ctx.lane_host.address(), port, email, password, flow) {
            Ok((mut session, used)) => {
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
                before_mid_history(s, &name, &mut session);
                cold_starts(s, lanes, lane, &session)?;
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
    ctx.results()
        .write(reprise_harness_files::COLDSTART_FILE, lanes.coldstarts())?;
    if signed == 0 && !to_sign.is_empty() {
        return Err(StepFailure::NoLane(NoLane::SignedIn));
    }
    Ok(Produced::default())
}

/// `{message}` as the harness resolves it: not the first message the room
/// page shows (the newest page's oldest), but the middle of the room's
/// history in the run's seed database, so `?before={message}` asks for a
/// full page of older messages. The page's own is kept where the recipe
/// seeds no database or it has no Campfire messages for the room.
fn before_mid_history(s: &StepInput, lane: &str, session: &mut SignedIn) {
    let Some(room) = session
        .placeholders
        .get("first")
        .and_then(|r| r.parse::<i64>().ok())
    else {
        return;
    };
    let seeded = s.recipe.steps.iter().find_map(|step| match &step.action {
        Action::Seed(seed) => Some(&seed.database),
        _ => None,
    });
    let Some(path) = seeded.and_then(|d| within(&s.ctx.run.path, d).ok()) else {
        return;
    };
    match database::mid_history_message(&path, room) {
        Ok(Some(id)) => {
            s.note(format!(
                "lane {lane}: {{message}} = {id}, the middle of room {room}'s history in the seed, as the harness names it"
            ));
            session
                .placeholders
                .insert("message".to_string(), id.to_string());
        }
        Ok(None) => {}
        Err(e) => s.note(format!(
            "{{message}} stays the room page's: the seed database could not be read ({e})"
        )),
    }
}

/// A lane's cold starts as the harness times them (`cold_start` in
/// rubys/roundhouse `scripts/bench-campfire`): the serve step's count of
/// boots from cold, each timed to its first answer and to the signed-in
/// room page, `GET /rooms/{first}` with the session's cookie answering 200.
/// They take the place of the serve step's boots of the lane, which could
/// only be timed to its health path. The last boot stays up for the steps
/// after. A lane with no room to ask for keeps the serve step's.
fn cold_starts(
    s: &StepInput,
    lanes: &mut Lanes,
    lane: &Lane,
    session: &SignedIn,
) -> Result<(), StepFailure> {
    let ctx = s.ctx;
    let Some(room) = session.placeholders.get("first") else {
        return Ok(());
    };
    let page = format!("/rooms/{room}");
    let cookie = [("Cookie".to_string(), session.cookie.clone())];
    let repeat = if ctx.quick {
        1
    } else {
        s.recipe.cold_starts(&lane.name)
    };
    let mut boots = Vec::new();
    for rep in 1..=repeat {
        if ctx.cancel.is_cancelled() {
            return Err(StepFailure::cancelled());
        }
        match lanes.cold_start(ctx, s.id(), lane, rep, Some((&page, &cookie)))? {
            Some(boot) => boots.push(boot),
            None => return Ok(()),
        }
    }
    lanes.booted_again(&lane.name, boots);
    Ok(())
}
