//! The seed database: its row counts checked with the recipe's queries
//! (`verify = { users = 50 }` → `SELECT COUNT(*) FROM "users"`), and staged
//! into a tree with SQLite's backup API, which copies a consistent snapshot
//! even while the database is in WAL mode.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use sha2::{Digest, Sha256};

use crate::inputs::tree_digest::hex;

/// Why a database did not verify or could not be staged.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    #[error("no database at {0}")]
    Missing(String),
    #[error("`{0}` is not a table name (letters, digits and _ only)")]
    BadTable(String),
    #[error("{path}: {source}")]
    Sqlite {
        path: String,
        source: rusqlite::Error,
    },
    #[error("the seed does not have the rows the recipe expects: {0}")]
    WrongCounts(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> DatabaseError + '_ {
    move |source| DatabaseError::Sqlite {
        path: path.display().to_string(),
        source,
    }
}

/// Counts the rows of each table in `expected`; returns the counts, or an
/// error naming every table whose count differs.
pub fn verify_counts(
    database: &Path,
    expected: &BTreeMap<String, u64>,
) -> Result<BTreeMap<String, u64>, DatabaseError> {
    if !database.is_file() {
        return Err(DatabaseError::Missing(database.display().to_string()));
    }
    let conn = Connection::open_with_flags(database, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(sqlite(database))?;
    let mut counts = BTreeMap::new();
    let mut wrong = Vec::new();
    for (table, want) in expected {
        if table.is_empty() || !table.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(DatabaseError::BadTable(table.clone()));
        }
        let count: i64 = conn
            .query_row(&format!("SELECT COUNT(*) FROM \"{table}\""), [], |r| {
                r.get(0)
            })
            .map_err(sqlite(database))?;
        let count = u64::try_from(count).unwrap_or(0);
        if count != *want {
            wrong.push(format!("{table}: {count} rows, expected {want}"));
        }
        counts.insert(table.clone(), count);
    }
    if wrong.is_empty() {
        Ok(counts)
    } else {
        Err(DatabaseError::WrongCounts(wrong.join("; ")))
    }
}

/// Copies `source` to `dest` with SQLite's backup API; returns the SHA-256
/// of the copy.
pub fn stage(source: &Path, dest: &Path) -> Result<String, DatabaseError> {
    if !source.is_file() {
        return Err(DatabaseError::Missing(source.display().to_string()));
    }
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(|e| DatabaseError::Io {
            path: parent.display().to_string(),
            source: e,
        })?;
    }
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let old = dest.with_file_name(format!(
            "{}{suffix}",
            dest.file_name().and_then(|n| n.to_str()).unwrap_or("")
        ));
        let _ = std::fs::remove_file(old);
    }
    let conn = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(sqlite(source))?;
    conn.backup(rusqlite::MAIN_DB, dest, None)
        .map_err(sqlite(dest))?;
    let bytes = std::fs::read(dest).map_err(|e| DatabaseError::Io {
        path: dest.display().to_string(),
        source: e,
    })?;
    Ok(hex(&Sha256::digest(&bytes)))
}
