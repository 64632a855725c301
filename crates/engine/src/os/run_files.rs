//! Paths kept inside the run's folder. A path a recipe names is a relative
//! path without `..`, through no symlink that leads out ([`within`]); every
//! file Reprise itself writes there is opened part by part from a handle on
//! the run's folder, following no symlink at all ([`RunFile`]): a step may
//! leave one behind, and Reprise never writes through it.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// Whether a file replaced whole waits for the disk before it is renamed
/// into place (and its folder after).
static SYNCING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// From now on, files are still replaced whole (written beside, then
/// renamed: a reader sees the old file or the new one) but not synced: for
/// a process the reader has interrupted, whose end must not wait on a busy
/// disk (each sync there can take a second; the kernel writes the files
/// within seconds anyway).
pub fn stop_syncing() {
    SYNCING.store(false, std::sync::atomic::Ordering::Relaxed);
}

/// Waits for `file` to reach the disk, unless [`stop_syncing`] was called.
pub(crate) fn sync(file: &File) -> io::Result<()> {
    match SYNCING.load(std::sync::atomic::Ordering::Relaxed) {
        true => file.sync_all(),
        false => Ok(()),
    }
}

/// A path a recipe or a step named that would lead out of the run's folder.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Outside(String);

/// `base/rel`, where `rel` is a relative path without `..` and no part of
/// it that exists is a symlink leading out of `base`. A dangling symlink is
/// refused too: writing through it would create its target, wherever that is.
pub(crate) fn within(base: &Path, rel: &str) -> Result<PathBuf, Outside> {
    let path = Path::new(rel);
    if !path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(Outside(format!(
            "`{}` must be a relative path inside the run's folder, without `..`",
            reprise_recipe::shown::escaped(rel)
        )));
    }
    let root = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
    let mut at = base.to_path_buf();
    for part in path.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let leads_out = match at.canonicalize() {
                    Ok(target) => !target.starts_with(&root),
                    Err(_) => true,
                };
                if leads_out {
                    return Err(Outside(format!(
                        "`{}` leads out of {} through the symlink {}: Reprise does not write \
                         outside the run's folder",
                        reprise_recipe::shown::escaped(rel),
                        base.display(),
                        at.display()
                    )));
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(base.join(path))
}

/// A write to a [`RunFile`] refused for what is at its path: the I/O error
/// the write returns carries it ([`Refused::of`] finds it).
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// A symlink at the file or on the way to it.
    #[error(
        "`{}` leads out of the run's folder {} through a symlink: Reprise does not write through it",
        reprise_recipe::shown::escaped(&rel.display().to_string()),
        folder.display()
    )]
    ThroughSymlink { folder: PathBuf, rel: PathBuf },
    /// A FIFO, a device, or a hard link to a file elsewhere.
    #[error(
        "`{}` in the run's folder {} is not a plain file of its own (a FIFO, a device or a hard link to a file elsewhere): Reprise does not write to it",
        reprise_recipe::shown::escaped(&rel.display().to_string()),
        folder.display()
    )]
    NotPlainFile { folder: PathBuf, rel: PathBuf },
}

impl Refused {
    /// The refusal `e` is, where a [`RunFile`]'s write refused.
    pub fn of(e: &io::Error) -> Option<&Refused> {
        e.get_ref()?.downcast_ref()
    }
}

/// A file of a run's folder, named by its path inside it, that Reprise
/// writes. It is opened one part at a time from a handle on the run's
/// folder, never following a symlink (`O_NOFOLLOW` at every part): a step
/// that swaps `logs/` or `results/` for a symlink to a folder elsewhere, or
/// a file for a symlink, makes the write fail, saying so, instead of
/// landing outside the run's folder. Missing folders on the way are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFile {
    /// The run's folder.
    folder: PathBuf,
    /// Relative, without `..`.
    rel: PathBuf,
}

impl RunFile {
    /// `rel` inside `folder`; a path that is absolute or climbs out with
    /// `..` is refused.
    pub fn new(folder: impl Into<PathBuf>, rel: impl AsRef<Path>) -> Result<RunFile, Outside> {
        let rel = rel.as_ref();
        let plain = rel
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !plain || rel.file_name().is_none() {
            return Err(Outside(format!(
                "`{}` must be a relative path inside the run's folder, without `..`",
                reprise_recipe::shown::escaped(&rel.display().to_string())
            )));
        }
        Ok(RunFile {
            folder: folder.into(),
            rel: rel.components().collect(),
        })
    }

