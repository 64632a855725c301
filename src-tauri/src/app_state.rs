//! What the app holds between commands: the session (as the CLI has it),
//! the device code a GitHub sign-in waits on, and the setups going on (so
//! the page can stop one). Cloned into every command's thread.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use reprise_engine::CancelToken;
use reprise_session::Session;
use reprise_share::DeviceCode;

#[derive(Clone)]
pub struct AppState {
    pub session: Session,
    sign_in: Arc<Mutex<Option<DeviceCode>>>,
    setups: Arc<Mutex<BTreeMap<String, CancelToken>>>,
}

impl AppState {
    pub fn new(session: Session) -> AppState {
        AppState {
            session,
            sign_in: Arc::default(),
            setups: Arc::default(),
        }
    }

    /// The device code a sign-in waits on, set by one command and taken
    /// by the next.
    pub fn sign_in(&self) -> MutexGuard<'_, Option<DeviceCode>> {
        self.sign_in.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The setups going on, by recipe.
    pub fn setups(&self) -> MutexGuard<'_, BTreeMap<String, CancelToken>> {
        self.setups.lock().unwrap_or_else(|p| p.into_inner())
    }
}
