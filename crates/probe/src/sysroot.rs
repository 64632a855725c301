//! Reading `/proc`, `/sys` and `/etc` through a root directory, so the same
//! code reads this machine (root `/`) or a fixture tree a test wrote.

use std::path::{Path, PathBuf};

/// A filesystem root under which `proc/`, `sys/` and `etc/` are read.
#[derive(Debug, Clone)]
pub struct SysRoot {
    root: PathBuf,
}

impl SysRoot {
    pub fn new(root: &Path) -> Self {
        Self {
            root: root.to_path_buf(),
        }
    }

    /// True when this is the real root, where live system calls (affinity)
    /// describe the same machine as the files.
    pub fn is_real(&self) -> bool {
        self.root == Path::new("/")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel.trim_start_matches('/'))
    }

    /// The file's text, or `None` when it is absent or unreadable (a machine
    /// without that file simply lacks the fact).
    pub fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.path(rel)).ok()
    }

    /// The file's text trimmed, `None` when absent or empty.
    pub fn read_trimmed(&self, rel: &str) -> Option<String> {
        let text = self.read(rel)?;
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_string())
    }

    pub fn read_u64(&self, rel: &str) -> Option<u64> {
        self.read_trimmed(rel)?.parse().ok()
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// Names of the entries of a directory that start with `prefix`, sorted
    /// naturally (`cpu2` before `cpu10`).
    pub fn entries(&self, rel: &str, prefix: &str) -> Vec<String> {
        let Ok(dir) = std::fs::read_dir(self.path(rel)) else {
            return Vec::new();
        };
        let mut names: Vec<String> = dir
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with(prefix))
            .collect();
        names.sort_by_key(|n| natural_key(n));
        names
    }
}

fn natural_key(name: &str) -> (String, u64) {
    let digits_at = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (stem, num) = name.split_at(digits_at);
    (stem.to_string(), num.parse().unwrap_or(u64::MAX))
}

/// Parses a kernel CPU list such as `0-3,8,10-11` into CPU numbers.
/// `None` when the text is not a CPU list.
pub fn parse_cpu_list(text: &str) -> Option<Vec<u32>> {
    let text = text.trim();
    let mut cpus = Vec::new();
    if text.is_empty() {
        return Some(cpus);
    }
    for part in text.split(',') {
        let part = part.trim();
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                if b < a || b - a > 65_536 {
                    return None;
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.parse().ok()?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Some(cpus)
}

/// Formats CPU numbers back into the kernel's compact list form.
pub fn format_cpu_list(cpus: &[u32]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let start = cpus[i];
        let mut end = start;
        while i + 1 < cpus.len() && cpus[i + 1] == end + 1 {
            i += 1;
            end = cpus[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_parse_ranges_and_singles_and_format_back() {
        assert_eq!(
            parse_cpu_list("0-3,8,10-11"),
            Some(vec![0, 1, 2, 3, 8, 10, 11])
        );
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("a-b"), None);
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11");
    }

    #[test]
    fn entries_sort_naturally() {
        assert!(natural_key("cpu2") < natural_key("cpu10"));
    }
}