    /// Where it is, to read it or to say where it is.
    pub fn path(&self) -> PathBuf {
        self.folder.join(&self.rel)
    }

    /// Opened for writing, emptied first.
    pub fn create(&self) -> io::Result<File> {
        self.open(OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC)
    }

    /// Opened for writing at its end.
    pub fn append(&self) -> io::Result<File> {
        self.open(OFlags::WRONLY | OFlags::CREATE | OFlags::APPEND)
    }

    /// Opened for reading and writing, neither emptied nor moved to its end
    /// (a lock file).
    pub fn open_rw(&self) -> io::Result<File> {
        self.open(OFlags::RDWR | OFlags::CREATE)
    }

    /// Replaced whole by `bytes`: written to a temporary file beside it,
    /// synced, then renamed over it, so a reader sees the old file or the
    /// new one, never half. Where it is a symlink it is refused, as every
    /// other write through one is.
    pub fn write_atomic(&self, bytes: &[u8]) -> io::Result<()> {
        let (dir, name) = self.parent()?;
        let is_link = rustix::fs::statat(&dir, &name, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Symlink);
        if is_link {
            return Err(self.said(Errno::LOOP.into()));
        }
        let tmp = cstring(&format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ))?;
        // Made afresh, never a name a step linked elsewhere beforehand.
        let _ = rustix::fs::unlinkat(&dir, &tmp, AtFlags::empty());
        let fd = openat(&dir, &tmp, OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL)
            .map_err(|e| self.said(e))?;
        let mut file = File::from(fd);
        let written = file.write_all(bytes).and_then(|()| sync(&file));
        drop(file);
        let renamed = written
            .and_then(|()| rustix::fs::renameat(&dir, &tmp, &dir, &name).map_err(io::Error::from));
        if let Err(e) = renamed {
            let _ = rustix::fs::unlinkat(&dir, &tmp, AtFlags::empty());
            return Err(self.said(e));
        }
        // The rename itself is durable once the folder is synced.
        let _ = sync(&File::from(dir));
        Ok(())
    }

    /// Opened with `flags`, where it is a plain file of its own: a FIFO
    /// (which would block the open), a device, or a hard link to a file
    /// elsewhere is refused before a byte is written or emptied.
    fn open(&self, flags: OFlags) -> io::Result<File> {
        let (dir, name) = self.parent()?;
        let fd = openat(&dir, &name, (flags - OFlags::TRUNC) | OFlags::NONBLOCK)
            .map_err(|e| self.said(e))?;
        let stat = rustix::fs::fstat(&fd).map_err(|e| self.said(e.into()))?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile || stat.st_nlink > 1 {
            return Err(io::Error::other(Refused::NotPlainFile {
                folder: self.folder.clone(),
                rel: self.rel.clone(),
            }));
        }
        let file = File::from(fd);
        if flags.contains(OFlags::TRUNC) {
            file.set_len(0).map_err(|e| self.said(e))?;
        }
        Ok(file)
    }

    /// The folder the file is in, opened part by part from the run's
    /// folder (made where missing), and the file's own name.
    fn parent(&self) -> io::Result<(OwnedFd, CString)> {
        let mut dir = open_folder(&self.folder).map_err(|e| self.said(e))?;
        let mut parts: Vec<&std::ffi::OsStr> = self
            .rel
            .components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part),
                _ => None,
            })
            .collect();
        let name = parts.pop().map(os_cstring).transpose()?;
        let name = name.ok_or_else(|| io::Error::other("no file name"))?;
        for part in parts {
            let part = os_cstring(part)?;
            let flags = OFlags::RDONLY | OFlags::DIRECTORY;
            dir = match openat(&dir, &part, flags) {
                Ok(fd) => fd,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    match rustix::fs::mkdirat(&dir, &part, Mode::from_raw_mode(0o755)) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(self.said(e.into())),
                    }
                    openat(&dir, &part, flags).map_err(|e| self.said(e))?
                }
                Err(e) => return Err(self.said(e)),
            };
        }
        Ok((dir, name))
    }

    /// `e` in words, naming the file: a symlink on the way is said as one.
    fn said(&self, e: io::Error) -> io::Error {
        match e.raw_os_error().map(Errno::from_raw_os_error) {
            Some(Errno::LOOP | Errno::NOTDIR) => io::Error::other(Refused::ThroughSymlink {
                folder: self.folder.clone(),
                rel: self.rel.clone(),
            }),
            _ => io::Error::new(e.kind(), format!("{}: {e}", self.path().display())),
        }
    }
}

