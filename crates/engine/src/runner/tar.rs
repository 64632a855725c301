//! A folder as a tar archive (POSIX ustar, with pax records for long names),
//! the form the Docker Engine API copies into a container
//! (`PUT /containers/{id}/archive`): how a lane's files reach an engine on
//! another machine, which shares no file system with this one.

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// `dir`'s files, folders and symlinks, named as if `dir` were `at` (an
/// absolute path in the container), with `at`'s parent folders first.
pub fn archive(dir: &Path, at: &str) -> io::Result<Vec<u8>> {
    let at = at.trim_start_matches('/').trim_end_matches('/');
    let mut out = Vec::new();
    let mut parent = String::new();
    for part in at.split('/').filter(|p| !p.is_empty()) {
        parent.push_str(part);
        parent.push('/');
        header(&mut out, &parent, Kind::Dir, 0o755, 0, 0)?;
    }
    add_dir(&mut out, dir, at)?;
    // Two zero blocks end the archive.
    out.extend_from_slice(&[0u8; 1024]);
    Ok(out)
}

fn add_dir(out: &mut Vec<u8>, dir: &Path, name: &str) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            return Err(io::Error::other(format!(
                "{}: a name that is not UTF-8 cannot be copied to the server host",
                path.display()
            )));
        };
        let child = format!("{name}/{file_name}");
        let meta = std::fs::symlink_metadata(&path)?;
        let mode = meta.mode() & 0o7777;
        let mtime = meta.mtime().max(0) as u64;
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path)?;
            let target = target.to_str().ok_or_else(|| {
                io::Error::other(format!(
                    "{}: a symlink target that is not UTF-8",
                    path.display()
                ))
            })?;
            header(out, &child, Kind::Symlink(target), mode, 0, mtime)?;
        } else if meta.is_dir() {
            header(out, &format!("{child}/"), Kind::Dir, mode, 0, mtime)?;
            add_dir(out, &path, &child)?;
        } else if meta.is_file() {
            let bytes = std::fs::read(&path)?;
            header(out, &child, Kind::File, mode, bytes.len() as u64, mtime)?;
            out.extend_from_slice(&bytes);
            pad(out);
        }
        // Sockets, fifos and devices are not copied: no lane serves them.
    }
    Ok(())
}

enum Kind<'a> {
    File,
    Dir,
    Symlink(&'a str),
}

/// One header block, preceded by a pax record where the name or the link
/// does not fit ustar's fields.
fn header(
    out: &mut Vec<u8>,
    name: &str,
    kind: Kind,
    mode: u32,
    size: u64,
    mtime: u64,
) -> io::Result<()> {
    let link = match kind {
        Kind::Symlink(target) => target,
        _ => "",
    };
    // ustar's size field holds 11 octal digits; the archive is held in
    // memory, so a file this large cannot be sent this way anyway.
    if size >= 1 << 33 {
        return Err(io::Error::other(format!(
            "{name}: a file of 8 GiB or more cannot be copied to the server host"
        )));
    }
    let mut pax = String::new();
    if name.len() > 100 {
        pax.push_str(&pax_record("path", name));
    }
    if link.len() > 100 {
        pax.push_str(&pax_record("linkpath", link));
    }
    if !pax.is_empty() {
        let mut block = ustar("././@PaxHeader", b'x', 0o644, pax.len() as u64, mtime, "");
        checksum(&mut block);
        out.extend_from_slice(&block);
        out.extend_from_slice(pax.as_bytes());
        pad(out);
    }
    let flag = match kind {
        Kind::File => b'0',
        Kind::Dir => b'5',
        Kind::Symlink(_) => b'2',
    };
    let mut block = ustar(
        truncated(name, 100),
        flag,
        mode,
        size,
        mtime,
        truncated(link, 100),
    );
    checksum(&mut block);
    out.extend_from_slice(&block);
    Ok(())
}

fn ustar(name: &str, flag: u8, mode: u32, size: u64, mtime: u64, link: &str) -> [u8; 512] {
    let mut b = [0u8; 512];
    b[..name.len()].copy_from_slice(name.as_bytes());
    octal(&mut b[100..108], mode as u64);
    octal(&mut b[108..116], 0);
    octal(&mut b[116..124], 0);
    octal(&mut b[124..136], size);
    octal(&mut b[136..148], mtime);
    b[156] = flag;
    b[157..157 + link.len()].copy_from_slice(link.as_bytes());
    b[257..263].copy_from_slice(b"ustar\0");
    b[263..265].copy_from_slice(b"00");
    b
}

/// The longest prefix of `s` of at most `max` bytes that ends on a char.
fn truncated(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn octal(field: &mut [u8], value: u64) {
    let digits = format!("{value:0width$o}", width = field.len() - 1);
    field[..digits.len()].copy_from_slice(digits.as_bytes());
}

fn checksum(block: &mut [u8; 512]) {
    block[148..156].copy_from_slice(b"        ");
    let sum: u32 = block.iter().map(|&b| b as u32).sum();
    let digits = format!("{sum:06o}\0 ");
    block[148..156].copy_from_slice(digits.as_bytes());
}

/// A pax record: `LEN key=value\n`, where LEN counts the whole record.
fn pax_record(key: &str, value: &str) -> String {
    let rest = format!(" {key}={value}\n");
    let mut len = rest.len() + 1;
    while len.to_string().len() + rest.len() != len {
        len = len.to_string().len() + rest.len();
    }
    format!("{len}{rest}")
}

fn pad(out: &mut Vec<u8>) {
    let rem = out.len() % 512;
    if rem != 0 {
        out.resize(out.len() + 512 - rem, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

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
        let mode = std::fs::metadata(got.join("boot.sh")).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o755);
    }

    #[test]
    fn a_pax_record_counts_its_own_length() {
        for value in ["x", &"y".repeat(95), &"z".repeat(994)] {
            let record = pax_record("path", value);
            let (len, _) = record.split_once(' ').unwrap();
            assert_eq!(len.parse::<usize>().unwrap(), record.len(), "{record}");
        }
    }
}
