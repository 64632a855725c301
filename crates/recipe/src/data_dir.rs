//! Where Reprise keeps what it makes on this machine: run folders, the git
//! cache, the results history.

use std::path::PathBuf;

/// `REPRISE_DATA_DIR` when set, else `$XDG_DATA_HOME/reprise`, else
/// `~/.local/share/reprise`.
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("REPRISE_DATA_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("reprise");
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".local/share/reprise")
}
