//! Opening an http(s) link (a post, a discussion) in the system's browser,
//! as a click on a link does in a browser; anything else is refused.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::errors::{CommandError, CommandResult, ErrorKind};

/// The program that opens a link in the system's browser.
const LINK_OPENER: &str = if cfg!(target_os = "macos") {
    "open"
} else if cfg!(windows) {
    "explorer"
} else {
    "xdg-open"
};

/// Opens `url` with the system's opener.
pub fn open(url: &str) -> CommandResult<()> {
    open_with(Path::new(LINK_OPENER), url)
}

/// [`open`] through a given opener program.
pub fn open_with(opener: &Path, url: &str) -> CommandResult<()> {
    let only_http = "Only http and https links open in the browser.";
    let parsed = tauri::Url::parse(url).map_err(|e| {
        CommandError::new(
            ErrorKind::Invalid,
            format!("`{url}` is not a link: {e}"),
            only_http,
        )
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(CommandError::new(
            ErrorKind::Invalid,
            format!("`{url}` is not an http or https link"),
            only_http,
        ));
    }
    let mut command = Command::new(opener);
    command
        .arg(parsed.as_str())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().map_err(|e| {
        CommandError::new(
            ErrorKind::Io,
            format!("could not start {}: {e}", opener.display()),
            format!(
                "Install {} (xdg-utils on Linux), or open the link by hand: {}",
                opener.display(),
                parsed.as_str()
            ),
        )
    })?;
    // The opener hands the link to the browser and exits; reap it off this thread.
    std::thread::spawn(move || child.wait());
    Ok(())
}
