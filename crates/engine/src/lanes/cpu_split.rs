//! The CPUs the lanes' servers and the load generator get. On one machine
//! the first half of this process's CPUs go to the servers and the rest to
//! the client (with one CPU both run anywhere), or, where the recipe says
//! the post's run shared them (`cpu_placement = "shared"`, as the posts'
//! harness runs its HTTP lanes and wrk unpinned), both run on every CPU;
//! with the lanes on a server host the servers have a machine of their own
//! and the client every CPU here.
//! [`crate::lanes::placement::LaneHost::cpu_split`] says which.

use reprise_recipe::CpuPlacement;

/// Which CPUs the servers and the load generator run on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuSplit {
    pub servers: Option<Vec<usize>>,
    pub clients: Option<Vec<usize>>,
    /// The servers run on the server host, not on this machine.
    pub remote: bool,
    /// Servers and client share every CPU, as the post's run did.
    pub shared: bool,
}

impl CpuSplit {
    /// Servers and client on this machine's allowed CPUs: halved, or
    /// shared where the post's run shared them.
    pub fn here(placement: CpuPlacement) -> CpuSplit {
        let cpus = reprise_cpus::allowed_cpus();
        if placement == CpuPlacement::Shared {
            return CpuSplit {
                servers: None,
                clients: None,
                remote: false,
                shared: true,
            };
        }
        if cpus.len() < 2 {
            return CpuSplit {
                servers: None,
                clients: None,
                remote: false,
                shared: false,
            };
        }
        let half = cpus.len() / 2;
        CpuSplit {
            servers: Some(cpus[..half].to_vec()),
            clients: Some(cpus[half..].to_vec()),
            remote: false,
            shared: false,
        }
    }

    /// The servers elsewhere; the client on every CPU this process may use.
    pub fn remote() -> CpuSplit {
        CpuSplit {
            servers: None,
            clients: Some(reprise_cpus::allowed_cpus()).filter(|c| !c.is_empty()),
            remote: true,
            shared: false,
        }
    }

    /// `servers on CPU 0, load generator on CPU 1`; `servers on CPUs 0-5,
    /// load generator on CPUs 6-11`.
    pub fn describe(&self, client: &str) -> String {
        if self.remote {
            return format!("servers on the server host, {client} on this machine's CPUs");
        }
        if self.shared {
            return format!(
                "servers and {client} sharing every CPU, unpinned, as the post's run shared them"
            );
        }
        match (&self.servers, &self.clients) {
            (Some(servers), Some(clients)) => format!(
                "servers on {}, {client} on {}",
                cpu_words(servers),
                cpu_words(clients)
            ),
            _ => format!("servers and {client} on any CPU (one CPU: no split)"),
        }
    }
}

/// `CPU 0`, `CPUs 0-5`, `CPUs 0,2,4`: the kernel's list form.
pub fn cpu_words(cpus: &[usize]) -> String {
    let list: Vec<u32> = cpus.iter().map(|&c| c as u32).collect();
    format!(
        "CPU{} {}",
        if cpus.len() == 1 { "" } else { "s" },
        reprise_probe::format_cpu_list(&list)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_split_is_said_in_words_not_debug_form() {
        let split = CpuSplit {
            servers: Some(vec![0]),
            clients: Some(vec![1]),
            remote: false,
            shared: false,
        };
        assert_eq!(
            split.describe("load generator"),
            "servers on CPU 0, load generator on CPU 1"
        );
        let wide = CpuSplit {
            servers: Some((0..6).collect()),
            clients: Some(vec![6, 8, 10]),
            remote: false,
            shared: false,
        };
        assert_eq!(
            wide.describe("people generator"),
            "servers on CPUs 0-5, people generator on CPUs 6,8,10"
        );
        let one = CpuSplit {
            servers: None,
            clients: None,
            remote: false,
            shared: false,
        };
        let said = one.describe("load generator");
        assert_eq!(
            said,
            "servers and load generator on any CPU (one CPU: no split)"
        );
        assert!(!said.contains("Some(") && !said.contains("None"));
        let two_machines = CpuSplit {
            servers: None,
            clients: None,
            remote: true,
            shared: false,
        };
        assert_eq!(
            two_machines.describe("load generator"),
            "servers on the server host, load generator on this machine's CPUs"
        );
        let shared = CpuSplit::here(CpuPlacement::Shared);
        assert_eq!((shared.servers, shared.clients), (None, None));
        assert_eq!(
            CpuSplit::here(CpuPlacement::Shared).describe("load generator"),
            "servers and load generator sharing every CPU, unpinned, as the post's run shared them"
        );
    }
}