/// The run's folder itself, not followed if it is a symlink.
fn open_folder(folder: &Path) -> io::Result<OwnedFd> {
    let path = os_cstring(folder.as_os_str())?;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(rustix::fs::open(&path, flags, Mode::empty())?)
}

/// `name` in the folder `dir`, never through a symlink.
fn openat(dir: &OwnedFd, name: &CString, flags: OFlags) -> io::Result<OwnedFd> {
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(rustix::fs::openat(
        dir,
        name,
        flags,
        Mode::from_raw_mode(0o644),
    )?)
}

fn os_cstring(part: &std::ffi::OsStr) -> io::Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(part.as_bytes()).map_err(|_| io::Error::other("a path with a NUL byte"))
}

fn cstring(text: &str) -> io::Result<CString> {
    CString::new(text).map_err(|_| io::Error::other("a path with a NUL byte"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// `err` is the refusal to write `rel` through a symlink.
    fn through_symlink(err: &io::Error, rel: &str) -> bool {
        matches!(Refused::of(err), Some(Refused::ThroughSymlink { rel: r, .. }) if r == Path::new(rel))
    }

    #[test]
    fn a_run_file_is_written_with_its_folders_made() {
        let run = tempfile::tempdir().unwrap();
        let file = RunFile::new(run.path(), "results/a/b.json").unwrap();
        file.write_atomic(b"{}").unwrap();
        assert_eq!(
            std::fs::read(run.path().join("results/a/b.json")).unwrap(),
            b"{}"
        );
        let log = RunFile::new(run.path(), "logs/x.log").unwrap();
        writeln!(log.create().unwrap(), "one").unwrap();
        writeln!(log.append().unwrap(), "two").unwrap();
        assert_eq!(std::fs::read_to_string(log.path()).unwrap(), "one\ntwo\n");
        for bad in ["../x", "/etc/passwd", "a/../../x", ""] {
            assert!(RunFile::new(run.path(), bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn no_write_goes_through_a_hard_link_or_blocks_on_a_fifo_a_step_left() {
        let run = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("victim");
        std::fs::write(&target, "untouched").unwrap();
        std::fs::create_dir_all(run.path().join("logs")).unwrap();
        std::fs::hard_link(&target, run.path().join("logs/next.log")).unwrap();
        let log = RunFile::new(run.path(), "logs/next.log").unwrap();
        let err = log.create().unwrap_err();
        assert!(
            matches!(Refused::of(&err), Some(Refused::NotPlainFile { rel, .. }) if rel == Path::new("logs/next.log")),
            "{err}"
        );
        assert!(log.append().is_err());
        // The temporary file an atomic write makes, linked beforehand.
        let pid = std::process::id();
        std::fs::hard_link(
            &target,
            run.path().join(format!("logs/.after.json.{pid}.tmp")),
        )
        .unwrap();
        RunFile::new(run.path(), "logs/after.json")
            .unwrap()
            .write_atomic(b"{}")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "untouched");
        // A FIFO nobody reads: refused at once, not a hang.
        let fifo = run.path().join("logs/fifo.log");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            FileType::Fifo,
            Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        assert!(
            RunFile::new(run.path(), "logs/fifo.log")
                .unwrap()
                .create()
                .is_err()
        );
    }

    #[test]
    fn no_write_goes_through_a_symlink_a_step_left() {
        let run = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("victim");
        std::fs::write(&target, "untouched").unwrap();
        std::fs::create_dir_all(run.path().join("logs")).unwrap();
        // A file swapped for a symlink to a file outside.
        symlink(&target, run.path().join("logs/next.log")).unwrap();
        let log = RunFile::new(run.path(), "logs/next.log").unwrap();
        let err = log.create().unwrap_err();
        assert!(through_symlink(&err, "logs/next.log"), "{err}");
        assert!(log.append().is_err());
        // A folder swapped for a symlink to a folder outside.
        symlink(outside.path(), run.path().join("results")).unwrap();
        let result = RunFile::new(run.path(), "results/after.json").unwrap();
        let err = result.write_atomic(b"{}").unwrap_err();
        assert!(through_symlink(&err, "results/after.json"), "{err}");
        assert!(result.create().is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "untouched");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
        // Nor is a symlink replaced by a whole file: it is said.
        let swapped = RunFile::new(run.path(), "logs/next.log").unwrap();
        let err = swapped.write_atomic(b"mine").unwrap_err();
        assert!(through_symlink(&err, "logs/next.log"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "untouched");
        assert!(
            std::fs::symlink_metadata(swapped.path())
                .unwrap()
                .is_symlink()
        );
    }
}
