//! Where the GitHub token is kept: the OS keyring where there is one that
//! keeps it (macOS Keychain, Windows Credential Manager, the Secret Service
//! on Linux), otherwise a file only its owner can read (0600), with a
//! warning. A token file anyone else could read, or that someone else owns,
//! is refused rather than used: it may already have been read, and only the
//! person can say whether to keep it. Signing out clears every store.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::ShareError;

const SERVICE: &str = "reprise";
const ACCOUNT: &str = "github";
/// The token file's name in the data dir.
pub const TOKEN_FILE: &str = "github-token";

/// A store for the one token Reprise keeps.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenStore {
    Keyring,
    File(PathBuf),
}

/// Something the person should know about where the token is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning(pub String);

/// What signing out did in each store.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SignOut {
    /// The stores a token was removed from.
    pub removed: Vec<String>,
    /// The stores that held none.
    pub empty: Vec<String>,
    /// Stores that could not be asked (no keyring service in this session),
    /// with why: a token kept there from a session that had one is still there.
    pub unreachable: Vec<String>,
    /// Stores that hold a token still, with why it could not be removed.
    pub failed: Vec<String>,
}

impl SignOut {
    /// Whether no store is known to hold a token any more.
    pub fn complete(&self) -> bool {
        self.failed.is_empty()
    }
}

fn keyring_entry() -> Result<keyring::Entry, ShareError> {
    keyring::Entry::new(SERVICE, ACCOUNT).map_err(|e| ShareError::Keyring(e.to_string()))
}

/// Whether this build's keyring keeps a token past this process. A build
/// without a native backend for its OS falls back to keyring's mock, which
/// keeps nothing: choosing it would lose the token silently.
fn keyring_persists() -> bool {
    persists(keyring::default::default_credential_builder().persistence())
}

fn persists(p: keyring::credential::CredentialPersistence) -> bool {
    matches!(
        p,
        keyring::credential::CredentialPersistence::UntilDelete
            | keyring::credential::CredentialPersistence::UntilReboot
    )
}

impl TokenStore {
    /// The OS keyring when it answers and keeps what it is given, else the
    /// file in `data_dir` (with a warning). `REPRISE_TOKEN_STORE=file`
    /// chooses the file outright.
    pub fn choose(data_dir: &Path) -> (TokenStore, Option<Warning>) {
        let file = TokenStore::File(data_dir.join(TOKEN_FILE));
        if std::env::var("REPRISE_TOKEN_STORE").as_deref() == Ok("file") {
            return (file, None);
        }
        let probe = if keyring_persists() {
            keyring_entry().and_then(|entry| match entry.get_password() {
                Ok(_) | Err(keyring::Error::NoEntry) => Ok(()),
                Err(e) => Err(ShareError::Keyring(e.to_string())),
            })
        } else {
            Err(ShareError::Keyring(
                "this build has no keyring backend for this system".into(),
            ))
        };
        match probe {
            Ok(()) => (TokenStore::Keyring, None),
            Err(e) => {
                let path = data_dir.join(TOKEN_FILE);
                let warning = Warning(format!(
                    "no OS keyring here ({e}); the token is kept in {}, readable only by you",
                    path.display()
                ));
                (file, Some(warning))
            }
        }
    }

    /// Every store a token may be in: the keyring and the file in `data_dir`.
    pub fn all(data_dir: &Path) -> Vec<TokenStore> {
        vec![
            TokenStore::Keyring,
            TokenStore::File(data_dir.join(TOKEN_FILE)),
        ]
    }

    pub fn describe(&self) -> String {
        match self {
            TokenStore::Keyring => "the OS keyring".into(),
            TokenStore::File(path) => path.display().to_string(),
        }
    }

    /// The stored token, if any. A token file others may read or that
    /// another account owns is an error saying how to fix it.
    pub fn load(&self) -> Result<Option<String>, ShareError> {
        match self {
            TokenStore::Keyring => match keyring_entry()?.get_password() {
                Ok(token) => Ok(Some(token)),
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(ShareError::Keyring(e.to_string())),
            },
            TokenStore::File(path) => {
                let io = |source| ShareError::Io {
                    file: path.clone(),
                    source,
                };
                let meta = match std::fs::symlink_metadata(path) {
                    Ok(meta) => meta,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(e) => return Err(io(e)),
                };
                check_private(path, &meta)?;
                let text = std::fs::read_to_string(path).map_err(io)?;
                Ok(Some(text.trim().to_string()).filter(|t| !t.is_empty()))
            }
        }
    }

