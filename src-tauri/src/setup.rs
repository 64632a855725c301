//! "Set up what's missing" from the Preflight page, through the session API
//! as `reprise setup` does: the plan (what mise installs, the config it
//! writes, the commands), then the install with mise's output streamed
//! through [`crate::stream`], and cancel.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use reprise_engine::{CancelToken, Event};
use reprise_session::Session;
use reprise_session::setup::{SetupEnd, SetupPlan};

use crate::commands::{Answer, error, load_recipe};
use crate::views::StreamMessage;

/// The setups going on, by recipe, so the page can stop one.
#[derive(Clone, Default)]
pub struct Setups(Arc<Mutex<BTreeMap<String, CancelToken>>>);

pub fn plan(session: &Session, id: &str, lanes: &[String]) -> Answer<SetupPlan> {
    let loaded = load_recipe(session, id)?;
    Ok(session.setup_plan(&loaded, lanes))
}

/// Installs what `plan` shows for `id`'s `lanes`; `send` gets the batches.
pub fn start<E>(
    session: &Session,
    setups: &Setups,
    id: &str,
    lanes: &[String],
    send: impl FnMut(Vec<StreamMessage>) -> Result<(), E> + Send,
) -> Answer<SetupEnd> {
    let loaded = load_recipe(session, id)?;
    let plan = session.setup_plan(&loaded, lanes);
    let cancel = CancelToken::new();
    setups
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.to_string(), cancel.clone());
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    let end = std::thread::scope(|scope| {
        let forwarder =
            scope.spawn(move || crate::stream::forward(&rx, crate::stream::INTERVAL, send));
        let sink = move |e: Event| {
            let _ = tx.send(e);
        };
        let end = session.setup(&loaded, &plan, false, &sink, &cancel);
        drop(sink);
        let _ = forwarder.join();
        end
    });
    setups
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(id);
    end.map_err(error)
}

/// Stops `id`'s setup; whether one was going.
pub fn cancel(setups: &Setups, id: &str) -> bool {
    match setups.0.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
        Some(token) => {
            token.cancel();
            true
        }
        None => false,
    }
}
