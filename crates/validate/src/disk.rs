//! Free space of the filesystem that holds the data dir (statvfs).

use std::path::{Path, PathBuf};

use crate::checks::DiskSpace;

/// Free and total space of the filesystem holding `dir`, or of its nearest
/// existing ancestor when `dir` is not made yet. `None` where statvfs fails.
pub fn disk_space(dir: &Path) -> Option<DiskSpace> {
    let existing: PathBuf = dir.ancestors().find(|p| p.exists())?.to_path_buf();
    let stat = rustix::fs::statvfs(&existing).ok()?;
    let block = stat.f_frsize;
    Some(DiskSpace {
        path: dir.to_path_buf(),
        free_bytes: stat.f_bavail * block,
        total_bytes: stat.f_blocks * block,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dir_not_made_yet_is_read_through_its_parent() {
        let dir = tempfile::tempdir().unwrap();
        let space = disk_space(&dir.path().join("not/yet")).expect("statvfs of the temp dir");
        assert!(space.total_bytes > 0 && space.free_bytes <= space.total_bytes);
        assert_eq!(space.path, dir.path().join("not/yet"));
    }
}