    pub fn save(&self, token: &str) -> Result<(), ShareError> {
        match self {
            TokenStore::Keyring => {
                let keyring = |e: keyring::Error| ShareError::Keyring(e.to_string());
                keyring_entry()?.set_password(token).map_err(keyring)?;
                // Read back from a new entry: a store that keeps nothing
                // past its entry must fail here, not at the next share.
                if keyring_entry()?.get_password().map_err(keyring)? != token {
                    return Err(ShareError::Keyring(
                        "the keyring did not keep the token".into(),
                    ));
                }
                Ok(())
            }
            TokenStore::File(path) => {
                let io = |source| ShareError::Io {
                    file: path.clone(),
                    source,
                };
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(io)?;
                }
                // Never written through a link someone left in its place.
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .mode(0o600)
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(path)
                    .map_err(io)?;
                // An older file may have been created with other bits.
                file.set_permissions(std::fs::Permissions::from_mode(0o600))
                    .map_err(io)?;
                file.write_all(token.as_bytes()).map_err(io)
            }
        }
    }

    /// Forgets the token; `false` when there was none.
    pub fn delete(&self) -> Result<bool, ShareError> {
        match self {
            TokenStore::Keyring => match keyring_entry()?.delete_credential() {
                Ok(()) => Ok(true),
                Err(keyring::Error::NoEntry) => Ok(false),
                Err(e) => Err(ShareError::Keyring(e.to_string())),
            },
            TokenStore::File(path) => match std::fs::remove_file(path) {
                Ok(()) => Ok(true),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
                Err(source) => Err(ShareError::Io {
                    file: path.clone(),
                    source,
                }),
            },
        }
    }

    /// Signs out of every store in `stores`, whichever was chosen before:
    /// a token left in the other would still be used or found.
    pub fn sign_out(stores: &[TokenStore]) -> SignOut {
        let mut out = SignOut::default();
        for store in stores {
            let name = store.describe();
            match store.delete() {
                Ok(true) => out.removed.push(name),
                Ok(false) => out.empty.push(name),
                // No keyring service to ask (no D-Bus session, no backend).
                Err(ShareError::Keyring(why)) if !keyring_reachable() => {
                    out.unreachable.push(format!("{name} ({why})"))
                }
                Err(e) => out.failed.push(format!("{name}: {e}")),
            }
        }
        out
    }
}

/// Whether the keyring can be asked at all here.
fn keyring_reachable() -> bool {
    keyring_persists()
        && keyring_entry().is_ok_and(|entry| {
            !matches!(
                entry.get_password(),
                Err(keyring::Error::PlatformFailure(_) | keyring::Error::NoStorageAccess(_))
            )
        })
}

/// A token file must be a plain file of this account's, readable by it
/// alone (no group or other bits).
fn check_private(path: &Path, meta: &std::fs::Metadata) -> Result<(), ShareError> {
    let file = path.to_path_buf();
    if !meta.file_type().is_file() {
        return Err(ShareError::TokenFile {
            file,
            problem: TokenFileProblem::NotPlainFile,
            fix: format!("remove it (`rm {}`) and sign in again", path.display()),
        });
    }
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Err(ShareError::TokenFile {
            file,
            problem: TokenFileProblem::OtherAccount {
                uid: meta.uid(),
                me,
            },
            fix: format!(
                "remove it (`rm {}`), revoke the token at GitHub (Settings → Applications) if it is not yours, and sign in again",
                path.display()
            ),
        });
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(ShareError::TokenFile {
            file,
            problem: TokenFileProblem::ReadableByOthers { mode },
            fix: format!(
                "run `chmod 600 {}`, or `reprise logout` to forget the token (revoke it at GitHub if others may have read it)",
                path.display()
            ),
        });
    }
    Ok(())
}

/// What is wrong with a token file, that it is not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenFileProblem {
    /// A link or a folder.
    NotPlainFile,
    /// Owned by the account `uid`, not by this one (`me`).
    OtherAccount { uid: u32, me: u32 },
    /// Readable by others: its permission bits.
    ReadableByOthers { mode: u32 },
}

impl std::fmt::Display for TokenFileProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenFileProblem::NotPlainFile => {
                f.write_str("is not a plain file (a link or a folder)")
            }
            TokenFileProblem::OtherAccount { uid, me } => {
                write!(f, "belongs to another account (uid {uid}, not {me})")
            }
            TokenFileProblem::ReadableByOthers { mode } => {
                write!(f, "can be read by others (mode {mode:03o}, must be 600)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use keyring::credential::CredentialPersistence;

    use super::*;

    #[test]
    fn a_keyring_that_keeps_nothing_is_never_chosen() {
        assert!(!persists(CredentialPersistence::EntryOnly));
        assert!(!persists(CredentialPersistence::ProcessOnly));
        assert!(persists(CredentialPersistence::UntilDelete));
    }

    /// This build's backend for this OS stores tokens for real (not
    /// keyring's mock): the `keyring` features name one for every target.
    #[test]
    fn this_build_has_a_keyring_backend_for_its_system() {
        assert!(keyring_persists());
    }
}
