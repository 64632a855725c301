//! Ctrl-C (SIGINT) and SIGTERM, for the commands that run something long:
//! the signal only sets a flag (async-signal-safe), and a watcher thread
//! turns it into the command's own stop (a run's cancel, a load's stop
//! handle), which ends the work within a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// From now on, SIGINT and SIGTERM call `stop` (once, on a thread of its own).
pub fn on_interrupt(stop: impl FnOnce() + Send + 'static) {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
    std::thread::spawn(move || {
        while !interrupted() {
            std::thread::sleep(Duration::from_millis(50));
        }
        stop();
    });
}

/// Whether SIGINT or SIGTERM came since [`on_interrupt`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
