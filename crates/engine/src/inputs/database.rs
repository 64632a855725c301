//! The seed database: its row counts checked with the recipe's queries
//! (`verify = { users = 50 }` → `SELECT COUNT(*) FROM "users"`), and staged
//! into a tree with SQLite's backup API, which copies a consistent snapshot
//! even while the database is in WAL mode.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

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
    #[error("{path} was still in use by another connection after {} s", .waited.as_secs())]
    Busy { path: String, waited: Duration },
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
    copy(source, dest)?;
    let bytes = std::fs::read(dest).map_err(|e| DatabaseError::Io {
        path: dest.display().to_string(),
        source: e,
    })?;
    Ok(hex(&Sha256::digest(&bytes)))
}

/// Copies `source` to a new file `dest` (what was at `dest`, its WAL and
/// journal, removed first) with SQLite's backup API: a consistent
/// snapshot even while a server writes to `source` in WAL mode.
pub fn copy(source: &Path, dest: &Path) -> Result<(), DatabaseError> {
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
        .map_err(sqlite(dest))
}

/// How long [`restore`] waits for a server's transaction on the database
/// to end before it gives up.
const RESTORE_WAIT: Duration = Duration::from_secs(30);

/// Writes `snapshot` back into `database` through SQLite, as one
/// transaction of the database's own: servers that have it open (in WAL
/// mode or not) read the snapshot's rows from their next query on, which a
/// file copied over theirs would not give them. Waits for a transaction in
/// progress to end, up to [`RESTORE_WAIT`].
pub fn restore(snapshot: &Path, database: &Path) -> Result<(), DatabaseError> {
    use rusqlite::backup::{Backup, StepResult};
    if !database.is_file() {
        return Err(DatabaseError::Missing(database.display().to_string()));
    }
    let src = Connection::open_with_flags(snapshot, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(sqlite(snapshot))?;
    let mut dest = Connection::open_with_flags(database, OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(sqlite(database))?;
    dest.busy_timeout(Duration::from_secs(5))
        .map_err(sqlite(database))?;
    let backup = Backup::new(&src, &mut dest).map_err(sqlite(database))?;
    let deadline = Instant::now() + RESTORE_WAIT;
    loop {
        // Every page in one step: the database is never half restored.
        match backup.step(-1).map_err(sqlite(database))? {
            StepResult::Done => return Ok(()),
            _ if Instant::now() >= deadline => {
                return Err(DatabaseError::Busy {
                    path: database.display().to_string(),
                    waited: RESTORE_WAIT,
                });
            }
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// The message the harness names in `?before=`: the middle one of `room`'s
/// history (`n / 2`-th oldest by `created_at, id`, as rubys/roundhouse
/// `scripts/bench-campfire`'s `resolve_http_suite` picks it), so the page
/// asked for is a full page of older messages, not the newest. `None`
/// where the database has no such room or no Campfire `messages` table.
pub fn mid_history_message(database: &Path, room: i64) -> Result<Option<i64>, DatabaseError> {
    use rusqlite::OptionalExtension;
    if !database.is_file() {
        return Err(DatabaseError::Missing(database.display().to_string()));
    }
    let conn = Connection::open_with_flags(database, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(sqlite(database))?;
    let n: i64 = match conn.query_row(
        "SELECT COUNT(*) FROM messages WHERE room_id = ?1",
        [room],
        |r| r.get(0),
    ) {
        Ok(n) => n,
        Err(rusqlite::Error::SqliteFailure(_, Some(why))) if why.contains("no such") => {
            return Ok(None);
        }
        Err(e) => return Err(sqlite(database)(e)),
    };
    if n == 0 {
        return Ok(None);
    }
    conn.query_row(
        "SELECT id FROM messages WHERE room_id = ?1 ORDER BY created_at, id LIMIT 1 OFFSET ?2",
        [room, (n / 2).max(1) - 1],
        |r| r.get(0),
    )
    .optional()
    .map_err(sqlite(database))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(conn: &Connection) -> i64 {
        conn.query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))
            .unwrap()
    }

    /// A server's connection stays open on the database, in WAL mode, while
    /// its writes are rolled back under it: its next query reads the
    /// snapshot's rows, and it can go on writing.
    #[test]
    fn a_restore_reaches_a_connection_that_has_the_database_open_in_wal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.sqlite3");
        let server = Connection::open(&live).unwrap();
        server
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 CREATE TABLE messages (id INTEGER PRIMARY KEY, room_id INTEGER, created_at TEXT);
                 INSERT INTO messages (room_id, created_at) VALUES (1, '2026-01-01'), (1, '2026-01-02');",
            )
            .unwrap();
        let snapshot = dir.path().join("kept/live.sqlite3");
        copy(&live, &snapshot).unwrap();
        server
            .execute_batch("INSERT INTO messages (room_id, created_at) VALUES (2, 'x'), (2, 'y');")
            .unwrap();
        assert_eq!(count(&server), 4);
        restore(&snapshot, &live).unwrap();
        assert_eq!(count(&server), 2, "the open connection reads the snapshot");
        server
            .execute(
                "INSERT INTO messages (room_id, created_at) VALUES (2, 'z')",
                [],
            )
            .unwrap();
        assert_eq!(count(&Connection::open(&live).unwrap()), 3);
        let mode: String = server
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn a_restore_waits_for_a_transaction_in_progress_to_end() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.sqlite3");
        let server = Connection::open(&live).unwrap();
        server
            .execute_batch(
                "CREATE TABLE messages (id INTEGER PRIMARY KEY, room_id INTEGER, created_at TEXT);
                 INSERT INTO messages (room_id, created_at) VALUES (1, 'a');",
            )
            .unwrap();
        let snapshot = dir.path().join("kept.sqlite3");
        copy(&live, &snapshot).unwrap();
        server
            .execute_batch(
                "BEGIN IMMEDIATE; INSERT INTO messages (room_id, created_at) VALUES (2, 'b');",
            )
            .unwrap();
        let ends = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            server.execute_batch("COMMIT").unwrap();
            server
        });
        restore(&snapshot, &live).unwrap();
        let server = ends.join().unwrap();
        assert_eq!(
            count(&server),
            1,
            "the write that ended first is rolled back too"
        );
    }

    #[test]
    fn the_before_message_is_the_middle_of_the_rooms_history_by_time() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("seed.sqlite3");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY, room_id INTEGER, created_at TEXT);",
        )
        .unwrap();
        // Ids out of time order: the pick goes by time, then id.
        for i in 1..=10 {
            conn.execute(
                "INSERT INTO messages (id, room_id, created_at) VALUES (?1, 1, ?2)",
                rusqlite::params![100 - i, format!("2026-01-{i:02}")],
            )
            .unwrap();
        }
        conn.execute(
            "INSERT INTO messages (id, room_id, created_at) VALUES (5, 2, 'z')",
            [],
        )
        .unwrap();
        assert_eq!(mid_history_message(&db, 1).unwrap(), Some(95));
        assert_eq!(mid_history_message(&db, 2).unwrap(), Some(5));
        assert_eq!(mid_history_message(&db, 3).unwrap(), None);
        let other = dir.path().join("other.sqlite3");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x);")
            .unwrap();
        assert_eq!(mid_history_message(&other, 1).unwrap(), None);
    }
}
