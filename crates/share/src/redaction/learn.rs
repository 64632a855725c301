//! Where the names to redact come from: what a run recorded (its
//! fingerprint, its `env.json`), the paths and owner of its folder, and the
//! process that shares (its environment and the host's files).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Redactor, patterns};

/// Keys under which a record holds each kind of name, at any depth.
const HOST_KEYS: &[&str] = &["hostname", "nodename", "host_name", "fqdn", "hostname_fqdn"];
const DOMAIN_KEYS: &[&str] = &[
    "domain",
    "domainname",
    "domain_name",
    "search",
    "search_domains",
    "dns_search",
];
const USER_KEYS: &[&str] = &["user", "username", "user_name", "login", "sudo_user"];
const HOME_KEYS: &[&str] = &["home", "home_dir", "homedir"];

/// Accounts below this id are the system's (daemon, www-data, …): their
/// names are ordinary words and their homes system folders.
const FIRST_PERSON_UID: u32 = if cfg!(target_os = "macos") { 500 } else { 1000 };

impl Redactor {
    /// The host names, domains, users and homes a record (a fingerprint,
    /// an `env.json`) holds under keys such as `hostname`, `user`, `home`.
    pub fn learn_recorded(&mut self, record: &Value) {
        for host in strings_under(record, HOST_KEYS) {
            self.add_hostname(&host);
        }
        for domain in strings_under(record, DOMAIN_KEYS) {
            for d in domain.split_whitespace() {
                self.add_domain(d);
            }
        }
        for user in strings_under(record, USER_KEYS) {
            self.add_user(&user);
        }
        for home in strings_under(record, HOME_KEYS) {
            self.learn_home(&home);
        }
    }

    /// The users and homes that paths in `text` (a run folder, a results
    /// folder) are under: `/home/NAME/…`, `/Users/NAME/…`, `C:\Users\NAME\…`.
    pub fn learn_paths(&mut self, text: &str) {
        for (home, user) in patterns::homes_in(text) {
            self.add_home(&home);
            self.add_user(&user);
        }
    }

    /// The account that owns `path` (a run folder): its name and home,
    /// unless it is a system account.
    pub fn learn_owner(&mut self, path: &Path) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if let Ok(meta) = std::fs::metadata(path)
                && let Some(account) = passwd::by_uid(meta.uid())
            {
                self.learn_account(&account);
            }
        }
        #[cfg(not(unix))]
        let _ = path;
    }

    /// The sharing process's user, the user `sudo` was run by, and their
    /// homes, as `var` reads the environment.
    pub fn learn_env(&mut self, var: impl Fn(&str) -> Option<String>) {
        for name in ["USER", "LOGNAME", "USERNAME", "SUDO_USER"] {
            if let Some(user) = var(name).filter(|u| !u.is_empty()) {
                self.add_user(&user);
                #[cfg(unix)]
                if let Some(account) = passwd::by_name(&user) {
                    self.learn_account(&account);
                }
            }
        }
        for name in ["HOME", "USERPROFILE"] {
            if let Some(home) = var(name) {
                self.learn_home(&home);
            }
        }
        if let Some(host) = var("HOSTNAME") {
            self.add_hostname(&host);
        }
    }

    /// The host's names and domains as the files under `root` say:
    /// `etc/hostname`, the kernel's host and domain names, the `etc/hosts`
    /// lines naming this host (its fully qualified name), and the search
    /// domains of `etc/resolv.conf`.
    pub fn learn_host_files(&mut self, root: &Path) {
        let read = |p: &str| std::fs::read_to_string(root.join(p)).ok();
        for file in ["etc/hostname", "proc/sys/kernel/hostname"] {
            if let Some(name) = read(file) {
                self.add_hostname(name.trim());
            }
        }
        if let Some(domain) = read("proc/sys/kernel/domainname")
            && domain.trim() != "(none)"
        {
            self.add_domain(&domain);
        }
        if let Some(hosts) = read("etc/hosts") {
            for line in hosts.lines() {
                let line = line.split('#').next().unwrap_or("");
                let names: Vec<&str> = line.split_whitespace().skip(1).collect();
                let ours = names.iter().any(|n| {
                    let short = n.split('.').next().unwrap_or(n);
                    self.hostnames
                        .iter()
                        .any(|h| h.eq_ignore_ascii_case(n) || h.eq_ignore_ascii_case(short))
                });
                if ours {
                    for name in names {
                        self.add_hostname(name);
                    }
                }
            }
        }
        if let Some(resolv) = read("etc/resolv.conf") {
            for line in resolv.lines() {
                let mut words = line.split_whitespace();
                if let Some("search" | "domain") = words.next() {
                    words.for_each(|d| self.add_domain(d));
                }
            }
        }
    }

    /// This process's environment and this host's files.
    pub fn learn_process(&mut self) {
        self.learn_env(|name| std::env::var(name).ok());
        self.learn_host_files(Path::new("/"));
    }

    /// A home and the user it is named after, where it is a person's.
    fn learn_home(&mut self, home: &str) {
        self.add_home(home);
        self.learn_paths(home);
    }

    #[cfg(unix)]
    fn learn_account(&mut self, account: &passwd::Account) {
        if account.uid < FIRST_PERSON_UID || account.name == "nobody" {
            return;
        }
        self.add_user(&account.name);
        // A home named after its account is a person's (`/srv/alice`); a
        // shared one (`/var/www`) is not, and hiding it would hide nothing.
        if Path::new(&account.home).file_name() == Some(account.name.as_ref()) {
            self.add_home(&account.home);
        }
    }
}

