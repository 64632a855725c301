//! Where the GitHub token is kept: the OS keyring where there is one,
//! otherwise a file only its owner can read (0600), with a warning.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
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

fn keyring_entry() -> Result<keyring::Entry, ShareError> {
    keyring::Entry::new(SERVICE, ACCOUNT).map_err(|e| ShareError::Keyring(e.to_string()))
}

impl TokenStore {
    /// The OS keyring when it answers, else the file in `data_dir` (with a
    /// warning). `REPRISE_TOKEN_STORE=file` chooses the file outright.
    pub fn choose(data_dir: &Path) -> (TokenStore, Option<Warning>) {
        let file = TokenStore::File(data_dir.join(TOKEN_FILE));
        if std::env::var("REPRISE_TOKEN_STORE").as_deref() == Ok("file") {
            return (file, None);
        }
        let probe = keyring_entry().and_then(|entry| match entry.get_password() {
            Ok(_) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(ShareError::Keyring(e.to_string())),
        });
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

    pub fn describe(&self) -> String {
        match self {
            TokenStore::Keyring => "the OS keyring".into(),
            TokenStore::File(path) => path.display().to_string(),
        }
    }

    /// The stored token, if any.
    pub fn load(&self) -> Result<Option<String>, ShareError> {
        match self {
            TokenStore::Keyring => match keyring_entry()?.get_password() {
                Ok(token) => Ok(Some(token)),
                Err(keyring::Error::NoEntry) => Ok(None),
                Err(e) => Err(ShareError::Keyring(e.to_string())),
            },
            TokenStore::File(path) => match std::fs::read_to_string(path) {
                Ok(text) => Ok(Some(text.trim().to_string()).filter(|t| !t.is_empty())),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(source) => Err(ShareError::Io {
                    file: path.clone(),
                    source,
                }),
            },
        }
    }

    pub fn save(&self, token: &str) -> Result<(), ShareError> {
        match self {
            TokenStore::Keyring => keyring_entry()?
                .set_password(token)
                .map_err(|e| ShareError::Keyring(e.to_string())),
            TokenStore::File(path) => {
                let io = |source| ShareError::Io {
                    file: path.clone(),
                    source,
                };
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(io)?;
                }
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .mode(0o600)
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
}
