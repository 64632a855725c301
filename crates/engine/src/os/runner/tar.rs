//! A folder as a tar archive (the tar crate's ustar entries, with GNU
//! long-name entries for names and link targets past 100 bytes), the form
//! the Docker Engine API copies into a container
//! (`PUT /containers/{id}/archive`): how a lane's files reach an engine on
//! another machine, which shares no file system with this one.
//!
//! What goes in: files, folders and symlinks, each with its own permission
//! bits and modification time, owned by root (0:0), in name order. A symlink
//! goes in as a link (never followed: a file is opened with `O_NOFOLLOW`),
//! whatever it points at; sockets, fifos and devices stay out. Every name is
//! relative and has no `..` (the tar crate refuses one that does), so the
//! archive unpacks under the container's root and only there. A name or a
//! link target that is not UTF-8 and a file of 8 GiB or more are refused.

use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use tar::{Builder, EntryType, Header};

/// ustar's size field holds 11 octal digits; the archive is held in
/// memory, so a file this large cannot be sent this way anyway.
const MOST_FILE_BYTES: u64 = 1 << 33;

/// What the archive refuses to carry: the I/O error [`archive`] returns
/// carries it.
#[derive(Debug, thiserror::Error)]
pub enum Uncopyable {
    #[error("{}: a name that is not UTF-8 cannot be copied to the server host", .0.display())]
    NameNotUtf8(PathBuf),
    #[error("{}: a symlink target that is not UTF-8", .0.display())]
    TargetNotUtf8(PathBuf),
    #[error("{}: a file of 8 GiB or more cannot be copied to the server host", .0.display())]
    TooLarge(PathBuf),
}

/// `dir`'s files, folders and symlinks, named as if `dir` were `at` (an
/// absolute path in the container), with `at`'s parent folders first.
pub fn archive(dir: &Path, at: &str) -> io::Result<Vec<u8>> {
    let at = at.trim_start_matches('/').trim_end_matches('/');
    let mut tar = Builder::new(Vec::new());
    let mut parent = String::new();
    for part in at.split('/').filter(|p| !p.is_empty()) {
        parent.push_str(part);
        parent.push('/');
        let mut header = header(EntryType::Directory, 0o755, 0, 0);
        tar.append_data(&mut header, &parent, io::empty())?;
    }
    add_dir(&mut tar, dir, at)?;
    // Two zero blocks end the archive.
    tar.into_inner()
}

fn add_dir(tar: &mut Builder<Vec<u8>>, dir: &Path, name: &str) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            return Err(io::Error::other(Uncopyable::NameNotUtf8(path)));
        };
        let child = format!("{name}/{file_name}");
        let meta = std::fs::symlink_metadata(&path)?;
        let mode = meta.mode() & 0o7777;
        let mtime = meta.mtime().max(0) as u64;
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path)?;
            if target.to_str().is_none() {
                return Err(io::Error::other(Uncopyable::TargetNotUtf8(path)));
            }
            let mut header = header(EntryType::Symlink, mode, 0, mtime);
            tar.append_link(&mut header, &child, &target)?;
        } else if meta.is_dir() {
            let mut header = header(EntryType::Directory, mode, 0, mtime);
            tar.append_data(&mut header, format!("{child}/"), io::empty())?;
            add_dir(tar, &path, &child)?;
        } else if meta.is_file() && !reprise_spawn::cgroup::is_namespace_file(&path) {
            // A regular file; a namespace file (a running step's, pinned
            // in the run's `processes/` as root) cannot be read and stays out.
            let bytes = read_file(&path, meta.len())?;
            let mut header = header(EntryType::Regular, mode, bytes.len() as u64, mtime);
            tar.append_data(&mut header, &child, bytes.as_slice())?;
        }
        // Sockets, fifos and devices are not copied: no lane serves them.
    }
    Ok(())
}

