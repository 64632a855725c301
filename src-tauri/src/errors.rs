//! A command's failure as the UI shows it: its kind, the message, and what
//! the person can do about it — the app's own hint for each session error
//! (the CLI words its own for a terminal).

use reprise_session::SessionError;
use serde::Serialize;
use ts_rs::TS;

/// A command's failure, as the UI shows it: what happened and what to do.
#[derive(Clone, Debug, PartialEq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub kind: ErrorKind,
    pub message: String,
    /// What the person can do about it.
    pub hint: String,
}

/// What kind of failure a command had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No such recipe or run.
    NotFound,
    /// A recipe that does not load.
    Invalid,
    /// A recipe that is not the reviewed one.
    Unreviewed,
    /// The recipe's steps cannot be planned.
    Plan,
    /// The recipe is already running.
    Busy,
    /// Reading or writing the data dir.
    Io,
    /// The results history.
    History,
    /// Sharing: GitHub, the token, the preview.
    Share,
    /// The server host of a run on two machines: its address, certificates,
    /// engine or the lanes' images.
    ServerHost,
    /// The app itself (a thread stopped).
    Internal,
}

/// What a command answers: its value, or why not with what to do.
pub type CommandResult<T> = Result<T, CommandError>;

impl CommandError {
    pub fn new(kind: ErrorKind, message: impl Into<String>, hint: impl Into<String>) -> Self {
        CommandError {
            kind,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

/// A session error as the UI shows it: its kind, the message, and a hint.
pub fn error(e: SessionError) -> CommandError {
    let (kind, hint) = match &e {
        SessionError::Catalog(_) => (
            ErrorKind::NotFound,
            "Go back to the Library and pick one of the recipes listed there.",
        ),
        SessionError::Recipe(_) => (
            ErrorKind::Invalid,
            "Run `reprise check` on the file to see every problem with its line.",
        ),
        SessionError::Unreviewed { .. } => (
            ErrorKind::Unreviewed,
            "Review the recipe, then record it with `reprise checksums update`, or run it from the CLI with --allow-modified.",
        ),
        SessionError::Plan(_) => (
            ErrorKind::Plan,
            "The recipe's steps cannot be planned; `reprise run` shows the same error.",
        ),
        SessionError::UnknownSource { .. } => (
            ErrorKind::Plan,
            "Give a source id the recipe declares; the Post page lists them.",
        ),
        SessionError::Busy(_) => (
            ErrorKind::Busy,
            "Wait for it to finish, or cancel it first.",
        ),
        SessionError::MachineBusy(_) => (
            ErrorKind::Busy,
            "Wait for it to finish: the Machine page shows a validation, the Run page a run.",
        ),
        SessionError::Validate(_) => (
            ErrorKind::Internal,
            "Close other busy programs and try again; `reprise validate` in a terminal shows the same.",
        ),
        SessionError::WorkDir(_) | SessionError::Run(_) | SessionError::Harness(_) => (
            ErrorKind::Io,
            "Check that the data dir is writable, or set REPRISE_DATA_DIR; the run's log is in its folder.",
        ),
        SessionError::History(reprise_history::HistoryError::UnknownRun(_)) => (
            ErrorKind::NotFound,
            "Pick a run from the list; `reprise history` lists them too.",
        ),
        SessionError::History(_) | SessionError::ResultsFile { .. } => (
            ErrorKind::History,
            "The history file may be damaged or unwritable; check the data dir (REPRISE_DATA_DIR).",
        ),
        SessionError::ServerHost(_)
        | SessionError::ServerHostAddress { .. }
        | SessionError::Image { .. }
        | SessionError::ServerHostEngine(_) => (
            ErrorKind::ServerHost,
            "Check the server host's address (tcp://HOST:PORT), that its engine's API is open there with TLS, that the certificates folder holds ca.pem, cert.pem and key.pem its CA signed, and that every lane has an image; docs/two-machines.md says how.",
        ),
        SessionError::NotSignedIn => (
            ErrorKind::Share,
            "Paste a GitHub token, sign in the GitHub CLI (gh auth login), or set GH_TOKEN and restart the app.",
        ),
        SessionError::BadToken => (
            ErrorKind::Share,
            "Paste the whole token, as GitHub showed it (https://github.com/settings/tokens).",
        ),
        SessionError::NoOAuthApp => (
            ErrorKind::Share,
            "Open the prefilled discussion on GitHub instead (“Open on GitHub”), or set REPRISE_GITHUB_CLIENT_ID to an OAuth app's client id and restart the app.",
        ),
        SessionError::NoRepository => (
            ErrorKind::Share,
            "Enter the repository (owner/name) on the Share page, or set REPRISE_DISCUSSIONS_REPO and restart the app.",
        ),
        SessionError::BadRepository(_) => (
            ErrorKind::Invalid,
            "Write the repository as owner/name, as in its GitHub address: github.com/owner/name.",
        ),
        SessionError::Mise(_) | SessionError::NoMise { .. } => (
            ErrorKind::Io,
            "Install mise (`cargo install mise --locked`), then run `reprise setup RECIPE` in a terminal to see mise's own output.",
        ),
        SessionError::Share(_) if e.is_token_refused() => (
            ErrorKind::Share,
            "Sign out, then paste a new token (https://github.com/settings/tokens) or sign in again; or “Open on GitHub” to post it yourself.",
        ),
        SessionError::Share(reprise_share::ShareError::Transport { .. }) => (
            ErrorKind::Share,
            "GitHub could not be reached from this machine: check its network and try again, or Save the report and post it later.",
        ),
        SessionError::Report(_) | SessionError::Share(_) => (
            ErrorKind::Share,
            "Check the repository and its Discussions category for this recipe; or “Open on GitHub” to post it yourself.",
        ),
    };
    CommandError::new(kind, e.to_string(), hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_recipe_and_an_unusable_server_host_say_what_to_do() {
        let unreviewed = error(SessionError::Unreviewed {
            file: "recipes/tiny.toml".into(),
            status: reprise_recipe::ChecksumStatus::Unlisted,
        });
        assert_eq!(unreviewed.kind, ErrorKind::Unreviewed);
        assert!(unreviewed.hint.contains("reprise checksums update"));
        let host = error(SessionError::ServerHostAddress {
            url: "tcp://x:9".into(),
            source: reprise_probe::container_engine::EndpointError::Certificates {
                url: "tcp://x:9".into(),
                folder: "/home/me/.docker".into(),
                file: "ca.pem",
            },
        });
        assert_eq!(host.kind, ErrorKind::ServerHost);
        // A refused token says to sign out and in again, in the app's words.
        let refused = error(SessionError::Share(
            reprise_share::ShareError::Unauthorized("Bad credentials".into()),
        ));
        assert!(refused.hint.starts_with("Sign out"), "{}", refused.hint);
        assert!(!refused.hint.contains("reprise logout"), "{}", refused.hint);
        let unreachable = error(SessionError::Share(reprise_share::ShareError::Transport {
            url: "https://api.github.com/graphql".into(),
            message: "error sending request".into(),
        }));
        assert!(unreachable.hint.contains("network"), "{}", unreachable.hint);
        assert!(host.message.contains("lacks ca.pem"), "{}", host.message);
        assert!(host.hint.contains("docs/two-machines.md"), "{}", host.hint);
    }
}