/// Every string value (or string in an array) in `v` under a key named
/// one of `keys`, at any depth.
fn strings_under(v: &Value, keys: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    collect(v, keys, &mut out);
    out
}

fn collect(v: &Value, keys: &[&str], out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                if keys.iter().any(|key| k.eq_ignore_ascii_case(key)) {
                    match child {
                        Value::String(s) => out.push(s.clone()),
                        Value::Array(items) => {
                            out.extend(items.iter().filter_map(Value::as_str).map(str::to_string))
                        }
                        _ => {}
                    }
                }
                collect(child, keys, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect(i, keys, out)),
        _ => {}
    }
}

/// The absolute paths in an origin such as `reprise run, /home/alice/…/runs/x`.
pub(super) fn absolute_paths(origin: &str) -> Vec<PathBuf> {
    origin
        .split(", ")
        .map(str::trim)
        .filter(|p| Path::new(p).is_absolute())
        .map(PathBuf::from)
        .collect()
}

/// Names every machine has for itself: nothing to hide.
pub(super) fn is_loopback_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.is_empty()
        || name == "localhost"
        || name == "localdomain"
        || name.starts_with("localhost.")
        || name.starts_with("ip6-")
        || name == "(none)"
}

/// Whether `c` may continue a path segment (so `/home/alice` followed by it
/// is another folder, `/home/alice2`).
pub(super) fn continues_segment(c: char) -> bool {
    !(c == '/' || c.is_whitespace() || c.is_control() || "\\\"'`<>:;,()[]{}|*?=&#!".contains(c))
}

/// The account database (`getpwuid_r`/`getpwnam_r`: local files, LDAP and
/// macOS directory services alike).
#[cfg(unix)]
mod passwd {
    use std::ffi::{CStr, CString, c_char, c_int};

    pub struct Account {
        pub uid: u32,
        pub name: String,
        pub home: String,
    }

    type Lookup<'a> =
        dyn Fn(*mut libc::passwd, *mut c_char, usize, *mut *mut libc::passwd) -> c_int + 'a;

    fn read(lookup: &Lookup) -> Option<Account> {
        let mut buf = vec![0 as c_char; 16 * 1024];
        // SAFETY: `passwd` is plain data; the call fills it, pointing into `buf`.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found = std::ptr::null_mut();
        if lookup(&mut entry, buf.as_mut_ptr(), buf.len(), &mut found) != 0 || found.is_null() {
            return None;
        }
        let text = |p: *const c_char| {
            // SAFETY: non-null fields are NUL-terminated strings in `buf`.
            (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        };
        Some(Account {
            uid: entry.pw_uid,
            name: text(entry.pw_name)?,
            home: text(entry.pw_dir).unwrap_or_default(),
        })
    }

    pub fn by_uid(uid: u32) -> Option<Account> {
        // SAFETY: every pointer is valid for the call; `buf` outlives it.
        read(&|e, b, l, f| unsafe { libc::getpwuid_r(uid, e, b, l, f) })
    }

    pub fn by_name(name: &str) -> Option<Account> {
        let name = CString::new(name).ok()?;
        // SAFETY: as above; `name` is NUL-terminated and outlives the call.
        read(&|e, b, l, f| unsafe { libc::getpwnam_r(name.as_ptr(), e, b, l, f) })
    }

    #[cfg(test)]
    #[test]
    fn root_is_found_by_id_and_by_name() {
        let root = by_uid(0).expect("uid 0 has an entry");
        assert_eq!(root.name, "root");
        assert_eq!(by_name("root").map(|a| a.uid), Some(0));
        assert!(by_name("no-such-user-reprise").is_none());
    }
}