/// The bytes of the regular file at `path`, `len` bytes long when it was
/// listed: opened without following a symlink put in its place since, and
/// refused past [`MOST_FILE_BYTES`] before or while it is read.
fn read_file(path: &Path, len: u64) -> io::Result<Vec<u8>> {
    let too_large = || io::Error::other(Uncopyable::TooLarge(path.to_path_buf()));
    if len >= MOST_FILE_BYTES {
        return Err(too_large());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MOST_FILE_BYTES).read_to_end(&mut bytes)?;
    if bytes.len() as u64 >= MOST_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// A ustar header of `kind`, owned by root; its name is set as it is added.
fn header(kind: EntryType, mode: u32, size: u64, mtime: u64) -> Header {
    let mut header = Header::new_ustar();
    header.set_entry_type(kind);
    header.set_mode(mode);
    header.set_uid(0);
    header.set_gid(0);
    header.set_size(size);
    header.set_mtime(mtime);
    header
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn uncopyable(e: &io::Error) -> Option<&Uncopyable> {
        e.get_ref()?.downcast_ref()
    }

    #[test]
    fn gnu_tar_extracts_files_folders_symlinks_and_long_names_as_they_were() {
        let src = tempfile::tempdir().unwrap();
        let root = src.path();
        std::fs::write(
            root.join("config.ru"),
            "run ->(env) { [200, {}, ['hi']] }\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("tmp/cache")).unwrap();
        std::fs::write(root.join("tmp/cache/empty"), "").unwrap();
        let long = "a".repeat(120);
        std::fs::create_dir_all(root.join(&long)).unwrap();
        std::fs::write(root.join(&long).join("é-file.txt"), vec![7u8; 1500]).unwrap();
        std::os::unix::fs::symlink("config.ru", root.join("app.ru")).unwrap();
        let far = format!("{long}/{}", "b".repeat(120));
        std::os::unix::fs::symlink(&far, root.join("far")).unwrap();
        let script = root.join("boot.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();

        let tar = archive(root, "/work/run-1/files/hello").unwrap();
        assert_eq!(tar.len() % 512, 0);
        let out = tempfile::tempdir().unwrap();
        let file = out.path().join("a.tar");
        std::fs::write(&file, &tar).unwrap();
        let status = Command::new("tar")
            .arg("-xf")
            .arg(&file)
            .arg("-C")
            .arg(out.path())
            .status()
            .unwrap();
        assert!(status.success());
        let got = out.path().join("work/run-1/files/hello");
        assert_eq!(
            std::fs::read_to_string(got.join("config.ru")).unwrap(),
            "run ->(env) { [200, {}, ['hi']] }\n"
        );
        assert_eq!(std::fs::read(got.join("tmp/cache/empty")).unwrap(), b"");
        assert_eq!(
            std::fs::read(got.join(&long).join("é-file.txt")).unwrap(),
            vec![7u8; 1500]
        );
        assert_eq!(
            std::fs::read_link(got.join("app.ru")).unwrap(),
            Path::new("config.ru")
        );
        assert_eq!(
            std::fs::read_link(got.join("far")).unwrap(),
            Path::new(&far)
        );
        let mode = std::fs::metadata(got.join("boot.sh")).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o755);
    }

    /// One entry as the tar crate reads it back.
    struct Got {
        path: String,
        kind: EntryType,
        mode: u32,
        owner: (u64, u64),
        link: Option<String>,
        bytes: Vec<u8>,
    }

    fn entries(tar: &[u8]) -> Vec<Got> {
        let mut archive = tar::Archive::new(tar);
        archive
            .entries()
            .unwrap()
            .map(|entry| {
                let mut entry = entry.unwrap();
                let header = entry.header();
                let (kind, mode) = (header.entry_type(), header.mode().unwrap());
                let owner = (header.uid().unwrap(), header.gid().unwrap());
                let path = entry.path().unwrap().to_string_lossy().into_owned();
                let link = entry
                    .link_name()
                    .unwrap()
                    .map(|l| l.to_string_lossy().into_owned());
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).unwrap();
                Got {
                    path,
                    kind,
                    mode,
                    owner,
                    link,
                    bytes,
                }
            })
            .collect()
    }

    #[test]
    fn parents_come_first_then_entries_in_name_order_owned_by_root() {
        let src = tempfile::tempdir().unwrap();
        let root = src.path();
        std::fs::write(root.join("b.txt"), "b").unwrap();
        std::fs::create_dir(root.join("a")).unwrap();
        std::fs::write(root.join("a/inner"), "inner").unwrap();
        std::fs::set_permissions(
            root.join("b.txt"),
            std::os::unix::fs::PermissionsExt::from_mode(0o640),
        )
        .unwrap();
        let tar = archive(root, "/work/run-1/").unwrap();
        assert_eq!(tar.len() % 512, 0);
        let got: Vec<(String, EntryType, u32)> = entries(&tar)
            .into_iter()
            .map(|e| {
                assert_eq!(e.owner, (0, 0), "{}", e.path);
                (e.path, e.kind, e.mode)
            })
            .collect();
        let dir_mode = std::fs::metadata(root.join("a")).unwrap().mode() & 0o7777;
        assert_eq!(
            got,
            [
                ("work/".to_string(), EntryType::Directory, 0o755),
                ("work/run-1/".to_string(), EntryType::Directory, 0o755),
                ("work/run-1/a/".to_string(), EntryType::Directory, dir_mode),
                ("work/run-1/a/inner".to_string(), EntryType::Regular, 0o644),
                ("work/run-1/b.txt".to_string(), EntryType::Regular, 0o640),
            ]
        );
    }

    #[test]
    fn a_symlink_goes_in_as_a_link_and_is_never_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "not for the server").unwrap();
        let src = tempfile::tempdir().unwrap();
        let root = src.path();
        let secret = outside.path().join("secret");
        std::os::unix::fs::symlink(&secret, root.join("to-a-file")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("to-a-folder")).unwrap();
        std::os::unix::fs::symlink("../../etc/passwd", root.join("upwards")).unwrap();
        let long_target = format!("{}/{}", "t".repeat(150), "end");
        std::os::unix::fs::symlink(&long_target, root.join("long")).unwrap();
        let tar = archive(root, "/srv/app").unwrap();
        let links: Vec<(String, Option<String>, usize)> = entries(&tar)
            .into_iter()
            .filter(|e| e.kind == EntryType::Symlink)
            .map(|e| (e.path, e.link, e.bytes.len()))
            .collect();
        assert_eq!(
            links,
            [
                ("srv/app/long".into(), Some(long_target), 0),
                (
                    "srv/app/to-a-file".into(),
                    Some(secret.display().to_string()),
                    0
                ),
                (
                    "srv/app/to-a-folder".into(),
                    Some(outside.path().display().to_string()),
                    0
                ),
                ("srv/app/upwards".into(), Some("../../etc/passwd".into()), 0),
            ]
        );
        assert!(
            !tar.windows(18).any(|w| w == b"not for the server"),
            "a link's target's contents are not copied"
        );
    }

    #[test]
    fn no_entry_is_named_outside_the_place_it_is_put() {
        let src = tempfile::tempdir().unwrap();
        std::fs::write(src.path().join("f"), "x").unwrap();
        assert!(archive(src.path(), "/work/../etc").is_err());
        assert!(archive(src.path(), "/work/./files").is_ok_and(|tar| {
            entries(&tar)
                .iter()
                .all(|e| !e.path.starts_with('/') && !e.path.split('/').any(|p| p == ".."))
        }));
    }

    #[test]
    fn what_cannot_be_copied_is_refused_or_left_out() {
        let src = tempfile::tempdir().unwrap();
        let root = src.path();
        std::fs::write(root.join("kept"), "k").unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            root.join("fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        let socket = std::os::unix::net::UnixListener::bind(root.join("socket")).unwrap();
        let names: Vec<String> = entries(&archive(root, "/x").unwrap())
            .into_iter()
            .map(|e| e.path)
            .collect();
        assert_eq!(names, ["x/", "x/kept"], "fifos and sockets stay out");
        drop(socket);

        // A namespace a running step's is pinned by (as root, in the run's
        // `processes/`): a file that cannot be read, left out.
        let pin = root.join("pin.cgroupns");
        std::fs::write(&pin, "").unwrap();
        rustix::mount::mount_bind("/proc/self/ns/cgroup", &pin)
            .expect("pinning a namespace needs root, which the test command runs as");
        let archived = archive(root, "/x");
        rustix::mount::unmount(&pin, rustix::mount::UnmountFlags::DETACH).unwrap();
        let names: Vec<String> = entries(&archived.unwrap())
            .into_iter()
            .map(|e| e.path)
            .collect();
        assert_eq!(names, ["x/", "x/kept"], "a namespace pin stays out");

        use std::os::unix::ffi::OsStrExt;
        let odd = tempfile::tempdir().unwrap();
        std::fs::write(odd.path().join(std::ffi::OsStr::from_bytes(b"bad\xff")), "").unwrap();
        let e = archive(odd.path(), "/x").unwrap_err();
        assert!(
            matches!(uncopyable(&e), Some(Uncopyable::NameNotUtf8(p)) if p.starts_with(odd.path())),
            "{e}"
        );
        let odd = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(
            std::ffi::OsStr::from_bytes(b"to\xff"),
            odd.path().join("link"),
        )
        .unwrap();
        let e = archive(odd.path(), "/x").unwrap_err();
        assert!(
            matches!(uncopyable(&e), Some(Uncopyable::TargetNotUtf8(p)) if *p == odd.path().join("link")),
            "{e}"
        );
    }

    #[test]
    fn a_file_is_read_without_following_a_symlink_put_in_its_place() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s").unwrap();
        let src = tempfile::tempdir().unwrap();
        // As if the file were swapped for a link after it was listed.
        std::os::unix::fs::symlink(outside.path().join("secret"), src.path().join("f")).unwrap();
        let e = read_file(&src.path().join("f"), 1).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ELOOP), "{e}");
        let e = read_file(&outside.path().join("secret"), MOST_FILE_BYTES).unwrap_err();
        assert!(
            matches!(uncopyable(&e), Some(Uncopyable::TooLarge(p)) if *p == outside.path().join("secret")),
            "{e}"
        );
    }
}
