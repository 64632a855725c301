// Made by crates/session/tests/ui_fixtures.rs from the session's views of
// one reader's scenario: do not edit. `REPRISE_UPDATE_FIXTURES=1 cargo
// test -p reprise-session --test ui_fixtures` writes it anew.
import type { Community } from '../bindings/Community';
import type { Library } from '../bindings/Library';
import type { PostView } from '../bindings/PostView';
import type { Preflight } from '../bindings/Preflight';
import type { ResultsView } from '../bindings/ResultsView';
import type { RunPlan } from '../bindings/RunPlan';
import type { SetupPlan } from '../bindings/SetupPlan';
import type { SharePreview } from '../bindings/SharePreview';
import type { ThisMachine } from '../bindings/ThisMachine';
import type { Validation } from '../bindings/Validation';

/** The reader's desktop, as the Machine page shows it. */
export const machine: ThisMachine = {
  "facts": [
    {
      "name": "clock.boost",
      "value": "false"
    },
    {
      "name": "clock.boost_control",
      "value": "cpufreq_boost"
    },
    {
      "name": "clock.cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.driver",
      "value": "acpi-cpufreq"
    },
    {
      "name": "clock.governor",
      "value": "performance"
    },
    {
      "name": "clock.governors_agree",
      "value": "true"
    },
    {
      "name": "clock.max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[0].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[0].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[0].cpus",
      "value": "0"
    },
    {
      "name": "clock.policies[0].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[0].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[0].name",
      "value": "policy0"
    },
    {
      "name": "clock.policies[0].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[0].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[1].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[1].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[1].cpus",
      "value": "1"
    },
    {
      "name": "clock.policies[1].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[1].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[1].name",
      "value": "policy1"
    },
    {
      "name": "clock.policies[1].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[1].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[2].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[2].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[2].cpus",
      "value": "2"
    },
    {
      "name": "clock.policies[2].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[2].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[2].name",
      "value": "policy2"
    },
    {
      "name": "clock.policies[2].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[2].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[3].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[3].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[3].cpus",
      "value": "3"
    },
    {
      "name": "clock.policies[3].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[3].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[3].name",
      "value": "policy3"
    },
    {
      "name": "clock.policies[3].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[3].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[4].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[4].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[4].cpus",
      "value": "4"
    },
    {
      "name": "clock.policies[4].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[4].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[4].name",
      "value": "policy4"
    },
    {
      "name": "clock.policies[4].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[4].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[5].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[5].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[5].cpus",
      "value": "5"
    },
    {
      "name": "clock.policies[5].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[5].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[5].name",
      "value": "policy5"
    },
    {
      "name": "clock.policies[5].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[5].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[6].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[6].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[6].cpus",
      "value": "6"
    },
    {
      "name": "clock.policies[6].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[6].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[6].name",
      "value": "policy6"
    },
    {
      "name": "clock.policies[6].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[6].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[7].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[7].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[7].cpus",
      "value": "7"
    },
    {
      "name": "clock.policies[7].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[7].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[7].name",
      "value": "policy7"
    },
    {
      "name": "clock.policies[7].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[7].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[8].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[8].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[8].cpus",
      "value": "8"
    },
    {
      "name": "clock.policies[8].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[8].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[8].name",
      "value": "policy8"
    },
    {
      "name": "clock.policies[8].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[8].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[9].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[9].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[9].cpus",
      "value": "9"
    },
    {
      "name": "clock.policies[9].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[9].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[9].name",
      "value": "policy9"
    },
    {
      "name": "clock.policies[9].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[9].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[10].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[10].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[10].cpus",
      "value": "10"
    },
    {
      "name": "clock.policies[10].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[10].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[10].name",
      "value": "policy10"
    },
    {
      "name": "clock.policies[10].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[10].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[11].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[11].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[11].cpus",
      "value": "11"
    },
    {
      "name": "clock.policies[11].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[11].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[11].name",
      "value": "policy11"
    },
    {
      "name": "clock.policies[11].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[11].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[12].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[12].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[12].cpus",
      "value": "12"
    },
    {
      "name": "clock.policies[12].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[12].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[12].name",
      "value": "policy12"
    },
    {
      "name": "clock.policies[12].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[12].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[13].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[13].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[13].cpus",
      "value": "13"
    },
    {
      "name": "clock.policies[13].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[13].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[13].name",
      "value": "policy13"
    },
    {
      "name": "clock.policies[13].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[13].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[14].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[14].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[14].cpus",
      "value": "14"
    },
    {
      "name": "clock.policies[14].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[14].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[14].name",
      "value": "policy14"
    },
    {
      "name": "clock.policies[14].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[14].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[15].cpuinfo_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[15].cpuinfo_min_khz",
      "value": "2200000"
    },
    {
      "name": "clock.policies[15].cpus",
      "value": "15"
    },
    {
      "name": "clock.policies[15].cur_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[15].governor",
      "value": "performance"
    },
    {
      "name": "clock.policies[15].name",
      "value": "policy15"
    },
    {
      "name": "clock.policies[15].scaling_max_khz",
      "value": "3800000"
    },
    {
      "name": "clock.policies[15].scaling_min_khz",
      "value": "2200000"
    },
    {
      "name": "container_engine.host",
      "value": "unix:///var/run/docker.sock"
    },
    {
      "name": "container_engine.name",
      "value": "Docker Engine - Community"
    },
    {
      "name": "container_engine.version",
      "value": "27.3.1"
    },
    {
      "name": "cpu.brand",
      "value": "AMD Ryzen 7 5800X 8-Core Processor"
    },
    {
      "name": "cpu.cpuinfo_khz",
      "value": "3800000"
    },
    {
      "name": "cpu.family",
      "value": "25"
    },
    {
      "name": "cpu.hypervisor_flag",
      "value": "false"
    },
    {
      "name": "cpu.logical_threads",
      "value": "16"
    },
    {
      "name": "cpu.model",
      "value": "33"
    },
    {
      "name": "cpu.online",
      "value": "0-15"
    },
    {
      "name": "cpu.physical_cores",
      "value": "8"
    },
    {
      "name": "cpu.smt_active",
      "value": "true"
    },
    {
      "name": "cpu.smt_control",
      "value": "on"
    },
    {
      "name": "cpu.sockets",
      "value": "1"
    },
    {
      "name": "cpu.stepping",
      "value": "0"
    },
    {
      "name": "cpu.vendor",
      "value": "AuthenticAMD"
    },
    {
      "name": "cpu_access.affinity",
      "value": "0-15"
    },
    {
      "name": "cpu_access.usable_cpus",
      "value": "16.0"
    },
    {
      "name": "load.loadavg",
      "value": "0.08, 0.05, 0.01"
    },
    {
      "name": "load.steal_percent",
      "value": "0.0"
    },
    {
      "name": "load.uptime_secs",
      "value": "86400.5"
    },
    {
      "name": "memory.available_kib",
      "value": "28000000"
    },
    {
      "name": "memory.swap_free_kib",
      "value": "0"
    },
    {
      "name": "memory.swap_total_kib",
      "value": "0"
    },
    {
      "name": "memory.total_kib",
      "value": "32768000"
    },
    {
      "name": "memory.transparent_hugepages",
      "value": "madvise"
    },
    {
      "name": "os.arch",
      "value": "x86_64"
    },
    {
      "name": "os.hostname",
      "value": "desk-seven"
    },
    {
      "name": "os.id",
      "value": "debian"
    },
    {
      "name": "os.kernel",
      "value": "6.1.0-27-amd64"
    },
    {
      "name": "os.kernel_build",
      "value": "#1 SMP PREEMPT_DYNAMIC"
    },
    {
      "name": "os.kernel_name",
      "value": "Linux"
    },
    {
      "name": "os.pretty_name",
      "value": "Debian GNU/Linux 12 (bookworm)"
    },
    {
      "name": "os.version_id",
      "value": "12"
    },
    {
      "name": "virtualization.dmi_product",
      "value": "System Product Name"
    },
    {
      "name": "virtualization.dmi_vendor",
      "value": "ASUS"
    },
    {
      "name": "virtualization.hypervisor_flag",
      "value": "false"
    },
    {
      "name": "virtualization.virtual_machine",
      "value": "false"
    }
  ],
  "summary": [
    {
      "name": "CPU",
      "value": "AMD Ryzen 7 5800X 8-Core Processor (AuthenticAMD, family 25 model 33)"
    },
    {
      "name": "Cores",
      "value": "8 cores, 16 threads, 1 socket, SMT on"
    },
    {
      "name": "Frequency",
      "value": "2.20 GHz–3.80 GHz, now 3.80 GHz"
    },
    {
      "name": "Governor",
      "value": "performance (all 16 policies)"
    },
    {
      "name": "Boost",
      "value": "off (/sys/devices/system/cpu/cpufreq/boost)"
    },
    {
      "name": "Memory",
      "value": "31.2 GiB, 26.7 GiB available, swap 0.0 GiB"
    },
    {
      "name": "Huge pages",
      "value": "madvise"
    },
    {
      "name": "Kernel",
      "value": "Linux 6.1.0-27-amd64"
    },
    {
      "name": "OS",
      "value": "Debian GNU/Linux 12 (bookworm)"
    },
    {
      "name": "Host",
      "value": "desk-seven (x86_64)"
    },
    {
      "name": "Virtualisation",
      "value": "none (bare metal)"
    },
    {
      "name": "Usable CPUs",
      "value": "16 (affinity 0-15)"
    },
    {
      "name": "Conditions",
      "value": "load 0.08 0.05 0.01, steal 0.0%"
    },
    {
      "name": "Containers",
      "value": "Docker Engine - Community 27.3.1 (API —, — CPUs) at unix:///var/run/docker.sock"
    }
  ]
};

/** hello-ceiling's preflight on the desktop, its versions not asked yet. */
export const preflight: Preflight = {
  "absolute_comparable": false,
  "blocked_lanes": [
    "falcon"
  ],
  "claims": {
    "judged": [],
    "not_judged": [
      {
        "claims": [
          "puma-ceiling"
        ],
        "fix": null,
        "why": "an absolute figure is judged only on a machine like the post's, and this one differs"
      },
      {
        "claims": [
          "falcon-ceiling",
          "falcon-twice-puma",
          "falcon-above-puma"
        ],
        "fix": "gem install falcon",
        "why": "lane falcon cannot run here: it needs falcon, which this machine lacks"
      }
    ],
    "summary": "none of its 4 claims",
    "total": 4
  },
  "items": [
    {
      "fix": null,
      "here": "AMD Ryzen 7 5800X 8-Core Processor",
      "name": "CPU",
      "reference": "AMD Ryzen 5 3600 6-Core Processor",
      "subject": "cpu",
      "verdict": "differs",
      "why": "The post's figures were measured on the AMD Ryzen 5 3600 6-Core Processor; on another CPU absolute numbers move, while ratios between lanes measured here still compare."
    },
    {
      "fix": null,
      "here": "8 cores / 16 threads",
      "name": "cores/threads",
      "reference": "6 cores / 12 threads",
      "subject": "cores",
      "verdict": "differs",
      "why": "Worker and thread counts were sized to the post's CPUs; with fewer, every multi-process or multi-threaded lane is capped, with more the same counts leave cores idle."
    },
    {
      "fix": null,
      "here": "on",
      "name": "SMT",
      "reference": "on",
      "subject": "smt",
      "verdict": "matches",
      "why": "Two hardware threads share one core's execution units; with SMT in another state the same thread counts run on different hardware."
    },
    {
      "fix": null,
      "here": "3.8 GHz",
      "name": "frequency",
      "reference": "3.6 GHz",
      "subject": "frequency",
      "verdict": "differs",
      "why": "Throughput of a CPU-bound server scales with its clock; the post's numbers are at its clock."
    },
    {
      "fix": null,
      "here": "performance",
      "name": "governor",
      "reference": "performance",
      "subject": "governor",
      "verdict": "matches",
      "why": "The post pinned the governor to performance; another governor lets the clock drop between requests and changes absolute numbers."
    },
    {
      "fix": null,
      "here": "off",
      "name": "boost",
      "reference": "off",
      "subject": "boost",
      "verdict": "matches",
      "why": "The post ran with boost off; boost raises the clock above base for as long as the chip stays cool, so absolute numbers change with it."
    },
    {
      "fix": null,
      "here": "31 GB",
      "name": "memory",
      "reference": "63 GB",
      "subject": "memory",
      "verdict": "differs",
      "why": "Heaps and worker counts were sized for the post's memory; with less, a lane may swap or be killed, and its memory figures are not the post's."
    },
    {
      "fix": null,
      "here": "none",
      "name": "virtualisation",
      "reference": "none",
      "subject": "virtualization",
      "verdict": "matches",
      "why": "The post measured bare metal; under a hypervisor the host takes CPU time (steal) and neighbours share caches, so absolute numbers move from run to run."
    },
    {
      "fix": null,
      "here": "version not asked (/usr/bin/ruby)",
      "name": "toolchain ruby",
      "reference": "ruby *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The post does not say which Ruby ran the hello-world app; any Ruby that runs Puma will do."
    },
    {
      "fix": null,
      "here": "version not asked (/usr/bin/puma)",
      "name": "toolchain puma",
      "reference": "puma *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The server whose ceiling is measured."
    },
    {
      "fix": "gem install falcon",
      "here": "not found",
      "name": "toolchain falcon",
      "reference": "falcon *",
      "subject": "toolchain",
      "verdict": "blocks",
      "why": "The fiber server the post moved the emitted app to."
    },
    {
      "fix": null,
      "here": "version not asked (/usr/bin/nginx)",
      "name": "toolchain nginx",
      "reference": "nginx *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "A reference lane of this recipe's own (not in the post): a C server on the same machine, so the reader can see how much of a Ruby server's ceiling is the machine."
    },
    {
      "fix": null,
      "here": "ruby: version not asked (/usr/bin/ruby); puma: version not asked (/usr/bin/puma)",
      "name": "lane puma",
      "reference": "ruby *, puma *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    },
    {
      "fix": "gem install falcon",
      "here": "ruby: version not asked (/usr/bin/ruby); falcon: not found",
      "name": "lane falcon",
      "reference": "ruby *, falcon *",
      "subject": "lane",
      "verdict": "blocks",
      "why": "Cannot run: it needs falcon, which this machine lacks."
    },
    {
      "fix": null,
      "here": "nginx: version not asked (/usr/bin/nginx)",
      "name": "lane nginx",
      "reference": "nginx *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    }
  ],
  "published_only_lanes": [],
  "recipe": "hello-ceiling",
  "runnable_lanes": [
    "puma",
    "nginx"
  ],
  "version_commands": [
    "ruby --version",
    "puma --version",
    "falcon --version",
    "nginx -v"
  ],
  "versions_asked": false
};

/** hello-ceiling's preflight on the desktop with its boost on. */
export const preflightBoostOn: Preflight = {
  "absolute_comparable": false,
  "blocked_lanes": [
    "falcon"
  ],
  "claims": {
    "judged": [],
    "not_judged": [
      {
        "claims": [
          "puma-ceiling"
        ],
        "fix": null,
        "why": "an absolute figure is judged only on a machine like the post's, and this one differs"
      },
      {
        "claims": [
          "falcon-ceiling",
          "falcon-twice-puma",
          "falcon-above-puma"
        ],
        "fix": "gem install falcon",
        "why": "lane falcon cannot run here: it needs falcon, which this machine lacks"
      }
    ],
    "summary": "none of its 4 claims",
    "total": 4
  },
  "items": [
    {
      "fix": null,
      "here": "AMD Ryzen 7 5800X 8-Core Processor",
      "name": "CPU",
      "reference": "AMD Ryzen 5 3600 6-Core Processor",
      "subject": "cpu",
      "verdict": "differs",
      "why": "The post's figures were measured on the AMD Ryzen 5 3600 6-Core Processor; on another CPU absolute numbers move, while ratios between lanes measured here still compare."
    },
    {
      "fix": null,
      "here": "8 cores / 16 threads",
      "name": "cores/threads",
      "reference": "6 cores / 12 threads",
      "subject": "cores",
      "verdict": "differs",
      "why": "Worker and thread counts were sized to the post's CPUs; with fewer, every multi-process or multi-threaded lane is capped, with more the same counts leave cores idle."
    },
    {
      "fix": null,
      "here": "on",
      "name": "SMT",
      "reference": "on",
      "subject": "smt",
      "verdict": "matches",
      "why": "Two hardware threads share one core's execution units; with SMT in another state the same thread counts run on different hardware."
    },
    {
      "fix": null,
      "here": "3.8 GHz",
      "name": "frequency",
      "reference": "3.6 GHz",
      "subject": "frequency",
      "verdict": "differs",
      "why": "Throughput of a CPU-bound server scales with its clock; the post's numbers are at its clock."
    },
    {
      "fix": null,
      "here": "performance",
      "name": "governor",
      "reference": "performance",
      "subject": "governor",
      "verdict": "matches",
      "why": "The post pinned the governor to performance; another governor lets the clock drop between requests and changes absolute numbers."
    },
    {
      "fix": "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost",
      "here": "on",
      "name": "boost",
      "reference": "off",
      "subject": "boost",
      "verdict": "differs",
      "why": "The post ran with boost off; boost raises the clock above base for as long as the chip stays cool, so absolute numbers change with it."
    },
    {
      "fix": null,
      "here": "31 GB",
      "name": "memory",
      "reference": "63 GB",
      "subject": "memory",
      "verdict": "differs",
      "why": "Heaps and worker counts were sized for the post's memory; with less, a lane may swap or be killed, and its memory figures are not the post's."
    },
    {
      "fix": null,
      "here": "none",
      "name": "virtualisation",
      "reference": "none",
      "subject": "virtualization",
      "verdict": "matches",
      "why": "The post measured bare metal; under a hypervisor the host takes CPU time (steal) and neighbours share caches, so absolute numbers move from run to run."
    },
    {
      "fix": null,
      "here": "version not asked (/usr/bin/ruby)",
      "name": "toolchain ruby",
      "reference": "ruby *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The post does not say which Ruby ran the hello-world app; any Ruby that runs Puma will do."
    },
    {
      "fix": null,
      "here": "version not asked (/usr/bin/puma)",
      "name": "toolchain puma",
      "reference": "puma *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The server whose ceiling is measured."
    },
    {
      "fix": "gem install falcon",
      "here": "not found",
      "name": "toolchain falcon",
      "reference": "falcon *",
      "subject": "toolchain",
      "verdict": "blocks",
      "why": "The fiber server the post moved the emitted app to."
    },
    {
      "fix": null,
      "here": "version not asked (/usr/bin/nginx)",
      "name": "toolchain nginx",
      "reference": "nginx *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "A reference lane of this recipe's own (not in the post): a C server on the same machine, so the reader can see how much of a Ruby server's ceiling is the machine."
    },
    {
      "fix": null,
      "here": "ruby: version not asked (/usr/bin/ruby); puma: version not asked (/usr/bin/puma)",
      "name": "lane puma",
      "reference": "ruby *, puma *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    },
    {
      "fix": "gem install falcon",
      "here": "ruby: version not asked (/usr/bin/ruby); falcon: not found",
      "name": "lane falcon",
      "reference": "ruby *, falcon *",
      "subject": "lane",
      "verdict": "blocks",
      "why": "Cannot run: it needs falcon, which this machine lacks."
    },
    {
      "fix": null,
      "here": "nginx: version not asked (/usr/bin/nginx)",
      "name": "lane nginx",
      "reference": "nginx *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    }
  ],
  "published_only_lanes": [],
  "recipe": "hello-ceiling",
  "runnable_lanes": [
    "puma",
    "nginx"
  ],
  "version_commands": [
    "ruby --version",
    "puma --version",
    "falcon --version",
    "nginx -v"
  ],
  "versions_asked": false
};

/** hello-ceiling's post. */
export const post: PostView = {
  "checksum": {
    "status": "matches"
  },
  "claims": [
    {
      "claim": {
        "ceiling": true,
        "figure": "puma-hello",
        "id": "puma-ceiling",
        "kind": "absolute",
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second",
        "tolerance": 0.15
      },
      "figures": [
        "puma-hello"
      ],
      "statement": "puma-hello holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "falcon-hello",
        "id": "falcon-ceiling",
        "kind": "absolute",
        "quote": "under Falcon, 106,000.",
        "tolerance": 0.15
      },
      "figures": [
        "falcon-hello"
      ],
      "statement": "falcon-hello holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "puma-hello",
        "id": "falcon-twice-puma",
        "kind": "ratio",
        "numerator": "falcon-hello",
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
        "tolerance": 0.15,
        "value": 1.96
      },
      "figures": [
        "falcon-hello",
        "puma-hello"
      ],
      "statement": "falcon-hello / puma-hello = 1.96× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "falcon-above-puma",
        "kind": "ordering",
        "order": [
          "falcon-hello",
          "puma-hello"
        ],
        "quote": "under Falcon, 106,000.",
        "tolerance": null
      },
      "figures": [
        "falcon-hello",
        "puma-hello"
      ],
      "statement": "best first: falcon-hello, puma-hello",
      "tolerance": null
    }
  ],
  "figures": [
    {
      "figure": {
        "approx": true,
        "condition": null,
        "endpoint": "/",
        "id": "puma-hello",
        "lane": "puma",
        "metric": "req_per_s",
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
        "range": null,
        "unknown": null,
        "value": 54000.0
      },
      "published": "≈ 54,000 req/s"
    },
    {
      "figure": {
        "approx": true,
        "condition": null,
        "endpoint": "/",
        "id": "falcon-hello",
        "lane": "falcon",
        "metric": "req_per_s",
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
        "range": null,
        "unknown": null,
        "value": 106000.0
      },
      "published": "≈ 106,000 req/s"
    }
  ],
  "lanes": [
    {
      "here": {
        "state": "runs"
      },
      "lane": {
        "allocator": null,
        "boot_budget": "30s",
        "command": [
          "puma",
          "--bind",
          "tcp://{host}:9292",
          "--workers",
          "2",
          "--threads",
          "4:4",
          "--environment",
          "production",
          "config.ru"
        ],
        "dir": "files/hello",
        "env": {},
        "harness": null,
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "puma",
        "needs": [
          "puma"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 9292,
        "runtime": "ruby",
        "server": "puma",
        "services": [],
        "threads": 4,
        "warmup": "5s",
        "why": "A hello-world app under Puma: the ceiling the cached Campfire routes were already near.",
        "workers": 2
      }
    },
    {
      "here": {
        "fix": "gem install falcon",
        "state": "blocked",
        "why": "Cannot run: it needs falcon, which this machine lacks."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "30s",
        "command": [
          "falcon",
          "serve",
          "--bind",
          "http://{host}:9294",
          "--count",
          "2",
          "--config",
          "config.ru"
        ],
        "dir": "files/hello",
        "env": {},
        "harness": null,
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "falcon",
        "needs": [
          "falcon"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 9294,
        "runtime": "ruby",
        "server": "falcon",
        "services": [],
        "threads": null,
        "warmup": "5s",
        "why": "The same app under Falcon, the fiber server the post moved the emitted app to.",
        "workers": 2
      }
    },
    {
      "here": {
        "state": "runs"
      },
      "lane": {
        "allocator": null,
        "boot_budget": "10s",
        "command": [
          "nginx",
          "-p",
          ".",
          "-c",
          "nginx.conf",
          "-g",
          "daemon off;"
        ],
        "dir": "files/hello",
        "env": {},
        "harness": null,
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "nginx",
        "needs": [
          "nginx"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 9293,
        "runtime": null,
        "server": "nginx",
        "services": [],
        "threads": null,
        "warmup": "2s",
        "why": "Not in the post: a reference server of this recipe's own, to read the Ruby servers' ceilings against this machine's.",
        "workers": 1
      }
    }
  ],
  "machine": {
    "base_mhz": 3600,
    "boost": false,
    "cores": 6,
    "cpu": "AMD Ryzen 5 3600 6-Core Processor",
    "cpu_placement": "split",
    "governor": "performance",
    "kernel": null,
    "memory_gb": 63,
    "os": "Ubuntu 24.04.5 LTS",
    "quote": "AMD Ryzen 5 3600 6-Core Processor, 6c/12t, 3.6 GHz, boost disabled, governor=performance, 63 GB RAM, Ubuntu 24.04.5 LTS.",
    "smt": true,
    "threads": 12,
    "virtualization": "none"
  },
  "post": {
    "author": "Sam Ruby",
    "date": "2026-10",
    "id": "hello-ceiling",
    "run": "the October 16 run",
    "summary": "Before reading a cached route's throughput, the post measures what the app server alone can do: a hello-world app under Puma serves about 54,000 requests a second on the benchmark box, under Falcon 106,000. Cached Campfire responses were already near Puma's ceiling, which is why moving them to Falcon, and then answering cache hits ahead of Falcon's Rack adapter, paid off.",
    "title": "Campfire under Falcon: the hello-world ceilings",
    "unknowns": [
      "The post gives no Puma or Falcon version, worker count or thread count for the hello-world runs; this recipe runs two Puma workers of four threads, with the Puma the machine has.",
      "The post's hello-world app is not published; this recipe's app returns a constant 13-byte body, as the load-generator baselines do.",
      "The post's date is given only as the October 16 run; the day of publication is not stated."
    ],
    "url": null
  },
  "steps": [
    {
      "after": [],
      "command": null,
      "id": "serve",
      "kind": "serve",
      "lanes": [],
      "why": "Boot each lane and wait until it answers, recording how long that took; a lane that cannot boot is skipped with its reason."
    },
    {
      "after": [
        "serve"
      ],
      "command": null,
      "id": "check",
      "kind": "check",
      "lanes": [],
      "why": "One checked request per lane before measuring: every server must answer the same 13 bytes, or the numbers do not compare."
    },
    {
      "after": [
        "check"
      ],
      "command": null,
      "id": "measure",
      "kind": "load",
      "lanes": [],
      "why": "Three timed runs per lane after a warm-up, lanes alternating, server and client on separate CPUs where the machine allows."
    }
  ],
  "toolchains": [
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "ruby",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "ruby",
        "pattern": "ruby (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The post does not say which Ruby ran the hello-world app; any Ruby that runs Puma will do."
      }
    },
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "puma",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "puma",
        "pattern": "puma version (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The server whose ceiling is measured."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "falcon",
          "--version"
        ],
        "fix": null,
        "mise": "gem:falcon@latest",
        "name": "falcon",
        "pattern": "falcon (?:v)?(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The fiber server the post moved the emitted app to."
      }
    },
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "nginx",
          "-v"
        ],
        "fix": null,
        "mise": null,
        "name": "nginx",
        "pattern": "nginx/(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "A reference lane of this recipe's own (not in the post): a C server on the same machine, so the reader can see how much of a Ruby server's ceiling is the machine."
      }
    }
  ],
  "units": [
    {
      "metric": "req_per_s",
      "name": "throughput",
      "unit": "req/s"
    }
  ]
};

/** campfire-runtimes' post: figures with long notes, and a link to the post. */
export const runtimesPost: PostView = {
  "checksum": {
    "status": "matches"
  },
  "claims": [
    {
      "claim": {
        "ceiling": true,
        "denominator": "ruby-1p-rooms",
        "id": "jruby-3.6x-ruby-1p",
        "kind": "ratio",
        "numerator": "jruby-rooms",
        "quote": "So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands: 3.6× the one-worker CRuby shape",
        "tolerance": 0.15,
        "value": 3.6
      },
      "figures": [
        "jruby-rooms",
        "ruby-1p-rooms"
      ],
      "statement": "jruby-rooms / ruby-1p-rooms = 3.6× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rails-rooms",
        "id": "jruby-5.4x-rails",
        "kind": "ratio",
        "numerator": "jruby-rooms",
        "quote": "5.4× the deployed Rails row",
        "tolerance": 0.15,
        "value": 5.4
      },
      "figures": [
        "jruby-rooms",
        "rails-rooms"
      ],
      "statement": "jruby-rooms / rails-rooms = 5.4× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "ruby-rooms",
        "id": "jruby-0.72x-ruby",
        "kind": "ratio",
        "numerator": "jruby-rooms",
        "quote": "and 0.72× of the eight CRuby workers whose shape it can't have.",
        "tolerance": 0.15,
        "value": 0.72
      },
      "figures": [
        "jruby-rooms",
        "ruby-rooms"
      ],
      "statement": "jruby-rooms / ruby-rooms = 0.72× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "jruby-p50-below-rails",
        "kind": "ordering",
        "order": [
          "jruby-rooms-p50",
          "rails-rooms-p50"
        ],
        "quote": "at 8 ms median against Rails' 44",
        "tolerance": null
      },
      "figures": [
        "jruby-rooms-p50",
        "rails-rooms-p50"
      ],
      "statement": "best first: jruby-rooms-p50, rails-rooms-p50",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "jruby-ladder-12",
        "id": "jruby-12-threads-peak",
        "kind": "ratio",
        "numerator": "jruby-ladder-40",
        "quote": "its ladder peaked at one Puma thread per hardware thread (12 → 1,730 req/s; the 40 that Rails' worker formula implies costs 19%), so that is the shape it runs.",
        "tolerance": 0.1,
        "value": 0.81
      },
      "figures": [
        "jruby-ladder-40",
        "jruby-ladder-12"
      ],
      "statement": "jruby-ladder-40 / jruby-ladder-12 = 0.81× ±10%",
      "tolerance": "±10%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "jruby-memory-above-ruby",
        "kind": "ordering",
        "order": [
          "ruby-memory",
          "jruby-memory"
        ],
        "quote": "The price is memory — 1.6 GB against ~1 GB for the eight workers",
        "tolerance": null
      },
      "figures": [
        "ruby-memory",
        "jruby-memory"
      ],
      "statement": "best first: ruby-memory, jruby-memory",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "boot-spinel-ruby-jruby",
        "kind": "ordering",
        "order": [
          "spinel-boot-page",
          "ruby-boot-page",
          "jruby-boot-page"
        ],
        "quote": "and a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary.",
        "tolerance": null
      },
      "figures": [
        "spinel-boot-page",
        "ruby-boot-page",
        "jruby-boot-page"
      ],
      "statement": "best first: spinel-boot-page, ruby-boot-page, jruby-boot-page",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "jruby-heap-1g",
        "id": "jruby-heap-512m-costs-24pct",
        "kind": "ratio",
        "numerator": "jruby-heap-512m",
        "quote": "1 GB for the emit (512 MB holds it, at a 24% cost to garbage collection)",
        "tolerance": 0.1,
        "value": 0.76
      },
      "figures": [
        "jruby-heap-512m",
        "jruby-heap-1g"
      ],
      "statement": "jruby-heap-512m / jruby-heap-1g = 0.76× ±10%",
      "tolerance": "±10%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rails-rooms",
        "id": "ruby-7.4x-rails",
        "kind": "ratio",
        "numerator": "ruby-rooms",
        "quote": "The page's eight-worker ruby row — 2,366 req/s, 7.4× stock Rails in the same shape — has carried a caveat since it was first published",
        "tolerance": 0.15,
        "value": 7.4
      },
      "figures": [
        "ruby-rooms",
        "rails-rooms"
      ],
      "statement": "ruby-rooms / rails-rooms = 7.4× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "spinel-fastest",
        "kind": "ordering",
        "order": [
          "spinel-rooms",
          "ruby-rooms"
        ],
        "quote": "For the smallest and fastest: the Spinel binary, 2,570 req/s in 140 MB",
        "tolerance": null
      },
      "figures": [
        "spinel-rooms",
        "ruby-rooms"
      ],
      "statement": "best first: spinel-rooms, ruby-rooms",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "spinel-smallest",
        "kind": "ordering",
        "order": [
          "spinel-memory",
          "ruby-1p-memory"
        ],
        "quote": "For the smallest and fastest: the Spinel binary, 2,570 req/s in 140 MB",
        "tolerance": null
      },
      "figures": [
        "spinel-memory",
        "ruby-1p-memory"
      ],
      "statement": "best first: spinel-memory, ruby-1p-memory",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "req-per-gb-spinel-rails-truffleruby",
        "kind": "ordering",
        "order": [
          "spinel-per-gb",
          "rails-per-gb",
          "rails-truffleruby-per-gb"
        ],
        "quote": "41 requests per second per gigabyte, against 172 for the same Rails deployed on CRuby and 18,683 for the binary",
        "tolerance": null
      },
      "figures": [
        "spinel-per-gb",
        "rails-per-gb",
        "rails-truffleruby-per-gb"
      ],
      "statement": "best first: spinel-per-gb, rails-per-gb, rails-truffleruby-per-gb",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rails-1p-rooms",
        "id": "rails-truffleruby-1.8x-rooms",
        "kind": "ratio",
        "numerator": "rails-truffleruby-rooms",
        "quote": "On Campfire's room page it is worth 1.8×, and on the message list 1.18×.",
        "tolerance": 0.15,
        "value": 1.8
      },
      "figures": [
        "rails-truffleruby-rooms",
        "rails-1p-rooms"
      ],
      "statement": "rails-truffleruby-rooms / rails-1p-rooms = 1.8× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rails-1p-messages",
        "id": "rails-truffleruby-1.18x-messages",
        "kind": "ratio",
        "numerator": "rails-truffleruby-messages",
        "quote": "TruffleRuby is worth 1.18× to stock Rails (134 → 158)",
        "tolerance": 0.15,
        "value": 1.18
      },
      "figures": [
        "rails-truffleruby-messages",
        "rails-1p-messages"
      ],
      "statement": "rails-truffleruby-messages / rails-1p-messages = 1.18× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "ruby-1p-messages",
        "id": "truffleruby-0.82x-messages",
        "kind": "ratio",
        "numerator": "truffleruby-messages",
        "quote": "and, as shipped, 0.82× to the emit (985 → 803)",
        "tolerance": 0.15,
        "value": 0.82
      },
      "figures": [
        "truffleruby-messages",
        "ruby-1p-messages"
      ],
      "statement": "truffleruby-messages / ruby-1p-messages = 0.82× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "ruby-1p-rooms",
        "id": "truffleruby-0.9x-rooms",
        "kind": "ratio",
        "numerator": "truffleruby-rooms",
        "quote": "And where the blog's emit gained 1.8× from Graal, Campfire's emit loses: 0.9× on the room page, 0.82× on the messages.",
        "tolerance": 0.15,
        "value": 0.9
      },
      "figures": [
        "truffleruby-rooms",
        "ruby-1p-rooms"
      ],
      "statement": "truffleruby-rooms / ruby-1p-rooms = 0.9× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "ruby-1p-rooms",
        "id": "truffleruby-unlocked-2.3x-ruby-1p",
        "kind": "ratio",
        "numerator": "truffleruby-unlocked-rooms",
        "quote": "Unlocked, the emit on TruffleRuby is 2.3× CRuby's one-process shape, not 0.9× — the lock, not the runtime, was the loss.",
        "tolerance": 0.15,
        "value": 2.3
      },
      "figures": [
        "truffleruby-unlocked-rooms",
        "ruby-1p-rooms"
      ],
      "statement": "truffleruby-unlocked-rooms / ruby-1p-rooms = 2.3× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "truffleruby-rooms",
        "id": "cexts-lock-off-2.5x",
        "kind": "ratio",
        "numerator": "truffleruby-unlocked-rooms",
        "quote": "TruffleRuby documents the escape hatch for exactly this case, and on the room page it is worth two and a half times:",
        "tolerance": 0.15,
        "value": 2.5
      },
      "figures": [
        "truffleruby-unlocked-rooms",
        "truffleruby-rooms"
      ],
      "statement": "truffleruby-unlocked-rooms / truffleruby-rooms = 2.5× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rails-truffleruby-rooms",
        "id": "emit-3.6x-rails-on-truffleruby",
        "kind": "ratio",
        "numerator": "truffleruby-rooms",
        "quote": "The one thing that survives from the blog is that the emit is still well ahead of Rails on TruffleRuby, 3.6× — but the dividend that was 7.4× on CRuby has been halved",
        "tolerance": 0.15,
        "value": 3.6
      },
      "figures": [
        "truffleruby-rooms",
        "rails-truffleruby-rooms"
      ],
      "statement": "truffleruby-rooms / rails-truffleruby-rooms = 3.6× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "truffleruby-ladder-inverts",
        "kind": "ordering",
        "order": [
          "truffleruby-ladder-4",
          "truffleruby-ladder-12",
          "truffleruby-ladder-40"
        ],
        "quote": "TruffleRuby's own thread ladder went the other way — 4 threads, 458 req/s; 12, 384; 40, 293",
        "tolerance": null
      },
      "figures": [
        "truffleruby-ladder-4",
        "truffleruby-ladder-12",
        "truffleruby-ladder-40"
      ],
      "statement": "best first: truffleruby-ladder-4, truffleruby-ladder-12, truffleruby-ladder-40",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "rails-truffleruby-rooms",
        "id": "rails-truffleruby-spread",
        "kind": "spread",
        "quote": "its three timed runs went 91, 118, 119 req/s even after four minutes of warmup, an 11.7% spread the page flags in its own stability section, so read it as a floor.",
        "tolerance": 0.5,
        "value": 0.117
      },
      "figures": [
        "rails-truffleruby-rooms"
      ],
      "statement": "runs of rails-truffleruby-rooms spread 11.7% ±50%",
      "tolerance": "±50%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rails-truffleruby-flag-locked",
        "id": "rails-barely-notices-the-lock",
        "kind": "ratio",
        "numerator": "rails-truffleruby-flag-unlocked",
        "quote": "Stock Rails barely notices it — 89 req/s against 93 with the flag, inside that row's own 11.7% spread",
        "tolerance": 0.117,
        "value": 1.0
      },
      "figures": [
        "rails-truffleruby-flag-unlocked",
        "rails-truffleruby-flag-locked"
      ],
      "statement": "rails-truffleruby-flag-unlocked / rails-truffleruby-flag-locked = 1× ±11.7%",
      "tolerance": "±11.7%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "row-toll-truffleruby-above-cruby",
        "kind": "ordering",
        "order": [
          "rowstep-cruby-us",
          "rowstep-truffleruby-us"
        ],
        "quote": "The remaining open question is the per-call one the flag does not touch: 2.4 µs a row against CRuby's 0.83, single-threaded, warmed.",
        "tolerance": null
      },
      "figures": [
        "rowstep-cruby-us",
        "rowstep-truffleruby-us"
      ],
      "statement": "best first: rowstep-cruby-us, rowstep-truffleruby-us",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "rowstep-truffleruby-unlocked-us",
        "id": "lock-costs-3pct-single-threaded",
        "kind": "ratio",
        "numerator": "rowstep-truffleruby-locked-us",
        "quote": "Single-threaded the lock costs about 3% (2.44 µs a row against 2.36)",
        "tolerance": 0.05,
        "value": 1.03
      },
      "figures": [
        "rowstep-truffleruby-locked-us",
        "rowstep-truffleruby-unlocked-us"
      ],
      "statement": "rowstep-truffleruby-locked-us / rowstep-truffleruby-unlocked-us = 1.03× ±5%",
      "tolerance": "±5%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "blog-rails-html",
        "id": "blog-graal-rails-3.4x-html",
        "kind": "ratio",
        "numerator": "blog-rails-truffleruby-html",
        "quote": "On the blog TruffleRuby was the best runtime for stock Rails by a wide margin — 3.4× on HTML, 5.2× on JSON",
        "tolerance": 0.15,
        "value": 3.4
      },
      "figures": [
        "blog-rails-truffleruby-html",
        "blog-rails-html"
      ],
      "statement": "blog-rails-truffleruby-html / blog-rails-html = 3.4× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "blog-rails-json",
        "id": "blog-graal-rails-5.2x-json",
        "kind": "ratio",
        "numerator": "blog-rails-truffleruby-json",
        "quote": "On the blog TruffleRuby was the best runtime for stock Rails by a wide margin — 3.4× on HTML, 5.2× on JSON",
        "tolerance": 0.15,
        "value": 5.2
      },
      "figures": [
        "blog-rails-truffleruby-json",
        "blog-rails-json"
      ],
      "statement": "blog-rails-truffleruby-json / blog-rails-json = 5.2× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "blog-ruby-req",
        "id": "blog-graal-emit-1.8x",
        "kind": "ratio",
        "numerator": "blog-truffleruby-req",
        "quote": "Graal rewarded stock Rails 3.4× and the emit only 1.8×, because a runtime that specializes the interpreter to the program is already doing much of what a compiler that specializes the framework to the application does.",
        "tolerance": 0.15,
        "value": 1.8
      },
      "figures": [
        "blog-truffleruby-req",
        "blog-ruby-req"
      ],
      "statement": "blog-truffleruby-req / blog-ruby-req = 1.8× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "jruby-rooms",
        "id": "jruby-rooms-abs",
        "kind": "absolute",
        "quote": "So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands",
        "tolerance": 0.15
      },
      "figures": [
        "jruby-rooms"
      ],
      "statement": "jruby-rooms holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "ruby-rooms",
        "id": "ruby-rooms-abs",
        "kind": "absolute",
        "quote": "The page's eight-worker ruby row — 2,366 req/s",
        "tolerance": 0.15
      },
      "figures": [
        "ruby-rooms"
      ],
      "statement": "ruby-rooms holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "ruby-1p-rooms",
        "id": "ruby-1p-rooms-abs",
        "kind": "absolute",
        "quote": "CRuby+YJIT, one worker, 478 req/s in 232 MB",
        "tolerance": 0.15
      },
      "figures": [
        "ruby-1p-rooms"
      ],
      "statement": "ruby-1p-rooms holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "spinel-rooms",
        "id": "spinel-rooms-abs",
        "kind": "absolute",
        "quote": "the Spinel binary, 2,570 req/s in 140 MB",
        "tolerance": 0.15
      },
      "figures": [
        "spinel-rooms"
      ],
      "statement": "spinel-rooms holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "truffleruby-rooms",
        "id": "truffleruby-rooms-abs",
        "kind": "absolute",
        "quote": "432 req/s without it, 1,078 with.",
        "tolerance": 0.15
      },
      "figures": [
        "truffleruby-rooms"
      ],
      "statement": "truffleruby-rooms holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "truffleruby-unlocked-rooms",
        "id": "truffleruby-unlocked-rooms-abs",
        "kind": "absolute",
        "quote": "432 req/s without it, 1,078 with.",
        "tolerance": 0.15
      },
      "figures": [
        "truffleruby-unlocked-rooms"
      ],
      "statement": "truffleruby-unlocked-rooms holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "jruby-messages",
        "id": "jruby-messages-abs",
        "kind": "absolute",
        "quote": "JRuby's one process does 3,545.",
        "tolerance": 0.15
      },
      "figures": [
        "jruby-messages"
      ],
      "statement": "jruby-messages holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "ruby-1p-memory",
        "id": "ruby-1p-memory-abs",
        "kind": "absolute",
        "quote": "CRuby+YJIT, one worker, 478 req/s in 232 MB",
        "tolerance": 0.15
      },
      "figures": [
        "ruby-1p-memory"
      ],
      "statement": "ruby-1p-memory holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "rooms-tags",
        "id": "rooms-tags-abs",
        "kind": "absolute",
        "quote": "every lane renders the same 3,963 tags on the room page, which the page checks before it measures anything.",
        "tolerance": 0.0
      },
      "figures": [
        "rooms-tags"
      ],
      "statement": "rooms-tags holds ±0%",
      "tolerance": "±0%"
    }
  ],
  "figures": [
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "jruby-rooms",
        "lane": "jruby",
        "metric": "req_per_s",
        "quote": "So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands: 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row, at 8 ms median against Rails' 44, and 0.72× of the eight CRuby workers whose shape it can't have.",
        "range": null,
        "unknown": null,
        "value": 1712.0
      },
      "published": "1,712 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "jruby-rooms-p50",
        "lane": "jruby",
        "metric": "p50_ms",
        "quote": "So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands: 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row, at 8 ms median against Rails' 44, and 0.72× of the eight CRuby workers whose shape it can't have.",
        "range": null,
        "unknown": null,
        "value": 8.0
      },
      "published": "8 ms"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "rails-rooms",
        "lane": "rails",
        "metric": "req_per_s",
        "quote": "So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands: 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row, at 8 ms median against Rails' 44, and 0.72× of the eight CRuby workers whose shape it can't have.",
        "range": null,
        "unknown": "The deployed Rails row's req/s is in the post's table, which did not survive; the text gives it only through jruby's 5.4× and ruby's 7.4× (about 317–320 req/s).",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "rails-rooms-p50",
        "lane": "rails",
        "metric": "p50_ms",
        "quote": "So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands: 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row, at 8 ms median against Rails' 44, and 0.72× of the eight CRuby workers whose shape it can't have.",
        "range": null,
        "unknown": null,
        "value": 44.0
      },
      "published": "44 ms"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "ruby-rooms",
        "lane": "ruby",
        "metric": "req_per_s",
        "quote": "The page's eight-worker ruby row — 2,366 req/s, 7.4× stock Rails in the same shape — has carried a caveat since it was first published: it is a matched-shape runtime comparison, not a deployment claim.",
        "range": null,
        "unknown": null,
        "value": 2366.0
      },
      "published": "2,366 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "ruby-1p-rooms",
        "lane": "ruby-1p",
        "metric": "req_per_s",
        "quote": "For the emitted Campfire on a Ruby runtime you already have: CRuby+YJIT, one worker, 478 req/s in 232 MB, or the full eight in a gigabyte once the pubsub seam exists.",
        "range": null,
        "unknown": null,
        "value": 478.0
      },
      "published": "478 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "rails-1p-rooms",
        "lane": "rails-1p",
        "metric": "req_per_s",
        "quote": "On Campfire's room page it is worth 1.8×, and on the message list 1.18×.",
        "range": null,
        "unknown": "rails-1p's room-page req/s is in the post's table, which did not survive; the text gives it only through TruffleRuby's 1.8× on stock Rails.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "spinel-rooms",
        "lane": "spinel",
        "metric": "req_per_s",
        "quote": "For the smallest and fastest: the Spinel binary, 2,570 req/s in 140 MB, a third of a second to a rendered page, which is the row the page exists to publish.",
        "range": null,
        "unknown": null,
        "value": 2570.0
      },
      "published": "2,570 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "C-extension lock on (the default), 5 threads",
        "endpoint": "/rooms/1",
        "id": "truffleruby-rooms",
        "lane": "truffleruby",
        "metric": "req_per_s",
        "quote": "For the emitted Campfire on TruffleRuby, the flag above is not optional: 432 req/s without it, 1,078 with.",
        "range": null,
        "unknown": null,
        "value": 432.0
      },
      "published": "432 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "--cexts-lock=false, 5 threads",
        "endpoint": "/rooms/1",
        "id": "truffleruby-unlocked-rooms",
        "lane": "truffleruby-unlocked",
        "metric": "req_per_s",
        "quote": "For the emitted Campfire on TruffleRuby, the flag above is not optional: 432 req/s without it, 1,078 with.",
        "range": null,
        "unknown": null,
        "value": 1078.0
      },
      "published": "1,078 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the median of its three timed runs (91, 118, 119)",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-rooms",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "It is also the least settled row there: its three timed runs went 91, 118, 119 req/s even after four minutes of warmup, an 11.7% spread the page flags in its own stability section, so read it as a floor.",
        "range": null,
        "unknown": null,
        "value": 118.0
      },
      "published": "118 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "timed run 1 of 3, after 240 s of warm-up",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-rooms-run1",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "It is also the least settled row there: its three timed runs went 91, 118, 119 req/s even after four minutes of warmup, an 11.7% spread the page flags in its own stability section, so read it as a floor.",
        "range": null,
        "unknown": null,
        "value": 91.0
      },
      "published": "91 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "timed run 2 of 3",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-rooms-run2",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "It is also the least settled row there: its three timed runs went 91, 118, 119 req/s even after four minutes of warmup, an 11.7% spread the page flags in its own stability section, so read it as a floor.",
        "range": null,
        "unknown": null,
        "value": 118.0
      },
      "published": "118 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "timed run 3 of 3",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-rooms-run3",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "It is also the least settled row there: its three timed runs went 91, 118, 119 req/s even after four minutes of warmup, an 11.7% spread the page flags in its own stability section, so read it as a floor.",
        "range": null,
        "unknown": null,
        "value": 119.0
      },
      "published": "119 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "run-to-run spread of the three timed runs",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-rooms-spread",
        "lane": "rails-truffleruby",
        "metric": "percent",
        "quote": "It is also the least settled row there: its three timed runs went 91, 118, 119 req/s even after four minutes of warmup, an 11.7% spread the page flags in its own stability section, so read it as a floor.",
        "range": null,
        "unknown": null,
        "value": 11.7
      },
      "published": "11.7%"
    },
    {
      "figure": {
        "approx": false,
        "condition": "every lane renders the same count",
        "endpoint": "/rooms/1",
        "id": "rooms-tags",
        "lane": "rails",
        "metric": "tags",
        "quote": "Every request is signed in; every lane renders the same 3,963 tags on the room page, which the page checks before it measures anything.",
        "range": null,
        "unknown": null,
        "value": 3963.0
      },
      "published": "3,963 tags"
    },
    {
      "figure": {
        "approx": false,
        "condition": "thread ladder, 12 threads",
        "endpoint": "/rooms/1",
        "id": "jruby-ladder-12",
        "lane": "jruby",
        "metric": "req_per_s",
        "quote": "JRuby has the same constraint and runs one process too; its ladder peaked at one Puma thread per hardware thread (12 → 1,730 req/s; the 40 that Rails' worker formula implies costs 19%), so that is the shape it runs.",
        "range": null,
        "unknown": null,
        "value": 1730.0
      },
      "published": "1,730 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "thread ladder, 40 threads",
        "endpoint": "/rooms/1",
        "id": "jruby-ladder-40",
        "lane": "jruby-40t",
        "metric": "req_per_s",
        "quote": "JRuby has the same constraint and runs one process too; its ladder peaked at one Puma thread per hardware thread (12 → 1,730 req/s; the 40 that Rails' worker formula implies costs 19%), so that is the shape it runs.",
        "range": null,
        "unknown": "The post gives the 40-thread rung only as a 19% cost against the 12-thread peak.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "thread ladder, 4 threads, C-extension lock on",
        "endpoint": "/rooms/1",
        "id": "truffleruby-ladder-4",
        "lane": "truffleruby-4t",
        "metric": "req_per_s",
        "quote": "TruffleRuby's own thread ladder went the other way — 4 threads, 458 req/s; 12, 384; 40, 293 — and the first version of this post explained that wrongly, as a global interpreter lock.",
        "range": null,
        "unknown": null,
        "value": 458.0
      },
      "published": "458 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "thread ladder, 12 threads, C-extension lock on",
        "endpoint": "/rooms/1",
        "id": "truffleruby-ladder-12",
        "lane": "truffleruby-12t",
        "metric": "req_per_s",
        "quote": "TruffleRuby's own thread ladder went the other way — 4 threads, 458 req/s; 12, 384; 40, 293 — and the first version of this post explained that wrongly, as a global interpreter lock.",
        "range": null,
        "unknown": null,
        "value": 384.0
      },
      "published": "384 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "thread ladder, 40 threads, C-extension lock on",
        "endpoint": "/rooms/1",
        "id": "truffleruby-ladder-40",
        "lane": "truffleruby-40t",
        "metric": "req_per_s",
        "quote": "TruffleRuby's own thread ladder went the other way — 4 threads, 458 req/s; 12, 384; 40, 293 — and the first version of this post explained that wrongly, as a global interpreter lock.",
        "range": null,
        "unknown": null,
        "value": 293.0
      },
      "published": "293 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "1 GB heap (the heap experiment)",
        "endpoint": null,
        "id": "jruby-heap-1g",
        "lane": "jruby",
        "metric": "req_per_s",
        "quote": "Heaps are pinned, as the blog's are: 1 GB for the emit (512 MB holds it, at a 24% cost to garbage collection), 2 GB for stock Rails.",
        "range": null,
        "unknown": "The heap experiment's throughput is not given, only the 24% cost; the endpoint is not named.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "512 MB heap (the heap experiment)",
        "endpoint": null,
        "id": "jruby-heap-512m",
        "lane": "jruby-512m",
        "metric": "req_per_s",
        "quote": "Heaps are pinned, as the blog's are: 1 GB for the emit (512 MB holds it, at a 24% cost to garbage collection), 2 GB for stock Rails.",
        "range": null,
        "unknown": "The heap experiment's throughput is not given, only the 24% cost; the endpoint is not named.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1/messages",
        "id": "rails-1p-messages",
        "lane": "rails-1p",
        "metric": "req_per_s",
        "quote": "/rooms/1/messages, the fragment-cached message list, reads the same way: TruffleRuby is worth 1.18× to stock Rails (134 → 158) and, as shipped, 0.82× to the emit (985 → 803); JRuby's one process does 3,545.",
        "range": null,
        "unknown": null,
        "value": 134.0
      },
      "published": "134 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1/messages",
        "id": "rails-truffleruby-messages",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "/rooms/1/messages, the fragment-cached message list, reads the same way: TruffleRuby is worth 1.18× to stock Rails (134 → 158) and, as shipped, 0.82× to the emit (985 → 803); JRuby's one process does 3,545.",
        "range": null,
        "unknown": null,
        "value": 158.0
      },
      "published": "158 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1/messages",
        "id": "ruby-1p-messages",
        "lane": "ruby-1p",
        "metric": "req_per_s",
        "quote": "/rooms/1/messages, the fragment-cached message list, reads the same way: TruffleRuby is worth 1.18× to stock Rails (134 → 158) and, as shipped, 0.82× to the emit (985 → 803); JRuby's one process does 3,545.",
        "range": null,
        "unknown": null,
        "value": 985.0
      },
      "published": "985 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "C-extension lock on (as shipped)",
        "endpoint": "/rooms/1/messages",
        "id": "truffleruby-messages",
        "lane": "truffleruby",
        "metric": "req_per_s",
        "quote": "/rooms/1/messages, the fragment-cached message list, reads the same way: TruffleRuby is worth 1.18× to stock Rails (134 → 158) and, as shipped, 0.82× to the emit (985 → 803); JRuby's one process does 3,545.",
        "range": null,
        "unknown": null,
        "value": 803.0
      },
      "published": "803 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1/messages",
        "id": "jruby-messages",
        "lane": "jruby",
        "metric": "req_per_s",
        "quote": "/rooms/1/messages, the fragment-cached message list, reads the same way: TruffleRuby is worth 1.18× to stock Rails (134 → 158) and, as shipped, 0.82× to the emit (985 → 803); JRuby's one process does 3,545.",
        "range": null,
        "unknown": null,
        "value": 3545.0
      },
      "published": "3,545 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": null,
        "id": "ruby-1p-memory",
        "lane": "ruby-1p",
        "metric": "memory_mb",
        "quote": "For the emitted Campfire on a Ruby runtime you already have: CRuby+YJIT, one worker, 478 req/s in 232 MB, or the full eight in a gigabyte once the pubsub seam exists.",
        "range": null,
        "unknown": null,
        "value": 232.0
      },
      "published": "232 MB"
    },
    {
      "figure": {
        "approx": true,
        "condition": "~1 GB in the post",
        "endpoint": null,
        "id": "ruby-memory",
        "lane": "ruby",
        "metric": "memory_mb",
        "quote": "The price is memory — 1.6 GB against ~1 GB for the eight workers, because there is no copy-on-write sharing to be had and the JIT's code and metadata live outside the 1 GB heap — and a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary.",
        "range": null,
        "unknown": null,
        "value": 1024.0
      },
      "published": "≈ 1,024 MB"
    },
    {
      "figure": {
        "approx": true,
        "condition": "1.6 GB in the post",
        "endpoint": null,
        "id": "jruby-memory",
        "lane": "jruby",
        "metric": "memory_mb",
        "quote": "The price is memory — 1.6 GB against ~1 GB for the eight workers, because there is no copy-on-write sharing to be had and the JIT's code and metadata live outside the 1 GB heap — and a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary.",
        "range": null,
        "unknown": null,
        "value": 1638.0
      },
      "published": "≈ 1,638 MB"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": null,
        "id": "spinel-memory",
        "lane": "spinel",
        "metric": "memory_mb",
        "quote": "For the smallest and fastest: the Spinel binary, 2,570 req/s in 140 MB, a third of a second to a rendered page, which is the row the page exists to publish.",
        "range": null,
        "unknown": null,
        "value": 140.0
      },
      "published": "140 MB"
    },
    {
      "figure": {
        "approx": true,
        "condition": "2.9 GB in the post",
        "endpoint": null,
        "id": "rails-truffleruby-memory",
        "lane": "rails-truffleruby",
        "metric": "memory_mb",
        "quote": "And for stock Campfire, TruffleRuby's 1.8× is real but it comes at 2.9 GB — 41 requests per second per gigabyte, against 172 for the same Rails deployed on CRuby and 18,683 for the binary — and a boot of nine seconds.",
        "range": null,
        "unknown": null,
        "value": 2970.0
      },
      "published": "≈ 2,970 MB"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-per-gb",
        "lane": "rails-truffleruby",
        "metric": "req_per_s_per_gb",
        "quote": "And for stock Campfire, TruffleRuby's 1.8× is real but it comes at 2.9 GB — 41 requests per second per gigabyte, against 172 for the same Rails deployed on CRuby and 18,683 for the binary — and a boot of nine seconds.",
        "range": null,
        "unknown": null,
        "value": 41.0
      },
      "published": "41 req/s/GB"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "rails-per-gb",
        "lane": "rails",
        "metric": "req_per_s_per_gb",
        "quote": "And for stock Campfire, TruffleRuby's 1.8× is real but it comes at 2.9 GB — 41 requests per second per gigabyte, against 172 for the same Rails deployed on CRuby and 18,683 for the binary — and a boot of nine seconds.",
        "range": null,
        "unknown": null,
        "value": 172.0
      },
      "published": "172 req/s/GB"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": "/rooms/1",
        "id": "spinel-per-gb",
        "lane": "spinel",
        "metric": "req_per_s_per_gb",
        "quote": "And for stock Campfire, TruffleRuby's 1.8× is real but it comes at 2.9 GB — 41 requests per second per gigabyte, against 172 for the same Rails deployed on CRuby and 18,683 for the binary — and a boot of nine seconds.",
        "range": null,
        "unknown": null,
        "value": 18683.0
      },
      "published": "18,683 req/s/GB"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": null,
        "id": "jruby-boot-accept",
        "lane": "jruby",
        "metric": "boot_accept_s",
        "quote": "The price is memory — 1.6 GB against ~1 GB for the eight workers, because there is no copy-on-write sharing to be had and the JIT's code and metadata live outside the 1 GB heap — and a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary.",
        "range": null,
        "unknown": null,
        "value": 5.0
      },
      "published": "5 s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": null,
        "id": "jruby-boot-page",
        "lane": "jruby",
        "metric": "boot_page_s",
        "quote": "The price is memory — 1.6 GB against ~1 GB for the eight workers, because there is no copy-on-write sharing to be had and the JIT's code and metadata live outside the 1 GB heap — and a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary.",
        "range": null,
        "unknown": null,
        "value": 6.0
      },
      "published": "6 s"
    },
    {
      "figure": {
        "approx": false,
        "condition": null,
        "endpoint": null,
        "id": "ruby-boot-page",
        "lane": "ruby",
        "metric": "boot_page_s",
        "quote": "The price is memory — 1.6 GB against ~1 GB for the eight workers, because there is no copy-on-write sharing to be had and the JIT's code and metadata live outside the 1 GB heap — and a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary.",
        "range": null,
        "unknown": null,
        "value": 1.7
      },
      "published": "1.7 s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "a third of a second in the post",
        "endpoint": null,
        "id": "spinel-boot-page",
        "lane": "spinel",
        "metric": "boot_page_s",
        "quote": "For the smallest and fastest: the Spinel binary, 2,570 req/s in 140 MB, a third of a second to a rendered page, which is the row the page exists to publish.",
        "range": null,
        "unknown": null,
        "value": 0.33
      },
      "published": "≈ 0.33 s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "'a boot of nine seconds', not split into accept and page",
        "endpoint": null,
        "id": "rails-truffleruby-boot",
        "lane": "rails-truffleruby",
        "metric": "boot_page_s",
        "quote": "And for stock Campfire, TruffleRuby's 1.8× is real but it comes at 2.9 GB — 41 requests per second per gigabyte, against 172 for the same Rails deployed on CRuby and 18,683 for the binary — and a boot of nine seconds.",
        "range": null,
        "unknown": null,
        "value": 9.0
      },
      "published": "9 s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "100 message rows stepped 2,000 times, single-threaded",
        "endpoint": null,
        "id": "rowstep-cruby-us",
        "lane": "rowstep-cruby",
        "metric": "us_per_row",
        "quote": "Stepping 100 message rows out of Campfire's own database, two thousand times, single-threaded, is 0.83 µs a row on CRuby+YJIT and 2.4 µs a row on TruffleRuby.",
        "range": null,
        "unknown": null,
        "value": 0.83
      },
      "published": "0.83 µs/row"
    },
    {
      "figure": {
        "approx": false,
        "condition": "100 message rows stepped 2,000 times, single-threaded",
        "endpoint": null,
        "id": "rowstep-truffleruby-us",
        "lane": "rowstep-truffleruby",
        "metric": "us_per_row",
        "quote": "Stepping 100 message rows out of Campfire's own database, two thousand times, single-threaded, is 0.83 µs a row on CRuby+YJIT and 2.4 µs a row on TruffleRuby.",
        "range": null,
        "unknown": null,
        "value": 2.4
      },
      "published": "2.4 µs/row"
    },
    {
      "figure": {
        "approx": false,
        "condition": "single-threaded, C-extension lock on (the flag experiment)",
        "endpoint": null,
        "id": "rowstep-truffleruby-locked-us",
        "lane": "rowstep-truffleruby",
        "metric": "us_per_row",
        "quote": "Single-threaded the lock costs about 3% (2.44 µs a row against 2.36), which is how it hid: it is invisible in a microbenchmark and decisive in a server.",
        "range": null,
        "unknown": null,
        "value": 2.44
      },
      "published": "2.44 µs/row"
    },
    {
      "figure": {
        "approx": false,
        "condition": "single-threaded, --cexts-lock=false",
        "endpoint": null,
        "id": "rowstep-truffleruby-unlocked-us",
        "lane": "rowstep-truffleruby-unlocked",
        "metric": "us_per_row",
        "quote": "Single-threaded the lock costs about 3% (2.44 µs a row against 2.36), which is how it hid: it is invisible in a microbenchmark and decisive in a server.",
        "range": null,
        "unknown": null,
        "value": 2.36
      },
      "published": "2.36 µs/row"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the flag experiment, C-extension lock on",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-flag-locked",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "Stock Rails barely notices it — 89 req/s against 93 with the flag, inside that row's own 11.7% spread — because at eighteen requests per second per thread it is nowhere near the lock, so the 1.8× the runtime swap buys it stands.",
        "range": null,
        "unknown": null,
        "value": 89.0
      },
      "published": "89 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the flag experiment, --cexts-lock=false",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-flag-unlocked",
        "lane": "rails-truffleruby-unlocked",
        "metric": "req_per_s",
        "quote": "Stock Rails barely notices it — 89 req/s against 93 with the flag, inside that row's own 11.7% spread — because at eighteen requests per second per thread it is nowhere near the lock, so the 1.8× the runtime swap buys it stands.",
        "range": null,
        "unknown": null,
        "value": 93.0
      },
      "published": "93 req/s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "per Puma thread (five threads), in the flag experiment",
        "endpoint": "/rooms/1",
        "id": "rails-truffleruby-per-thread",
        "lane": "rails-truffleruby",
        "metric": "req_per_s",
        "quote": "Stock Rails barely notices it — 89 req/s against 93 with the flag, inside that row's own 11.7% spread — because at eighteen requests per second per thread it is nowhere near the lock, so the 1.8× the runtime swap buys it stands.",
        "range": null,
        "unknown": null,
        "value": 18.0
      },
      "published": "≈ 18 req/s"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the blog fixture's HTML page",
        "endpoint": null,
        "id": "blog-rails-html",
        "lane": "blog-rails",
        "metric": "req_per_s",
        "quote": "On the blog TruffleRuby was the best runtime for stock Rails by a wide margin — 3.4× on HTML, 5.2× on JSON — and I wrote that if the question was \"which Ruby runs my Rails app fastest without changing a line,\" the answer was TruffleRuby and it wasn't close.",
        "range": null,
        "unknown": "The previous post's figure; this post gives only the 3.4× between runtimes.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the blog fixture's HTML page",
        "endpoint": null,
        "id": "blog-rails-truffleruby-html",
        "lane": "blog-rails-truffleruby",
        "metric": "req_per_s",
        "quote": "On the blog TruffleRuby was the best runtime for stock Rails by a wide margin — 3.4× on HTML, 5.2× on JSON — and I wrote that if the question was \"which Ruby runs my Rails app fastest without changing a line,\" the answer was TruffleRuby and it wasn't close.",
        "range": null,
        "unknown": "The previous post's figure; this post gives only the 3.4× between runtimes.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the blog fixture's JSON page",
        "endpoint": null,
        "id": "blog-rails-json",
        "lane": "blog-rails",
        "metric": "req_per_s",
        "quote": "On the blog TruffleRuby was the best runtime for stock Rails by a wide margin — 3.4× on HTML, 5.2× on JSON — and I wrote that if the question was \"which Ruby runs my Rails app fastest without changing a line,\" the answer was TruffleRuby and it wasn't close.",
        "range": null,
        "unknown": "The previous post's figure; this post gives only the 5.2× between runtimes.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the blog fixture's JSON page",
        "endpoint": null,
        "id": "blog-rails-truffleruby-json",
        "lane": "blog-rails-truffleruby",
        "metric": "req_per_s",
        "quote": "On the blog TruffleRuby was the best runtime for stock Rails by a wide margin — 3.4× on HTML, 5.2× on JSON — and I wrote that if the question was \"which Ruby runs my Rails app fastest without changing a line,\" the answer was TruffleRuby and it wasn't close.",
        "range": null,
        "unknown": "The previous post's figure; this post gives only the 5.2× between runtimes.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the blog fixture",
        "endpoint": null,
        "id": "blog-ruby-req",
        "lane": "blog-ruby",
        "metric": "req_per_s",
        "quote": "And where the blog's emit gained 1.8× from Graal, Campfire's emit loses: 0.9× on the room page, 0.82× on the messages.",
        "range": null,
        "unknown": "The previous post's figure; this post gives only the emit's 1.8× from Graal.",
        "value": null
      },
      "published": "not given"
    },
    {
      "figure": {
        "approx": false,
        "condition": "the blog fixture",
        "endpoint": null,
        "id": "blog-truffleruby-req",
        "lane": "blog-truffleruby",
        "metric": "req_per_s",
        "quote": "And where the blog's emit gained 1.8× from Graal, Campfire's emit loses: 0.9× on the room page, 0.82× on the messages.",
        "range": null,
        "unknown": "The previous post's figure; this post gives only the emit's 1.8× from Graal.",
        "value": null
      },
      "published": "not given"
    }
  ],
  "lanes": [
    {
      "here": {
        "fix": "gem install bundler && sudo apt-get install redis-server",
        "state": "blocked",
        "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "bash",
          "scripts/campfire-oracle",
          "serve",
          "--deployed",
          "--port",
          "4300"
        ],
        "dir": "sources/roundhouse",
        "env": {},
        "harness": {
          "target": "rails",
          "workers": 8
        },
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "rails",
        "needs": [
          "yjit",
          "bundler",
          "redis-server"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4300,
        "runtime": "ruby",
        "server": "thruster+puma",
        "services": [
          "redis"
        ],
        "threads": 5,
        "warmup": "20s",
        "why": "Rails as its own Dockerfile deploys it: Thruster in front of Puma, eight forked workers on this box (campfire's (processor_count * 0.666).ceil), five threads each, jemalloc, resque-pool alongside, the message fragments cached in Redis. Redis is started for it (the redis service).",
        "workers": {
          "per_cpu": 0.666
        }
      }
    },
    {
      "here": {
        "fix": "gem install bundler && sudo apt-get install redis-server",
        "state": "blocked",
        "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "bash",
          "scripts/campfire-oracle",
          "serve",
          "--workers",
          "1",
          "--port",
          "4301"
        ],
        "dir": "sources/roundhouse",
        "env": {},
        "harness": {
          "target": "rails",
          "workers": 1
        },
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "rails-1p",
        "needs": [
          "yjit",
          "bundler",
          "redis-server"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4301,
        "runtime": "ruby",
        "server": "puma",
        "services": [
          "redis"
        ],
        "threads": 5,
        "warmup": "20s",
        "why": "The one-process twin of rails: one Puma worker × 5 threads, no Thruster, no resque-pool — the CRuby shape the TruffleRuby Rails lane is read against.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs bundler, which this machine lacks."
      },
      "lane": {
        "allocator": "jemalloc",
        "boot_budget": "2m",
        "command": [
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "PORT": "4302",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "5",
          "RUBY_YJIT_ENABLE": "1"
        },
        "harness": {
          "target": "ruby",
          "workers": 8
        },
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "ruby",
        "needs": [
          "yjit",
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4302,
        "runtime": "ruby",
        "server": "puma",
        "services": [],
        "threads": 5,
        "warmup": "20s",
        "why": "The emit in the same Puma shape as rails (eight forked workers, the same allocator: jemalloc, preloaded where this machine has it). A matched-shape runtime comparison, not a deployment claim: the emitted tree keeps its Action Cable registry and job queue in-process, so Campfire could not actually run this shape.",
        "workers": {
          "per_cpu": 0.666
        }
      }
    },
    {
      "here": {
        "fix": "gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs bundler, which this machine lacks."
      },
      "lane": {
        "allocator": "jemalloc",
        "boot_budget": "2m",
        "command": [
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "PORT": "4303",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "5",
          "RUBY_YJIT_ENABLE": "1",
          "WEB_CONCURRENCY": "1"
        },
        "harness": {
          "target": "ruby",
          "workers": 1
        },
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "ruby-1p",
        "needs": [
          "yjit",
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4303,
        "runtime": "ruby",
        "server": "puma",
        "services": [],
        "threads": 5,
        "warmup": "20s",
        "why": "The emit, one Puma worker × 5 threads on CRuby+YJIT: the deployable CRuby shape today (one cable registry, one job queue), and the one-process shape the TruffleRuby emit is read against.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0 && mise install java@openjdk-25 && mise use java@openjdk-25 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs jruby and java and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "jruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/jruby",
        "env": {
          "JRUBY_OPTS": "-J-Xmx1g -J-Xms1g",
          "PORT": "4304",
          "RAILS_ENV": "production",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "jruby",
        "needs": [
          "java",
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4304,
        "runtime": "jruby",
        "server": "puma",
        "services": [],
        "threads": {
          "per_cpu": 1.0
        },
        "warmup": "1m",
        "why": "The emit on the JVM: one process (Puma single mode, WEB_CONCURRENCY=0) with one Puma thread per hardware thread, twelve, where its ladder peaked; heap pinned at 1 GB. One registry, one fragment cache, one job queue, and a JDBC driver with no C extension to serialize behind.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0 && mise install java@openjdk-25 && mise use java@openjdk-25 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs jruby and java and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "jruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/jruby",
        "env": {
          "JRUBY_OPTS": "-J-Xmx1g -J-Xms1g",
          "PORT": "4305",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "40",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "jruby-40t",
        "needs": [
          "java",
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4305,
        "runtime": "jruby",
        "server": "puma",
        "services": [],
        "threads": 40,
        "warmup": "1m",
        "why": "A rung of JRuby's thread ladder: the 40 threads Rails' worker formula implies (8 workers × 5), in one process.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0 && mise install java@openjdk-25 && mise use java@openjdk-25 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs jruby and java and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "jruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/jruby",
        "env": {
          "JRUBY_OPTS": "-J-Xmx512m -J-Xms512m",
          "PORT": "4306",
          "RAILS_ENV": "production",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 512,
        "image": null,
        "name": "jruby-512m",
        "needs": [
          "java",
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4306,
        "runtime": "jruby",
        "server": "puma",
        "services": [],
        "threads": {
          "per_cpu": 1.0
        },
        "warmup": "1m",
        "why": "The jruby lane with the blog's 512 MB heap instead of 1 GB: it holds the emit, at a cost to garbage collection, which is why the emit's heap is pinned at 1 GB.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "truffleruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "BUNDLE_LOCKFILE": "../ruby-truffleruby-bundle/Gemfile.lock",
          "BUNDLE_PATH": "../ruby-truffleruby-bundle",
          "BUNDLE_VERSION": "system",
          "BUNDLE_WITHOUT": "development:test",
          "PORT": "4307",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "5",
          "TRUFFLERUBYOPT": "--vm.Xmx1g",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "truffleruby",
        "needs": [
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4307,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [],
        "threads": 5,
        "warmup": "2m",
        "why": "The CRuby tree, unmodified, under TruffleRuby with its own bundle: one process (there is no fork), 1 GB heap, read against ruby-1p. It runs the default — the global C-extension lock — because that is what a bundle install gives you, and sqlite3 2.9.3 declares no thread safety.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "truffleruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "BUNDLE_LOCKFILE": "../ruby-truffleruby-bundle/Gemfile.lock",
          "BUNDLE_PATH": "../ruby-truffleruby-bundle",
          "BUNDLE_VERSION": "system",
          "BUNDLE_WITHOUT": "development:test",
          "PORT": "4308",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "5",
          "TRUFFLERUBYOPT": "--vm.Xmx1g --experimental-options --cexts-lock=false",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "truffleruby-unlocked",
        "needs": [
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4308,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [],
        "threads": 5,
        "warmup": "2m",
        "why": "The truffleruby lane with TruffleRuby's documented escape hatch, --cexts-lock=false: the global C-extension lock off, where the flag is the whole point.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "truffleruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "BUNDLE_LOCKFILE": "../ruby-truffleruby-bundle/Gemfile.lock",
          "BUNDLE_PATH": "../ruby-truffleruby-bundle",
          "BUNDLE_VERSION": "system",
          "BUNDLE_WITHOUT": "development:test",
          "PORT": "4309",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "4",
          "TRUFFLERUBYOPT": "--vm.Xmx1g",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "truffleruby-4t",
        "needs": [
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4309,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [],
        "threads": 4,
        "warmup": "2m",
        "why": "A rung of TruffleRuby's thread ladder (locked, the default): 4 threads, where it served the most.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "truffleruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "BUNDLE_LOCKFILE": "../ruby-truffleruby-bundle/Gemfile.lock",
          "BUNDLE_PATH": "../ruby-truffleruby-bundle",
          "BUNDLE_VERSION": "system",
          "BUNDLE_WITHOUT": "development:test",
          "PORT": "4310",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "12",
          "TRUFFLERUBYOPT": "--vm.Xmx1g",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "truffleruby-12t",
        "needs": [
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4310,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [],
        "threads": 12,
        "warmup": "2m",
        "why": "A rung of TruffleRuby's thread ladder (locked): 12 threads, one per hardware thread, the shape that served JRuby best.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "2m",
        "command": [
          "truffleruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-C",
          "config/puma.rb",
          "config.ru"
        ],
        "dir": "trees/ruby",
        "env": {
          "BUNDLE_LOCKFILE": "../ruby-truffleruby-bundle/Gemfile.lock",
          "BUNDLE_PATH": "../ruby-truffleruby-bundle",
          "BUNDLE_VERSION": "system",
          "BUNDLE_WITHOUT": "development:test",
          "PORT": "4311",
          "RAILS_ENV": "production",
          "RAILS_MAX_THREADS": "40",
          "TRUFFLERUBYOPT": "--vm.Xmx1g",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 1024,
        "image": null,
        "name": "truffleruby-40t",
        "needs": [
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4311,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [],
        "threads": 40,
        "warmup": "2m",
        "why": "A rung of TruffleRuby's thread ladder (locked): 40 threads, where the C-extension lock serializes the most.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler && sudo apt-get install redis-server",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler and redis-server, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "3m",
        "command": [
          "bash",
          "scripts/campfire-oracle",
          "serve",
          "--runtime",
          "truffleruby",
          "--port",
          "4312"
        ],
        "dir": "sources/roundhouse",
        "env": {},
        "harness": null,
        "health": "/",
        "heap_mb": 2048,
        "image": null,
        "name": "rails-truffleruby",
        "needs": [
          "bundler",
          "redis-server"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4312,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [
          "redis"
        ],
        "threads": 5,
        "warmup": "4m",
        "why": "Campfire itself under TruffleRuby: the same checkout and Rails revision the rails lane serves, with a second bundle TruffleRuby compiled beside the first; one process (no fork, so neither Campfire's worker formula nor resque-pool can run), no Thruster, 2 GB heap — a runtime swap on rails-1p, not on rails.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler && sudo apt-get install redis-server",
        "state": "blocked",
        "why": "Cannot run: it needs truffleruby and bundler and redis-server, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "3m",
        "command": [
          "truffleruby",
          "-S",
          "bundle",
          "exec",
          "puma",
          "-p",
          "4313",
          "-e",
          "production",
          "config.ru"
        ],
        "dir": "sources/roundhouse/build/campfire-oracle",
        "env": {
          "BUNDLE_LOCKFILE": "../campfire-oracle-bundle-truffleruby/Gemfile.lock",
          "BUNDLE_PATH": "../campfire-oracle-bundle-truffleruby",
          "BUNDLE_VERSION": "system",
          "BUNDLE_WITHOUT": "development:test",
          "DISABLE_SSL": "1",
          "RAILS_ENV": "production",
          "RAILS_LOG_LEVEL": "warn",
          "RAILS_MAX_THREADS": "5",
          "SECRET_KEY_BASE": "campfire-oracle-benchmark-secret-not-a-deployment",
          "TRUFFLERUBYOPT": "--vm.Xmx2g --experimental-options --cexts-lock=false",
          "WEB_CONCURRENCY": "0"
        },
        "harness": null,
        "health": "/",
        "heap_mb": 2048,
        "image": null,
        "name": "rails-truffleruby-unlocked",
        "needs": [
          "bundler",
          "redis-server"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4313,
        "runtime": "truffleruby",
        "server": "puma",
        "services": [
          "redis"
        ],
        "threads": 5,
        "warmup": "4m",
        "why": "Stock Campfire on TruffleRuby with the C-extension lock off. campfire-oracle serve sets TRUFFLERUBYOPT itself, so this lane starts Puma as that script does (same tree, bundle, lockfile, environment and 2 GB heap) with --cexts-lock=false added.",
        "workers": 1
      }
    },
    {
      "here": {
        "fix": "sudo apt-get install make build-essential curl npm && gem install bundler",
        "state": "blocked",
        "why": "Cannot run: it needs make and cc and curl and npm and bundler, which this machine lacks."
      },
      "lane": {
        "allocator": null,
        "boot_budget": "1m",
        "command": [
          "build/bin/blog"
        ],
        "dir": "trees/spinel",
        "env": {
          "BLOG_DB": "storage/development.sqlite3",
          "DATABASE_POOL_SIZE": "64",
          "PORT": "4314",
          "SECRET_KEY_BASE": "campfire-oracle-benchmark-secret-not-a-deployment"
        },
        "harness": null,
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "spinel",
        "needs": [
          "make",
          "cc",
          "curl",
          "npm",
          "bundler"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 4314,
        "runtime": null,
        "server": "spinel",
        "services": [],
        "threads": null,
        "warmup": "20s",
        "why": "The emit compiled to a native binary by Spinel, its workers autodetected: the smallest and fastest row, which the page exists to publish. Built from Spinel's master and Roundhouse's spinel emit (the post gives neither revision nor the harness's commands for them; see the steps), its connection pool of 64 and the benchmark secret as scripts/bench-campfire starts it.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The row-stepping script is not published."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "rowstep-cruby",
        "needs": [],
        "not_runnable": "The row-stepping script is not published.",
        "placement": "host",
        "port": null,
        "runtime": "ruby",
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "A single-threaded microbenchmark: stepping 100 message rows out of Campfire's own database, two thousand times, through the sqlite3 gem on CRuby+YJIT.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The row-stepping script is not published."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "rowstep-truffleruby",
        "needs": [],
        "not_runnable": "The row-stepping script is not published.",
        "placement": "host",
        "port": null,
        "runtime": "truffleruby",
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "The same row-stepping microbenchmark on TruffleRuby, C-extension lock on (the default): the per-call toll of each crossing into a C extension.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The row-stepping script is not published."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "rowstep-truffleruby-unlocked",
        "needs": [],
        "not_runnable": "The row-stepping script is not published.",
        "placement": "host",
        "port": null,
        "runtime": "truffleruby",
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "The same row-stepping microbenchmark on TruffleRuby with --cexts-lock=false: what the lock costs single-threaded.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The previous post's five-endpoint blog fixture on stock Rails, CRuby+YJIT, given for context; this recipe does not run it."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "blog-rails",
        "needs": [],
        "not_runnable": "The previous post's five-endpoint blog fixture on stock Rails, CRuby+YJIT, given for context; this recipe does not run it.",
        "placement": "host",
        "port": null,
        "runtime": null,
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "Stock Rails on CRuby+YJIT, on the blog fixture.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The previous post's blog fixture on stock Rails under TruffleRuby, given for context; this recipe does not run it."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "blog-rails-truffleruby",
        "needs": [],
        "not_runnable": "The previous post's blog fixture on stock Rails under TruffleRuby, given for context; this recipe does not run it.",
        "placement": "host",
        "port": null,
        "runtime": null,
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "Stock Rails on TruffleRuby, on the blog fixture.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The previous post's blog fixture as Roundhouse emits it, on CRuby+YJIT, given for context; this recipe does not run it."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "blog-ruby",
        "needs": [],
        "not_runnable": "The previous post's blog fixture as Roundhouse emits it, on CRuby+YJIT, given for context; this recipe does not run it.",
        "placement": "host",
        "port": null,
        "runtime": null,
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "Roundhouse's emitted Ruby on CRuby+YJIT, on the blog fixture.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "The previous post's blog fixture as Roundhouse emits it, under TruffleRuby, given for context; this recipe does not run it."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "blog-truffleruby",
        "needs": [],
        "not_runnable": "The previous post's blog fixture as Roundhouse emits it, under TruffleRuby, given for context; this recipe does not run it.",
        "placement": "host",
        "port": null,
        "runtime": null,
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "Roundhouse's emitted Ruby on TruffleRuby, on the blog fixture.",
        "workers": null
      }
    }
  ],
  "machine": {
    "base_mhz": 3600,
    "boost": false,
    "cores": 6,
    "cpu": "AMD Ryzen 5 3600 6-Core Processor",
    "cpu_placement": "shared",
    "governor": "performance",
    "kernel": null,
    "memory_gb": 63,
    "os": "Ubuntu 24.04.5 LTS",
    "quote": "The machine, harness and app are the page's: a bare-metal Ryzen 5 3600 with the governor pinned and boost off, wrk at 16 connections, three 20-second runs per cell after a warmup the harness sizes per lane — 20 s for the CRuby and Spinel lanes, 60 for JRuby, 120 for the emit on TruffleRuby, 240 for stock Rails on it — with the median reported.",
    "smt": true,
    "threads": 12,
    "virtualization": "none"
  },
  "post": {
    "author": "Sam Ruby",
    "date": "2026-09",
    "id": "campfire-runtimes",
    "run": "the nightly of September 22",
    "summary": "Campfire, emitted by Roundhouse and as stock Rails, on CRuby+YJIT, JRuby and TruffleRuby. One JRuby process with twelve threads serves the room page at 1,712 req/s (8 ms median against Rails' 44): 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row and 0.72× of eight CRuby workers, for 1.6 GB and a five-to-six-second boot — the first multi-core row Campfire could deploy as it stands. TruffleRuby buys stock Rails 1.8× on the room page (at 2.9 GB) but, as shipped, costs the emit (0.9× of CRuby's one process): sqlite3 2.9.3 declares no thread safety, so TruffleRuby's global C-extension lock serializes every row, and its thread ladder inverts. Turning the lock off (--cexts-lock=false) is worth 2.5× (432 → 1,078 req/s). The Spinel binary stays the smallest and fastest row: 2,570 req/s in 140 MB.",
    "title": "Campfire on CRuby, JRuby and TruffleRuby",
    "unknowns": [
      "Roundhouse's commit is not given; the post's reproduction clones its default branch.",
      "The Rails revision is not given as a SHA: Rails 8.2.0.alpha at the revision Campfire's Gemfile.lock pins at ed0f9a5.",
      "The tables of the post (the 2×3 on /rooms/1 and the deployed rows) did not survive as text; only the figures in its sentences are transcribed, so the /rooms/1 req/s of rails, rails-1p and jruby at 40 threads are known only through the ratios the post states.",
      "The machine's details (CPU name, 6 cores / 12 threads, 3.6 GHz, performance governor, 63 GB, Ubuntu 24.04.5) come from the benchmark page (post 002), which this post says is the same machine; this post itself says only a bare-metal Ryzen 5 3600 with the governor pinned and boost off.",
      "Memory figures are given in GB in the post (1.6 GB, ~1 GB, 2.9 GB); they are written here in MB at 1024 MB to the GB, as the harness's rss_mb and rps_per_gb count. The post does not say whether its memory is RSS or PSS, so they are memory_mb.",
      "Boot times: the post says 'a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary'; this recipe reads 1.7 and a third of a second as time to a rendered page. Stock Rails on TruffleRuby's 'boot of nine seconds' is not split into accept and page; it is written as time to a page.",
      "How many cold starts the harness measured per lane is not stated in the post; this recipe boots each lane three times, as the harness's cold_start does (rubys/roundhouse scripts/bench-campfire at 004fe64f), each timed to its first answer and to the signed-in room page.",
      "The post gives no Spinel revision. Spinel is public (github.com/matz/spinel); this recipe builds its master, unpinned, as Roundhouse's own CI does (its build-spinel job: make deps, make all) and as the nightly does.",
      "How the harness emits, compiles and serves the spinel lane is not in the post. The recipe follows Roundhouse's own tooling for its spinel target: roundhouse --target spinel from the checkout's root; make assets, then make build in the emitted tree with Spinel's bin/ (spinel and spin) on PATH, as scripts/bench does; the binary started from the tree as build/bin/blog with PORT, BLOG_DB, DATABASE_POOL_SIZE=64 and SECRET_KEY_BASE (campfire-oracle's benchmark secret), as scripts/bench-campfire's start_lane starts it (its diagnostic SPINEL_GC_STATS and SPINEL_GC_PHASES are left out). That binary's name and the variables it reads are the emitted tree's at the reader's Roundhouse revision, not the post's; its OS worker count is the runtime's own autodetection (the benchmark page's 'workers autodetected'), whose number the post does not give.",
      "The message-list endpoint is named /rooms/1/messages in the post; the harness's suite requests it with ?before={id}, and the id is not given, so this recipe requests /rooms/1/messages.",
      "The heap experiment ('512 MB holds it, at a 24% cost to garbage collection') names neither the runtime nor the endpoint; the harness's notes say it was measured on JRuby, so this recipe runs it as jruby-512m on the room page.",
      "The row-stepping microbenchmark (100 message rows stepped 2,000 times, single-threaded) is not published, nor is the 'pure-Ruby half' that runs 'more than an order of magnitude faster on TruffleRuby', which the post gives no figures for.",
      "The flag experiment's figures (89 and 93 req/s for stock Rails, 432 and 1,078 for the emit, 2.44 and 2.36 µs a row) may come from runs other than the nightly's; the post does not date them. This recipe reads 432 as the truffleruby lane's room-page figure, which agrees with the post's 0.9× against ruby-1p's 478; 89 and 93 are kept apart from the nightly's 118.",
      "The blog fixture's figures (3.4× on HTML, 5.2× on JSON, the emit's 1.8×) come from the previous post and are carried as context lanes this recipe cannot run.",
      "The post's 'dividend that was 7.4× on CRuby has been halved' compares two ratios (3.6× on TruffleRuby against 7.4× on CRuby); a claim between two ratios cannot be written, so each ratio is its own claim."
    ],
    "url": null
  },
  "steps": [
    {
      "after": [],
      "command": null,
      "id": "clone-roundhouse",
      "kind": "clone",
      "lanes": [],
      "why": "Campfire's Ruby and JVM trees are not published yet — the harness emits them from the repository — so this one needs a checkout of Roundhouse."
    },
    {
      "after": [],
      "command": null,
      "id": "clone-campfire",
      "kind": "clone",
      "lanes": [],
      "why": "The Campfire source both the emitted trees and the stock Rails lanes come from, at ed0f9a5."
    },
    {
      "after": [],
      "command": null,
      "id": "clone-spinel",
      "kind": "clone",
      "lanes": [],
      "why": "The Spinel binary is the emit compiled by Spinel; the post gives no Spinel revision, so its master is followed, as Roundhouse's CI and the nightly build it."
    },
    {
      "after": [
        "clone-roundhouse"
      ],
      "command": "cargo build --release --bin roundhouse",
      "id": "build-roundhouse",
      "kind": "build",
      "lanes": [],
      "why": "The post runs the emitter with cargo run --release; building it first keeps compile time out of the emit step."
    },
    {
      "after": [
        "clone-roundhouse",
        "clone-campfire"
      ],
      "command": "bash scripts/campfire-oracle prepare --app ../once-campfire",
      "id": "prepare",
      "kind": "seed",
      "lanes": [],
      "why": "campfire-oracle prepare bundles, migrates and seeds 50 users / 5 rooms / 100 messages per room into a copy of Campfire, and stages the production database from the seed, so every lane reads the same rows and a row-count difference can never explain a throughput difference."
    },
    {
      "after": [
        "build-roundhouse",
        "clone-campfire"
      ],
      "command": "cargo run --release --bin roundhouse -- --target ruby ../once-campfire -o ../../trees/ruby --allow-unsupported",
      "id": "emit-ruby",
      "kind": "emit",
      "lanes": [],
      "why": "--target ruby gives the tree that runs under CRuby and, with truffleruby -S bundle install, under TruffleRuby. Run from the Roundhouse checkout's root: the emitter reads runtime/ relative to the working directory."
    },
    {
      "after": [
        "build-roundhouse",
        "clone-campfire"
      ],
      "command": "cargo run --release --bin roundhouse -- --target jruby ../once-campfire -o ../../trees/jruby --allow-unsupported",
      "id": "emit-jruby",
      "kind": "emit",
      "lanes": [],
      "why": "jruby is the emit re-targeted for the JVM: the same tree with the SQLite shim swapped for a JDBC one, because the sqlite3 gem is a C extension with no JVM build."
    },
    {
      "after": [
        "emit-ruby"
      ],
      "command": null,
      "id": "digest-ruby",
      "kind": "digest",
      "lanes": [],
      "why": "Emission is deterministic: two emissions of the same sources give byte-identical trees, so the tree's digest, kept with the results, says which tree was measured. The post pins no Roundhouse commit, so there is no published digest to compare it with."
    },
    {
      "after": [
        "emit-jruby"
      ],
      "command": null,
      "id": "digest-jruby",
      "kind": "digest",
      "lanes": [],
      "why": "The JVM builder and the CRuby builder are one builder with a flavor switch; the application code, the framework runtime and the Puma front are byte-identical to the CRuby tree, whose digest is kept with the results."
    },
    {
      "after": [
        "digest-ruby"
      ],
      "command": null,
      "id": "bundle-ruby",
      "kind": "bundle",
      "lanes": [],
      "why": "The CRuby bundle of the emitted tree, from the tree's own Gemfile.lock. bundle check is not a gate: the harness always runs bundle install; it takes two seconds when there is nothing to do."
    },
    {
      "after": [
        "digest-jruby"
      ],
      "command": null,
      "id": "bundle-jruby",
      "kind": "bundle",
      "lanes": [],
      "why": "The JRuby tree ships no Gemfile.lock; jruby -S bundle install resolves its own."
    },
    {
      "after": [
        "digest-ruby"
      ],
      "command": null,
      "id": "bundle-truffleruby",
      "kind": "bundle",
      "lanes": [],
      "why": "truffleruby is the CRuby tree, unmodified, with its bundle compiled by TruffleRuby (sqlite3, bcrypt, nokogiri, nio4r, websocket-driver all build). The main lock resolves precompiled x86_64-linux gems TruffleRuby cannot load, and bundle install would rewrite it in place; so the bundle owns a lockfile of its own beside the tree, seeded from the main lock and re-seeded whenever it changes."
    },
    {
      "after": [
        "prepare"
      ],
      "command": "bash scripts/campfire-oracle bundle --runtime truffleruby",
      "id": "bundle-rails-truffleruby",
      "kind": "command",
      "lanes": [],
      "why": "Stock Campfire under TruffleRuby is scripts/campfire-oracle bundle --runtime truffleruby followed by serve --runtime truffleruby, which does the lockfile dance for you: a second bundle TruffleRuby compiled beside the first, with its own lockfile seeded from Campfire's, so the gem versions and the Rails revision stay exactly the CRuby lane's. Against the pristine lock, bundle exec puma re-resolves at startup, activates TruffleRuby's default openssl 4.0 over the lock's 3.3, and the lane dies with \"You have already activated openssl.\""
    },
    {
      "after": [
        "prepare",
        "digest-ruby"
      ],
      "command": null,
      "id": "stage-ruby",
      "kind": "stage",
      "lanes": [],
      "why": "The emitted tree reads the same seeded rows as Rails: the oracle's production database, copied into the tree's storage/ (the post's cp … storage/development.sqlite3)."
    },
    {
      "after": [
        "prepare",
        "digest-jruby"
      ],
      "command": null,
      "id": "stage-jruby",
      "kind": "stage",
      "lanes": [],
      "why": "The JVM tree reads the same seeded rows, over JDBC."
    },
    {
      "after": [
        "clone-spinel"
      ],
      "command": "make deps",
      "id": "spinel-deps",
      "kind": "build",
      "lanes": [],
      "why": "Spinel vendors the Prism and RBS C parsers; make deps fetches them, the first step of Roundhouse's build-spinel CI job."
    },
    {
      "after": [
        "spinel-deps"
      ],
      "command": "make all",
      "id": "build-spinel",
      "kind": "build",
      "lanes": [],
      "why": "make all builds the spinel compiler and spin, its project tool, into the checkout's bin/, as Roundhouse's build-spinel CI job does."
    },
    {
      "after": [
        "build-roundhouse",
        "clone-campfire"
      ],
      "command": "cargo run --release --bin roundhouse -- --target spinel ../once-campfire -o ../../trees/spinel --allow-unsupported",
      "id": "emit-spinel",
      "kind": "emit",
      "lanes": [],
      "why": "The binary is the same emitted framework as the ruby tree, emitted for Spinel from the same Campfire checkout, run from the Roundhouse checkout's root like the other emits. Roundhouse is unpinned, so the tree's digest is recorded, not compared."
    },
    {
      "after": [
        "emit-spinel"
      ],
      "command": null,
      "id": "bundle-spinel",
      "kind": "bundle",
      "lanes": [],
      "why": "make assets copies Turbo's and Stimulus's JavaScript out of their gems with bundle exec, so the emitted tree's Gemfile is installed first (scripts/bench does the same before make assets); the binary itself loads no gem."
    },
    {
      "after": [
        "bundle-spinel"
      ],
      "command": "make assets",
      "id": "assets-spinel",
      "kind": "build",
      "lanes": [],
      "why": "The static assets the binary sendfiles under /assets (the Tailwind stylesheet, Turbo, Stimulus), built before the binary as scripts/bench builds its spinel target."
    },
    {
      "after": [
        "build-spinel",
        "assets-spinel"
      ],
      "command": "sh ../../files/with-spinel.sh make build",
      "id": "compile-spinel",
      "kind": "build",
      "lanes": [],
      "why": "make build compiles the emitted tree ahead of time into one native binary, build/bin/blog, where scripts/bench-campfire starts it, with this run's Spinel on PATH."
    },
    {
      "after": [
        "prepare",
        "emit-spinel"
      ],
      "command": null,
      "id": "stage-spinel",
      "kind": "stage",
      "lanes": [],
      "why": "The binary reads the same seeded rows, from the spinel tree's storage/, where scripts/bench stages them."
    },
    {
      "after": [
        "bundle-ruby",
        "bundle-jruby",
        "bundle-truffleruby",
        "bundle-rails-truffleruby",
        "stage-ruby",
        "stage-jruby"
      ],
      "command": null,
      "id": "serve",
      "kind": "serve",
      "lanes": [
        "rails",
        "rails-1p",
        "ruby",
        "ruby-1p",
        "jruby",
        "jruby-40t",
        "jruby-512m",
        "truffleruby",
        "truffleruby-unlocked",
        "truffleruby-4t",
        "truffleruby-12t",
        "truffleruby-40t",
        "rails-truffleruby",
        "rails-truffleruby-unlocked"
      ],
      "why": "Boot each lane and record the time to accept and to a rendered room: the post weighs JRuby's five and six seconds against 1.7 for the CRuby cluster and a third of a second for the binary."
    },
    {
      "after": [
        "compile-spinel",
        "stage-spinel"
      ],
      "command": null,
      "id": "serve-spinel",
      "kind": "serve",
      "lanes": [
        "spinel"
      ],
      "why": "The binary boots once it is built, with its own cold start recorded (the post's third of a second to a rendered page); a step of its own, so a Spinel master that does not build leaves the other lanes measured and this one recorded as absent, not slow."
    },
    {
      "after": [
        "serve"
      ],
      "command": null,
      "id": "sign-in",
      "kind": "sign_in",
      "lanes": [],
      "why": "Every request is signed in: sign in as user1@example.com / secret123456 (the seed's) through each lane's own form and carry the cookie, since the trees do not share a cookie secret."
    },
    {
      "after": [
        "sign-in"
      ],
      "command": null,
      "id": "check",
      "kind": "check",
      "lanes": [],
      "why": "One checked request per route and lane before anything is measured, as the harness records parity.txt: lanes whose pages differ in shape (status and tag count) are not compared with each other, and each lane's tag count on the room page is its reading of the post's 3,963 (figure rooms-tags), compared, not a gate: Roundhouse is not pinned to the post's revision, and a page that drifted is still measured."
    },
    {
      "after": [
        "check"
      ],
      "command": null,
      "id": "load",
      "kind": "load",
      "lanes": [],
      "why": "wrk at 16 connections, three 20-second runs per cell after a warmup the harness sizes per lane (20 s for CRuby and Spinel, 60 for JRuby, 120 for the emit on TruffleRuby, 240 for stock Rails on it), the median reported. Give the JVM a minute of load before believing a number."
    }
  ],
  "toolchains": [
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "ruby",
          "--version"
        ],
        "fix": null,
        "mise": "ruby@4.0.5",
        "name": "ruby",
        "pattern": "ruby (\\d+\\.\\d+\\.\\d+)",
        "quote": "Campfire at ed0f9a5, Rails 8.2.0.alpha at the revision its lockfile pins, Ruby 4.0.5, JRuby 10.1.1.0 on JDK 25, TruffleRuby 40.0.0 native.",
        "version": "4.0.5",
        "why": "CRuby runs the emitted ruby lanes and stock Rails; every CRuby lane runs with YJIT."
      }
    },
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "ruby",
          "--yjit",
          "-e",
          "puts(defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? \"yjit #{RUBY_VERSION}\" : \"no yjit\")"
        ],
        "fix": null,
        "mise": "ruby@4.0.5",
        "name": "yjit",
        "pattern": "yjit (\\d+\\.\\d+\\.\\d+)",
        "quote": "For the emitted Campfire on a Ruby runtime you already have: CRuby+YJIT, one worker, 478 req/s in 232 MB, or the full eight in a gigabyte once the pubsub seam exists.",
        "version": "4.0.5",
        "why": "The CRuby lanes are CRuby+YJIT; a Ruby built without YJIT prints no version here and the CRuby lanes cannot run as published."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "jruby",
          "--version"
        ],
        "fix": null,
        "mise": "ruby@jruby-10.1.1.0",
        "name": "jruby",
        "pattern": "jruby (\\d+\\.\\d+\\.\\d+\\.\\d+)",
        "quote": "Campfire at ed0f9a5, Rails 8.2.0.alpha at the revision its lockfile pins, Ruby 4.0.5, JRuby 10.1.1.0 on JDK 25, TruffleRuby 40.0.0 native.",
        "version": "10.1.1.0",
        "why": "JRuby runs the emitted JVM tree (the same tree over JDBC): one process, twelve real threads, no GVL."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "java",
          "-version"
        ],
        "fix": null,
        "mise": "java@25",
        "name": "java",
        "pattern": "version \"(\\d+(?:\\.\\d+)*)",
        "quote": "Campfire at ed0f9a5, Rails 8.2.0.alpha at the revision its lockfile pins, Ruby 4.0.5, JRuby 10.1.1.0 on JDK 25, TruffleRuby 40.0.0 native.",
        "version": "25",
        "why": "The JDK under JRuby; the JIT's code and metadata live outside the pinned heap, which is part of JRuby's 1.6 GB."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "truffleruby",
          "--version"
        ],
        "fix": null,
        "mise": "ruby@truffleruby-40.0.0",
        "name": "truffleruby",
        "pattern": "truffleruby (\\d+\\.\\d+\\.\\d+)[^\\n]*Native",
        "quote": "Campfire at ed0f9a5, Rails 8.2.0.alpha at the revision its lockfile pins, Ruby 4.0.5, JRuby 10.1.1.0 on JDK 25, TruffleRuby 40.0.0 native.",
        "version": "40.0.0",
        "why": "TruffleRuby, the native (not JVM) build: the pattern only matches a banner that says Native. It serves the CRuby tree unmodified and stock Campfire, each one process, because it has no fork."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "bundle",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "bundler",
        "pattern": "(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "Each runtime installs its own bundle; the post gives no Bundler version (TruffleRuby uses the one it ships: BUNDLE_VERSION=system)."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "cargo",
          "--version"
        ],
        "fix": "rustup update stable",
        "mise": null,
        "name": "cargo",
        "pattern": "cargo (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": ">=1.85",
        "why": "Builds the Roundhouse emitter (cargo run --release --bin roundhouse); the post gives no Rust version. Roundhouse is edition 2024: Rust 1.85 or newer (Ubuntu 24.04's packaged cargo is 1.75)."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "sh",
          "-c",
          "PATH=$PATH:/sbin:/usr/sbin; ldconfig -p | grep -m1 -o 'libclang-[0-9][0-9.]*[.]so'"
        ],
        "fix": "sudo apt-get install libclang-dev",
        "mise": null,
        "name": "libclang",
        "pattern": "libclang-(\\d+(?:\\.\\d+)*)\\.so",
        "quote": null,
        "version": "*",
        "why": "Roundhouse's build generates its Prism and RBS bindings with bindgen, which loads libclang; without it the build stops at its first binding."
      }
    },
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "ruby",
          "-e",
          "puts(File.exist?(File.join(RbConfig::CONFIG['rubyhdrdir'], 'ruby.h')) ? \"ruby.h #{RUBY_VERSION}\" : 'no ruby.h')"
        ],
        "fix": "sudo apt-get install ruby-dev",
        "mise": null,
        "name": "ruby-headers",
        "pattern": "ruby\\.h (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "Bundling compiles the native gems (io-event for Falcon, nio4r, bcrypt, websocket-driver) against Ruby's headers: a Ruby that mise builds (`reprise setup`) has them, a system Ruby needs ruby-dev."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "sh",
          "-c",
          "PATH=$PATH:/sbin:/usr/sbin; ldconfig -p | grep -m1 -o 'libjemalloc[.]so[.][0-9]*'"
        ],
        "fix": "sudo apt-get install libjemalloc2",
        "mise": null,
        "name": "libjemalloc",
        "pattern": "libjemalloc\\.so\\.(\\d+)",
        "quote": null,
        "version": "*",
        "why": "The harness preloads jemalloc into the CRuby lanes where it finds it; without it a lane runs on the C library's malloc, which the run records as a deviation of that lane."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "pkg-config",
          "--modversion",
          "openssl"
        ],
        "fix": "sudo apt-get install libssl-dev pkg-config",
        "mise": null,
        "name": "openssl-headers",
        "pattern": "(\\d+\\.\\d+(?:\\.\\d+)?)",
        "quote": null,
        "version": "*",
        "why": "TruffleRuby compiles its openssl extension on this machine when it is installed and when the bundle needs it."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "pkg-config",
          "--modversion",
          "yaml-0.1"
        ],
        "fix": "sudo apt-get install libyaml-dev pkg-config",
        "mise": null,
        "name": "libyaml-headers",
        "pattern": "(\\d+\\.\\d+(?:\\.\\d+)?)",
        "quote": null,
        "version": "*",
        "why": "TruffleRuby's psych extension (YAML, which Rails' configuration reads) is compiled against libyaml."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "pkg-config",
          "--modversion",
          "zlib"
        ],
        "fix": "sudo apt-get install zlib1g-dev pkg-config",
        "mise": null,
        "name": "zlib-headers",
        "pattern": "(\\d+\\.\\d+(?:\\.\\d+)*)",
        "quote": null,
        "version": "*",
        "why": "TruffleRuby's zlib extension is compiled against zlib."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "rustc",
          "--version"
        ],
        "fix": "rustup update stable",
        "mise": null,
        "name": "rustc",
        "pattern": "rustc (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The compiler behind cargo; recorded because the emitter is built on the reader's machine."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "wrk",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "wrk",
        "pattern": "wrk (?:debian/)?(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The post's load generator (wrk -t2 -c16 -d20s --latency with the session cookie); Reprise's own load generator runs the same shape, and wrk is the peer it can be compared with."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "sqlite3",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "sqlite3",
        "pattern": "^(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "campfire-oracle prepare requires the sqlite3 command; every lane reads the same seeded SQLite file."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "redis-server",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "redis-server",
        "pattern": "v=(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "Stock Campfire keeps its fragment cache, Action Cable adapter and Resque queue in Redis; the harness used the box's own, the run uses this machine's own where one answers on 6379, else starts one for the rails lanes (the redis service) and stops it after."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "make",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "make",
        "pattern": "GNU Make (\\d+\\.\\d+(?:\\.\\d+)?)",
        "quote": null,
        "version": "*",
        "why": "Builds Spinel (make deps, make all) and the emitted spinel tree (make assets, make build)."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "cc",
          "--version"
        ],
        "fix": "sudo apt-get install build-essential",
        "mise": null,
        "name": "cc",
        "pattern": "(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "Spinel is a C program, and it compiles the emitted tree through the C compiler into the binary the spinel lane serves (which links SQLite: the SQLite headers, libsqlite3-dev on Debian, must be installed too). The post does not name a compiler."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "curl",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "curl",
        "pattern": "curl (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "Spinel's make deps fetches the Prism and RBS C sources it vendors from rubygems.org with curl."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "npm",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "npm",
        "pattern": "(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The emitted spinel tree's make assets installs and runs Tailwind's CLI from npm for the stylesheet the binary serves."
      }
    }
  ],
  "units": [
    {
      "metric": "req_per_s",
      "name": "throughput",
      "unit": "req/s"
    },
    {
      "metric": "p50_ms",
      "name": "median latency",
      "unit": "ms"
    },
    {
      "metric": "percent",
      "name": "percentages",
      "unit": "%"
    },
    {
      "metric": "tags",
      "name": "response shape",
      "unit": "tags"
    },
    {
      "metric": "memory_mb",
      "name": "memory",
      "unit": "MB"
    },
    {
      "metric": "req_per_s_per_gb",
      "name": "throughput per GB",
      "unit": "req/s/GB"
    },
    {
      "metric": "boot_accept_s",
      "name": "boot time",
      "unit": "s"
    },
    {
      "metric": "boot_page_s",
      "name": "time to first page",
      "unit": "s"
    },
    {
      "metric": "us_per_row",
      "name": "time per row",
      "unit": "µs/row"
    }
  ]
};

/** The machine recipe's post: a figure's sentence with inline code. */
export const machinePost: PostView = {
  "checksum": {
    "status": "matches"
  },
  "claims": [
    {
      "claim": {
        "ceiling": true,
        "figure": "wrk-pinned",
        "id": "loopback-ceiling-wrk",
        "kind": "absolute",
        "quote": "`wrk -t1 -c16` ≈ 70–76k req/s with nginx at ~98% of its core and wrk at ~83% of its own",
        "tolerance": 0.15
      },
      "figures": [
        "wrk-pinned"
      ],
      "statement": "wrk-pinned holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "oha-pinned",
        "id": "loopback-ceiling-oha",
        "kind": "absolute",
        "quote": "oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "tolerance": 0.15
      },
      "figures": [
        "oha-pinned"
      ],
      "statement": "oha-pinned holds ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "id": "wrk-above-oha",
        "kind": "ordering",
        "order": [
          "wrk-pinned",
          "oha-pinned"
        ],
        "quote": "oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "tolerance": null
      },
      "figures": [
        "wrk-pinned",
        "oha-pinned"
      ],
      "statement": "best first: wrk-pinned, oha-pinned",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "wrk-cheaper-than-oha",
        "kind": "ordering",
        "order": [
          "wrk-cpu-per-10k",
          "oha-cpu-per-10k"
        ],
        "quote": "Client CPU per 10k requests (user+sys): wrk ≈ 0.11–0.12 s, oha ≈ 0.13–0.14 s.",
        "tolerance": null
      },
      "figures": [
        "wrk-cpu-per-10k",
        "oha-cpu-per-10k"
      ],
      "statement": "best first: wrk-cpu-per-10k, oha-cpu-per-10k",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "wrk-user-cheaper-than-oha",
        "kind": "ordering",
        "order": [
          "wrk-user-per-10k",
          "oha-user-per-10k"
        ],
        "quote": "Of that, user time: wrk ≈ 0.012 s, oha ≈ 0.047 s — the rest is the kernel's loopback work, which every client pays.",
        "tolerance": null
      },
      "figures": [
        "wrk-user-per-10k",
        "oha-user-per-10k"
      ],
      "statement": "best first: wrk-user-per-10k, oha-user-per-10k",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "pinning-pays-wrk",
        "kind": "ordering",
        "order": [
          "wrk-pinned",
          "wrk-unpinned"
        ],
        "quote": "Unpinned multi-threaded clients fight the server for the 2 cores: wrk -t2 ≈ 59k, oha ≈ 53k.",
        "tolerance": null
      },
      "figures": [
        "wrk-pinned",
        "wrk-unpinned"
      ],
      "statement": "best first: wrk-pinned, wrk-unpinned",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "id": "pinning-pays-oha",
        "kind": "ordering",
        "order": [
          "oha-pinned",
          "oha-unpinned"
        ],
        "quote": "Unpinned multi-threaded clients fight the server for the 2 cores: wrk -t2 ≈ 59k, oha ≈ 53k.",
        "tolerance": null
      },
      "figures": [
        "oha-pinned",
        "oha-unpinned"
      ],
      "statement": "best first: oha-pinned, oha-unpinned",
      "tolerance": null
    },
    {
      "claim": {
        "ceiling": true,
        "denominator": "oha-unpinned",
        "id": "unpinned-wrk-above-oha",
        "kind": "ratio",
        "numerator": "wrk-unpinned",
        "quote": "Unpinned multi-threaded clients fight the server for the 2 cores: wrk -t2 ≈ 59k, oha ≈ 53k.",
        "tolerance": 0.15,
        "value": 1.11
      },
      "figures": [
        "wrk-unpinned",
        "oha-unpinned"
      ],
      "statement": "wrk-unpinned / oha-unpinned = 1.11× ±15%",
      "tolerance": "±15%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "generator-cpu-budget",
        "id": "generator-within-cpu-budget",
        "kind": "absolute",
        "quote": "it never used more than about half of one core",
        "tolerance": 0.2
      },
      "figures": [
        "generator-cpu-budget"
      ],
      "statement": "generator-cpu-budget holds ±20%",
      "tolerance": "±20%"
    },
    {
      "claim": {
        "ceiling": true,
        "figure": "generator-timer-lag",
        "id": "generator-timer-lag",
        "kind": "absolute",
        "quote": "with timer lag around one millisecond.",
        "tolerance": 0.5
      },
      "figures": [
        "generator-timer-lag"
      ],
      "statement": "generator-timer-lag holds ±50%",
      "tolerance": "±50%"
    }
  ],
  "figures": [
    {
      "figure": {
        "approx": true,
        "condition": "wrk -t1 -c16, nginx's one worker pinned to core 0, the client pinned to core 1, 13-byte body; measured on a 2-core Debian 12 machine",
        "endpoint": "/",
        "id": "wrk-pinned",
        "lane": "generator-baselines",
        "metric": "req_per_s",
        "quote": "nginx (Debian) with one worker pinned to core 0, the client pinned to core 1, 16 connections, a 13-byte body: `wrk -t1 -c16` ≈ 70–76k req/s with nginx at ~98% of its core and wrk at ~83% of its own; oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "range": [
          70000.0,
          76000.0
        ],
        "unknown": null,
        "value": null
      },
      "published": "70,000–76,000 req/s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "oha 1.16, 16 connections, pinned as for wrk, limited by its own CPU; measured on a 2-core Debian 12 machine",
        "endpoint": "/",
        "id": "oha-pinned",
        "lane": "generator-baselines",
        "metric": "req_per_s",
        "quote": "nginx (Debian) with one worker pinned to core 0, the client pinned to core 1, 16 connections, a 13-byte body: `wrk -t1 -c16` ≈ 70–76k req/s with nginx at ~98% of its core and wrk at ~83% of its own; oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "range": [
          67000.0,
          72000.0
        ],
        "unknown": null,
        "value": null
      },
      "published": "67,000–72,000 req/s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "nginx's share of its core under wrk -t1 -c16",
        "endpoint": "/",
        "id": "nginx-cpu-under-wrk",
        "lane": "nginx-loopback",
        "metric": "percent",
        "quote": "nginx (Debian) with one worker pinned to core 0, the client pinned to core 1, 16 connections, a 13-byte body: `wrk -t1 -c16` ≈ 70–76k req/s with nginx at ~98% of its core and wrk at ~83% of its own; oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "range": null,
        "unknown": null,
        "value": 98.0
      },
      "published": "≈ 98%"
    },
    {
      "figure": {
        "approx": true,
        "condition": "wrk's share of its own core",
        "endpoint": "/",
        "id": "wrk-cpu",
        "lane": "nginx-loopback",
        "metric": "percent",
        "quote": "nginx (Debian) with one worker pinned to core 0, the client pinned to core 1, 16 connections, a 13-byte body: `wrk -t1 -c16` ≈ 70–76k req/s with nginx at ~98% of its core and wrk at ~83% of its own; oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "range": null,
        "unknown": null,
        "value": 83.0
      },
      "published": "≈ 83%"
    },
    {
      "figure": {
        "approx": true,
        "condition": "oha's share of its own core",
        "endpoint": "/",
        "id": "oha-cpu",
        "lane": "nginx-loopback",
        "metric": "percent",
        "quote": "nginx (Debian) with one worker pinned to core 0, the client pinned to core 1, 16 connections, a 13-byte body: `wrk -t1 -c16` ≈ 70–76k req/s with nginx at ~98% of its core and wrk at ~83% of its own; oha 1.16 ≈ 67–72k req/s, limited by its own CPU (~95%).",
        "range": null,
        "unknown": null,
        "value": 95.0
      },
      "published": "≈ 95%"
    },
    {
      "figure": {
        "approx": true,
        "condition": "wrk's CPU time (user+sys) per 10k requests",
        "endpoint": "/",
        "id": "wrk-cpu-per-10k",
        "lane": "generator-baselines",
        "metric": "seconds",
        "quote": "Client CPU per 10k requests (user+sys): wrk ≈ 0.11–0.12 s, oha ≈ 0.13–0.14 s.",
        "range": [
          0.11,
          0.12
        ],
        "unknown": null,
        "value": null
      },
      "published": "0.11–0.12 s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "oha's CPU time (user+sys) per 10k requests",
        "endpoint": "/",
        "id": "oha-cpu-per-10k",
        "lane": "generator-baselines",
        "metric": "seconds",
        "quote": "Client CPU per 10k requests (user+sys): wrk ≈ 0.11–0.12 s, oha ≈ 0.13–0.14 s.",
        "range": [
          0.13,
          0.14
        ],
        "unknown": null,
        "value": null
      },
      "published": "0.13–0.14 s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "wrk's user time per 10k requests (the rest is the kernel's loopback work)",
        "endpoint": "/",
        "id": "wrk-user-per-10k",
        "lane": "generator-baselines",
        "metric": "seconds",
        "quote": "Of that, user time: wrk ≈ 0.012 s, oha ≈ 0.047 s — the rest is the kernel's loopback work, which every client pays.",
        "range": null,
        "unknown": null,
        "value": 0.012
      },
      "published": "≈ 0.012 s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "oha's user time per 10k requests",
        "endpoint": "/",
        "id": "oha-user-per-10k",
        "lane": "generator-baselines",
        "metric": "seconds",
        "quote": "Of that, user time: wrk ≈ 0.012 s, oha ≈ 0.047 s — the rest is the kernel's loopback work, which every client pays.",
        "range": null,
        "unknown": null,
        "value": 0.047
      },
      "published": "≈ 0.047 s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "wrk -t2, unpinned, fighting the server for the 2 cores",
        "endpoint": "/",
        "id": "wrk-unpinned",
        "lane": "generator-baselines",
        "metric": "req_per_s",
        "quote": "Unpinned multi-threaded clients fight the server for the 2 cores: wrk -t2 ≈ 59k, oha ≈ 53k.",
        "range": null,
        "unknown": null,
        "value": 59000.0
      },
      "published": "≈ 59,000 req/s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "oha, unpinned, multi-threaded, fighting the server for the 2 cores",
        "endpoint": "/",
        "id": "oha-unpinned",
        "lane": "generator-baselines",
        "metric": "req_per_s",
        "quote": "Unpinned multi-threaded clients fight the server for the 2 cores: wrk -t2 ≈ 59k, oha ≈ 53k.",
        "range": null,
        "unknown": null,
        "value": 53000.0
      },
      "published": "≈ 53,000 req/s"
    },
    {
      "figure": {
        "approx": true,
        "condition": "the load generator's own CPU, as a share of one core, at most (post 004's generator at every step)",
        "endpoint": null,
        "id": "generator-cpu-budget",
        "lane": "nginx-loopback",
        "metric": "percent",
        "quote": "The generator reports its own CPU at every step, and it never used more than about half of one core, with timer lag around one millisecond.",
        "range": null,
        "unknown": null,
        "value": 50.0
      },
      "published": "≈ 50%"
    },
    {
      "figure": {
        "approx": true,
        "condition": "the load generator's timer lag (post 004: around one millisecond)",
        "endpoint": null,
        "id": "generator-timer-lag",
        "lane": "nginx-loopback",
        "metric": "seconds",
        "quote": "The generator reports its own CPU at every step, and it never used more than about half of one core, with timer lag around one millisecond.",
        "range": null,
        "unknown": null,
        "value": 0.001
      },
      "published": "≈ 0.001 s"
    }
  ],
  "lanes": [
    {
      "here": {
        "state": "runs"
      },
      "lane": {
        "allocator": null,
        "boot_budget": "10s",
        "command": [
          "nginx",
          "-p",
          ".",
          "-c",
          "nginx.conf",
          "-g",
          "daemon off;"
        ],
        "dir": "files/machine",
        "env": {},
        "harness": null,
        "health": "/",
        "heap_mb": null,
        "image": null,
        "name": "nginx-loopback",
        "needs": [
          "nginx"
        ],
        "not_runnable": null,
        "placement": "host",
        "port": 9391,
        "runtime": null,
        "server": "nginx",
        "services": [],
        "threads": null,
        "warmup": "2s",
        "why": "nginx (Debian), one worker pinned to core 0, on loopback: what this machine can serve when the server costs nothing.",
        "workers": 1
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "Built into Reprise (`reprise validate` starts it in process); it is not a command a recipe runs."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "reference",
        "needs": [],
        "not_runnable": "Built into Reprise (`reprise validate` starts it in process); it is not a command a recipe runs.",
        "placement": "host",
        "port": null,
        "runtime": null,
        "server": null,
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "Reprise's built-in reference server: the same 13-byte answer from inside the reprise binary, so a machine without nginx can still be validated.",
        "workers": null
      }
    },
    {
      "here": {
        "state": "published_only",
        "why": "This recipe measures one generator, pinned (Reprise's own, on the CPU nginx does not use): wrk and oha, pinned and unpinned, would all read that one cell, so their baselines are published only."
      },
      "lane": {
        "allocator": null,
        "boot_budget": null,
        "command": null,
        "dir": null,
        "env": {},
        "harness": null,
        "health": null,
        "heap_mb": null,
        "image": null,
        "name": "generator-baselines",
        "needs": [],
        "not_runnable": "This recipe measures one generator, pinned (Reprise's own, on the CPU nginx does not use): wrk and oha, pinned and unpinned, would all read that one cell, so their baselines are published only.",
        "placement": "host",
        "port": null,
        "runtime": null,
        "server": "nginx",
        "services": [],
        "threads": null,
        "warmup": null,
        "why": "The baselines of wrk and oha against the one-worker nginx, pinned and unpinned, measured on the project's 2-core Debian 12 machines.",
        "workers": 1
      }
    }
  ],
  "machine": {
    "base_mhz": 3600,
    "boost": false,
    "cores": 6,
    "cpu": "AMD Ryzen 5 3600 6-Core Processor",
    "cpu_placement": "split",
    "governor": "performance",
    "kernel": null,
    "memory_gb": 63,
    "os": "Ubuntu 24.04.5 LTS",
    "quote": "AMD Ryzen 5 3600 6-Core Processor, 6c/12t, 3.6 GHz, boost disabled, governor=performance, 63 GB RAM, Ubuntu 24.04.5 LTS.",
    "smt": true,
    "threads": 12,
    "virtualization": "none"
  },
  "post": {
    "author": "Reprise",
    "date": "2026-11-30",
    "id": "machine",
    "run": null,
    "summary": "Before reproducing anyone's numbers, check the machine: can it serve a trivial response on loopback at the rate a quiet two-core box does, with the client and server on separate cores, and does the load generator stay within its budget (post 004's: at most about half a core, timer lag around a millisecond)? A box that cannot reach the baseline, or whose generator eats the server's CPU, will turn every recipe's verdict into a verdict on the box. The baselines are Reprise's own measurements on its Debian 12 build machines (2 cores), not a post's; the reference machine below is the nightly benchmark's, for comparison of the machine fingerprint.",
    "title": "Is this box fit to benchmark on?",
    "unknowns": [
      "The loopback baselines were measured on the project's shared Debian 12 machines (2 cores), not on the reference machine named below; the schema holds one machine per recipe, so each figure's condition says where it was measured.",
      "FACTS.md gives no run duration for the baselines; this recipe's workload runs 10 s, three times.",
      "Pinning the client to core 1 is the load step's business; the recipe pins nginx's worker to core 0 in its config and the wrk step with taskset."
    ],
    "url": null
  },
  "steps": [
    {
      "after": [],
      "command": null,
      "id": "serve",
      "kind": "serve",
      "lanes": [
        "nginx-loopback"
      ],
      "why": "Boot nginx and wait until it answers; a machine that cannot is not fit to benchmark on."
    },
    {
      "after": [
        "serve"
      ],
      "command": null,
      "id": "check",
      "kind": "check",
      "lanes": [
        "nginx-loopback"
      ],
      "why": "One checked request: 200 and 13 bytes, or the rate measures something else."
    },
    {
      "after": [
        "check"
      ],
      "command": "taskset -c 1 wrk -t1 -c16 -d10s http://127.0.0.1:9391/",
      "id": "wrk",
      "kind": "command",
      "lanes": [],
      "why": "The peer tool in the same run, pinned to core 1 as the baseline was: wrk -t1 -c16 against the one-worker nginx."
    },
    {
      "after": [
        "wrk"
      ],
      "command": null,
      "id": "load",
      "kind": "load",
      "lanes": [
        "nginx-loopback"
      ],
      "why": "Reprise's own generator against the same server, three runs; its rate and its own CPU are read against wrk's and against post 004's budget for a generator."
    }
  ],
  "toolchains": [
    {
      "on_path": true,
      "toolchain": {
        "command": [
          "nginx",
          "-v"
        ],
        "fix": null,
        "mise": null,
        "name": "nginx",
        "pattern": "nginx/(\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "A C server whose ceiling on loopback is the machine's, not a runtime's; Debian's nginx, as the baselines were measured with."
      }
    },
    {
      "on_path": false,
      "toolchain": {
        "command": [
          "wrk",
          "--version"
        ],
        "fix": null,
        "mise": null,
        "name": "wrk",
        "pattern": "wrk (\\d+\\.\\d+\\.\\d+)",
        "quote": null,
        "version": "*",
        "why": "The peer load generator the baselines were measured with, run in the same validation so Reprise's own generator is read against it."
      }
    }
  ],
  "units": [
    {
      "metric": "req_per_s",
      "name": "throughput",
      "unit": "req/s"
    },
    {
      "metric": "percent",
      "name": "percentages",
      "unit": "%"
    },
    {
      "metric": "seconds",
      "name": "durations",
      "unit": "s"
    }
  ]
};

/** A new run of hello-ceiling, planned without falcon: it judges no claim here. */
export const plan: RunPlan = {
  "checksum": {
    "status": "matches"
  },
  "claims": {
    "judged": [],
    "not_judged": [
      {
        "claims": [
          "puma-ceiling"
        ],
        "fix": null,
        "why": "an absolute figure is judged only on a machine like the post's, and this one differs"
      },
      {
        "claims": [
          "falcon-ceiling",
          "falcon-twice-puma",
          "falcon-above-puma"
        ],
        "fix": "gem install falcon",
        "why": "lane falcon cannot run here: it needs falcon, which this machine lacks"
      }
    ],
    "summary": "none of its 4 claims",
    "total": 4
  },
  "consent": {
    "files": [
      {
        "lines": 1,
        "path": "hello/config.ru",
        "script": false
      },
      {
        "lines": 16,
        "path": "hello/nginx.conf",
        "script": false
      }
    ],
    "lane_address": "127.0.0.1",
    "lanes": [
      {
        "command": "in files/hello: puma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru (port 9292)",
        "env": [],
        "name": "puma"
      },
      {
        "command": "in files/hello: falcon serve --bind http://127.0.0.1:9294 --count 2 --config config.ru (port 9294)",
        "env": [],
        "name": "falcon"
      },
      {
        "command": "in files/hello: nginx -p . -c nginx.conf -g 'daemon off;' (port 9293)",
        "env": [],
        "name": "nginx"
      }
    ],
    "records_machine": [
      "uname -a",
      "uname -s",
      "uname -m",
      "hostname",
      "lscpu --json",
      "uptime",
      "mise ls --current --json",
      "git rev-parse HEAD",
      "git rev-parse --abbrev-ref HEAD",
      "git log -1 --format=%s",
      "git status --porcelain",
      "ruby --version",
      "jruby --version",
      "spinel --version",
      "rustc --version",
      "cargo --version",
      "go version",
      "node --version",
      "bun --version",
      "crystal --version",
      "shards --version",
      "python3 --version",
      "uv --version",
      "dotnet --version",
      "wrk --version",
      "curl --version",
      "mise --version",
      "sqlite3 --version"
    ],
    "requests": [
      "GET /"
    ],
    "server_host": null,
    "services": [],
    "steps": [
      {
        "does": "boot each lane once until it answers",
        "env": [],
        "id": "serve",
        "kind": "serve"
      },
      {
        "does": "one checked request per endpoint of hello per lane",
        "env": [],
        "id": "check",
        "kind": "check"
      },
      {
        "does": "measure hello: lanes × endpoints × runs",
        "env": [],
        "id": "measure",
        "kind": "load"
      }
    ],
    "version_commands": [
      "ruby --version",
      "puma --version",
      "falcon --version",
      "nginx -v"
    ],
    "withheld": [
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "GH_ENTERPRISE_TOKEN"
    ]
  },
  "deviations": [],
  "judged_elsewhere": [
    "fibers-vs-threads"
  ],
  "lanes": [
    "puma",
    "falcon",
    "nginx"
  ],
  "recipe": "hello-ceiling",
  "resumes": null,
  "reviewed_diff": null,
  "sources": [],
  "steps": [
    {
      "decision": "run",
      "describe": "boot each lane once until it answers",
      "expected": null,
      "expected_quick": null,
      "id": "serve",
      "kind": "serve",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Boot each lane and wait until it answers, recording how long that took; a lane that cannot boot is skipped with its reason."
    },
    {
      "decision": "run",
      "describe": "one checked request per endpoint of hello per lane",
      "expected": null,
      "expected_quick": null,
      "id": "check",
      "kind": "check",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "One checked request per lane before measuring: every server must answer the same 13 bytes, or the numbers do not compare."
    },
    {
      "decision": "run",
      "describe": "measure hello: lanes × endpoints × runs",
      "expected": {
        "cell_seconds": 20.0,
        "cells": 6,
        "lanes": 2,
        "quick": false,
        "runs": 3,
        "seconds": 141.0,
        "summary": "2 lanes × 1 endpoint × 3 runs of 20 s, each after its lane's warm-up (21 s in all): about 2 min 21 s (falcon cannot run here)",
        "warmup_seconds": 21.0
      },
      "expected_quick": {
        "cell_seconds": 2.0,
        "cells": 4,
        "lanes": 2,
        "quick": true,
        "runs": 2,
        "seconds": 12.0,
        "summary": "2 lanes × 1 endpoint × 2 runs of 2 s (quick: the recipe's 3 runs of 20 s), each after a warm-up of 1 s (4 s in all): about 12 s (falcon cannot run here)",
        "warmup_seconds": 4.0
      },
      "id": "measure",
      "kind": "load",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Three timed runs per lane after a warm-up, lanes alternating, server and client on separate CPUs where the machine allows."
    }
  ]
};

/** A new run of campfire-falcon: its lanes start with an environment of their own. */
export const campfirePlan: RunPlan = {
  "checksum": {
    "status": "matches"
  },
  "claims": {
    "judged": [],
    "not_judged": [
      {
        "claims": [
          "cache-triples-puma-avatar",
          "falconrb-jump",
          "avatar-layers-order",
          "falconrb-avatar",
          "falcon-avatar-within-1pct-of-port",
          "falcon-post-within-1pct-of-port",
          "falcon-tail-worse-than-puma",
          "timeslice-confirms-gvl",
          "falcon-tail-vs-puma-now",
          "falcon-tail-now",
          "up-well-behind",
          "falcon-up",
          "memory-ratio",
          "headers-over-half",
          "falcon-ahead-rooms-1",
          "falcon-ahead-rooms-1-messages",
          "falcon-ahead-users-me-sidebar",
          "falcon-ahead-searches-q-coffee",
          "falcon-ahead-stylesheet"
        ],
        "fix": "gem install bundler",
        "why": "lanes ruby, ruby-falcon cannot run here: it needs bundler, which this machine lacks"
      },
      {
        "claims": [
          "falcon-rack-adds-little"
        ],
        "fix": null,
        "why": "lane earlier-builds is the post's only: This recipe runs the emitted app as the post left it; the earlier builds' figures read the same cells as the final build's, so they are published only"
      },
      {
        "claims": [
          "rack-adapter-costs-more-than-lookup",
          "rack-adapter-vs-lookup",
          "rack-adapter-mostly-env-and-headers"
        ],
        "fix": null,
        "why": "lane request-profile is the post's only: This recipe runs no profiler: the profile's figures are published only"
      },
      {
        "claims": [
          "tail-now-order",
          "up-order",
          "memory-order"
        ],
        "fix": null,
        "why": "lane tobi is the post's only: The post names no revision of tobi/campfire-once-ruby-ractor and does not say how it is booted; this recipe does not stand it up. Its figures are published only"
      }
    ],
    "summary": "none of its 26 claims",
    "total": 26
  },
  "consent": {
    "files": [
      {
        "lines": 5,
        "path": "bundle-falcon.sh",
        "script": false
      }
    ],
    "lane_address": "127.0.0.1",
    "lanes": [
      {
        "command": "in trees/campfire-ruby: bundle exec puma -C config/puma.rb config.ru (port 3000)",
        "env": [
          "BUNDLE_GEMFILE=../campfire-ruby-falcon/Gemfile",
          "PORT=3000",
          "RAILS_ENV=production",
          "RAILS_MAX_THREADS=5",
          "RUBY_YJIT_ENABLE=1",
          "LD_PRELOAD=…/libjemalloc.so.2 (jemalloc, where this machine has it)",
          "WEB_CONCURRENCY=… (0.666 per CPU it is placed on, rounded up)"
        ],
        "name": "ruby"
      },
      {
        "command": "in trees/campfire-ruby: bundle exec falcon host falcon.rb (port 3001)",
        "env": [
          "BUNDLE_GEMFILE=../campfire-ruby-falcon/Gemfile",
          "PORT=3001",
          "RAILS_ENV=production",
          "RUBY_YJIT_ENABLE=1",
          "LD_PRELOAD=…/libjemalloc.so.2 (jemalloc, where this machine has it)",
          "WEB_CONCURRENCY=… (0.666 per CPU it is placed on, rounded up)"
        ],
        "name": "ruby-falcon"
      }
    ],
    "records_machine": [
      "uname -a",
      "uname -s",
      "uname -m",
      "hostname",
      "lscpu --json",
      "uptime",
      "mise ls --current --json",
      "git rev-parse HEAD",
      "git rev-parse --abbrev-ref HEAD",
      "git log -1 --format=%s",
      "git status --porcelain",
      "ruby --version",
      "jruby --version",
      "spinel --version",
      "rustc --version",
      "cargo --version",
      "go version",
      "node --version",
      "bun --version",
      "crystal --version",
      "shards --version",
      "python3 --version",
      "uv --version",
      "dotnet --version",
      "wrk --version",
      "curl --version",
      "mise --version",
      "sqlite3 --version"
    ],
    "requests": [
      "GET /rooms/1",
      "GET /rooms/1/messages",
      "GET /users/me/sidebar",
      "GET /searches?q=coffee",
      "GET {avatar}",
      "GET {stylesheet}",
      "GET /up",
      "POST /rooms/2/messages with a body of 23 bytes"
    ],
    "server_host": null,
    "services": [],
    "steps": [
      {
        "does": "https://github.com/basecamp/once-campfire at ed0f9a5 into sources/campfire",
        "env": [],
        "id": "clone-campfire",
        "kind": "clone"
      },
      {
        "does": "https://github.com/rubys/roundhouse at the tip of main (unpinned) into sources/roundhouse",
        "env": [],
        "id": "clone-roundhouse",
        "kind": "clone"
      },
      {
        "does": "in sources/roundhouse: cargo build --release --bin roundhouse",
        "env": [],
        "id": "build-roundhouse",
        "kind": "build"
      },
      {
        "does": "in sources/roundhouse: scripts/campfire-oracle prepare --app ../campfire, then count the rows of sources/roundhouse/build/campfire-oracle/storage/db/production.sqlite3 (expecting messages = 500, rooms = 5, users = 50)",
        "env": [],
        "id": "seed",
        "kind": "seed"
      },
      {
        "does": "in sources/roundhouse: target/release/roundhouse --target ruby ../campfire -o ../../trees/campfire-ruby --allow-unsupported → trees/campfire-ruby",
        "env": [],
        "id": "emit",
        "kind": "emit"
      },
      {
        "does": "in trees/campfire-ruby: ruby -e 'Dir.mkdir('\\''../campfire-ruby-falcon'\\'') unless Dir.exist?('\\''../campfire-ruby-falcon'\\''); File.write('\\''../campfire-ruby-falcon/Gemfile'\\'', %(eval_gemfile '\\''../campfire-ruby/Gemfile'\\''\\ngem '\\''falcon'\\''\\n)); File.write('\\''../campfire-ruby-falcon/Gemfile.lock'\\'', File.read('\\''Gemfile.lock'\\''))'",
        "env": [],
        "id": "add-falcon",
        "kind": "command"
      },
      {
        "does": "in trees/campfire-ruby: sh ../../files/bundle-falcon.sh",
        "env": [],
        "id": "bundle",
        "kind": "command"
      },
      {
        "does": "copy sources/roundhouse/build/campfire-oracle/storage/db/production.sqlite3 into trees/campfire-ruby/storage/development.sqlite3 (SQLite backup)",
        "env": [],
        "id": "stage",
        "kind": "stage"
      },
      {
        "does": "boot each lane once until it answers (lanes ruby, ruby-falcon)",
        "env": [],
        "id": "serve",
        "kind": "serve"
      },
      {
        "does": "sign in to each lane as user1@example.com, then boot it from cold once more, timed to its signed-in room page (lanes ruby, ruby-falcon)",
        "env": [],
        "id": "sign-in",
        "kind": "sign_in"
      },
      {
        "does": "one checked request per endpoint of campfire per lane (lanes ruby, ruby-falcon)",
        "env": [],
        "id": "check",
        "kind": "check"
      },
      {
        "does": "measure campfire: lanes × endpoints × runs (lanes ruby, ruby-falcon)",
        "env": [],
        "id": "load",
        "kind": "load"
      }
    ],
    "version_commands": [
      "ruby --version",
      "bundle --version",
      "cargo --version",
      "sh -c 'PATH=$PATH:/sbin:/usr/sbin; ldconfig -p | grep -m1 -o '\\''libclang-[0-9][0-9.]*[.]so'\\'''",
      "ruby -e 'puts(File.exist?(File.join(RbConfig::CONFIG['\\''rubyhdrdir'\\''], '\\''ruby.h'\\'')) ? \"ruby.h #{RUBY_VERSION}\" : '\\''no ruby.h'\\'')'",
      "sh -c 'PATH=$PATH:/sbin:/usr/sbin; ldconfig -p | grep -m1 -o '\\''libjemalloc[.]so[.][0-9]*'\\'''",
      "cc --version"
    ],
    "withheld": [
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "GH_ENTERPRISE_TOKEN"
    ]
  },
  "deviations": [],
  "judged_elsewhere": [
    "fibers-vs-threads"
  ],
  "lanes": [
    "ruby",
    "ruby-falcon"
  ],
  "recipe": "campfire-falcon",
  "resumes": null,
  "reviewed_diff": null,
  "sources": [
    {
      "id": "campfire",
      "revision": "ed0f9a5",
      "url": "https://github.com/basecamp/once-campfire"
    },
    {
      "id": "roundhouse",
      "revision": "main (unpinned)",
      "url": "https://github.com/rubys/roundhouse"
    }
  ],
  "steps": [
    {
      "decision": "run",
      "describe": "https://github.com/basecamp/once-campfire at ed0f9a5 into sources/campfire",
      "expected": null,
      "expected_quick": null,
      "id": "clone-campfire",
      "kind": "clone",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Campfire's own source, the Rails app the emitted tree is compiled from and whose seed every lane reads."
    },
    {
      "decision": "run",
      "describe": "https://github.com/rubys/roundhouse at the tip of main (unpinned) into sources/roundhouse",
      "expected": null,
      "expected_quick": null,
      "id": "clone-roundhouse",
      "kind": "clone",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "The code is in the roundhouse repository: falcon.rb and runtime/thruster_cache.rb in the CRuby overlay, and the ruby-falcon lane in scripts/bench-campfire."
    },
    {
      "decision": "run",
      "describe": "in sources/roundhouse: cargo build --release --bin roundhouse",
      "expected": null,
      "expected_quick": null,
      "id": "build-roundhouse",
      "kind": "build",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "The emitter is a Rust binary built from the checkout, as the harness builds it."
    },
    {
      "decision": "run",
      "describe": "in sources/roundhouse: scripts/campfire-oracle prepare --app ../campfire, then count the rows of sources/roundhouse/build/campfire-oracle/storage/db/production.sqlite3 (expecting messages = 500, rooms = 5, users = 50)",
      "expected": null,
      "expected_quick": null,
      "id": "seed",
      "kind": "seed",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "campfire-oracle prepare bundles Campfire, migrates, seeds 50 users, 5 rooms and 100 messages per room, and precompiles assets: the database every lane reads."
    },
    {
      "decision": "run",
      "describe": "in sources/roundhouse: target/release/roundhouse --target ruby ../campfire -o ../../trees/campfire-ruby --allow-unsupported → trees/campfire-ruby",
      "expected": null,
      "expected_quick": null,
      "id": "emit",
      "kind": "emit",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "The Ruby that Roundhouse emits from Campfire's Rails source, now with Thruster's cache rules in process and a falcon.rb; run from the roundhouse checkout's root, which it reads runtime/ from."
    },
    {
      "decision": "run",
      "describe": "in trees/campfire-ruby: ruby -e 'Dir.mkdir('\\''../campfire-ruby-falcon'\\'') unless Dir.exist?('\\''../campfire-ruby-falcon'\\''); File.write('\\''../campfire-ruby-falcon/Gemfile'\\'', %(eval_gemfile '\\''../campfire-ruby/Gemfile'\\''\\ngem '\\''falcon'\\''\\n)); File.write('\\''../campfire-ruby-falcon/Gemfile.lock'\\'', File.read('\\''Gemfile.lock'\\''))'",
      "expected": null,
      "expected_quick": null,
      "id": "add-falcon",
      "kind": "command",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "It's not a default. The emitted Gemfile names Puma; the benchmark adds Falcon itself, at the version Tobi's port uses, which the post does not give: Falcon is added unpinned. A Gemfile of its own beside the tree (trees/campfire-ruby-falcon/: the emitted Gemfile plus Falcon), its lock seeded from the emitted one, keeps the tree as emitted: a file added to it would be a tree changed since it was made, emitted again by every later run."
    },
    {
      "decision": "run",
      "describe": "in trees/campfire-ruby: sh ../../files/bundle-falcon.sh",
      "expected": null,
      "expected_quick": null,
      "id": "bundle",
      "kind": "command",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "bundle install for the emitted tree with Falcon added (trees/campfire-ruby-falcon/Gemfile: the emitted Gemfile plus Falcon), so the Puma and Falcon lanes run the same gems; always install, bundle check is not a gate. The Falcon version it resolved is the step's result (results/bundle.json): the post does not give it, so a run records the one it used."
    },
    {
      "decision": "run",
      "describe": "copy sources/roundhouse/build/campfire-oracle/storage/db/production.sqlite3 into trees/campfire-ruby/storage/development.sqlite3 (SQLite backup)",
      "expected": null,
      "expected_quick": null,
      "id": "stage",
      "kind": "stage",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Every lane reads the same seeded database, copied into the tree's storage/."
    },
    {
      "decision": "run",
      "describe": "boot each lane once until it answers (lanes ruby, ruby-falcon)",
      "expected": null,
      "expected_quick": null,
      "id": "serve",
      "kind": "serve",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "The same emitted application, once under Puma and once under Falcon: the ruby-falcon lane isolates what the app server costs."
    },
    {
      "decision": "run",
      "describe": "sign in to each lane as user1@example.com, then boot it from cold once more, timed to its signed-in room page (lanes ruby, ruby-falcon)",
      "expected": null,
      "expected_quick": null,
      "id": "sign-in",
      "kind": "sign_in",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Every request is signed in, as the seed's first user; the session cookie is carried by every load step."
    },
    {
      "decision": "run",
      "describe": "one checked request per endpoint of campfire per lane (lanes ruby, ruby-falcon)",
      "expected": null,
      "expected_quick": null,
      "id": "check",
      "kind": "check",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "One checked request per endpoint per lane before measuring: status, tags, bytes and digest must match across lanes, or the numbers do not compare."
    },
    {
      "decision": "run",
      "describe": "measure campfire: lanes × endpoints × runs (lanes ruby, ruby-falcon)",
      "expected": {
        "cell_seconds": 20.0,
        "cells": 0,
        "lanes": 0,
        "quick": false,
        "runs": 3,
        "seconds": 0.0,
        "summary": "0 lanes × 8 endpoints × 3 runs of 20 s: about 0 s (ruby, ruby-falcon cannot run here)",
        "warmup_seconds": -0.0
      },
      "expected_quick": {
        "cell_seconds": 2.0,
        "cells": 0,
        "lanes": 0,
        "quick": true,
        "runs": 2,
        "seconds": 0.0,
        "summary": "0 lanes × 8 endpoints × 2 runs of 2 s (quick: the recipe's 3 runs of 20 s): about 0 s (ruby, ruby-falcon cannot run here)",
        "warmup_seconds": -0.0
      },
      "id": "load",
      "kind": "load",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Requests per second and tail latency per route, three runs per cell after a warm-up, the median reported."
    }
  ]
};

/** A new run of the machine recipe: long command lines in its plan. */
export const machinePlan: RunPlan = {
  "checksum": {
    "status": "matches"
  },
  "claims": {
    "judged": [],
    "not_judged": [
      {
        "claims": [
          "loopback-ceiling-wrk",
          "loopback-ceiling-oha",
          "wrk-above-oha",
          "wrk-cheaper-than-oha",
          "wrk-user-cheaper-than-oha",
          "pinning-pays-wrk",
          "pinning-pays-oha",
          "unpinned-wrk-above-oha"
        ],
        "fix": null,
        "why": "lane generator-baselines is the post's only: This recipe measures one generator, pinned (Reprise's own, on the CPU nginx does not use): wrk and oha, pinned and unpinned, would all read that one cell, so their baselines are published only"
      },
      {
        "claims": [
          "generator-within-cpu-budget",
          "generator-timer-lag"
        ],
        "fix": null,
        "why": "an absolute figure is judged only on a machine like the post's, and this one differs"
      }
    ],
    "summary": "none of its 10 claims",
    "total": 10
  },
  "consent": {
    "files": [
      {
        "lines": 17,
        "path": "machine/nginx.conf",
        "script": false
      }
    ],
    "lane_address": "127.0.0.1",
    "lanes": [
      {
        "command": "in files/machine: nginx -p . -c nginx.conf -g 'daemon off;' (port 9391)",
        "env": [],
        "name": "nginx-loopback"
      }
    ],
    "records_machine": [
      "uname -a",
      "uname -s",
      "uname -m",
      "hostname",
      "lscpu --json",
      "uptime",
      "mise ls --current --json",
      "git rev-parse HEAD",
      "git rev-parse --abbrev-ref HEAD",
      "git log -1 --format=%s",
      "git status --porcelain",
      "ruby --version",
      "jruby --version",
      "spinel --version",
      "rustc --version",
      "cargo --version",
      "go version",
      "node --version",
      "bun --version",
      "crystal --version",
      "shards --version",
      "python3 --version",
      "uv --version",
      "dotnet --version",
      "wrk --version",
      "curl --version",
      "mise --version",
      "sqlite3 --version"
    ],
    "requests": [
      "GET /"
    ],
    "server_host": null,
    "services": [],
    "steps": [
      {
        "does": "boot each lane once until it answers (lane nginx-loopback)",
        "env": [],
        "id": "serve",
        "kind": "serve"
      },
      {
        "does": "one checked request per endpoint of loopback per lane (lane nginx-loopback)",
        "env": [],
        "id": "check",
        "kind": "check"
      },
      {
        "does": "taskset -c 1 wrk -t1 -c16 -d10s http://127.0.0.1:9391/",
        "env": [],
        "id": "wrk",
        "kind": "command"
      },
      {
        "does": "measure loopback: lanes × endpoints × runs (lane nginx-loopback)",
        "env": [],
        "id": "load",
        "kind": "load"
      }
    ],
    "version_commands": [
      "nginx -v",
      "wrk --version"
    ],
    "withheld": [
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "GH_ENTERPRISE_TOKEN"
    ]
  },
  "deviations": [],
  "judged_elsewhere": [
    "fibers-vs-threads"
  ],
  "lanes": [
    "nginx-loopback"
  ],
  "recipe": "machine",
  "resumes": null,
  "reviewed_diff": null,
  "sources": [],
  "steps": [
    {
      "decision": "run",
      "describe": "boot each lane once until it answers (lane nginx-loopback)",
      "expected": null,
      "expected_quick": null,
      "id": "serve",
      "kind": "serve",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Boot nginx and wait until it answers; a machine that cannot is not fit to benchmark on."
    },
    {
      "decision": "run",
      "describe": "one checked request per endpoint of loopback per lane (lane nginx-loopback)",
      "expected": null,
      "expected_quick": null,
      "id": "check",
      "kind": "check",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "One checked request: 200 and 13 bytes, or the rate measures something else."
    },
    {
      "decision": "run",
      "describe": "taskset -c 1 wrk -t1 -c16 -d10s http://127.0.0.1:9391/",
      "expected": null,
      "expected_quick": null,
      "id": "wrk",
      "kind": "command",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "The peer tool in the same run, pinned to core 1 as the baseline was: wrk -t1 -c16 against the one-worker nginx."
    },
    {
      "decision": "run",
      "describe": "measure loopback: lanes × endpoints × runs (lane nginx-loopback)",
      "expected": {
        "cell_seconds": 10.0,
        "cells": 3,
        "lanes": 1,
        "quick": false,
        "runs": 3,
        "seconds": 36.0,
        "summary": "1 lane × 1 endpoint × 3 runs of 10 s, each after a warm-up of 2 s (6 s in all): about 36 s",
        "warmup_seconds": 6.0
      },
      "expected_quick": {
        "cell_seconds": 2.0,
        "cells": 2,
        "lanes": 1,
        "quick": true,
        "runs": 2,
        "seconds": 6.0,
        "summary": "1 lane × 1 endpoint × 2 runs of 2 s (quick: the recipe's 3 runs of 10 s), each after a warm-up of 1 s (2 s in all): about 6 s",
        "warmup_seconds": 2.0
      },
      "id": "load",
      "kind": "load",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Reprise's own generator against the same server, three runs; its rate and its own CPU are read against wrk's and against post 004's budget for a generator."
    }
  ]
};

/** A new run of fibers-vs-threads: a command recipe, every lane of it runnable here. */
export const fibersPlan: RunPlan = {
  "checksum": {
    "status": "matches"
  },
  "claims": {
    "judged": [
      "fibers-faster-to-create",
      "fibers-less-memory",
      "fibers-outnumber-threads"
    ],
    "not_judged": [],
    "summary": "all 3 claims",
    "total": 3
  },
  "consent": {
    "files": [
      {
        "lines": 60,
        "path": "fibers/fibers_vs_threads.rb",
        "script": false
      }
    ],
    "lane_address": "127.0.0.1",
    "lanes": [],
    "records_machine": [],
    "requests": [],
    "server_host": null,
    "services": [],
    "steps": [
      {
        "does": "in files/fibers: ruby fibers_vs_threads.rb fibers 10000",
        "env": [],
        "id": "fibers",
        "kind": "command"
      },
      {
        "does": "in files/fibers: ruby fibers_vs_threads.rb threads 10000",
        "env": [],
        "id": "threads",
        "kind": "command"
      }
    ],
    "version_commands": [],
    "withheld": [
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "GH_ENTERPRISE_TOKEN"
    ]
  },
  "deviations": [],
  "judged_elsewhere": [],
  "lanes": [
    "fibers",
    "threads"
  ],
  "recipe": "fibers-vs-threads",
  "resumes": null,
  "reviewed_diff": null,
  "sources": [],
  "steps": [
    {
      "decision": "run",
      "describe": "in files/fibers: ruby fibers_vs_threads.rb fibers 10000",
      "expected": null,
      "expected_quick": null,
      "id": "fibers",
      "kind": "command",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "I have written a small application that would spawn a number of fibers (or threads) and then would return the time went into this operation. I also recorded the VM size after the operation."
    },
    {
      "decision": "run",
      "describe": "in files/fibers: ruby fibers_vs_threads.rb threads 10000",
      "expected": null,
      "expected_quick": null,
      "id": "threads",
      "kind": "command",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "The same application spawning threads; run after the fibers, never at the same time, so neither competes with the other for the machine."
    }
  ]
};

/** What `reprise setup` would install for hello-ceiling. */
export const setupPlan: SetupPlan = {
  "by_hand": [
    "ruby *",
    "puma *",
    "nginx *"
  ],
  "commands": [
    "mise install"
  ],
  "config": "/home/reader/.local/share/reprise/setup/hello-ceiling/mise.toml",
  "config_text": "# Written by `reprise setup`: the toolchains the recipe pins.\n[tools]\n\"gem:falcon\" = \"latest\"\n",
  "dir": "/home/reader/.local/share/reprise/setup/hello-ceiling",
  "get_mise": null,
  "installs": [
    "gem:falcon latest (for falcon)"
  ],
  "lanes": [],
  "mise": "/usr/bin/mise",
  "recipe": "hello-ceiling"
};

/** Everyone's results for hello-ceiling before anything was read, not signed in. */
export const nobodyYet: Community = {
  "apart": [],
  "cache_unread": null,
  "claims": [
    {
      "band": [
        45900.0,
        62100.0
      ],
      "band_reading": "45,900–62,100 req/s",
      "by_cpu": [],
      "claim": "puma-ceiling",
      "could_not_say": 0,
      "kind": "absolute",
      "not_reproduced": 0,
      "points": [],
      "published": 54000.0,
      "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second",
      "reproduced": 0,
      "this_machine": null,
      "unit": "req/s"
    },
    {
      "band": [
        90100.0,
        121900.0
      ],
      "band_reading": "90,100–121,900 req/s",
      "by_cpu": [],
      "claim": "falcon-ceiling",
      "could_not_say": 0,
      "kind": "absolute",
      "not_reproduced": 0,
      "points": [],
      "published": 106000.0,
      "quote": "under Falcon, 106,000.",
      "reproduced": 0,
      "this_machine": null,
      "unit": "req/s"
    },
    {
      "band": [
        1.666,
        2.254
      ],
      "band_reading": "1.67–2.25×",
      "by_cpu": [],
      "claim": "falcon-twice-puma",
      "could_not_say": 0,
      "kind": "ratio",
      "not_reproduced": 0,
      "points": [],
      "published": 1.96,
      "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
      "reproduced": 0,
      "this_machine": null,
      "unit": "×"
    },
    {
      "band": null,
      "band_reading": null,
      "by_cpu": [],
      "claim": "falcon-above-puma",
      "could_not_say": 0,
      "kind": "ordering",
      "not_reproduced": 0,
      "points": [],
      "published": null,
      "quote": "under Falcon, 106,000.",
      "reproduced": 0,
      "this_machine": null,
      "unit": "req/s"
    }
  ],
  "counted": 0,
  "discussions": 0,
  "discussions_url": "https://github.com/rubys/reprise/discussions",
  "dropped": 0,
  "fetch": {
    "fetch": "not_signed_in"
  },
  "fetched_at": null,
  "rate": null,
  "recipe": "hello-ceiling",
  "repo": "rubys/reprise",
  "reviewed_sha256": "5bed0d922286a02700b5a5cdbd37b46b28c1297af9667c8b3f7f00d62996dab6",
  "superseded": 0,
  "this_machine": null
};

/** The full run's results. */
export const results: ResultsView = {
  "commands": [
    "puma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru",
    "falcon serve --bind http://127.0.0.1:9294 --count 2 --config config.ru",
    "nginx -p . -c nginx.conf -g 'daemon off;'"
  ],
  "confidence": "95%",
  "deviations": [],
  "environment": {
    "bench_env": {
      "captured_at": "2026-11-30T05:00:00Z",
      "harness": {
        "connections": 16,
        "duration_sec": 20,
        "runs": 3,
        "warmup_sec": 5
      },
      "reprise": {
        "fingerprint": {
          "clock": {
            "base_khz": null,
            "boost": false,
            "boost_control": "cpufreq_boost",
            "cur_khz": 3800000,
            "driver": "acpi-cpufreq",
            "energy_performance_preference": null,
            "governor": "performance",
            "governors_agree": true,
            "max_khz": 3800000,
            "min_khz": 2200000,
            "policies": [
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "0",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy0",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "1",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy1",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "2",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy2",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "3",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy3",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "4",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy4",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "5",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy5",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "6",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy6",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "7",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy7",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "8",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy8",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "9",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy9",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "10",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy10",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "11",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy11",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "12",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy12",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "13",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy13",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "14",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy14",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "15",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy15",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              }
            ]
          },
          "container_engine": {
            "api_version": null,
            "architecture": null,
            "cpus": null,
            "host": "unix:///var/run/docker.sock",
            "kernel": null,
            "memory_bytes": null,
            "name": "Docker Engine - Community",
            "operating_system": null,
            "os": null,
            "version": "27.3.1"
          },
          "cpu": {
            "brand": "AMD Ryzen 7 5800X 8-Core Processor",
            "caches": [],
            "cpuinfo_khz": 3800000,
            "family": 25,
            "hypervisor_flag": false,
            "logical_threads": 16,
            "model": 33,
            "online": "0-15",
            "physical_cores": 8,
            "smt_active": true,
            "smt_control": "on",
            "sockets": 1,
            "stepping": 0,
            "vendor": "AuthenticAMD"
          },
          "cpu_access": {
            "affinity": "0-15",
            "cgroup": null,
            "cgroup_version": null,
            "cpu_max": null,
            "cpuset": null,
            "quota_cpus": null,
            "usable_cpus": 16.0
          },
          "load": {
            "loadavg": [
              0.08,
              0.05,
              0.01
            ],
            "steal_percent": 0.0,
            "uptime_secs": 86400.5
          },
          "memory": {
            "available_kib": 28000000,
            "swap_free_kib": 0,
            "swap_total_kib": 0,
            "total_kib": 32768000,
            "transparent_hugepages": "madvise"
          },
          "os": {
            "arch": "x86_64",
            "hostname": "desk-seven",
            "id": "debian",
            "kernel": "6.1.0-27-amd64",
            "kernel_build": "#1 SMP PREEMPT_DYNAMIC",
            "kernel_name": "Linux",
            "pretty_name": "Debian GNU/Linux 12 (bookworm)",
            "version_id": "12"
          },
          "virtualization": {
            "container": null,
            "dmi_product": "System Product Name",
            "dmi_vendor": "ASUS",
            "hypervisor_flag": false,
            "virtual_machine": false
          }
        },
        "toolchains": {
          "recorded": false,
          "tools": [
            {
              "banner": {
                "java": null,
                "native": null,
                "product": "Ruby",
                "ruby_compat": null,
                "version": "3.3.8",
                "yjit": false
              },
              "elapsed_ms": 0,
              "error": null,
              "first_line": "ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]",
              "origin": "path",
              "path": "/usr/bin/ruby",
              "status": "answered",
              "tool": "ruby"
            },
            {
              "banner": {
                "java": null,
                "native": null,
                "product": "puma",
                "ruby_compat": null,
                "version": "6.6.0",
                "yjit": null
              },
              "elapsed_ms": 0,
              "error": null,
              "first_line": "puma version 6.6.0 (\"Return to Forever\")",
              "origin": "path",
              "path": "/usr/bin/puma",
              "status": "answered",
              "tool": "puma"
            },
            {
              "banner": null,
              "elapsed_ms": 0,
              "error": null,
              "first_line": null,
              "origin": null,
              "path": null,
              "status": "missing",
              "tool": "falcon"
            },
            {
              "banner": {
                "java": null,
                "native": null,
                "product": "nginx",
                "ruby_compat": null,
                "version": "1.26.3",
                "yjit": null
              },
              "elapsed_ms": 0,
              "error": null,
              "first_line": "nginx version: nginx/1.26.3",
              "origin": "path",
              "path": "/usr/bin/nginx",
              "status": "answered",
              "tool": "nginx"
            }
          ]
        }
      }
    },
    "commands": [
      [
        "puma",
        "--bind",
        "tcp://127.0.0.1:9292",
        "--workers",
        "2",
        "--threads",
        "4:4",
        "--environment",
        "production",
        "config.ru"
      ],
      [
        "falcon",
        "serve",
        "--bind",
        "http://127.0.0.1:9294",
        "--count",
        "2",
        "--config",
        "config.ru"
      ],
      [
        "nginx",
        "-p",
        ".",
        "-c",
        "nginx.conf",
        "-g",
        "daemon off;"
      ]
    ],
    "fingerprint": null,
    "harness": {
      "connections": 16,
      "duration_sec": 20,
      "runs": 3,
      "warmup_sec": 5
    },
    "sources": [],
    "toolchains": [
      {
        "name": "ruby",
        "version": "ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]"
      },
      {
        "name": "puma",
        "version": "puma version 6.6.0 (\"Return to Forever\")"
      },
      {
        "name": "falcon",
        "version": "not found on this machine"
      },
      {
        "name": "nginx",
        "version": "nginx version: nginx/1.26.3"
      }
    ],
    "tree_digests": []
  },
  "figures": [
    {
      "measured": "30,200 req/s (29,952–30,449)",
      "published": "54,000 req/s",
      "reading": {
        "cell": {
          "endpoint": "/",
          "lane": "puma",
          "metric": "req_per_s"
        },
        "endpoint": "/",
        "figure": "puma-hello",
        "interval": {
          "estimate": 30200.0,
          "high": 30449.328,
          "low": 29952.49463
        },
        "lane": "puma",
        "metric": "req_per_s",
        "published": 54000.0,
        "published_range": null,
        "stats": {
          "cv": 0.002703631063,
          "max": 30300.0,
          "mean": 30200.0,
          "median": 30200.0,
          "min": 30100.0,
          "runs": 3,
          "unstable": false
        },
        "status": {
          "status": "valid"
        }
      },
      "status": "valid"
    },
    {
      "measured": "60,200 req/s (59,952–60,449)",
      "published": "106,000 req/s",
      "reading": {
        "cell": {
          "endpoint": "/",
          "lane": "falcon",
          "metric": "req_per_s"
        },
        "endpoint": "/",
        "figure": "falcon-hello",
        "interval": {
          "estimate": 60200.0,
          "high": 60448.87167,
          "low": 59952.04266
        },
        "lane": "falcon",
        "metric": "req_per_s",
        "published": 106000.0,
        "published_range": null,
        "stats": {
          "cv": 0.001356306613,
          "max": 60300.0,
          "mean": 60200.0,
          "median": 60200.0,
          "min": 60100.0,
          "runs": 3,
          "unstable": false
        },
        "status": {
          "status": "valid"
        }
      },
      "status": "valid"
    }
  ],
  "info": {
    "author": "Sam Ruby",
    "created_at": "2026-11-30T05:00:00Z",
    "ending": "finished",
    "id": "hello-ceiling-20261130-050000",
    "origin": "reprise run, /home/reader/.local/share/reprise/runs/hello-ceiling-20261130-050000",
    "post_date": "2026-10",
    "post_run": "the October 16 run",
    "post_url": null,
    "recipe": "hello-ceiling",
    "title": "Campfire under Falcon: the hello-world ceilings"
  },
  "lanes": [
    {
      "cells": [
        {
          "figures": [
            "puma-hello"
          ],
          "interval": {
            "estimate": 30200.0,
            "high": 30449.328,
            "low": 29952.49463
          },
          "key": {
            "endpoint": "/",
            "lane": "puma",
            "metric": "req_per_s"
          },
          "measured": "30,200 req/s (29,952–30,449)",
          "median": "30,200 req/s",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.002703631063,
            "max": 30300.0,
            "mean": 30200.0,
            "median": 30200.0,
            "min": 30100.0,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        },
        {
          "figures": [],
          "interval": {
            "estimate": 0.42,
            "high": 0.4455121,
            "low": 0.3957991871
          },
          "key": {
            "endpoint": "/",
            "lane": "puma",
            "metric": "p50_ms"
          },
          "measured": "0.42 ms (0.4–0.45)",
          "median": "0.42 ms",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.01944039478,
            "max": 0.43,
            "mean": 0.42,
            "median": 0.42,
            "min": 0.41,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        },
        {
          "figures": [],
          "interval": {
            "estimate": 1.6,
            "high": 2.534824385,
            "low": 0.9861207125
          },
          "key": {
            "endpoint": "/",
            "lane": "puma",
            "metric": "p99_ms"
          },
          "measured": "1.6 ms (0.99–2.53)",
          "median": "1.6 ms",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.1530931089,
            "max": 1.9,
            "mean": 1.6,
            "median": 1.6,
            "min": 1.3,
            "runs": 3,
            "unstable": true
          },
          "status": {
            "status": "valid"
          }
        }
      ],
      "endpoint": "/",
      "flags": [
        "tail latency: high spread, runs vary 15.3%"
      ],
      "lane": "puma",
      "no_figure": false,
      "runs": 3
    },
    {
      "cells": [
        {
          "figures": [
            "falcon-hello"
          ],
          "interval": {
            "estimate": 60200.0,
            "high": 60448.87167,
            "low": 59952.04266
          },
          "key": {
            "endpoint": "/",
            "lane": "falcon",
            "metric": "req_per_s"
          },
          "measured": "60,200 req/s (59,952–60,449)",
          "median": "60,200 req/s",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.001356306613,
            "max": 60300.0,
            "mean": 60200.0,
            "median": 60200.0,
            "min": 60100.0,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        },
        {
          "figures": [],
          "interval": {
            "estimate": 0.42,
            "high": 0.4455121,
            "low": 0.3957991871
          },
          "key": {
            "endpoint": "/",
            "lane": "falcon",
            "metric": "p50_ms"
          },
          "measured": "0.42 ms (0.4–0.45)",
          "median": "0.42 ms",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.01944039478,
            "max": 0.43,
            "mean": 0.42,
            "median": 0.42,
            "min": 0.41,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        },
        {
          "figures": [],
          "interval": {
            "estimate": 1.1,
            "high": 1.230749961,
            "low": 0.9817857378
          },
          "key": {
            "endpoint": "/",
            "lane": "falcon",
            "metric": "p99_ms"
          },
          "measured": "1.1 ms (0.98–1.23)",
          "median": "1.1 ms",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.03711348095,
            "max": 1.15,
            "mean": 1.1,
            "median": 1.1,
            "min": 1.05,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        }
      ],
      "endpoint": "/",
      "flags": [],
      "lane": "falcon",
      "no_figure": false,
      "runs": 3
    },
    {
      "cells": [
        {
          "figures": [],
          "interval": {
            "estimate": 91200.0,
            "high": 91448.71586,
            "low": 90951.88768
          },
          "key": {
            "endpoint": "/",
            "lane": "nginx",
            "metric": "req_per_s"
          },
          "measured": "91,200 req/s (90,952–91,449)",
          "median": "91,200 req/s",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.0008952813387,
            "max": 91300.0,
            "mean": 91200.0,
            "median": 91200.0,
            "min": 91100.0,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "client_cpu": 0.97,
            "run": 2,
            "status": "client_bound"
          }
        },
        {
          "figures": [],
          "interval": {
            "estimate": 0.42,
            "high": 0.4455121,
            "low": 0.3957991871
          },
          "key": {
            "endpoint": "/",
            "lane": "nginx",
            "metric": "p50_ms"
          },
          "measured": "0.42 ms (0.4–0.45)",
          "median": "0.42 ms",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.01944039478,
            "max": 0.43,
            "mean": 0.42,
            "median": 0.42,
            "min": 0.41,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "client_cpu": 0.97,
            "run": 2,
            "status": "client_bound"
          }
        },
        {
          "figures": [],
          "interval": {
            "estimate": 1.1,
            "high": 1.230749961,
            "low": 0.9817857378
          },
          "key": {
            "endpoint": "/",
            "lane": "nginx",
            "metric": "p99_ms"
          },
          "measured": "1.1 ms (0.98–1.23)",
          "median": "1.1 ms",
          "runs": 3,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.03711348095,
            "max": 1.15,
            "mean": 1.1,
            "median": 1.1,
            "min": 1.05,
            "runs": 3,
            "unstable": false
          },
          "status": {
            "client_cpu": 0.97,
            "run": 2,
            "status": "client_bound"
          }
        }
      ],
      "endpoint": "/",
      "flags": [
        "throughput: client-bound: the load generator used 97% of its CPU in run 2",
        "median latency: client-bound: the load generator used 97% of its CPU in run 2",
        "tail latency: client-bound: the load generator used 97% of its CPU in run 2"
      ],
      "lane": "nginx",
      "no_figure": true,
      "runs": 3
    }
  ],
  "machine": {
    "machine": "differs",
    "reasons": [
      {
        "difference": "item",
        "here": "AMD Ryzen 7 5800X 8-Core Processor",
        "item": "CPU",
        "post": "AMD Ryzen 5 3600 6-Core Processor"
      },
      {
        "difference": "item",
        "here": "8 cores / 16 threads",
        "item": "cores/threads",
        "post": "6 cores / 12 threads"
      },
      {
        "difference": "item",
        "here": "3.8 GHz",
        "item": "frequency",
        "post": "3.6 GHz"
      },
      {
        "difference": "item",
        "here": "31 GB",
        "item": "memory",
        "post": "63 GB"
      }
    ]
  },
  "machine_rows": [
    {
      "here": "AMD Ryzen 7 5800X 8-Core Processor",
      "item": "CPU",
      "post": "AMD Ryzen 5 3600 6-Core Processor"
    },
    {
      "here": "8 cores / 16 threads",
      "item": "cores/threads",
      "post": "6 cores / 12 threads"
    },
    {
      "here": "3.8 GHz",
      "item": "frequency",
      "post": "3.6 GHz"
    },
    {
      "here": "31 GB",
      "item": "memory",
      "post": "63 GB"
    }
  ],
  "measured_on": [
    {
      "name": "CPU",
      "value": "AMD Ryzen 7 5800X 8-Core Processor (AuthenticAMD, family 25 model 33)"
    },
    {
      "name": "Cores",
      "value": "8 cores, 16 threads, 1 socket, SMT on"
    },
    {
      "name": "Frequency",
      "value": "2.20 GHz–3.80 GHz, now 3.80 GHz"
    },
    {
      "name": "Governor",
      "value": "performance (all 16 policies)"
    },
    {
      "name": "Boost",
      "value": "off (/sys/devices/system/cpu/cpufreq/boost)"
    },
    {
      "name": "Memory",
      "value": "31.2 GiB, 26.7 GiB available, swap 0.0 GiB"
    },
    {
      "name": "Huge pages",
      "value": "madvise"
    },
    {
      "name": "Kernel",
      "value": "Linux 6.1.0-27-amd64"
    },
    {
      "name": "OS",
      "value": "Debian GNU/Linux 12 (bookworm)"
    },
    {
      "name": "Virtualisation",
      "value": "none (bare metal)"
    },
    {
      "name": "Usable CPUs",
      "value": "16 (affinity 0-15)"
    },
    {
      "name": "Conditions",
      "value": "load 0.08 0.05 0.01, steal 0.0%"
    }
  ],
  "not_measured": [],
  "not_measured_claims": [],
  "people": [],
  "run": {
    "cells": 9,
    "created_at": "2026-11-30T05:00:00Z",
    "ending": "finished",
    "fitness": null,
    "id": "hello-ceiling-20261130-050000",
    "inconclusive": 0,
    "no_data": 0,
    "not_comparable": 2,
    "not_measured": 0,
    "not_reproduced": 0,
    "origin": "reprise run, /home/reader/.local/share/reprise/runs/hello-ceiling-20261130-050000",
    "recipe": "hello-ceiling",
    "reproduced": 2,
    "smoke_run": false,
    "tally": "2 reproduced · 2 not comparable",
    "title": "Campfire under Falcon: the hello-world ceilings"
  },
  "sequential": null,
  "tally": "2 reproduced · 2 not comparable",
  "units": [
    {
      "metric": "req_per_s",
      "name": "throughput",
      "unit": "req/s"
    },
    {
      "metric": "p50_ms",
      "name": "median latency",
      "unit": "ms"
    },
    {
      "metric": "p99_ms",
      "name": "tail latency",
      "unit": "ms"
    }
  ],
  "verdicts": [
    {
      "band": "45,900–62,100 req/s",
      "card": {
        "differs_in": [],
        "reasoning": null,
        "why": "Not judged: 54,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 30,200 req/s (29,952–30,449), for information."
      },
      "measured": "30,200 req/s (29,952–30,449)",
      "published": "54,000 req/s",
      "verdict": {
        "band": [
          45900.0,
          62100.0
        ],
        "claim": "puma-ceiling",
        "cpu": null,
        "decided_after": null,
        "deviations": [],
        "figures": [
          "puma-hello"
        ],
        "kind": "absolute",
        "measured": {
          "estimate": 30200.0,
          "high": 30449.328,
          "low": 29952.49463
        },
        "more_runs": null,
        "notes": [],
        "outcome": "not_comparable",
        "published": 54000.0,
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second",
        "tolerance": 0.15,
        "unit": "req/s",
        "why": {
          "differences": [
            {
              "difference": "item",
              "here": "AMD Ryzen 7 5800X 8-Core Processor",
              "item": "CPU",
              "post": "AMD Ryzen 5 3600 6-Core Processor"
            },
            {
              "difference": "item",
              "here": "8 cores / 16 threads",
              "item": "cores/threads",
              "post": "6 cores / 12 threads"
            },
            {
              "difference": "item",
              "here": "3.8 GHz",
              "item": "frequency",
              "post": "3.6 GHz"
            },
            {
              "difference": "item",
              "here": "31 GB",
              "item": "memory",
              "post": "63 GB"
            }
          ],
          "measured": 30200.0,
          "published": 54000.0,
          "why": "machine_differs"
        }
      }
    },
    {
      "band": "90,100–121,900 req/s",
      "card": {
        "differs_in": [],
        "reasoning": null,
        "why": "Not judged: 106,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 60,200 req/s (59,952–60,449), for information."
      },
      "measured": "60,200 req/s (59,952–60,449)",
      "published": "106,000 req/s",
      "verdict": {
        "band": [
          90100.0,
          121900.0
        ],
        "claim": "falcon-ceiling",
        "cpu": null,
        "decided_after": null,
        "deviations": [],
        "figures": [
          "falcon-hello"
        ],
        "kind": "absolute",
        "measured": {
          "estimate": 60200.0,
          "high": 60448.87167,
          "low": 59952.04266
        },
        "more_runs": null,
        "notes": [],
        "outcome": "not_comparable",
        "published": 106000.0,
        "quote": "under Falcon, 106,000.",
        "tolerance": 0.15,
        "unit": "req/s",
        "why": {
          "differences": [
            {
              "difference": "item",
              "here": "AMD Ryzen 7 5800X 8-Core Processor",
              "item": "CPU",
              "post": "AMD Ryzen 5 3600 6-Core Processor"
            },
            {
              "difference": "item",
              "here": "8 cores / 16 threads",
              "item": "cores/threads",
              "post": "6 cores / 12 threads"
            },
            {
              "difference": "item",
              "here": "3.8 GHz",
              "item": "frequency",
              "post": "3.6 GHz"
            },
            {
              "difference": "item",
              "here": "31 GB",
              "item": "memory",
              "post": "63 GB"
            }
          ],
          "measured": 60200.0,
          "published": 106000.0,
          "why": "machine_differs"
        }
      }
    },
    {
      "band": "1.67–2.25×",
      "card": {
        "differs_in": [],
        "reasoning": "measured ratio 1.99× (95% interval 1.99× to 2×) against 1.67× to 2.25×: inside the published band; every lane had the CPU it wanted (falcon 98%, puma 98%).",
        "why": "Measured 1.99× (1.99–2): inside the 1.67–2.25× the claim accepts (published 1.96×)."
      },
      "measured": "1.99× (1.99–2)",
      "published": "1.96×",
      "verdict": {
        "band": [
          1.666,
          2.254
        ],
        "claim": "falcon-twice-puma",
        "cpu": {
          "basis": "as_measured",
          "lanes": [
            {
              "cpus": 1.0,
              "figure": "falcon-hello",
              "lane": "falcon",
              "measured_again": 0,
              "runs": 3,
              "share": 0.98,
              "steal": null,
              "wanted": 0.995
            },
            {
              "cpus": 1.0,
              "figure": "puma-hello",
              "lane": "puma",
              "measured_again": 0,
              "runs": 3,
              "share": 0.98,
              "steal": null,
              "wanted": 0.995
            }
          ],
          "why": "every lane had the CPU it wanted (falcon 98%, puma 98%)"
        },
        "decided_after": null,
        "deviations": [],
        "figures": [
          "falcon-hello",
          "puma-hello"
        ],
        "kind": "ratio",
        "measured": {
          "estimate": 1.993377483,
          "high": 2.001570936,
          "low": 1.98522843
        },
        "more_runs": null,
        "notes": [],
        "outcome": "reproduced",
        "published": 1.96,
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
        "tolerance": 0.15,
        "unit": "×",
        "why": {
          "band": [
            1.666,
            2.254
          ],
          "confidence": 0.95,
          "measured": {
            "estimate": 1.993377483,
            "high": 2.001570936,
            "low": 1.98522843
          },
          "place": {
            "place": "inside"
          },
          "what": "ratio",
          "why": "banded"
        }
      }
    },
    {
      "band": null,
      "card": {
        "differs_in": [],
        "reasoning": "in the published order, each ratio's interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2); every lane had the CPU it wanted (falcon 98%, puma 98%).",
        "why": "in the published order, each ratio's interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2)."
      },
      "measured": "—",
      "published": "—",
      "verdict": {
        "band": null,
        "claim": "falcon-above-puma",
        "cpu": {
          "basis": "as_measured",
          "lanes": [
            {
              "cpus": 1.0,
              "figure": "falcon-hello",
              "lane": "falcon",
              "measured_again": 0,
              "runs": 3,
              "share": 0.98,
              "steal": null,
              "wanted": 0.995
            },
            {
              "cpus": 1.0,
              "figure": "puma-hello",
              "lane": "puma",
              "measured_again": 0,
              "runs": 3,
              "share": 0.98,
              "steal": null,
              "wanted": 0.995
            }
          ],
          "why": "every lane had the CPU it wanted (falcon 98%, puma 98%)"
        },
        "decided_after": null,
        "deviations": [],
        "figures": [
          "falcon-hello",
          "puma-hello"
        ],
        "kind": "ordering",
        "measured": null,
        "more_runs": null,
        "notes": [],
        "outcome": "reproduced",
        "published": null,
        "quote": "under Falcon, 106,000.",
        "tolerance": 0.05,
        "unit": "req/s",
        "why": {
          "finding": {
            "finding": "in_order"
          },
          "pairs": [
            {
              "first": {
                "figure": "falcon-hello",
                "interval": {
                  "estimate": 60200.0,
                  "high": 60448.87167,
                  "low": 59952.04266
                },
                "median": 60200.0
              },
              "ratio": {
                "estimate": 1.993377483,
                "high": 2.001570936,
                "low": 1.98522843
              },
              "second": {
                "figure": "puma-hello",
                "interval": {
                  "estimate": 30200.0,
                  "high": 30449.328,
                  "low": 29952.49463
                },
                "median": 30200.0
              },
              "unit": "req/s"
            }
          ],
          "why": "ordering"
        }
      }
    }
  ]
};

/** The smoke run's results: falcon skipped, nginx cancelled. */
export const smokeResults: ResultsView = {
  "commands": [
    "puma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru"
  ],
  "confidence": "95%",
  "deviations": [
    {
      "kind": "quick",
      "lanes": [],
      "what": "a smoke run (--quick): durations, warm-ups and runs capped"
    },
    {
      "kind": "lane",
      "lanes": [
        "falcon"
      ],
      "what": "lane falcon was not measured (preflight): it needs falcon, which this machine lacks"
    },
    {
      "kind": "lane",
      "lanes": [
        "nginx"
      ],
      "what": "lane nginx was not measured (load): cancelled"
    }
  ],
  "environment": {
    "bench_env": {
      "captured_at": "2026-11-30T05:00:00Z",
      "harness": {
        "connections": 16,
        "duration_sec": 20,
        "runs": 3,
        "warmup_sec": 5
      },
      "reprise": {
        "fingerprint": {
          "clock": {
            "base_khz": null,
            "boost": false,
            "boost_control": "cpufreq_boost",
            "cur_khz": 3800000,
            "driver": "acpi-cpufreq",
            "energy_performance_preference": null,
            "governor": "performance",
            "governors_agree": true,
            "max_khz": 3800000,
            "min_khz": 2200000,
            "policies": [
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "0",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy0",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "1",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy1",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "2",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy2",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "3",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy3",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "4",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy4",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "5",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy5",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "6",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy6",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "7",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy7",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "8",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy8",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "9",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy9",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "10",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy10",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "11",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy11",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "12",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy12",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "13",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy13",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "14",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy14",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              },
              {
                "base_khz": null,
                "cpuinfo_max_khz": 3800000,
                "cpuinfo_min_khz": 2200000,
                "cpus": "15",
                "cur_khz": 3800000,
                "energy_performance_preference": null,
                "governor": "performance",
                "name": "policy15",
                "scaling_max_khz": 3800000,
                "scaling_min_khz": 2200000
              }
            ]
          },
          "container_engine": {
            "api_version": null,
            "architecture": null,
            "cpus": null,
            "host": "unix:///var/run/docker.sock",
            "kernel": null,
            "memory_bytes": null,
            "name": "Docker Engine - Community",
            "operating_system": null,
            "os": null,
            "version": "27.3.1"
          },
          "cpu": {
            "brand": "AMD Ryzen 7 5800X 8-Core Processor",
            "caches": [],
            "cpuinfo_khz": 3800000,
            "family": 25,
            "hypervisor_flag": false,
            "logical_threads": 16,
            "model": 33,
            "online": "0-15",
            "physical_cores": 8,
            "smt_active": true,
            "smt_control": "on",
            "sockets": 1,
            "stepping": 0,
            "vendor": "AuthenticAMD"
          },
          "cpu_access": {
            "affinity": "0-15",
            "cgroup": null,
            "cgroup_version": null,
            "cpu_max": null,
            "cpuset": null,
            "quota_cpus": null,
            "usable_cpus": 16.0
          },
          "load": {
            "loadavg": [
              0.08,
              0.05,
              0.01
            ],
            "steal_percent": 0.0,
            "uptime_secs": 86400.5
          },
          "memory": {
            "available_kib": 28000000,
            "swap_free_kib": 0,
            "swap_total_kib": 0,
            "total_kib": 32768000,
            "transparent_hugepages": "madvise"
          },
          "os": {
            "arch": "x86_64",
            "hostname": "desk-seven",
            "id": "debian",
            "kernel": "6.1.0-27-amd64",
            "kernel_build": "#1 SMP PREEMPT_DYNAMIC",
            "kernel_name": "Linux",
            "pretty_name": "Debian GNU/Linux 12 (bookworm)",
            "version_id": "12"
          },
          "virtualization": {
            "container": null,
            "dmi_product": "System Product Name",
            "dmi_vendor": "ASUS",
            "hypervisor_flag": false,
            "virtual_machine": false
          }
        },
        "toolchains": {
          "recorded": false,
          "tools": [
            {
              "banner": {
                "java": null,
                "native": null,
                "product": "Ruby",
                "ruby_compat": null,
                "version": "3.3.8",
                "yjit": false
              },
              "elapsed_ms": 0,
              "error": null,
              "first_line": "ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]",
              "origin": "path",
              "path": "/usr/bin/ruby",
              "status": "answered",
              "tool": "ruby"
            },
            {
              "banner": {
                "java": null,
                "native": null,
                "product": "puma",
                "ruby_compat": null,
                "version": "6.6.0",
                "yjit": null
              },
              "elapsed_ms": 0,
              "error": null,
              "first_line": "puma version 6.6.0 (\"Return to Forever\")",
              "origin": "path",
              "path": "/usr/bin/puma",
              "status": "answered",
              "tool": "puma"
            },
            {
              "banner": null,
              "elapsed_ms": 0,
              "error": null,
              "first_line": null,
              "origin": null,
              "path": null,
              "status": "missing",
              "tool": "falcon"
            },
            {
              "banner": {
                "java": null,
                "native": null,
                "product": "nginx",
                "ruby_compat": null,
                "version": "1.26.3",
                "yjit": null
              },
              "elapsed_ms": 0,
              "error": null,
              "first_line": "nginx version: nginx/1.26.3",
              "origin": "path",
              "path": "/usr/bin/nginx",
              "status": "answered",
              "tool": "nginx"
            }
          ]
        }
      }
    },
    "commands": [
      [
        "puma",
        "--bind",
        "tcp://127.0.0.1:9292",
        "--workers",
        "2",
        "--threads",
        "4:4",
        "--environment",
        "production",
        "config.ru"
      ]
    ],
    "fingerprint": null,
    "harness": {
      "connections": 16,
      "duration_sec": 20,
      "runs": 3,
      "warmup_sec": 5
    },
    "sources": [],
    "toolchains": [
      {
        "name": "ruby",
        "version": "ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]"
      },
      {
        "name": "puma",
        "version": "puma version 6.6.0 (\"Return to Forever\")"
      },
      {
        "name": "falcon",
        "version": "not found on this machine"
      },
      {
        "name": "nginx",
        "version": "nginx version: nginx/1.26.3"
      }
    ],
    "tree_digests": []
  },
  "figures": [
    {
      "measured": "29,900 req/s",
      "published": "54,000 req/s",
      "reading": {
        "cell": {
          "endpoint": "/",
          "lane": "puma",
          "metric": "req_per_s"
        },
        "endpoint": "/",
        "figure": "puma-hello",
        "interval": null,
        "lane": "puma",
        "metric": "req_per_s",
        "published": 54000.0,
        "published_range": null,
        "stats": {
          "cv": 0.0,
          "max": 29900.0,
          "mean": 29900.0,
          "median": 29900.0,
          "min": 29900.0,
          "runs": 1,
          "unstable": false
        },
        "status": {
          "status": "valid"
        }
      },
      "status": "valid"
    },
    {
      "measured": "—",
      "published": "106,000 req/s",
      "reading": {
        "cell": null,
        "endpoint": "/",
        "figure": "falcon-hello",
        "interval": null,
        "lane": "falcon",
        "metric": "req_per_s",
        "published": 106000.0,
        "published_range": null,
        "stats": null,
        "status": null
      },
      "status": "not measured"
    }
  ],
  "info": {
    "author": "Sam Ruby",
    "created_at": "2026-12-01T09:00:00Z",
    "ending": "cancelled",
    "id": "hello-ceiling-20261201-090000",
    "origin": "reprise run, /home/reader/.local/share/reprise/runs/hello-ceiling-20261201-090000",
    "post_date": "2026-10",
    "post_run": "the October 16 run",
    "post_url": null,
    "recipe": "hello-ceiling",
    "title": "Campfire under Falcon: the hello-world ceilings"
  },
  "lanes": [
    {
      "cells": [
        {
          "figures": [
            "puma-hello"
          ],
          "interval": null,
          "key": {
            "endpoint": "/",
            "lane": "puma",
            "metric": "req_per_s"
          },
          "measured": "29,900 req/s",
          "median": "29,900 req/s",
          "runs": 1,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.0,
            "max": 29900.0,
            "mean": 29900.0,
            "median": 29900.0,
            "min": 29900.0,
            "runs": 1,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        },
        {
          "figures": [],
          "interval": null,
          "key": {
            "endpoint": "/",
            "lane": "puma",
            "metric": "p50_ms"
          },
          "measured": "0.41 ms",
          "median": "0.41 ms",
          "runs": 1,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.0,
            "max": 0.41,
            "mean": 0.41,
            "median": 0.41,
            "min": 0.41,
            "runs": 1,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        },
        {
          "figures": [],
          "interval": null,
          "key": {
            "endpoint": "/",
            "lane": "puma",
            "metric": "p99_ms"
          },
          "measured": "1.05 ms",
          "median": "1.05 ms",
          "runs": 1,
          "server_cpu": "98% of 1 CPU, CPU-bound",
          "stats": {
            "cv": 0.0,
            "max": 1.05,
            "mean": 1.05,
            "median": 1.05,
            "min": 1.05,
            "runs": 1,
            "unstable": false
          },
          "status": {
            "status": "valid"
          }
        }
      ],
      "endpoint": "/",
      "flags": [
        "one run: no spread to read"
      ],
      "lane": "puma",
      "no_figure": false,
      "runs": 1
    }
  ],
  "machine": {
    "machine": "differs",
    "reasons": [
      {
        "difference": "item",
        "here": "AMD Ryzen 7 5800X 8-Core Processor",
        "item": "CPU",
        "post": "AMD Ryzen 5 3600 6-Core Processor"
      },
      {
        "difference": "item",
        "here": "8 cores / 16 threads",
        "item": "cores/threads",
        "post": "6 cores / 12 threads"
      },
      {
        "difference": "item",
        "here": "3.8 GHz",
        "item": "frequency",
        "post": "3.6 GHz"
      },
      {
        "difference": "item",
        "here": "31 GB",
        "item": "memory",
        "post": "63 GB"
      }
    ]
  },
  "machine_rows": [
    {
      "here": "AMD Ryzen 7 5800X 8-Core Processor",
      "item": "CPU",
      "post": "AMD Ryzen 5 3600 6-Core Processor"
    },
    {
      "here": "8 cores / 16 threads",
      "item": "cores/threads",
      "post": "6 cores / 12 threads"
    },
    {
      "here": "3.8 GHz",
      "item": "frequency",
      "post": "3.6 GHz"
    },
    {
      "here": "31 GB",
      "item": "memory",
      "post": "63 GB"
    }
  ],
  "measured_on": [
    {
      "name": "CPU",
      "value": "AMD Ryzen 7 5800X 8-Core Processor (AuthenticAMD, family 25 model 33)"
    },
    {
      "name": "Cores",
      "value": "8 cores, 16 threads, 1 socket, SMT on"
    },
    {
      "name": "Frequency",
      "value": "2.20 GHz–3.80 GHz, now 3.80 GHz"
    },
    {
      "name": "Governor",
      "value": "performance (all 16 policies)"
    },
    {
      "name": "Boost",
      "value": "off (/sys/devices/system/cpu/cpufreq/boost)"
    },
    {
      "name": "Memory",
      "value": "31.2 GiB, 26.7 GiB available, swap 0.0 GiB"
    },
    {
      "name": "Huge pages",
      "value": "madvise"
    },
    {
      "name": "Kernel",
      "value": "Linux 6.1.0-27-amd64"
    },
    {
      "name": "OS",
      "value": "Debian GNU/Linux 12 (bookworm)"
    },
    {
      "name": "Virtualisation",
      "value": "none (bare metal)"
    },
    {
      "name": "Usable CPUs",
      "value": "16 (affinity 0-15)"
    },
    {
      "name": "Conditions",
      "value": "load 0.08 0.05 0.01, steal 0.0%"
    }
  ],
  "not_measured": [
    {
      "lane": "falcon",
      "why": "preflight: it needs falcon, which this machine lacks"
    },
    {
      "lane": "nginx",
      "why": "load: cancelled"
    }
  ],
  "not_measured_claims": [
    {
      "claims": [
        "falcon-ceiling",
        "falcon-twice-puma",
        "falcon-above-puma"
      ],
      "lane": "falcon",
      "why": "lane falcon was not measured (preflight): it needs falcon, which this machine lacks."
    }
  ],
  "people": [],
  "run": {
    "cells": 3,
    "created_at": "2026-12-01T09:00:00Z",
    "ending": "cancelled",
    "fitness": null,
    "id": "hello-ceiling-20261201-090000",
    "inconclusive": 0,
    "no_data": 0,
    "not_comparable": 1,
    "not_measured": 3,
    "not_reproduced": 0,
    "origin": "reprise run, /home/reader/.local/share/reprise/runs/hello-ceiling-20261201-090000",
    "recipe": "hello-ceiling",
    "reproduced": 0,
    "smoke_run": true,
    "tally": "3 not measured · 1 not comparable",
    "title": "Campfire under Falcon: the hello-world ceilings"
  },
  "sequential": null,
  "tally": "3 not measured · 1 not comparable",
  "units": [
    {
      "metric": "req_per_s",
      "name": "throughput",
      "unit": "req/s"
    },
    {
      "metric": "p50_ms",
      "name": "median latency",
      "unit": "ms"
    },
    {
      "metric": "p99_ms",
      "name": "tail latency",
      "unit": "ms"
    }
  ],
  "verdicts": [
    {
      "band": "45,900–62,100 req/s",
      "card": {
        "differs_in": [
          "a smoke run (--quick)"
        ],
        "reasoning": null,
        "why": "Not judged: 54,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here —, for information."
      },
      "measured": "—",
      "published": "54,000 req/s",
      "verdict": {
        "band": [
          45900.0,
          62100.0
        ],
        "claim": "puma-ceiling",
        "cpu": null,
        "decided_after": null,
        "deviations": [
          "a smoke run (--quick): durations, warm-ups and runs capped"
        ],
        "figures": [
          "puma-hello"
        ],
        "kind": "absolute",
        "measured": null,
        "more_runs": null,
        "notes": [
          {
            "note": "one_run"
          }
        ],
        "outcome": "not_comparable",
        "published": 54000.0,
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second",
        "tolerance": 0.15,
        "unit": "req/s",
        "why": {
          "differences": [
            {
              "difference": "item",
              "here": "AMD Ryzen 7 5800X 8-Core Processor",
              "item": "CPU",
              "post": "AMD Ryzen 5 3600 6-Core Processor"
            },
            {
              "difference": "item",
              "here": "8 cores / 16 threads",
              "item": "cores/threads",
              "post": "6 cores / 12 threads"
            },
            {
              "difference": "item",
              "here": "3.8 GHz",
              "item": "frequency",
              "post": "3.6 GHz"
            },
            {
              "difference": "item",
              "here": "31 GB",
              "item": "memory",
              "post": "63 GB"
            }
          ],
          "measured": 29900.0,
          "published": 54000.0,
          "why": "machine_differs"
        }
      }
    },
    {
      "band": null,
      "card": {
        "differs_in": [
          "a smoke run (--quick)",
          "lane falcon was not measured (preflight)"
        ],
        "reasoning": null,
        "why": "lane falcon was not measured (preflight): it needs falcon, which this machine lacks."
      },
      "measured": "—",
      "published": "106,000 req/s",
      "verdict": {
        "band": null,
        "claim": "falcon-ceiling",
        "cpu": null,
        "decided_after": null,
        "deviations": [
          "a smoke run (--quick): durations, warm-ups and runs capped",
          "lane falcon was not measured (preflight): it needs falcon, which this machine lacks"
        ],
        "figures": [
          "falcon-hello"
        ],
        "kind": "absolute",
        "measured": null,
        "more_runs": null,
        "notes": [],
        "outcome": "not_measured",
        "published": 106000.0,
        "quote": "under Falcon, 106,000.",
        "tolerance": 0.15,
        "unit": "req/s",
        "why": {
          "because": "it needs falcon, which this machine lacks",
          "lane": "falcon",
          "stage": "preflight",
          "why": "lane_not_measured"
        }
      }
    },
    {
      "band": null,
      "card": {
        "differs_in": [
          "a smoke run (--quick)",
          "lane falcon was not measured (preflight)"
        ],
        "reasoning": null,
        "why": "lane falcon was not measured (preflight): it needs falcon, which this machine lacks."
      },
      "measured": "—",
      "published": "1.96×",
      "verdict": {
        "band": null,
        "claim": "falcon-twice-puma",
        "cpu": null,
        "decided_after": null,
        "deviations": [
          "a smoke run (--quick): durations, warm-ups and runs capped",
          "lane falcon was not measured (preflight): it needs falcon, which this machine lacks"
        ],
        "figures": [
          "falcon-hello",
          "puma-hello"
        ],
        "kind": "ratio",
        "measured": null,
        "more_runs": null,
        "notes": [],
        "outcome": "not_measured",
        "published": 1.96,
        "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
        "tolerance": 0.15,
        "unit": "×",
        "why": {
          "because": "it needs falcon, which this machine lacks",
          "lane": "falcon",
          "stage": "preflight",
          "why": "lane_not_measured"
        }
      }
    },
    {
      "band": null,
      "card": {
        "differs_in": [
          "a smoke run (--quick)",
          "lane falcon was not measured (preflight)"
        ],
        "reasoning": null,
        "why": "lane falcon was not measured (preflight): it needs falcon, which this machine lacks."
      },
      "measured": "—",
      "published": "—",
      "verdict": {
        "band": null,
        "claim": "falcon-above-puma",
        "cpu": null,
        "decided_after": null,
        "deviations": [
          "a smoke run (--quick): durations, warm-ups and runs capped",
          "lane falcon was not measured (preflight): it needs falcon, which this machine lacks"
        ],
        "figures": [
          "falcon-hello",
          "puma-hello"
        ],
        "kind": "ordering",
        "measured": null,
        "more_runs": null,
        "notes": [],
        "outcome": "not_measured",
        "published": null,
        "quote": "under Falcon, 106,000.",
        "tolerance": null,
        "unit": "req/s",
        "why": {
          "because": "it needs falcon, which this machine lacks",
          "lane": "falcon",
          "stage": "preflight",
          "why": "lane_not_measured"
        }
      }
    }
  ]
};

/** The full run's share preview, redacted. */
export const share: SharePreview = {
  "body": "# Reprise: Campfire under Falcon: the hello-world ceilings\n\nReproduction of Campfire under Falcon: the hello-world ceilings by Sam Ruby (2026-10, the October 16 run), recipe `hello-ceiling`, run `hello-ceiling-20261130-050000` made 2026-11-30T05:00:00Z.\n\n**2 reproduced · 2 not comparable.** This machine differs from the post's, so absolute figures are shown for information only:\n\n| Item | Here | The post's |\n|---|---|---|\n| CPU | AMD Ryzen 7 5800X 8-Core Processor | AMD Ryzen 5 3600 6-Core Processor |\n| cores/threads | 8 cores / 16 threads | 6 cores / 12 threads |\n| frequency | 3.8 GHz | 3.6 GHz |\n| memory | 31 GB | 63 GB |\n\n## Verdicts\n\nEach claim's line: the range it accepts as `=`, the measured median's 95% interval in brackets and the median as `●`.\n\n### `puma-ceiling`: not comparable\n\n> A hello-world app under Puma on the same box serves about 54,000 requests a second\n\n`20,000 ······[●]········===========············ 80,000 req/s`\n\nNot judged: 54,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 30,200 req/s (29,952–30,449), for information.\n\n### `falcon-ceiling`: not comparable\n\n> under Falcon, 106,000.\n\n`50,000 ···[●]··········=============··········· 150,000 req/s`\n\nNot judged: 106,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 60,200 req/s (59,952–60,449), for information.\n\n### `falcon-twice-puma`: reproduced\n\n> A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.\n\n`1.4 ··········============[●]=========······ 2.4×`\n\nMeasured 1.99× (1.99–2): inside the 1.67–2.25× the claim accepts (published 1.96×).\n\n- Reasoning: measured ratio 1.99× (95% interval 1.99× to 2×) against 1.67× to 2.25×: inside the published band; every lane had the CPU it wanted (falcon 98%, puma 98%).\n\n### `falcon-above-puma`: reproduced\n\n> under Falcon, 106,000.\n\nin the published order, each ratio's interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2).\n\n- Reasoning: in the published order, each ratio's interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2); every lane had the CPU it wanted (falcon 98%, puma 98%).\n\n## Cells\n\n| Lane | Endpoint | Metric | Runs | Median | Min – max | CV | Server CPU | Published | Status |\n|---|---|---|---|---|---|---|---|---|---|\n| puma | / | req_per_s | 3 | 30,200 req/s | 30,100–30,300 req/s | 0.3% | 98% of 1 CPU, CPU-bound | 54,000 req/s (`puma-hello`) | valid |\n| puma | / | p50_ms | 3 | 0.42 ms | 0.41–0.43 ms | 1.9% | 98% of 1 CPU, CPU-bound | — | valid |\n| puma | / | p99_ms | 3 | 1.6 ms | 1.3–1.9 ms | 15.3% ⚠ unstable | 98% of 1 CPU, CPU-bound | — | valid |\n| falcon | / | req_per_s | 3 | 60,200 req/s | 60,100–60,300 req/s | 0.1% | 98% of 1 CPU, CPU-bound | 106,000 req/s (`falcon-hello`) | valid |\n| falcon | / | p50_ms | 3 | 0.42 ms | 0.41–0.43 ms | 1.9% | 98% of 1 CPU, CPU-bound | — | valid |\n| falcon | / | p99_ms | 3 | 1.1 ms | 1.05–1.15 ms | 3.7% | 98% of 1 CPU, CPU-bound | — | valid |\n| nginx | / | req_per_s | 3 | 91,200 req/s | 91,100–91,300 req/s | 0.1% | 98% of 1 CPU, CPU-bound | — | client-bound: the load generator used 97% of its CPU in run 2 |\n| nginx | / | p50_ms | 3 | 0.42 ms | 0.41–0.43 ms | 1.9% | 98% of 1 CPU, CPU-bound | — | client-bound: the load generator used 97% of its CPU in run 2 |\n| nginx | / | p99_ms | 3 | 1.1 ms | 1.05–1.15 ms | 3.7% | 98% of 1 CPU, CPU-bound | — | client-bound: the load generator used 97% of its CPU in run 2 |\n\n## Environment\n\n### Machine\n\n| Item | This run's machine |\n|---|---|\n| CPU | AMD Ryzen 7 5800X 8-Core Processor |\n| Cores / threads | 8 / 16 |\n| SMT | on |\n| Frequency | 2200–3800 MHz |\n| Governor | performance |\n| Boost | off |\n| Memory | 31.2 GiB |\n| OS | Debian GNU/Linux 12 (bookworm) |\n| Kernel | 6.1.0-27-amd64 |\n| Virtualisation | bare metal |\n\n### Toolchains\n\n| Toolchain | Version |\n|---|---|\n| ruby | ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM \\[x86_64-linux\\] |\n| puma | puma version 6.6.0 (\"Return to Forever\") |\n| falcon | not found on this machine |\n| nginx | nginx version: nginx/1.26.3 |\n\n### Harness parameters\n\n```json\n{\n  \"connections\": 16,\n  \"duration_sec\": 20,\n  \"runs\": 3,\n  \"warmup_sec\": 5\n}\n```\n\n### Commands\n\n```sh\npuma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru\nfalcon serve --bind http://127.0.0.1:9294 --count 2 --config config.ru\nnginx -p . -c nginx.conf -g 'daemon off;'\n```\n\n### How verdicts were reached\n\nMedians of runs; intervals are 95% intervals, each the wider of a bootstrap percentile interval (4000 resamples, seed 0x5eed0f2026, over rounds of alternating lanes) and a Student-t interval on the runs' logarithms (the bootstrap alone is too narrow over few runs); a cell is unstable past a 10% coefficient of variation and client-bound past 90% load-generator CPU; a cell with any error is no data. A claim is inconclusive when its cells were measured but its interval straddles the band's edge (or, for an ordering, a pair's ratio interval reaches one), no data when a cell it rests on failed a gate (errors, a run without a number, a saturated load generator), and not measured when no cell measured one of its figures (the lane cannot be run, was skipped, or did not measure it).\n\n## Machine-readable result\n\nFor `reprise community`, which reads everyone's results back (docs/community.md).\n\n```reprise-result v1\n{\n  \"recipe\": \"hello-ceiling\",\n  \"recipe_sha256\": \"5bed0d922286a02700b5a5cdbd37b46b28c1297af9667c8b3f7f00d62996dab6\",\n  \"reviewed\": true,\n  \"reprise\": \"0.1.0\",\n  \"run\": \"hello-ceiling-20261130-050000\",\n  \"created_at\": \"2026-11-30T05:00:00Z\",\n  \"smoke_run\": false,\n  \"machine_matches_post\": false,\n  \"deviations\": [],\n  \"machine\": {\n    \"cpu\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n    \"vendor\": \"AuthenticAMD\",\n    \"cores\": 8,\n    \"threads\": 16,\n    \"smt\": true,\n    \"min_mhz\": 2200,\n    \"max_mhz\": 3800,\n    \"governor\": \"performance\",\n    \"boost\": false,\n    \"memory_mib\": 32000,\n    \"os\": \"Debian GNU/Linux 12 (bookworm)\",\n    \"kernel\": \"6.1.0-27-amd64\",\n    \"arch\": \"x86_64\",\n    \"virtual_machine\": false,\n    \"hypervisor\": null\n  },\n  \"claims\": [\n    {\n      \"id\": \"puma-ceiling\",\n      \"kind\": \"absolute\",\n      \"outcome\": \"not_comparable\",\n      \"unit\": \"req/s\",\n      \"published\": 54000.0,\n      \"band\": [\n        45900.0,\n        62099.99999999999\n      ],\n      \"measured\": {\n        \"estimate\": 30200.0,\n        \"low\": 29952.494627574,\n        \"high\": 30449.327999596368\n      }\n    },\n    {\n      \"id\": \"falcon-ceiling\",\n      \"kind\": \"absolute\",\n      \"outcome\": \"not_comparable\",\n      \"unit\": \"req/s\",\n      \"published\": 106000.0,\n      \"band\": [\n        90100.0,\n        121899.99999999999\n      ],\n      \"measured\": {\n        \"estimate\": 60200.0,\n        \"low\": 59952.04266211152,\n        \"high\": 60448.8716715668\n      }\n    },\n    {\n      \"id\": \"falcon-twice-puma\",\n      \"kind\": \"ratio\",\n      \"outcome\": \"reproduced\",\n      \"unit\": \"×\",\n      \"published\": 1.96,\n      \"band\": [\n        1.666,\n        2.254\n      ],\n      \"measured\": {\n        \"estimate\": 1.9933774834437086,\n        \"low\": 1.9852284298549534,\n        \"high\": 2.001570936373453\n      }\n    },\n    {\n      \"id\": \"falcon-above-puma\",\n      \"kind\": \"ordering\",\n      \"outcome\": \"reproduced\",\n      \"unit\": \"req/s\",\n      \"published\": null,\n      \"band\": null,\n      \"measured\": null\n    }\n  ],\n  \"cells\": [\n    {\n      \"lane\": \"puma\",\n      \"endpoint\": \"/\",\n      \"metric\": \"req_per_s\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 30200.0,\n      \"interval\": [\n        29952.494627574,\n        30449.327999596368\n      ]\n    },\n    {\n      \"lane\": \"puma\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p50_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 0.42000000000000004,\n      \"interval\": [\n        0.395799187091157,\n        0.44551210003450176\n      ]\n    },\n    {\n      \"lane\": \"puma\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p99_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 1.6,\n      \"interval\": [\n        0.9861207125015564,\n        2.5348243853766816\n      ]\n    },\n    {\n      \"lane\": \"falcon\",\n      \"endpoint\": \"/\",\n      \"metric\": \"req_per_s\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 60200.0,\n      \"interval\": [\n        59952.04266211152,\n        60448.8716715668\n      ]\n    },\n    {\n      \"lane\": \"falcon\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p50_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 0.42000000000000004,\n      \"interval\": [\n        0.395799187091157,\n        0.44551210003450176\n      ]\n    },\n    {\n      \"lane\": \"falcon\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p99_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 1.1,\n      \"interval\": [\n        0.9817857378256571,\n        1.2307499613517758\n      ]\n    },\n    {\n      \"lane\": \"nginx\",\n      \"endpoint\": \"/\",\n      \"metric\": \"req_per_s\",\n      \"status\": \"client_bound\",\n      \"runs\": 3,\n      \"median\": 91200.0,\n      \"interval\": [\n        90951.88767894992,\n        91448.71586053983\n      ]\n    },\n    {\n      \"lane\": \"nginx\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p50_ms\",\n      \"status\": \"client_bound\",\n      \"runs\": 3,\n      \"median\": 0.42000000000000004,\n      \"interval\": [\n        0.395799187091157,\n        0.44551210003450176\n      ]\n    },\n    {\n      \"lane\": \"nginx\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p99_ms\",\n      \"status\": \"client_bound\",\n      \"runs\": 3,\n      \"median\": 1.1,\n      \"interval\": [\n        0.9817857378256571,\n        1.2307499613517758\n      ]\n    }\n  ]\n}\n```\n\n<details>\n<summary>The full report as JSON</summary>\n\n```json\n{\n  \"run\": {\n    \"id\": \"hello-ceiling-20261130-050000\",\n    \"created_at\": \"2026-11-30T05:00:00Z\",\n    \"recipe\": \"hello-ceiling\",\n    \"title\": \"Campfire under Falcon: the hello-world ceilings\",\n    \"author\": \"Sam Ruby\",\n    \"post_date\": \"2026-10\",\n    \"post_url\": null,\n    \"post_run\": \"the October 16 run\",\n    \"origin\": \"reprise run, /home/reader/.local/share/reprise/runs/hello-ceiling-20261130-050000\",\n    \"recipe_sha256\": \"5bed0d922286a02700b5a5cdbd37b46b28c1297af9667c8b3f7f00d62996dab6\",\n    \"machine\": {\n      \"cpu\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n      \"vendor\": \"AuthenticAMD\",\n      \"cores\": 8,\n      \"threads\": 16,\n      \"smt\": true,\n      \"min_mhz\": 2200,\n      \"max_mhz\": 3800,\n      \"governor\": \"performance\",\n      \"boost\": false,\n      \"memory_mib\": 32000,\n      \"os\": \"Debian GNU/Linux 12 (bookworm)\",\n      \"kernel\": \"6.1.0-27-amd64\",\n      \"arch\": \"x86_64\",\n      \"virtual_machine\": false,\n      \"hypervisor\": null\n    },\n    \"ending\": \"finished\"\n  },\n  \"judgement\": {\n    \"recipe\": \"hello-ceiling\",\n    \"machine\": {\n      \"machine\": \"differs\",\n      \"reasons\": [\n        {\n          \"difference\": \"item\",\n          \"item\": \"CPU\",\n          \"here\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n          \"post\": \"AMD Ryzen 5 3600 6-Core Processor\"\n        },\n        {\n          \"difference\": \"item\",\n          \"item\": \"cores/threads\",\n          \"here\": \"8 cores / 16 threads\",\n          \"post\": \"6 cores / 12 threads\"\n        },\n        {\n          \"difference\": \"item\",\n          \"item\": \"frequency\",\n          \"here\": \"3.8 GHz\",\n          \"post\": \"3.6 GHz\"\n        },\n        {\n          \"difference\": \"item\",\n          \"item\": \"memory\",\n          \"here\": \"31 GB\",\n          \"post\": \"63 GB\"\n        }\n      ]\n    },\n    \"settings\": {\n      \"thresholds\": {\n        \"unstable_cv\": 0.1,\n        \"client_bound_cpu\": 0.9,\n        \"network_bound_share\": 0.9\n      },\n      \"bootstrap\": {\n        \"resamples\": 4000,\n        \"confidence\": 0.95,\n        \"seed\": 407704117286\n      },\n      \"rounds_alternate\": true\n    },\n    \"cells\": [\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"puma\",\n            \"endpoint\": \"/\",\n            \"metric\": \"req_per_s\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 30100.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 30200.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 30300.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 30200.0,\n          \"min\": 30100.0,\n          \"max\": 30300.0,\n          \"mean\": 30200.0,\n          \"cv\": 0.0027036310626745897,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"puma\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p50_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 0.41000000000000003,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 0.42000000000000004,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 0.43000000000000005,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 0.42000000000000004,\n          \"min\": 0.41000000000000003,\n          \"max\": 0.43000000000000005,\n          \"mean\": 0.4200000000000001,\n          \"cv\": 0.01944039478399349,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"puma\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p99_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 1.3,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 1.6,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 1.9,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 1.6,\n          \"min\": 1.3,\n          \"max\": 1.9,\n          \"mean\": 1.6000000000000003,\n          \"cv\": 0.1530931089239486,\n          \"unstable\": true\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"falcon\",\n            \"endpoint\": \"/\",\n            \"metric\": \"req_per_s\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 60100.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 60200.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 60300.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 60200.0,\n          \"min\": 60100.0,\n          \"max\": 60300.0,\n          \"mean\": 60200.0,\n          \"cv\": 0.0013563066128367543,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"falcon\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p50_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 0.41000000000000003,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 0.42000000000000004,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 0.43000000000000005,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 0.42000000000000004,\n          \"min\": 0.41000000000000003,\n          \"max\": 0.43000000000000005,\n          \"mean\": 0.4200000000000001,\n          \"cv\": 0.01944039478399349,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"falcon\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p99_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 1.05,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 1.1,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 1.15,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 1.1,\n          \"min\": 1.05,\n          \"max\": 1.15,\n          \"mean\": 1.1,\n          \"cv\": 0.03711348095126022,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"nginx\",\n            \"endpoint\": \"/\",\n            \"metric\": \"req_per_s\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 91100.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 91200.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.97,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 91300.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"client_bound\",\n          \"run\": 2,\n          \"client_cpu\": 0.97\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 91200.0,\n          \"min\": 91100.0,\n          \"max\": 91300.0,\n          \"mean\": 91200.0,\n          \"cv\": 0.0008952813387365418,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"nginx\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p50_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 0.41000000000000003,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 0.42000000000000004,\n              \"errors\": 0,\n              \"client_cpu\": 0.97,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 0.43000000000000005,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"client_bound\",\n          \"run\": 2,\n          \"client_cpu\": 0.97\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 0.42000000000000004,\n          \"min\": 0.41000000000000003,\n          \"max\": 0.43000000000000005,\n          \"mean\": 0.4200000000000001,\n          \"cv\": 0.01944039478399349,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"nginx\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p99_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 1.05,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 1.1,\n              \"errors\": 0,\n              \"client_cpu\": 0.97,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 1.15,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"client_bound\",\n          \"run\": 2,\n          \"client_cpu\": 0.97\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 1.1,\n          \"min\": 1.05,\n          \"max\": 1.15,\n          \"mean\": 1.1,\n          \"cv\": 0.03711348095126022,\n          \"unstable\": false\n        }\n      }\n    ],\n    \"figures\": [\n      {\n        \"figure\": \"puma-hello\",\n        \"lane\": \"puma\",\n        \"endpoint\": \"/\",\n        \"metric\": \"req_per_s\",\n        \"published\": 54000.0,\n        \"published_range\": null,\n        \"cell\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 30200.0,\n          \"min\": 30100.0,\n          \"max\": 30300.0,\n          \"mean\": 30200.0,\n          \"cv\": 0.0027036310626745897,\n          \"unstable\": false\n        },\n        \"interval\": {\n          \"estimate\": 30200.0,\n          \"low\": 29952.494627574,\n          \"high\": 30449.327999596368\n        }\n      },\n      {\n        \"figure\": \"falcon-hello\",\n        \"lane\": \"falcon\",\n        \"endpoint\": \"/\",\n        \"metric\": \"req_per_s\",\n        \"published\": 106000.0,\n        \"published_range\": null,\n        \"cell\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 60200.0,\n          \"min\": 60100.0,\n          \"max\": 60300.0,\n          \"mean\": 60200.0,\n          \"cv\": 0.0013563066128367543,\n          \"unstable\": false\n        },\n        \"interval\": {\n          \"estimate\": 60200.0,\n          \"low\": 59952.04266211152,\n          \"high\": 60448.8716715668\n        }\n      }\n    ],\n    \"verdicts\": [\n      {\n        \"claim\": \"puma-ceiling\",\n        \"kind\": \"absolute\",\n        \"quote\": \"A hello-world app under Puma on the same box serves about 54,000 requests a second\",\n        \"outcome\": \"not_comparable\",\n        \"why\": {\n          \"why\": \"machine_differs\",\n          \"differences\": [\n            {\n              \"difference\": \"item\",\n              \"item\": \"CPU\",\n              \"here\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n              \"post\": \"AMD Ryzen 5 3600 6-Core Processor\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"cores/threads\",\n              \"here\": \"8 cores / 16 threads\",\n              \"post\": \"6 cores / 12 threads\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"frequency\",\n              \"here\": \"3.8 GHz\",\n              \"post\": \"3.6 GHz\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"memory\",\n              \"here\": \"31 GB\",\n              \"post\": \"63 GB\"\n            }\n          ],\n          \"measured\": 30200.0,\n          \"published\": 54000.0\n        },\n        \"notes\": [],\n        \"published\": 54000.0,\n        \"unit\": \"req/s\",\n        \"tolerance\": 0.15,\n        \"band\": [\n          45900.0,\n          62099.99999999999\n        ],\n        \"measured\": {\n          \"estimate\": 30200.0,\n          \"low\": 29952.494627574,\n          \"high\": 30449.327999596368\n        },\n        \"more_runs\": null,\n        \"figures\": [\n          \"puma-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": null\n      },\n      {\n        \"claim\": \"falcon-ceiling\",\n        \"kind\": \"absolute\",\n        \"quote\": \"under Falcon, 106,000.\",\n        \"outcome\": \"not_comparable\",\n        \"why\": {\n          \"why\": \"machine_differs\",\n          \"differences\": [\n            {\n              \"difference\": \"item\",\n              \"item\": \"CPU\",\n              \"here\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n              \"post\": \"AMD Ryzen 5 3600 6-Core Processor\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"cores/threads\",\n              \"here\": \"8 cores / 16 threads\",\n              \"post\": \"6 cores / 12 threads\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"frequency\",\n              \"here\": \"3.8 GHz\",\n              \"post\": \"3.6 GHz\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"memory\",\n              \"here\": \"31 GB\",\n              \"post\": \"63 GB\"\n            }\n          ],\n          \"measured\": 60200.0,\n          \"published\": 106000.0\n        },\n        \"notes\": [],\n        \"published\": 106000.0,\n        \"unit\": \"req/s\",\n        \"tolerance\": 0.15,\n        \"band\": [\n          90100.0,\n          121899.99999999999\n        ],\n        \"measured\": {\n          \"estimate\": 60200.0,\n          \"low\": 59952.04266211152,\n          \"high\": 60448.8716715668\n        },\n        \"more_runs\": null,\n        \"figures\": [\n          \"falcon-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": null\n      },\n      {\n        \"claim\": \"falcon-twice-puma\",\n        \"kind\": \"ratio\",\n        \"quote\": \"A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.\",\n        \"outcome\": \"reproduced\",\n        \"why\": {\n          \"why\": \"banded\",\n          \"what\": \"ratio\",\n          \"measured\": {\n            \"estimate\": 1.9933774834437086,\n            \"low\": 1.9852284298549534,\n            \"high\": 2.001570936373453\n          },\n          \"band\": [\n            1.666,\n            2.254\n          ],\n          \"confidence\": 0.95,\n          \"place\": {\n            \"place\": \"inside\"\n          }\n        },\n        \"notes\": [],\n        \"published\": 1.96,\n        \"unit\": \"×\",\n        \"tolerance\": 0.15,\n        \"band\": [\n          1.666,\n          2.254\n        ],\n        \"measured\": {\n          \"estimate\": 1.9933774834437086,\n          \"low\": 1.9852284298549534,\n          \"high\": 2.001570936373453\n        },\n        \"more_runs\": null,\n        \"figures\": [\n          \"falcon-hello\",\n          \"puma-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": {\n          \"basis\": \"as_measured\",\n          \"lanes\": [\n            {\n              \"lane\": \"falcon\",\n              \"figure\": \"falcon-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            },\n            {\n              \"lane\": \"puma\",\n              \"figure\": \"puma-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            }\n          ],\n          \"why\": \"every lane had the CPU it wanted (falcon 98%, puma 98%)\"\n        }\n      },\n      {\n        \"claim\": \"falcon-above-puma\",\n        \"kind\": \"ordering\",\n        \"quote\": \"under Falcon, 106,000.\",\n        \"outcome\": \"reproduced\",\n        \"why\": {\n          \"why\": \"ordering\",\n          \"finding\": {\n            \"finding\": \"in_order\"\n          },\n          \"pairs\": [\n            {\n              \"first\": {\n                \"figure\": \"falcon-hello\",\n                \"median\": 60200.0,\n                \"interval\": {\n                  \"estimate\": 60200.0,\n                  \"low\": 59952.04266211152,\n                  \"high\": 60448.8716715668\n                }\n              },\n              \"second\": {\n                \"figure\": \"puma-hello\",\n                \"median\": 30200.0,\n                \"interval\": {\n                  \"estimate\": 30200.0,\n                  \"low\": 29952.494627574,\n                  \"high\": 30449.327999596368\n                }\n              },\n              \"ratio\": {\n                \"estimate\": 1.9933774834437086,\n                \"low\": 1.9852284298549534,\n                \"high\": 2.001570936373453\n              },\n              \"unit\": \"req/s\"\n            }\n          ]\n        },\n        \"notes\": [],\n        \"published\": null,\n        \"unit\": \"req/s\",\n        \"tolerance\": 0.05,\n        \"band\": null,\n        \"measured\": null,\n        \"more_runs\": null,\n        \"figures\": [\n          \"falcon-hello\",\n          \"puma-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": {\n          \"basis\": \"as_measured\",\n          \"lanes\": [\n            {\n              \"lane\": \"falcon\",\n              \"figure\": \"falcon-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            },\n            {\n              \"lane\": \"puma\",\n              \"figure\": \"puma-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            }\n          ],\n          \"why\": \"every lane had the CPU it wanted (falcon 98%, puma 98%)\"\n        }\n      }\n    ],\n    \"deviations\": [],\n    \"sequential\": null\n  },\n  \"measurements\": {\n    \"cells\": [\n      {\n        \"key\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 30100.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 30200.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 30300.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p50_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 0.41000000000000003,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 0.42000000000000004,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 0.43000000000000005,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p99_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 1.3,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 1.6,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 1.9,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 60100.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 60200.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 60300.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p50_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 0.41000000000000003,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 0.42000000000000004,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 0.43000000000000005,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p99_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 1.05,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 1.1,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 1.15,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"nginx\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 91100.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 91200.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.97,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 91300.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"nginx\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p50_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 0.41000000000000003,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 0.42000000000000004,\n            \"errors\": 0,\n            \"client_cpu\": 0.97,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 0.43000000000000005,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"nginx\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p99_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 1.05,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 1.1,\n            \"errors\": 0,\n            \"client_cpu\": 0.97,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 1.15,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      }\n    ],\n    \"lanes\": {\n      \"falcon\": {\n        \"target\": \"falcon\",\n        \"workers\": 2,\n        \"warmup_sec\": null\n      },\n      \"nginx\": {\n        \"target\": \"nginx\",\n        \"workers\": 1,\n        \"warmup_sec\": null\n      },\n      \"puma\": {\n        \"target\": \"puma\",\n        \"workers\": 2,\n        \"warmup_sec\": null\n      }\n    },\n    \"parity\": [],\n    \"reference_lane\": null\n  },\n  \"environment\": {\n    \"fingerprint\": null,\n    \"toolchains\": [\n      {\n        \"name\": \"ruby\",\n        \"version\": \"ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]\"\n      },\n      {\n        \"name\": \"puma\",\n        \"version\": \"puma version 6.6.0 (\\\"Return to Forever\\\")\"\n      },\n      {\n        \"name\": \"falcon\",\n        \"version\": \"not found on this machine\"\n      },\n      {\n        \"name\": \"nginx\",\n        \"version\": \"nginx version: nginx/1.26.3\"\n      }\n    ],\n    \"sources\": [],\n    \"tree_digests\": [],\n    \"harness\": {\n      \"connections\": 16,\n      \"duration_sec\": 20,\n      \"runs\": 3,\n      \"warmup_sec\": 5\n    },\n    \"commands\": [\n      [\n        \"puma\",\n        \"--bind\",\n        \"tcp://127.0.0.1:9292\",\n        \"--workers\",\n        \"2\",\n        \"--threads\",\n        \"4:4\",\n        \"--environment\",\n        \"production\",\n        \"config.ru\"\n      ],\n      [\n        \"falcon\",\n        \"serve\",\n        \"--bind\",\n        \"http://127.0.0.1:9294\",\n        \"--count\",\n        \"2\",\n        \"--config\",\n        \"config.ru\"\n      ],\n      [\n        \"nginx\",\n        \"-p\",\n        \".\",\n        \"-c\",\n        \"nginx.conf\",\n        \"-g\",\n        \"daemon off;\"\n      ]\n    ],\n    \"bench_env\": {\n      \"captured_at\": \"2026-11-30T05:00:00Z\",\n      \"harness\": {\n        \"connections\": 16,\n        \"duration_sec\": 20,\n        \"runs\": 3,\n        \"warmup_sec\": 5\n      },\n      \"reprise\": {\n        \"fingerprint\": {\n          \"clock\": {\n            \"base_khz\": null,\n            \"boost\": false,\n            \"boost_control\": \"cpufreq_boost\",\n            \"cur_khz\": 3800000,\n            \"driver\": \"acpi-cpufreq\",\n            \"energy_performance_preference\": null,\n            \"governor\": \"performance\",\n            \"governors_agree\": true,\n            \"max_khz\": 3800000,\n            \"min_khz\": 2200000,\n            \"policies\": [\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"0\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy0\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"1\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy1\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"2\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy2\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"3\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy3\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"4\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy4\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"5\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy5\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"6\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy6\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"7\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy7\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"8\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy8\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"9\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy9\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"10\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy10\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"11\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy11\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"12\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy12\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"13\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy13\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"14\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy14\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"15\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy15\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              }\n            ]\n          },\n          \"container_engine\": {\n            \"api_version\": null,\n            \"architecture\": null,\n            \"cpus\": null,\n            \"host\": \"unix:///var/run/docker.sock\",\n            \"kernel\": null,\n            \"memory_bytes\": null,\n            \"name\": \"Docker Engine - Community\",\n            \"operating_system\": null,\n            \"os\": null,\n            \"version\": \"27.3.1\"\n          },\n          \"cpu\": {\n            \"brand\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n            \"caches\": [],\n            \"cpuinfo_khz\": 3800000,\n            \"family\": 25,\n            \"hypervisor_flag\": false,\n            \"logical_threads\": 16,\n            \"model\": 33,\n            \"online\": \"0-15\",\n            \"physical_cores\": 8,\n            \"smt_active\": true,\n            \"smt_control\": \"on\",\n            \"sockets\": 1,\n            \"stepping\": 0,\n            \"vendor\": \"AuthenticAMD\"\n          },\n          \"cpu_access\": {\n            \"affinity\": \"0-15\",\n            \"cgroup\": null,\n            \"cgroup_version\": null,\n            \"cpu_max\": null,\n            \"cpuset\": null,\n            \"quota_cpus\": null,\n            \"usable_cpus\": 16.0\n          },\n          \"load\": {\n            \"loadavg\": [\n              0.08,\n              0.05,\n              0.01\n            ],\n            \"steal_percent\": 0.0,\n            \"uptime_secs\": 86400.5\n          },\n          \"memory\": {\n            \"available_kib\": 28000000,\n            \"swap_free_kib\": 0,\n            \"swap_total_kib\": 0,\n            \"total_kib\": 32768000,\n            \"transparent_hugepages\": \"madvise\"\n          },\n          \"os\": {\n            \"arch\": \"x86_64\",\n            \"hostname\": \"[hostname]\",\n            \"id\": \"debian\",\n            \"kernel\": \"6.1.0-27-amd64\",\n            \"kernel_build\": \"#1 SMP PREEMPT_DYNAMIC\",\n            \"kernel_name\": \"Linux\",\n            \"pretty_name\": \"Debian GNU/Linux 12 (bookworm)\",\n            \"version_id\": \"12\"\n          },\n          \"virtualization\": {\n            \"container\": null,\n            \"dmi_product\": \"System Product Name\",\n            \"dmi_vendor\": \"ASUS\",\n            \"hypervisor_flag\": false,\n            \"virtual_machine\": false\n          }\n        },\n        \"toolchains\": {\n          \"recorded\": false,\n          \"tools\": [\n            {\n              \"banner\": {\n                \"java\": null,\n                \"native\": null,\n                \"product\": \"Ruby\",\n                \"ruby_compat\": null,\n                \"version\": \"3.3.8\",\n                \"yjit\": false\n              },\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": \"ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]\",\n              \"origin\": \"path\",\n              \"path\": \"/usr/bin/ruby\",\n              \"status\": \"answered\",\n              \"tool\": \"ruby\"\n            },\n            {\n              \"banner\": {\n                \"java\": null,\n                \"native\": null,\n                \"product\": \"puma\",\n                \"ruby_compat\": null,\n                \"version\": \"6.6.0\",\n                \"yjit\": null\n              },\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": \"puma version 6.6.0 (\\\"Return to Forever\\\")\",\n              \"origin\": \"path\",\n              \"path\": \"/usr/bin/puma\",\n              \"status\": \"answered\",\n              \"tool\": \"puma\"\n            },\n            {\n              \"banner\": null,\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": null,\n              \"origin\": null,\n              \"path\": null,\n              \"status\": \"missing\",\n              \"tool\": \"falcon\"\n            },\n            {\n              \"banner\": {\n                \"java\": null,\n                \"native\": null,\n                \"product\": \"nginx\",\n                \"ruby_compat\": null,\n                \"version\": \"1.26.3\",\n                \"yjit\": null\n              },\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": \"nginx version: nginx/1.26.3\",\n              \"origin\": \"path\",\n              \"path\": \"/usr/bin/nginx\",\n              \"status\": \"answered\",\n              \"tool\": \"nginx\"\n            }\n          ]\n        }\n      }\n    }\n  }\n}\n```\n\n</details>\n",
  "body_in_link": false,
  "category": "hello-ceiling",
  "html": "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reprise: Campfire under Falcon: the hello-world ceilings</title><style>body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#202124}table{border-collapse:collapse;margin:1em 0;font-size:13px}th,td{border:1px solid #dadce0;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f1f3f4}.reproduced{color:#188038;font-weight:600}.not-reproduced{color:#d93025;font-weight:600}.inconclusive{color:#e37400;font-weight:600}.no-data{color:#a50e0e;font-weight:600}.not-measured{color:#5f6368;font-weight:600;font-style:italic}.not-comparable{color:#5f6368;font-weight:600}pre{background:#f8f9fa;padding:.8em;overflow:auto;font-size:12px}figure{margin:1.5em 0}figcaption{font-weight:600;margin-bottom:.3em}blockquote{color:#5f6368;border-left:3px solid #dadce0;margin:.3em 0;padding-left:.8em}.claim-card{border:1px solid #dadce0;border-radius:8px;padding:.6em 1em;margin:.8em 0}.claim-card h3{margin:.2em 0;font-size:15px}.claim-card svg{display:block;max-width:100%;height:auto}.claim-card dl{font-size:13px;margin:.3em 0}.claim-card dt{color:#5f6368}.claim-card dd{margin:0 0 .3em 1em}.badge{display:inline-block;font-size:12px;padding:0 .5em;border:1px solid currentColor;border-radius:999px}.not-measured-claims{list-style:none;padding:0}.not-measured-claims li{margin:.4em 0}</style></head><body>\n<h1>Reprise: Campfire under Falcon: the hello-world ceilings</h1>\n<p>Reproduction of <em>Campfire under Falcon: the hello-world ceilings</em> by Sam Ruby (2026-10), recipe <code>hello-ceiling</code>, run <code>hello-ceiling-20261130-050000</code> made 2026-11-30T05:00:00Z.</p>\n<p><strong>2 reproduced · 2 not comparable.</strong> This machine differs from the post's, so absolute figures are shown for information only:</p>\n<table class=\"machine-differs\"><tr><th>Item</th><th>Here</th><th>The post's</th></tr><tr><th>CPU</th><td>AMD Ryzen 7 5800X 8-Core Processor</td><td>AMD Ryzen 5 3600 6-Core Processor</td></tr><tr><th>cores/threads</th><td>8 cores / 16 threads</td><td>6 cores / 12 threads</td></tr><tr><th>frequency</th><td>3.8 GHz</td><td>3.6 GHz</td></tr><tr><th>memory</th><td>31 GB</td><td>63 GB</td></tr></table>\n<h2>Verdicts</h2>\n<p>Each claim's picture: the range it accepts shaded, the published number as a line, the measured median's 95% interval as a bar with the median as a dot.</p>\n<div class=\"claims\">\n<section class=\"claim-card\" data-claim=\"puma-ceiling\" data-outcome=\"not-comparable\"><h3><span class=\"badge not-comparable\">not comparable</span> <code>puma-ceiling</code> <small>absolute</small></h3><blockquote>A hello-world app under Puma on the same box serves about 54,000 requests a second</blockquote><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"claim-picture\" width=\"480\" height=\"66\" viewBox=\"0 0 480 66\" role=\"img\" aria-label=\"puma-ceiling: published 54,000 req/s, accepted 45,900–62,100 req/s; measured 30,200 req/s (29,952–30,449)\"><rect class=\"tolerance-band\" x=\"209.1\" y=\"8\" width=\"122.0\" height=\"26\" rx=\"3\" fill=\"#188038\" fill-opacity=\"0.15\" stroke=\"#188038\" stroke-dasharray=\"4 3\"/><line class=\"published-value\" x1=\"270.1\" x2=\"270.1\" y1=\"4\" y2=\"38\" stroke=\"#202124\" stroke-width=\"2\"/><g class=\"claim-mark\" data-claim=\"puma-ceiling\" data-outcome=\"not comparable\"><line class=\"claim-interval\" x1=\"89.0\" x2=\"92.7\" y1=\"21\" y2=\"21\" stroke=\"#80868b\" stroke-width=\"6\" stroke-linecap=\"round\"/><circle class=\"claim-estimate\" cx=\"90.8\" cy=\"21\" r=\"5\" fill=\"#80868b\" stroke=\"#fff\" stroke-width=\"1.5\"/></g><line x1=\"14\" x2=\"466\" y1=\"40\" y2=\"40\" stroke=\"#80868b\"/><line x1=\"14.0\" x2=\"14.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"14.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"start\">20,000</text><line x1=\"164.7\" x2=\"164.7\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"164.7\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">40,000</text><line x1=\"315.3\" x2=\"315.3\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"315.3\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">60,000</text><line x1=\"466.0\" x2=\"466.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"466.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"end\">80,000 req/s</text></svg><p class=\"why\">Not judged: 54,000 req/s was measured on the post&#39;s machine, and this one differs (see the table above); measured here 30,200 req/s (29,952–30,449), for information.</p></section>\n<section class=\"claim-card\" data-claim=\"falcon-ceiling\" data-outcome=\"not-comparable\"><h3><span class=\"badge not-comparable\">not comparable</span> <code>falcon-ceiling</code> <small>absolute</small></h3><blockquote>under Falcon, 106,000.</blockquote><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"claim-picture\" width=\"480\" height=\"66\" viewBox=\"0 0 480 66\" role=\"img\" aria-label=\"falcon-ceiling: published 106,000 req/s, accepted 90,100–121,900 req/s; measured 60,200 req/s (59,952–60,449)\"><rect class=\"tolerance-band\" x=\"195.3\" y=\"8\" width=\"143.7\" height=\"26\" rx=\"3\" fill=\"#188038\" fill-opacity=\"0.15\" stroke=\"#188038\" stroke-dasharray=\"4 3\"/><line class=\"published-value\" x1=\"267.1\" x2=\"267.1\" y1=\"4\" y2=\"38\" stroke=\"#202124\" stroke-width=\"2\"/><g class=\"claim-mark\" data-claim=\"falcon-ceiling\" data-outcome=\"not comparable\"><line class=\"claim-interval\" x1=\"59.0\" x2=\"61.2\" y1=\"21\" y2=\"21\" stroke=\"#80868b\" stroke-width=\"6\" stroke-linecap=\"round\"/><circle class=\"claim-estimate\" cx=\"60.1\" cy=\"21\" r=\"5\" fill=\"#80868b\" stroke=\"#fff\" stroke-width=\"1.5\"/></g><line x1=\"14\" x2=\"466\" y1=\"40\" y2=\"40\" stroke=\"#80868b\"/><line x1=\"14.0\" x2=\"14.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"14.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"start\">50,000</text><line x1=\"240.0\" x2=\"240.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"240.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">100,000</text><line x1=\"466.0\" x2=\"466.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"466.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"end\">150,000 req/s</text></svg><p class=\"why\">Not judged: 106,000 req/s was measured on the post&#39;s machine, and this one differs (see the table above); measured here 60,200 req/s (59,952–60,449), for information.</p></section>\n<section class=\"claim-card\" data-claim=\"falcon-twice-puma\" data-outcome=\"reproduced\"><h3><span class=\"badge reproduced\">reproduced</span> <code>falcon-twice-puma</code> <small>ratio</small></h3><blockquote>A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.</blockquote><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"claim-picture\" width=\"480\" height=\"66\" viewBox=\"0 0 480 66\" role=\"img\" aria-label=\"falcon-twice-puma: published 1.96×, accepted 1.67–2.25×; measured 1.99× (1.99–2)\"><rect class=\"tolerance-band\" x=\"134.2\" y=\"8\" width=\"265.8\" height=\"26\" rx=\"3\" fill=\"#188038\" fill-opacity=\"0.15\" stroke=\"#188038\" stroke-dasharray=\"4 3\"/><line class=\"published-value\" x1=\"267.1\" x2=\"267.1\" y1=\"4\" y2=\"38\" stroke=\"#202124\" stroke-width=\"2\"/><g class=\"claim-mark\" data-claim=\"falcon-twice-puma\" data-outcome=\"reproduced\"><line class=\"claim-interval\" x1=\"278.5\" x2=\"285.9\" y1=\"21\" y2=\"21\" stroke=\"#188038\" stroke-width=\"6\" stroke-linecap=\"round\"/><circle class=\"claim-estimate\" cx=\"282.2\" cy=\"21\" r=\"5\" fill=\"#188038\" stroke=\"#fff\" stroke-width=\"1.5\"/></g><line x1=\"14\" x2=\"466\" y1=\"40\" y2=\"40\" stroke=\"#80868b\"/><line x1=\"14.0\" x2=\"14.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"14.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"start\">1.4</text><line x1=\"104.4\" x2=\"104.4\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"104.4\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">1.6</text><line x1=\"194.8\" x2=\"194.8\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"194.8\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">1.8</text><line x1=\"285.2\" x2=\"285.2\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"285.2\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">2</text><line x1=\"375.6\" x2=\"375.6\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"375.6\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"middle\">2.2</text><line x1=\"466.0\" x2=\"466.0\" y1=\"40\" y2=\"44\" stroke=\"#80868b\"/><text class=\"tick\" x=\"466.0\" y=\"57\" font-size=\"11\" fill=\"#5f6368\" text-anchor=\"end\">2.4×</text></svg><p class=\"why\">Measured 1.99× (1.99–2): inside the 1.67–2.25× the claim accepts (published 1.96×).</p><dl><dt>Reasoning</dt><dd>measured ratio 1.99× (95% interval 1.99× to 2×) against 1.67× to 2.25×: inside the published band; every lane had the CPU it wanted (falcon 98%, puma 98%).</dd></dl></section>\n<section class=\"claim-card\" data-claim=\"falcon-above-puma\" data-outcome=\"reproduced\"><h3><span class=\"badge reproduced\">reproduced</span> <code>falcon-above-puma</code> <small>ordering</small></h3><blockquote>under Falcon, 106,000.</blockquote><p class=\"why\">in the published order, each ratio&#39;s interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2).</p><dl><dt>Reasoning</dt><dd>in the published order, each ratio&#39;s interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2); every lane had the CPU it wanted (falcon 98%, puma 98%).</dd></dl></section>\n</div>\n<h2>Cells</h2>\n<figure class=\"chart\"><figcaption>req_per_s (req/s): median ●, runs ·, range ─, published ▮</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cells-chart\" data-metric=\"req_per_s\" width=\"960\" height=\"138\" viewBox=\"0 0 960 138\" role=\"img\"><line x1=\"280\" y1=\"24\" x2=\"280\" y2=\"114\" stroke=\"#999\"/><line x1=\"280\" y1=\"114\" x2=\"840\" y2=\"114\" stroke=\"#999\"/><text x=\"280\" y=\"128\" font-size=\"11\" text-anchor=\"middle\">0</text><text x=\"840\" y=\"128\" font-size=\"11\" text-anchor=\"middle\">116,600 req/s</text><g class=\"cell-mark\" data-cell=\"puma / req_per_s\" data-status=\"valid\"><title>puma / req_per_s: valid</title><text x=\"272\" y=\"43\" font-size=\"12\" text-anchor=\"end\">puma /</text><rect class=\"published-mark\" x=\"537.3481989708405\" y=\"29\" width=\"4\" height=\"20\" fill=\"#f4b400\"><title>published puma-hello: 54,000 req/s</title></rect><line class=\"run-spread\" x1=\"424.5626072041166\" y1=\"39\" x2=\"425.5231560891938\" y2=\"39\" stroke=\"#1a73e8\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"424.5626072041166\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"425.04288164665525\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"425.5231560891938\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"425.04288164665525\" cy=\"39\" r=\"5\" fill=\"#1a73e8\"/><text x=\"848\" y=\"43\" font-size=\"11\">30,200 req/s</text></g><g class=\"cell-mark\" data-cell=\"falcon / req_per_s\" data-status=\"valid\"><title>falcon / req_per_s: valid</title><text x=\"272\" y=\"73\" font-size=\"12\" text-anchor=\"end\">falcon /</text><rect class=\"published-mark\" x=\"787.090909090909\" y=\"59\" width=\"4\" height=\"20\" fill=\"#f4b400\"><title>published falcon-hello: 106,000 req/s</title></rect><line class=\"run-spread\" x1=\"568.6449399656947\" y1=\"69\" x2=\"569.6054888507718\" y2=\"69\" stroke=\"#1a73e8\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"568.6449399656947\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"569.1252144082332\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"569.6054888507718\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"569.1252144082332\" cy=\"69\" r=\"5\" fill=\"#1a73e8\"/><text x=\"848\" y=\"73\" font-size=\"11\">60,200 req/s</text></g><g class=\"cell-mark\" data-cell=\"nginx / req_per_s\" data-status=\"client-bound\"><title>nginx / req_per_s: client-bound: the load generator used 97% of its CPU in run 2</title><text x=\"272\" y=\"103\" font-size=\"12\" text-anchor=\"end\">nginx /</text><line class=\"run-spread\" x1=\"717.5300171526586\" y1=\"99\" x2=\"718.4905660377358\" y2=\"99\" stroke=\"#999\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"717.5300171526586\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"718.0102915951973\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"718.4905660377358\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"718.0102915951973\" cy=\"99\" r=\"5\" fill=\"#999\"/><text x=\"848\" y=\"103\" font-size=\"11\">91,200 req/s</text></g></svg></figure>\n<figure class=\"chart\"><figcaption>p50_ms (ms): median ●, runs ·, range ─, published ▮</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cells-chart\" data-metric=\"p50_ms\" width=\"960\" height=\"138\" viewBox=\"0 0 960 138\" role=\"img\"><line x1=\"280\" y1=\"24\" x2=\"280\" y2=\"114\" stroke=\"#999\"/><line x1=\"280\" y1=\"114\" x2=\"840\" y2=\"114\" stroke=\"#999\"/><text x=\"280\" y=\"128\" font-size=\"11\" text-anchor=\"middle\">0</text><text x=\"840\" y=\"128\" font-size=\"11\" text-anchor=\"middle\">0.47 ms</text><g class=\"cell-mark\" data-cell=\"puma / p50_ms\" data-status=\"valid\"><title>puma / p50_ms: valid</title><text x=\"272\" y=\"43\" font-size=\"12\" text-anchor=\"end\">puma /</text><line class=\"run-spread\" x1=\"765.4122621564482\" y1=\"39\" x2=\"789.090909090909\" y2=\"39\" stroke=\"#1a73e8\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"765.4122621564482\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"777.2515856236787\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"789.090909090909\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"777.2515856236787\" cy=\"39\" r=\"5\" fill=\"#1a73e8\"/><text x=\"848\" y=\"43\" font-size=\"11\">0.42 ms</text></g><g class=\"cell-mark\" data-cell=\"falcon / p50_ms\" data-status=\"valid\"><title>falcon / p50_ms: valid</title><text x=\"272\" y=\"73\" font-size=\"12\" text-anchor=\"end\">falcon /</text><line class=\"run-spread\" x1=\"765.4122621564482\" y1=\"69\" x2=\"789.090909090909\" y2=\"69\" stroke=\"#1a73e8\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"765.4122621564482\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"777.2515856236787\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"789.090909090909\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"777.2515856236787\" cy=\"69\" r=\"5\" fill=\"#1a73e8\"/><text x=\"848\" y=\"73\" font-size=\"11\">0.42 ms</text></g><g class=\"cell-mark\" data-cell=\"nginx / p50_ms\" data-status=\"client-bound\"><title>nginx / p50_ms: client-bound: the load generator used 97% of its CPU in run 2</title><text x=\"272\" y=\"103\" font-size=\"12\" text-anchor=\"end\">nginx /</text><line class=\"run-spread\" x1=\"765.4122621564482\" y1=\"99\" x2=\"789.090909090909\" y2=\"99\" stroke=\"#999\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"765.4122621564482\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"777.2515856236787\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"789.090909090909\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"777.2515856236787\" cy=\"99\" r=\"5\" fill=\"#999\"/><text x=\"848\" y=\"103\" font-size=\"11\">0.42 ms</text></g></svg></figure>\n<figure class=\"chart\"><figcaption>p99_ms (ms): median ●, runs ·, range ─, published ▮</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cells-chart\" data-metric=\"p99_ms\" width=\"960\" height=\"138\" viewBox=\"0 0 960 138\" role=\"img\"><line x1=\"280\" y1=\"24\" x2=\"280\" y2=\"114\" stroke=\"#999\"/><line x1=\"280\" y1=\"114\" x2=\"840\" y2=\"114\" stroke=\"#999\"/><text x=\"280\" y=\"128\" font-size=\"11\" text-anchor=\"middle\">0</text><text x=\"840\" y=\"128\" font-size=\"11\" text-anchor=\"middle\">2.09 ms</text><g class=\"cell-mark\" data-cell=\"puma / p99_ms\" data-status=\"valid\"><title>puma / p99_ms: valid</title><text x=\"272\" y=\"43\" font-size=\"12\" text-anchor=\"end\">puma /</text><line class=\"run-spread\" x1=\"628.3253588516747\" y1=\"39\" x2=\"789.090909090909\" y2=\"39\" stroke=\"#1a73e8\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"628.3253588516747\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"708.708133971292\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"789.090909090909\" cy=\"39\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"708.708133971292\" cy=\"39\" r=\"5\" fill=\"#1a73e8\"/><text x=\"848\" y=\"43\" font-size=\"11\">1.6 ms ⚠</text></g><g class=\"cell-mark\" data-cell=\"falcon / p99_ms\" data-status=\"valid\"><title>falcon / p99_ms: valid</title><text x=\"272\" y=\"73\" font-size=\"12\" text-anchor=\"end\">falcon /</text><line class=\"run-spread\" x1=\"561.3397129186603\" y1=\"69\" x2=\"588.133971291866\" y2=\"69\" stroke=\"#1a73e8\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"561.3397129186603\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"574.7368421052631\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"588.133971291866\" cy=\"69\" r=\"2.5\" fill=\"#1a73e8\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"574.7368421052631\" cy=\"69\" r=\"5\" fill=\"#1a73e8\"/><text x=\"848\" y=\"73\" font-size=\"11\">1.1 ms</text></g><g class=\"cell-mark\" data-cell=\"nginx / p99_ms\" data-status=\"client-bound\"><title>nginx / p99_ms: client-bound: the load generator used 97% of its CPU in run 2</title><text x=\"272\" y=\"103\" font-size=\"12\" text-anchor=\"end\">nginx /</text><line class=\"run-spread\" x1=\"561.3397129186603\" y1=\"99\" x2=\"588.133971291866\" y2=\"99\" stroke=\"#999\" stroke-width=\"2\"/><circle class=\"run-dot\" cx=\"561.3397129186603\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"574.7368421052631\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"run-dot\" cx=\"588.133971291866\" cy=\"99\" r=\"2.5\" fill=\"#999\" opacity=\"0.6\"/><circle class=\"median-dot\" cx=\"574.7368421052631\" cy=\"99\" r=\"5\" fill=\"#999\"/><text x=\"848\" y=\"103\" font-size=\"11\">1.1 ms</text></g></svg></figure>\n<table class=\"cells\"><tr><th>Lane</th><th>Endpoint</th><th>Metric</th><th>Runs</th><th>Median</th><th>CV</th><th>Server CPU</th><th>Status</th></tr>\n<tr><td>puma</td><td>/</td><td>req_per_s</td><td>30,100, 30,200, 30,300</td><td>30,200 req/s</td><td>0.3%</td><td>98% of 1 CPU, CPU-bound</td><td>valid</td></tr>\n<tr><td>puma</td><td>/</td><td>p50_ms</td><td>0.41, 0.42, 0.43</td><td>0.42 ms</td><td>1.9%</td><td>98% of 1 CPU, CPU-bound</td><td>valid</td></tr>\n<tr><td>puma</td><td>/</td><td>p99_ms</td><td>1.3, 1.6, 1.9</td><td>1.6 ms</td><td>15.3% ⚠ unstable</td><td>98% of 1 CPU, CPU-bound</td><td>valid</td></tr>\n<tr><td>falcon</td><td>/</td><td>req_per_s</td><td>60,100, 60,200, 60,300</td><td>60,200 req/s</td><td>0.1%</td><td>98% of 1 CPU, CPU-bound</td><td>valid</td></tr>\n<tr><td>falcon</td><td>/</td><td>p50_ms</td><td>0.41, 0.42, 0.43</td><td>0.42 ms</td><td>1.9%</td><td>98% of 1 CPU, CPU-bound</td><td>valid</td></tr>\n<tr><td>falcon</td><td>/</td><td>p99_ms</td><td>1.05, 1.1, 1.15</td><td>1.1 ms</td><td>3.7%</td><td>98% of 1 CPU, CPU-bound</td><td>valid</td></tr>\n<tr><td>nginx</td><td>/</td><td>req_per_s</td><td>91,100, 91,200, 91,300</td><td>91,200 req/s</td><td>0.1%</td><td>98% of 1 CPU, CPU-bound</td><td>client-bound: the load generator used 97% of its CPU in run 2</td></tr>\n<tr><td>nginx</td><td>/</td><td>p50_ms</td><td>0.41, 0.42, 0.43</td><td>0.42 ms</td><td>1.9%</td><td>98% of 1 CPU, CPU-bound</td><td>client-bound: the load generator used 97% of its CPU in run 2</td></tr>\n<tr><td>nginx</td><td>/</td><td>p99_ms</td><td>1.05, 1.1, 1.15</td><td>1.1 ms</td><td>3.7%</td><td>98% of 1 CPU, CPU-bound</td><td>client-bound: the load generator used 97% of its CPU in run 2</td></tr>\n</table>\n<h2>Environment</h2>\n<h3>Machine</h3><table class=\"machine\"><tr><th>Item</th><th>This run's machine</th></tr><tr><td>CPU</td><td>AMD Ryzen 7 5800X 8-Core Processor</td></tr><tr><td>Cores / threads</td><td>8 / 16</td></tr><tr><td>SMT</td><td>on</td></tr><tr><td>Frequency</td><td>2200–3800 MHz</td></tr><tr><td>Governor</td><td>performance</td></tr><tr><td>Boost</td><td>off</td></tr><tr><td>Memory</td><td>31.2 GiB</td></tr><tr><td>OS</td><td>Debian GNU/Linux 12 (bookworm)</td></tr><tr><td>Kernel</td><td>6.1.0-27-amd64</td></tr><tr><td>Virtualisation</td><td>bare metal</td></tr></table>\n<h3>Toolchains</h3><table><tr><th>Toolchain</th><th>Version</th></tr><tr><td>ruby</td><td>ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]</td></tr><tr><td>puma</td><td>puma version 6.6.0 (&quot;Return to Forever&quot;)</td></tr><tr><td>falcon</td><td>not found on this machine</td></tr><tr><td>nginx</td><td>nginx version: nginx/1.26.3</td></tr></table>\n<h3>Harness parameters</h3><pre>{\n  &quot;connections&quot;: 16,\n  &quot;duration_sec&quot;: 20,\n  &quot;runs&quot;: 3,\n  &quot;warmup_sec&quot;: 5\n}</pre>\n<h3>Commands</h3><pre>puma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru\nfalcon serve --bind http://127.0.0.1:9294 --count 2 --config config.ru\nnginx -p . -c nginx.conf -g &#39;daemon off;&#39;</pre>\n</body></html>\n",
  "markdown": "Reprise: Campfire under Falcon: the hello-world ceilings (2 reproduced · 2 not comparable)\n\n# Reprise: Campfire under Falcon: the hello-world ceilings\n\nReproduction of Campfire under Falcon: the hello-world ceilings by Sam Ruby (2026-10, the October 16 run), recipe `hello-ceiling`, run `hello-ceiling-20261130-050000` made 2026-11-30T05:00:00Z.\n\n**2 reproduced · 2 not comparable.** This machine differs from the post's, so absolute figures are shown for information only:\n\n| Item | Here | The post's |\n|---|---|---|\n| CPU | AMD Ryzen 7 5800X 8-Core Processor | AMD Ryzen 5 3600 6-Core Processor |\n| cores/threads | 8 cores / 16 threads | 6 cores / 12 threads |\n| frequency | 3.8 GHz | 3.6 GHz |\n| memory | 31 GB | 63 GB |\n\n## Verdicts\n\nEach claim's line: the range it accepts as `=`, the measured median's 95% interval in brackets and the median as `●`.\n\n### `puma-ceiling`: not comparable\n\n> A hello-world app under Puma on the same box serves about 54,000 requests a second\n\n`20,000 ······[●]········===========············ 80,000 req/s`\n\nNot judged: 54,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 30,200 req/s (29,952–30,449), for information.\n\n### `falcon-ceiling`: not comparable\n\n> under Falcon, 106,000.\n\n`50,000 ···[●]··········=============··········· 150,000 req/s`\n\nNot judged: 106,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 60,200 req/s (59,952–60,449), for information.\n\n### `falcon-twice-puma`: reproduced\n\n> A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.\n\n`1.4 ··········============[●]=========······ 2.4×`\n\nMeasured 1.99× (1.99–2): inside the 1.67–2.25× the claim accepts (published 1.96×).\n\n- Reasoning: measured ratio 1.99× (95% interval 1.99× to 2×) against 1.67× to 2.25×: inside the published band; every lane had the CPU it wanted (falcon 98%, puma 98%).\n\n### `falcon-above-puma`: reproduced\n\n> under Falcon, 106,000.\n\nin the published order, each ratio's interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2).\n\n- Reasoning: in the published order, each ratio's interval clear of one: falcon-hello 60,200 req/s (59,952–60,449) vs puma-hello 30,200 req/s (29,952–30,449), a ratio of 1.99× (1.99–2); every lane had the CPU it wanted (falcon 98%, puma 98%).\n\n## Cells\n\n| Lane | Endpoint | Metric | Runs | Median | Min – max | CV | Server CPU | Published | Status |\n|---|---|---|---|---|---|---|---|---|---|\n| puma | / | req_per_s | 3 | 30,200 req/s | 30,100–30,300 req/s | 0.3% | 98% of 1 CPU, CPU-bound | 54,000 req/s (`puma-hello`) | valid |\n| puma | / | p50_ms | 3 | 0.42 ms | 0.41–0.43 ms | 1.9% | 98% of 1 CPU, CPU-bound | — | valid |\n| puma | / | p99_ms | 3 | 1.6 ms | 1.3–1.9 ms | 15.3% ⚠ unstable | 98% of 1 CPU, CPU-bound | — | valid |\n| falcon | / | req_per_s | 3 | 60,200 req/s | 60,100–60,300 req/s | 0.1% | 98% of 1 CPU, CPU-bound | 106,000 req/s (`falcon-hello`) | valid |\n| falcon | / | p50_ms | 3 | 0.42 ms | 0.41–0.43 ms | 1.9% | 98% of 1 CPU, CPU-bound | — | valid |\n| falcon | / | p99_ms | 3 | 1.1 ms | 1.05–1.15 ms | 3.7% | 98% of 1 CPU, CPU-bound | — | valid |\n| nginx | / | req_per_s | 3 | 91,200 req/s | 91,100–91,300 req/s | 0.1% | 98% of 1 CPU, CPU-bound | — | client-bound: the load generator used 97% of its CPU in run 2 |\n| nginx | / | p50_ms | 3 | 0.42 ms | 0.41–0.43 ms | 1.9% | 98% of 1 CPU, CPU-bound | — | client-bound: the load generator used 97% of its CPU in run 2 |\n| nginx | / | p99_ms | 3 | 1.1 ms | 1.05–1.15 ms | 3.7% | 98% of 1 CPU, CPU-bound | — | client-bound: the load generator used 97% of its CPU in run 2 |\n\n## Environment\n\n### Machine\n\n| Item | This run's machine |\n|---|---|\n| CPU | AMD Ryzen 7 5800X 8-Core Processor |\n| Cores / threads | 8 / 16 |\n| SMT | on |\n| Frequency | 2200–3800 MHz |\n| Governor | performance |\n| Boost | off |\n| Memory | 31.2 GiB |\n| OS | Debian GNU/Linux 12 (bookworm) |\n| Kernel | 6.1.0-27-amd64 |\n| Virtualisation | bare metal |\n\n### Toolchains\n\n| Toolchain | Version |\n|---|---|\n| ruby | ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM \\[x86_64-linux\\] |\n| puma | puma version 6.6.0 (\"Return to Forever\") |\n| falcon | not found on this machine |\n| nginx | nginx version: nginx/1.26.3 |\n\n### Harness parameters\n\n```json\n{\n  \"connections\": 16,\n  \"duration_sec\": 20,\n  \"runs\": 3,\n  \"warmup_sec\": 5\n}\n```\n\n### Commands\n\n```sh\npuma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru\nfalcon serve --bind http://127.0.0.1:9294 --count 2 --config config.ru\nnginx -p . -c nginx.conf -g 'daemon off;'\n```\n\n### How verdicts were reached\n\nMedians of runs; intervals are 95% intervals, each the wider of a bootstrap percentile interval (4000 resamples, seed 0x5eed0f2026, over rounds of alternating lanes) and a Student-t interval on the runs' logarithms (the bootstrap alone is too narrow over few runs); a cell is unstable past a 10% coefficient of variation and client-bound past 90% load-generator CPU; a cell with any error is no data. A claim is inconclusive when its cells were measured but its interval straddles the band's edge (or, for an ordering, a pair's ratio interval reaches one), no data when a cell it rests on failed a gate (errors, a run without a number, a saturated load generator), and not measured when no cell measured one of its figures (the lane cannot be run, was skipped, or did not measure it).\n\n## Machine-readable result\n\nFor `reprise community`, which reads everyone's results back (docs/community.md).\n\n```reprise-result v1\n{\n  \"recipe\": \"hello-ceiling\",\n  \"recipe_sha256\": \"5bed0d922286a02700b5a5cdbd37b46b28c1297af9667c8b3f7f00d62996dab6\",\n  \"reviewed\": true,\n  \"reprise\": \"0.1.0\",\n  \"run\": \"hello-ceiling-20261130-050000\",\n  \"created_at\": \"2026-11-30T05:00:00Z\",\n  \"smoke_run\": false,\n  \"machine_matches_post\": false,\n  \"deviations\": [],\n  \"machine\": {\n    \"cpu\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n    \"vendor\": \"AuthenticAMD\",\n    \"cores\": 8,\n    \"threads\": 16,\n    \"smt\": true,\n    \"min_mhz\": 2200,\n    \"max_mhz\": 3800,\n    \"governor\": \"performance\",\n    \"boost\": false,\n    \"memory_mib\": 32000,\n    \"os\": \"Debian GNU/Linux 12 (bookworm)\",\n    \"kernel\": \"6.1.0-27-amd64\",\n    \"arch\": \"x86_64\",\n    \"virtual_machine\": false,\n    \"hypervisor\": null\n  },\n  \"claims\": [\n    {\n      \"id\": \"puma-ceiling\",\n      \"kind\": \"absolute\",\n      \"outcome\": \"not_comparable\",\n      \"unit\": \"req/s\",\n      \"published\": 54000.0,\n      \"band\": [\n        45900.0,\n        62099.99999999999\n      ],\n      \"measured\": {\n        \"estimate\": 30200.0,\n        \"low\": 29952.494627574,\n        \"high\": 30449.327999596368\n      }\n    },\n    {\n      \"id\": \"falcon-ceiling\",\n      \"kind\": \"absolute\",\n      \"outcome\": \"not_comparable\",\n      \"unit\": \"req/s\",\n      \"published\": 106000.0,\n      \"band\": [\n        90100.0,\n        121899.99999999999\n      ],\n      \"measured\": {\n        \"estimate\": 60200.0,\n        \"low\": 59952.04266211152,\n        \"high\": 60448.8716715668\n      }\n    },\n    {\n      \"id\": \"falcon-twice-puma\",\n      \"kind\": \"ratio\",\n      \"outcome\": \"reproduced\",\n      \"unit\": \"×\",\n      \"published\": 1.96,\n      \"band\": [\n        1.666,\n        2.254\n      ],\n      \"measured\": {\n        \"estimate\": 1.9933774834437086,\n        \"low\": 1.9852284298549534,\n        \"high\": 2.001570936373453\n      }\n    },\n    {\n      \"id\": \"falcon-above-puma\",\n      \"kind\": \"ordering\",\n      \"outcome\": \"reproduced\",\n      \"unit\": \"req/s\",\n      \"published\": null,\n      \"band\": null,\n      \"measured\": null\n    }\n  ],\n  \"cells\": [\n    {\n      \"lane\": \"puma\",\n      \"endpoint\": \"/\",\n      \"metric\": \"req_per_s\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 30200.0,\n      \"interval\": [\n        29952.494627574,\n        30449.327999596368\n      ]\n    },\n    {\n      \"lane\": \"puma\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p50_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 0.42000000000000004,\n      \"interval\": [\n        0.395799187091157,\n        0.44551210003450176\n      ]\n    },\n    {\n      \"lane\": \"puma\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p99_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 1.6,\n      \"interval\": [\n        0.9861207125015564,\n        2.5348243853766816\n      ]\n    },\n    {\n      \"lane\": \"falcon\",\n      \"endpoint\": \"/\",\n      \"metric\": \"req_per_s\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 60200.0,\n      \"interval\": [\n        59952.04266211152,\n        60448.8716715668\n      ]\n    },\n    {\n      \"lane\": \"falcon\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p50_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 0.42000000000000004,\n      \"interval\": [\n        0.395799187091157,\n        0.44551210003450176\n      ]\n    },\n    {\n      \"lane\": \"falcon\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p99_ms\",\n      \"status\": \"valid\",\n      \"runs\": 3,\n      \"median\": 1.1,\n      \"interval\": [\n        0.9817857378256571,\n        1.2307499613517758\n      ]\n    },\n    {\n      \"lane\": \"nginx\",\n      \"endpoint\": \"/\",\n      \"metric\": \"req_per_s\",\n      \"status\": \"client_bound\",\n      \"runs\": 3,\n      \"median\": 91200.0,\n      \"interval\": [\n        90951.88767894992,\n        91448.71586053983\n      ]\n    },\n    {\n      \"lane\": \"nginx\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p50_ms\",\n      \"status\": \"client_bound\",\n      \"runs\": 3,\n      \"median\": 0.42000000000000004,\n      \"interval\": [\n        0.395799187091157,\n        0.44551210003450176\n      ]\n    },\n    {\n      \"lane\": \"nginx\",\n      \"endpoint\": \"/\",\n      \"metric\": \"p99_ms\",\n      \"status\": \"client_bound\",\n      \"runs\": 3,\n      \"median\": 1.1,\n      \"interval\": [\n        0.9817857378256571,\n        1.2307499613517758\n      ]\n    }\n  ]\n}\n```\n\n<details>\n<summary>The full report as JSON</summary>\n\n```json\n{\n  \"run\": {\n    \"id\": \"hello-ceiling-20261130-050000\",\n    \"created_at\": \"2026-11-30T05:00:00Z\",\n    \"recipe\": \"hello-ceiling\",\n    \"title\": \"Campfire under Falcon: the hello-world ceilings\",\n    \"author\": \"Sam Ruby\",\n    \"post_date\": \"2026-10\",\n    \"post_url\": null,\n    \"post_run\": \"the October 16 run\",\n    \"origin\": \"reprise run, /home/reader/.local/share/reprise/runs/hello-ceiling-20261130-050000\",\n    \"recipe_sha256\": \"5bed0d922286a02700b5a5cdbd37b46b28c1297af9667c8b3f7f00d62996dab6\",\n    \"machine\": {\n      \"cpu\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n      \"vendor\": \"AuthenticAMD\",\n      \"cores\": 8,\n      \"threads\": 16,\n      \"smt\": true,\n      \"min_mhz\": 2200,\n      \"max_mhz\": 3800,\n      \"governor\": \"performance\",\n      \"boost\": false,\n      \"memory_mib\": 32000,\n      \"os\": \"Debian GNU/Linux 12 (bookworm)\",\n      \"kernel\": \"6.1.0-27-amd64\",\n      \"arch\": \"x86_64\",\n      \"virtual_machine\": false,\n      \"hypervisor\": null\n    },\n    \"ending\": \"finished\"\n  },\n  \"judgement\": {\n    \"recipe\": \"hello-ceiling\",\n    \"machine\": {\n      \"machine\": \"differs\",\n      \"reasons\": [\n        {\n          \"difference\": \"item\",\n          \"item\": \"CPU\",\n          \"here\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n          \"post\": \"AMD Ryzen 5 3600 6-Core Processor\"\n        },\n        {\n          \"difference\": \"item\",\n          \"item\": \"cores/threads\",\n          \"here\": \"8 cores / 16 threads\",\n          \"post\": \"6 cores / 12 threads\"\n        },\n        {\n          \"difference\": \"item\",\n          \"item\": \"frequency\",\n          \"here\": \"3.8 GHz\",\n          \"post\": \"3.6 GHz\"\n        },\n        {\n          \"difference\": \"item\",\n          \"item\": \"memory\",\n          \"here\": \"31 GB\",\n          \"post\": \"63 GB\"\n        }\n      ]\n    },\n    \"settings\": {\n      \"thresholds\": {\n        \"unstable_cv\": 0.1,\n        \"client_bound_cpu\": 0.9,\n        \"network_bound_share\": 0.9\n      },\n      \"bootstrap\": {\n        \"resamples\": 4000,\n        \"confidence\": 0.95,\n        \"seed\": 407704117286\n      },\n      \"rounds_alternate\": true\n    },\n    \"cells\": [\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"puma\",\n            \"endpoint\": \"/\",\n            \"metric\": \"req_per_s\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 30100.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 30200.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 30300.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 30200.0,\n          \"min\": 30100.0,\n          \"max\": 30300.0,\n          \"mean\": 30200.0,\n          \"cv\": 0.0027036310626745897,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"puma\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p50_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 0.41000000000000003,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 0.42000000000000004,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 0.43000000000000005,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 0.42000000000000004,\n          \"min\": 0.41000000000000003,\n          \"max\": 0.43000000000000005,\n          \"mean\": 0.4200000000000001,\n          \"cv\": 0.01944039478399349,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"puma\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p99_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 1.3,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 1.6,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 1.9,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 1.6,\n          \"min\": 1.3,\n          \"max\": 1.9,\n          \"mean\": 1.6000000000000003,\n          \"cv\": 0.1530931089239486,\n          \"unstable\": true\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"falcon\",\n            \"endpoint\": \"/\",\n            \"metric\": \"req_per_s\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 60100.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 60200.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 60300.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 60200.0,\n          \"min\": 60100.0,\n          \"max\": 60300.0,\n          \"mean\": 60200.0,\n          \"cv\": 0.0013563066128367543,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"falcon\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p50_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 0.41000000000000003,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 0.42000000000000004,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 0.43000000000000005,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 0.42000000000000004,\n          \"min\": 0.41000000000000003,\n          \"max\": 0.43000000000000005,\n          \"mean\": 0.4200000000000001,\n          \"cv\": 0.01944039478399349,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"falcon\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p99_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 1.05,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 1.1,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 1.15,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 1.1,\n          \"min\": 1.05,\n          \"max\": 1.15,\n          \"mean\": 1.1,\n          \"cv\": 0.03711348095126022,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"nginx\",\n            \"endpoint\": \"/\",\n            \"metric\": \"req_per_s\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 91100.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 91200.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.97,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 91300.0,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"client_bound\",\n          \"run\": 2,\n          \"client_cpu\": 0.97\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 91200.0,\n          \"min\": 91100.0,\n          \"max\": 91300.0,\n          \"mean\": 91200.0,\n          \"cv\": 0.0008952813387365418,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"nginx\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p50_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 0.41000000000000003,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 0.42000000000000004,\n              \"errors\": 0,\n              \"client_cpu\": 0.97,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 0.43000000000000005,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"client_bound\",\n          \"run\": 2,\n          \"client_cpu\": 0.97\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 0.42000000000000004,\n          \"min\": 0.41000000000000003,\n          \"max\": 0.43000000000000005,\n          \"mean\": 0.4200000000000001,\n          \"cv\": 0.01944039478399349,\n          \"unstable\": false\n        }\n      },\n      {\n        \"cell\": {\n          \"key\": {\n            \"lane\": \"nginx\",\n            \"endpoint\": \"/\",\n            \"metric\": \"p99_ms\"\n          },\n          \"runs\": [\n            {\n              \"run\": 1,\n              \"value\": 1.05,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 2,\n              \"value\": 1.1,\n              \"errors\": 0,\n              \"client_cpu\": 0.97,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            },\n            {\n              \"run\": 3,\n              \"value\": 1.15,\n              \"errors\": 0,\n              \"client_cpu\": 0.55,\n              \"server_cpu\": {\n                \"wall_s\": 20.0,\n                \"cpu_s\": 19.6,\n                \"wait_s\": 0.3,\n                \"cpus\": 1.0,\n                \"steal_s\": null\n              }\n            }\n          ]\n        },\n        \"status\": {\n          \"status\": \"client_bound\",\n          \"run\": 2,\n          \"client_cpu\": 0.97\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 1.1,\n          \"min\": 1.05,\n          \"max\": 1.15,\n          \"mean\": 1.1,\n          \"cv\": 0.03711348095126022,\n          \"unstable\": false\n        }\n      }\n    ],\n    \"figures\": [\n      {\n        \"figure\": \"puma-hello\",\n        \"lane\": \"puma\",\n        \"endpoint\": \"/\",\n        \"metric\": \"req_per_s\",\n        \"published\": 54000.0,\n        \"published_range\": null,\n        \"cell\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 30200.0,\n          \"min\": 30100.0,\n          \"max\": 30300.0,\n          \"mean\": 30200.0,\n          \"cv\": 0.0027036310626745897,\n          \"unstable\": false\n        },\n        \"interval\": {\n          \"estimate\": 30200.0,\n          \"low\": 29952.494627574,\n          \"high\": 30449.327999596368\n        }\n      },\n      {\n        \"figure\": \"falcon-hello\",\n        \"lane\": \"falcon\",\n        \"endpoint\": \"/\",\n        \"metric\": \"req_per_s\",\n        \"published\": 106000.0,\n        \"published_range\": null,\n        \"cell\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"status\": {\n          \"status\": \"valid\"\n        },\n        \"stats\": {\n          \"runs\": 3,\n          \"median\": 60200.0,\n          \"min\": 60100.0,\n          \"max\": 60300.0,\n          \"mean\": 60200.0,\n          \"cv\": 0.0013563066128367543,\n          \"unstable\": false\n        },\n        \"interval\": {\n          \"estimate\": 60200.0,\n          \"low\": 59952.04266211152,\n          \"high\": 60448.8716715668\n        }\n      }\n    ],\n    \"verdicts\": [\n      {\n        \"claim\": \"puma-ceiling\",\n        \"kind\": \"absolute\",\n        \"quote\": \"A hello-world app under Puma on the same box serves about 54,000 requests a second\",\n        \"outcome\": \"not_comparable\",\n        \"why\": {\n          \"why\": \"machine_differs\",\n          \"differences\": [\n            {\n              \"difference\": \"item\",\n              \"item\": \"CPU\",\n              \"here\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n              \"post\": \"AMD Ryzen 5 3600 6-Core Processor\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"cores/threads\",\n              \"here\": \"8 cores / 16 threads\",\n              \"post\": \"6 cores / 12 threads\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"frequency\",\n              \"here\": \"3.8 GHz\",\n              \"post\": \"3.6 GHz\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"memory\",\n              \"here\": \"31 GB\",\n              \"post\": \"63 GB\"\n            }\n          ],\n          \"measured\": 30200.0,\n          \"published\": 54000.0\n        },\n        \"notes\": [],\n        \"published\": 54000.0,\n        \"unit\": \"req/s\",\n        \"tolerance\": 0.15,\n        \"band\": [\n          45900.0,\n          62099.99999999999\n        ],\n        \"measured\": {\n          \"estimate\": 30200.0,\n          \"low\": 29952.494627574,\n          \"high\": 30449.327999596368\n        },\n        \"more_runs\": null,\n        \"figures\": [\n          \"puma-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": null\n      },\n      {\n        \"claim\": \"falcon-ceiling\",\n        \"kind\": \"absolute\",\n        \"quote\": \"under Falcon, 106,000.\",\n        \"outcome\": \"not_comparable\",\n        \"why\": {\n          \"why\": \"machine_differs\",\n          \"differences\": [\n            {\n              \"difference\": \"item\",\n              \"item\": \"CPU\",\n              \"here\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n              \"post\": \"AMD Ryzen 5 3600 6-Core Processor\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"cores/threads\",\n              \"here\": \"8 cores / 16 threads\",\n              \"post\": \"6 cores / 12 threads\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"frequency\",\n              \"here\": \"3.8 GHz\",\n              \"post\": \"3.6 GHz\"\n            },\n            {\n              \"difference\": \"item\",\n              \"item\": \"memory\",\n              \"here\": \"31 GB\",\n              \"post\": \"63 GB\"\n            }\n          ],\n          \"measured\": 60200.0,\n          \"published\": 106000.0\n        },\n        \"notes\": [],\n        \"published\": 106000.0,\n        \"unit\": \"req/s\",\n        \"tolerance\": 0.15,\n        \"band\": [\n          90100.0,\n          121899.99999999999\n        ],\n        \"measured\": {\n          \"estimate\": 60200.0,\n          \"low\": 59952.04266211152,\n          \"high\": 60448.8716715668\n        },\n        \"more_runs\": null,\n        \"figures\": [\n          \"falcon-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": null\n      },\n      {\n        \"claim\": \"falcon-twice-puma\",\n        \"kind\": \"ratio\",\n        \"quote\": \"A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.\",\n        \"outcome\": \"reproduced\",\n        \"why\": {\n          \"why\": \"banded\",\n          \"what\": \"ratio\",\n          \"measured\": {\n            \"estimate\": 1.9933774834437086,\n            \"low\": 1.9852284298549534,\n            \"high\": 2.001570936373453\n          },\n          \"band\": [\n            1.666,\n            2.254\n          ],\n          \"confidence\": 0.95,\n          \"place\": {\n            \"place\": \"inside\"\n          }\n        },\n        \"notes\": [],\n        \"published\": 1.96,\n        \"unit\": \"×\",\n        \"tolerance\": 0.15,\n        \"band\": [\n          1.666,\n          2.254\n        ],\n        \"measured\": {\n          \"estimate\": 1.9933774834437086,\n          \"low\": 1.9852284298549534,\n          \"high\": 2.001570936373453\n        },\n        \"more_runs\": null,\n        \"figures\": [\n          \"falcon-hello\",\n          \"puma-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": {\n          \"basis\": \"as_measured\",\n          \"lanes\": [\n            {\n              \"lane\": \"falcon\",\n              \"figure\": \"falcon-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            },\n            {\n              \"lane\": \"puma\",\n              \"figure\": \"puma-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            }\n          ],\n          \"why\": \"every lane had the CPU it wanted (falcon 98%, puma 98%)\"\n        }\n      },\n      {\n        \"claim\": \"falcon-above-puma\",\n        \"kind\": \"ordering\",\n        \"quote\": \"under Falcon, 106,000.\",\n        \"outcome\": \"reproduced\",\n        \"why\": {\n          \"why\": \"ordering\",\n          \"finding\": {\n            \"finding\": \"in_order\"\n          },\n          \"pairs\": [\n            {\n              \"first\": {\n                \"figure\": \"falcon-hello\",\n                \"median\": 60200.0,\n                \"interval\": {\n                  \"estimate\": 60200.0,\n                  \"low\": 59952.04266211152,\n                  \"high\": 60448.8716715668\n                }\n              },\n              \"second\": {\n                \"figure\": \"puma-hello\",\n                \"median\": 30200.0,\n                \"interval\": {\n                  \"estimate\": 30200.0,\n                  \"low\": 29952.494627574,\n                  \"high\": 30449.327999596368\n                }\n              },\n              \"ratio\": {\n                \"estimate\": 1.9933774834437086,\n                \"low\": 1.9852284298549534,\n                \"high\": 2.001570936373453\n              },\n              \"unit\": \"req/s\"\n            }\n          ]\n        },\n        \"notes\": [],\n        \"published\": null,\n        \"unit\": \"req/s\",\n        \"tolerance\": 0.05,\n        \"band\": null,\n        \"measured\": null,\n        \"more_runs\": null,\n        \"figures\": [\n          \"falcon-hello\",\n          \"puma-hello\"\n        ],\n        \"deviations\": [],\n        \"decided_after\": null,\n        \"cpu\": {\n          \"basis\": \"as_measured\",\n          \"lanes\": [\n            {\n              \"lane\": \"falcon\",\n              \"figure\": \"falcon-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            },\n            {\n              \"lane\": \"puma\",\n              \"figure\": \"puma-hello\",\n              \"share\": 0.9800000000000001,\n              \"wanted\": 0.9950000000000001,\n              \"cpus\": 1.0,\n              \"steal\": null,\n              \"runs\": 3,\n              \"measured_again\": 0\n            }\n          ],\n          \"why\": \"every lane had the CPU it wanted (falcon 98%, puma 98%)\"\n        }\n      }\n    ],\n    \"deviations\": [],\n    \"sequential\": null\n  },\n  \"measurements\": {\n    \"cells\": [\n      {\n        \"key\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 30100.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 30200.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 30300.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p50_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 0.41000000000000003,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 0.42000000000000004,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 0.43000000000000005,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"puma\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p99_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 1.3,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 1.6,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 1.9,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 60100.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 60200.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 60300.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p50_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 0.41000000000000003,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 0.42000000000000004,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 0.43000000000000005,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"falcon\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p99_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 1.05,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 1.1,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 1.15,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"nginx\",\n          \"endpoint\": \"/\",\n          \"metric\": \"req_per_s\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 91100.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 91200.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.97,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 91300.0,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"nginx\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p50_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 0.41000000000000003,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 0.42000000000000004,\n            \"errors\": 0,\n            \"client_cpu\": 0.97,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 0.43000000000000005,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      },\n      {\n        \"key\": {\n          \"lane\": \"nginx\",\n          \"endpoint\": \"/\",\n          \"metric\": \"p99_ms\"\n        },\n        \"runs\": [\n          {\n            \"run\": 1,\n            \"value\": 1.05,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 2,\n            \"value\": 1.1,\n            \"errors\": 0,\n            \"client_cpu\": 0.97,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          },\n          {\n            \"run\": 3,\n            \"value\": 1.15,\n            \"errors\": 0,\n            \"client_cpu\": 0.55,\n            \"server_cpu\": {\n              \"wall_s\": 20.0,\n              \"cpu_s\": 19.6,\n              \"wait_s\": 0.3,\n              \"cpus\": 1.0,\n              \"steal_s\": null\n            }\n          }\n        ]\n      }\n    ],\n    \"lanes\": {\n      \"falcon\": {\n        \"target\": \"falcon\",\n        \"workers\": 2,\n        \"warmup_sec\": null\n      },\n      \"nginx\": {\n        \"target\": \"nginx\",\n        \"workers\": 1,\n        \"warmup_sec\": null\n      },\n      \"puma\": {\n        \"target\": \"puma\",\n        \"workers\": 2,\n        \"warmup_sec\": null\n      }\n    },\n    \"parity\": [],\n    \"reference_lane\": null\n  },\n  \"environment\": {\n    \"fingerprint\": null,\n    \"toolchains\": [\n      {\n        \"name\": \"ruby\",\n        \"version\": \"ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]\"\n      },\n      {\n        \"name\": \"puma\",\n        \"version\": \"puma version 6.6.0 (\\\"Return to Forever\\\")\"\n      },\n      {\n        \"name\": \"falcon\",\n        \"version\": \"not found on this machine\"\n      },\n      {\n        \"name\": \"nginx\",\n        \"version\": \"nginx version: nginx/1.26.3\"\n      }\n    ],\n    \"sources\": [],\n    \"tree_digests\": [],\n    \"harness\": {\n      \"connections\": 16,\n      \"duration_sec\": 20,\n      \"runs\": 3,\n      \"warmup_sec\": 5\n    },\n    \"commands\": [\n      [\n        \"puma\",\n        \"--bind\",\n        \"tcp://127.0.0.1:9292\",\n        \"--workers\",\n        \"2\",\n        \"--threads\",\n        \"4:4\",\n        \"--environment\",\n        \"production\",\n        \"config.ru\"\n      ],\n      [\n        \"falcon\",\n        \"serve\",\n        \"--bind\",\n        \"http://127.0.0.1:9294\",\n        \"--count\",\n        \"2\",\n        \"--config\",\n        \"config.ru\"\n      ],\n      [\n        \"nginx\",\n        \"-p\",\n        \".\",\n        \"-c\",\n        \"nginx.conf\",\n        \"-g\",\n        \"daemon off;\"\n      ]\n    ],\n    \"bench_env\": {\n      \"captured_at\": \"2026-11-30T05:00:00Z\",\n      \"harness\": {\n        \"connections\": 16,\n        \"duration_sec\": 20,\n        \"runs\": 3,\n        \"warmup_sec\": 5\n      },\n      \"reprise\": {\n        \"fingerprint\": {\n          \"clock\": {\n            \"base_khz\": null,\n            \"boost\": false,\n            \"boost_control\": \"cpufreq_boost\",\n            \"cur_khz\": 3800000,\n            \"driver\": \"acpi-cpufreq\",\n            \"energy_performance_preference\": null,\n            \"governor\": \"performance\",\n            \"governors_agree\": true,\n            \"max_khz\": 3800000,\n            \"min_khz\": 2200000,\n            \"policies\": [\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"0\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy0\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"1\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy1\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"2\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy2\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"3\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy3\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"4\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy4\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"5\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy5\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"6\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy6\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"7\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy7\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"8\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy8\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"9\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy9\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"10\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy10\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"11\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy11\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"12\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy12\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"13\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy13\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"14\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy14\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              },\n              {\n                \"base_khz\": null,\n                \"cpuinfo_max_khz\": 3800000,\n                \"cpuinfo_min_khz\": 2200000,\n                \"cpus\": \"15\",\n                \"cur_khz\": 3800000,\n                \"energy_performance_preference\": null,\n                \"governor\": \"performance\",\n                \"name\": \"policy15\",\n                \"scaling_max_khz\": 3800000,\n                \"scaling_min_khz\": 2200000\n              }\n            ]\n          },\n          \"container_engine\": {\n            \"api_version\": null,\n            \"architecture\": null,\n            \"cpus\": null,\n            \"host\": \"unix:///var/run/docker.sock\",\n            \"kernel\": null,\n            \"memory_bytes\": null,\n            \"name\": \"Docker Engine - Community\",\n            \"operating_system\": null,\n            \"os\": null,\n            \"version\": \"27.3.1\"\n          },\n          \"cpu\": {\n            \"brand\": \"AMD Ryzen 7 5800X 8-Core Processor\",\n            \"caches\": [],\n            \"cpuinfo_khz\": 3800000,\n            \"family\": 25,\n            \"hypervisor_flag\": false,\n            \"logical_threads\": 16,\n            \"model\": 33,\n            \"online\": \"0-15\",\n            \"physical_cores\": 8,\n            \"smt_active\": true,\n            \"smt_control\": \"on\",\n            \"sockets\": 1,\n            \"stepping\": 0,\n            \"vendor\": \"AuthenticAMD\"\n          },\n          \"cpu_access\": {\n            \"affinity\": \"0-15\",\n            \"cgroup\": null,\n            \"cgroup_version\": null,\n            \"cpu_max\": null,\n            \"cpuset\": null,\n            \"quota_cpus\": null,\n            \"usable_cpus\": 16.0\n          },\n          \"load\": {\n            \"loadavg\": [\n              0.08,\n              0.05,\n              0.01\n            ],\n            \"steal_percent\": 0.0,\n            \"uptime_secs\": 86400.5\n          },\n          \"memory\": {\n            \"available_kib\": 28000000,\n            \"swap_free_kib\": 0,\n            \"swap_total_kib\": 0,\n            \"total_kib\": 32768000,\n            \"transparent_hugepages\": \"madvise\"\n          },\n          \"os\": {\n            \"arch\": \"x86_64\",\n            \"hostname\": \"[hostname]\",\n            \"id\": \"debian\",\n            \"kernel\": \"6.1.0-27-amd64\",\n            \"kernel_build\": \"#1 SMP PREEMPT_DYNAMIC\",\n            \"kernel_name\": \"Linux\",\n            \"pretty_name\": \"Debian GNU/Linux 12 (bookworm)\",\n            \"version_id\": \"12\"\n          },\n          \"virtualization\": {\n            \"container\": null,\n            \"dmi_product\": \"System Product Name\",\n            \"dmi_vendor\": \"ASUS\",\n            \"hypervisor_flag\": false,\n            \"virtual_machine\": false\n          }\n        },\n        \"toolchains\": {\n          \"recorded\": false,\n          \"tools\": [\n            {\n              \"banner\": {\n                \"java\": null,\n                \"native\": null,\n                \"product\": \"Ruby\",\n                \"ruby_compat\": null,\n                \"version\": \"3.3.8\",\n                \"yjit\": false\n              },\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": \"ruby 3.3.8 (2025-04-09 revision b200bad6cd) +PRISM [x86_64-linux]\",\n              \"origin\": \"path\",\n              \"path\": \"/usr/bin/ruby\",\n              \"status\": \"answered\",\n              \"tool\": \"ruby\"\n            },\n            {\n              \"banner\": {\n                \"java\": null,\n                \"native\": null,\n                \"product\": \"puma\",\n                \"ruby_compat\": null,\n                \"version\": \"6.6.0\",\n                \"yjit\": null\n              },\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": \"puma version 6.6.0 (\\\"Return to Forever\\\")\",\n              \"origin\": \"path\",\n              \"path\": \"/usr/bin/puma\",\n              \"status\": \"answered\",\n              \"tool\": \"puma\"\n            },\n            {\n              \"banner\": null,\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": null,\n              \"origin\": null,\n              \"path\": null,\n              \"status\": \"missing\",\n              \"tool\": \"falcon\"\n            },\n            {\n              \"banner\": {\n                \"java\": null,\n                \"native\": null,\n                \"product\": \"nginx\",\n                \"ruby_compat\": null,\n                \"version\": \"1.26.3\",\n                \"yjit\": null\n              },\n              \"elapsed_ms\": 0,\n              \"error\": null,\n              \"first_line\": \"nginx version: nginx/1.26.3\",\n              \"origin\": \"path\",\n              \"path\": \"/usr/bin/nginx\",\n              \"status\": \"answered\",\n              \"tool\": \"nginx\"\n            }\n          ]\n        }\n      }\n    }\n  }\n}\n```\n\n</details>\n",
  "prefilled_url": "https://github.com/rubys/reprise/discussions/new?category=hello-ceiling&title=Reprise%3A+Campfire+under+Falcon%3A+the+hello-world+ceilings+%282+reproduced+%C2%B7+2+not+comparable%29&body=The+full+report+did+not+fit+in+a+link%3B+paste+it+here+from+the+saved+report.",
  "redacted": true,
  "redacted_names": [
    "desk-seven"
  ],
  "repo": "rubys/reprise",
  "run": "hello-ceiling-20261130-050000",
  "title": "Reprise: Campfire under Falcon: the hello-world ceilings (2 reproduced · 2 not comparable)"
};

/** The checkout's recipes, as the Library shows them. */
export const library: Library = {
  "dir": "/home/reader/reprise/recipes",
  "problems": [],
  "recipes": [
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 26,
      "figures": 31,
      "lanes": [
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby-falcon"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The post names no revision of tobi/campfire-once-ruby-ractor and does not say how it is booted; this recipe does not stand it up. Its figures are published only."
          },
          "lane": "tobi"
        },
        {
          "here": {
            "state": "published_only",
            "why": "This recipe runs the emitted app as the post left it; the earlier builds' figures read the same cells as the final build's, so they are published only."
          },
          "lane": "earlier-builds"
        },
        {
          "here": {
            "state": "published_only",
            "why": "This recipe runs no profiler: the profile's figures are published only."
          },
          "lane": "request-profile"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The post publishes no figure for stock Rails; it is mentioned only as the origin of the cache rules the emitted tree now applies in process."
          },
          "lane": "rails"
        }
      ],
      "post": {
        "author": "Sam Ruby",
        "date": "2026-10",
        "id": "campfire-falcon",
        "run": "the October 16 run",
        "summary": "The Ruby that Roundhouse emits from Campfire's Rails source was ahead of Tobi's hand-written port on the routes that render pages but behind on the three that do almost nothing (avatar, stylesheet, /up), which measure the server and the layers around the app; Tobi's port runs on Falcon. The post adds a ruby-falcon lane: the same emitted tree under Falcon. Three layers close the avatar gap: Thruster's cache rules in process (14,610 → 45,333 req/s under Puma), Falcon (45k → 46k, because its Rack adapter costs 17 µs against a 3 µs cache lookup), and a falcon.rb that answers cache hits before the Rack adapter (75,552). Posting a message under Falcon had a 360–716 ms p99 from background threads holding the GVL for a 100 ms time slice; moving them off the request process brought it to 77 ms (Puma 64, Tobi 63). /up stays well behind (37,586 against 61,378), and the Falcon lane's processes take 1.2 GB against the port's 0.7 GB.",
        "title": "Campfire under Falcon",
        "unknowns": [
          "The post gives no Campfire revision for the October 16 run; this recipe pins ed0f9a5, the revision post 001 names for the nightly of September 22, a month earlier.",
          "The post gives no Roundhouse commit; the falcon.rb, runtime/thruster_cache.rb and the ruby-falcon lane are on the roundhouse repository's main branch at some commit after the October 16 run's changes.",
          "The post gives no Ruby, Puma or Falcon version. This recipe pins Ruby 4.0.5, post 001's a month earlier. Falcon is added 'at the version Tobi's port uses', which the post does not state; this recipe adds Falcon unpinned and records the version it served.",
          "The post says 'eight workers' but not the thread count; the benchmark page (post 002) defines the ruby lane as Rails' own Puma shape, (processor_count * 0.666).ceil workers x 5 threads, which this recipe follows.",
          "How the emitted falcon.rb takes its port and worker count is not in the post; this recipe assumes `falcon host falcon.rb` with PORT and WEB_CONCURRENCY, as config/puma.rb takes them.",
          "The October 16 run's requests-per-second table for the four page routes and the stylesheet did not survive as text: the post says only that the Falcon lane is well ahead of the port on the page routes and ahead on the stylesheet. Those cells are figures with `unknown`.",
          "'It's within 1% on the avatar and on posting a message, where the Puma lane is ahead': the post does not give the cells, and does not say whom the Puma lane is ahead of (read against the port, it would contradict the avatar figures of the 'Three layers' section, which may be from earlier runs). The within-1% claims are transcribed; the Puma-lane-ahead one is not.",
          "The stylesheet's and the avatar's paths are scraped from the signed-in room page, as the harness scrapes them (`{stylesheet}`, `{avatar}`: Campfire signs avatar URLs, and a bare /users/1/avatar is 404).",
          "The harness's message body for POST /rooms/2/messages is not published; this recipe posts a short one.",
          "The machine's description is the benchmark page's (post 002); post 000 says only 'eight workers, on the benchmark box's six cores'.",
          "1.2 GB and 0.7 GB are read as 1,200 MB and 700 MB (decimal; the post's rounding makes GiB no different at this precision).",
          "WebSockets are not measured: /cable does not work under Falcon yet, and the post's WebSocket section still runs Puma."
        ],
        "url": null
      },
      "runnable": 2,
      "runs_here": 0,
      "steps": 12,
      "units": [
        {
          "metric": "req_per_s",
          "name": "throughput",
          "unit": "req/s"
        },
        {
          "metric": "us_per_request",
          "name": "time per request",
          "unit": "µs"
        },
        {
          "metric": "percent",
          "name": "percentages",
          "unit": "%"
        },
        {
          "metric": "p99_ms",
          "name": "tail latency",
          "unit": "ms"
        },
        {
          "metric": "memory_mb",
          "name": "memory",
          "unit": "MB"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 2,
      "figures": 16,
      "lanes": [
        {
          "here": {
            "fix": "gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
          },
          "lane": "rails"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby-1p"
        },
        {
          "here": {
            "fix": "gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
          },
          "lane": "rails-1p"
        },
        {
          "here": {
            "fix": "sudo apt-get install make build-essential curl npm && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs make and cc and curl and npm and bundler, which this machine lacks."
          },
          "lane": "spinel"
        },
        {
          "here": {
            "fix": "sudo apt-get install make build-essential curl npm && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs make and cc and curl and npm and bundler, which this machine lacks."
          },
          "lane": "spinel-1p"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby-falcon"
        },
        {
          "here": {
            "state": "published_only",
            "why": "tobi/campfire-once-ruby-ractor is a separate, hand-written port the page gives no revision for, nor the commands the harness uses to bundle it and boot it (Falcon on worker Ractors, its own port); its header-only CSRF would also need the header sign-in flow."
          },
          "lane": "tobi"
        },
        {
          "here": {
            "state": "published_only",
            "why": "Not a server: the run as a whole. Figures about the run (targets requested and measured) name this lane because every figure must name one."
          },
          "lane": "nightly-run"
        }
      ],
      "post": {
        "author": "Sam Ruby",
        "date": "2026",
        "id": "campfire-nightly",
        "run": "one nightly run of scripts/bench-campfire (its date is not in the text)",
        "summary": "The methodology of the nightly Campfire benchmark: a bare-metal Ryzen 5 3600 with boost off and the governor at performance; scripts/bench-campfire with workers=1, 16 connections, three 20-second runs per cell after a 20-second warm-up, the median reported. Deployed lanes are what each project would run on the box (rails as Campfire's own Dockerfile runs it; ruby, the emit in the same Puma shape; spinel, the compiled binary), the -1p lanes pin one CPU to say why a deployed number landed where it did, ruby-falcon isolates the app server, and tobi is Campfire ported by hand to plain Ruby. A cell with any non-2xx response is no data, not a number, and an incomplete run says so: this one measured 6 of 6 targets, but spinel was killed by SIGSEGV (status 139) with 21 of 22 timed runs recorded.",
        "title": "Roundhouse benchmark results — campfire",
        "unknowns": [
          "The page's charts and tables, its stability section and its environment appendix (full hardware, toolchain versions, the exact invocation) did not survive as text; no per-lane result is transcribed because none is in the text.",
          "The date of the run is not in the text; it is after 2026-09-07, when the emit gained its fragment cache. The year of the series is used.",
          "The Campfire and Roundhouse revisions of the run are not in the text (they are in the missing environment appendix); both sources follow their default branches.",
          "Toolchains were 'pinned via mise', but the versions are in the missing appendix; every toolchain here accepts any version.",
          "The page gives no Spinel revision (it is in the missing appendix). Spinel is public (github.com/matz/spinel); this recipe builds its master, unpinned, as Roundhouse's own CI does (its build-spinel job: make deps, make all) and as the nightly does.",
          "How scripts/bench-campfire emits, compiles and serves the spinel lanes is not on the page. The recipe follows Roundhouse's own tooling for its spinel target: roundhouse --target spinel from the checkout's root; make assets, then make build in the emitted tree with Spinel's bin/ (spinel and spin) on PATH, as scripts/bench does; the binary started from the tree as build/bin/blog with PORT, BLOG_DB, DATABASE_POOL_SIZE=64 and SECRET_KEY_BASE (campfire-oracle's benchmark secret), as scripts/bench-campfire's start_lane starts it (its diagnostic SPINEL_GC_STATS and SPINEL_GC_PHASES are left out). That binary's name and the variables it reads are the emitted tree's at the reader's Roundhouse revision, not the page's.",
          "SPINEL_WORKERS=1 (spinel-1p) is the page's; for spinel the page says only that the runtime autodetects its OS worker count, so the lane sets none. The number it picks is not on the page.",
          "The harness adds Falcon to the emit's bundle 'at the version tobi's lock pins'; the page gives neither that version nor tobi's revision, so this recipe adds Falcon unpinned, and its bundle-falcon step writes the version it resolved to results/bundle-falcon.json: a run's Falcon is a deviation from the page's, recorded rather than assumed equal.",
          "The page does not give how the harness starts the emit's falcon.rb (its command, bind and worker variable); this recipe runs bundle exec falcon host falcon.rb with PORT and WEB_CONCURRENCY, as the campfire-falcon recipe does.",
          "Which six targets this run requested is not stated; the page defines seven lanes and mentions spinel-1p.",
          "The wrk client thread count is not on the page; this recipe uses the harness's default of two (wrk -t2, as post 001 shows).",
          "The endpoint suite is the harness's (FACTS: the eight routes once-campfire-rust's bench/run times), not listed on the page. The harness resolves the first and second room, a message id for ?before= and the signed-in user's id against the seeded database after prepare, and scrapes the stylesheet href from the room page; the paths carry those as {first}, {second}, {message}, {user} and {stylesheet} for the engine to resolve the same way (post 001 shows {first} is 1).",
          "The body of the POSTed message is not given; this recipe posts a short form-encoded message[body]. Its CSRF token comes from the room page's csrf-token meta tag, which the recipe cannot write down ahead of time.",
          "The ruby lane runs Rails' worker count, (processor_count * 0.666).ceil, which is 8 on the reference machine; the recipe writes 8, since a lane's worker count cannot be a formula. On another machine the rails lane computes its own count and the ruby lane should be given the same number.",
          "The WebSocket phase (its socket counts, rooms and pinned CPUs) is not described on this page beyond its omissions, so it is not part of this recipe.",
          "rails-nocache is a diagnostic requested by name and not published here; it is not a lane of this recipe.",
          "No lane terminates TLS."
        ],
        "url": null
      },
      "runnable": 7,
      "runs_here": 0,
      "steps": 24,
      "units": [
        {
          "metric": "count",
          "name": "counts",
          "unit": ""
        },
        {
          "metric": "rss_mb",
          "name": "memory (RSS)",
          "unit": "MB"
        },
        {
          "metric": "seconds",
          "name": "durations",
          "unit": "s"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 23,
      "figures": 28,
      "lanes": [
        {
          "here": {
            "fix": "gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
          },
          "lane": "rails"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "roundhouse-falcon"
        },
        {
          "here": {
            "state": "published_only",
            "why": "This recipe runs one build of Campfire (upstream main); the original build's figures read the same cells as that build's, so they are published only."
          },
          "lane": "rails-original"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The post names no revision of tobi/campfire-once-ruby-ractor and does not say how it was booted for this load; this recipe does not stand it up. Its figures are published only."
          },
          "lane": "tobi"
        },
        {
          "here": {
            "state": "published_only",
            "why": "Not a server: the generator the post used (loadgen users, loadgen/src/users.rs on the users-profile branch of the author's fork of the shared verification harness) is not published at a URL or commit; this recipe's people step runs Reprise's own generator instead. Its figures are the conditions a reproduction's generator must meet."
          },
          "lane": "loadgen"
        }
      ],
      "post": {
        "author": "Sam Ruby",
        "date": "2026",
        "id": "campfire-people",
        "run": null,
        "summary": "A benchmark of people, not requests: each simulated person holds their own session and a WebSocket with a real page's subscriptions, navigates about every ten seconds (open a room 55%, scroll history 20%, search 10%, return to a room 15%) and posts about every five minutes; 5,000 accounts, 30 rooms with skewed membership; people added in steps of 250, 500, 1,000, 2,000 and 3,000, a minute each. Every response and every delivery is checked. Against Campfire on Rails it found a page cache that hits almost never under real writes (presence), fragment keys that vary by viewer, cache keys that cost more than the render, and Action Cable reordering one connection's unsubscribe/subscribe. Three pull requests (#411, #412, #413) take the room page from 46 ms to 11 ms at the median at half the server CPU; at 1,000 people the original build's median navigation was 17 s, after the changes about 800 ms. Rails still misses the target at 250 people (p99 144 ms) because of the Action Cable re-send; rails#59371 proposes the fix. Roundhouse's Falcon build and Tobi's port ran the same load as a sense of headroom; their per-step table did not survive as text. This recipe runs a variant of the post, not the post's build: upstream once-campfire (the author's fork with #411–#413 is not published) served as its own Dockerfile deploys it (rails) and emitted by Roundhouse for Falcon (roundhouse-falcon), both reading Reprise's seed of the post's shape (5,000 accounts, 30 rooms with skewed membership, 20 messages a room, a minted session per account) and loaded by Reprise's people generator. Its orderings and its served or not-served steps speak to upstream Campfire under this load; the post's before-and-after figures for the three pull requests, the presence experiment and the Action Cable reproduction are the fork's, and a run of this variant is not a measurement of them.",
        "title": "Campfire with many people",
        "unknowns": [
          "This recipe is a variant of the post: both runnable lanes serve upstream once-campfire at the tip of main (unpinned), not the author's fork's preview branch; whether #411–#413 are in upstream at the reader's revision decides what the rails lane measures, and figures that compare the fork before and after them are not what the variant measures.",
          "The post gives no date; it follows the Falcon post (000, the October 16 run) since it measures Roundhouse's Falcon build, so it is dated by its series, 2026.",
          "The Ryzen 7's model, memory, OS, governor and boost are not given; 'four cores (eight threads)' for the server implies SMT, so 16 threads on 8 cores.",
          "'Ruby head' names no version or commit.",
          "Rails and the Roundhouse build ran 'Campfire with the three pull requests (my fork's preview branch)'; the fork's URL and commit are not given, nor whether #411–#413 have been merged upstream.",
          "The generator is 'loadgen/src/users.rs on the users-profile branch' of the author's fork of Campfire's shared verification harness; its URL and commit are not given. The runs are driven by scripts/campfire-users-campaign in the roundhouse repository, at a commit not given, with arguments not given. This recipe's people step runs Reprise's own generator with the post's mix, steps, served criterion and checks.",
          "How the post seeded its 5,000 accounts, 30 rooms and skewed membership is not published. This variant's seed is Reprise's (people-seed.rb, shaped after Roundhouse's scripts/campfire-oracle-seed.rb): accounts person0 to person4999@example.test with one password, person0 the administrator; room 1 open to everyone, room r (2 to 30) closed and holding about one account in r, the split Reprise's people generator expects; 20 messages a room from its members (the count Roundhouse's own many-socket seed uses); one session per account in Campfire's performance-seed token shape, its signed cookie minted through Rails' cookie jar as scripts/campfire-oracle cookies mints them. The post's message counts, room names and membership split are not given.",
          "The warm-up's length is not given ('one minute each after a warmup'); this recipe uses Reprise's default of 10 s.",
          "How the post started the Roundhouse build under Falcon is not given; this recipe runs the emitted tree's falcon.rb (bundle exec falcon host falcon.rb, six workers through WEB_CONCURRENCY) as the campfire-falcon recipe does, with Falcon added to the emitted bundle unpinned (the version used is written to results/bundle-falcon.json). Whether the emitted Falcon build's /cable works at the reader's Roundhouse revision is not stated; post 000 said it did not yet work under Falcon.",
          "Campfire's own worker formula, (processor_count * 0.666).ceil, gives the post's six Puma workers on the server's four cores (eight threads); on another machine the rails lane runs the formula's number for the CPUs its server is given.",
          "The per-step results table (served/not served, latencies per lane and step) did not survive as text; only the figures in sentences are transcribed.",
          "Roundhouse's Falcon build 're-sends far more subscriptions than either of the others' and 'collapses rather than degrades when overloaded'; the counts are not given, so these are not claims here. Likewise 'Falcon's requests start timing out at 3,000 people, while Tobi's port is past its target there but still answers everything.'",
          "The presence experiment's and the Action Cable reproduction's absolute latencies are not given; only relative improvements and counts are."
        ],
        "url": null
      },
      "runnable": 2,
      "runs_here": 0,
      "steps": 12,
      "units": [
        {
          "metric": "p50_ms",
          "name": "median latency",
          "unit": "ms"
        },
        {
          "metric": "percent",
          "name": "percentages",
          "unit": "%"
        },
        {
          "metric": "seconds",
          "name": "durations",
          "unit": "s"
        },
        {
          "metric": "count",
          "name": "counts",
          "unit": ""
        },
        {
          "metric": "p99_ms",
          "name": "tail latency",
          "unit": "ms"
        },
        {
          "metric": "us_per_request",
          "name": "time per request",
          "unit": "µs"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 36,
      "figures": 54,
      "lanes": [
        {
          "here": {
            "fix": "gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
          },
          "lane": "rails"
        },
        {
          "here": {
            "fix": "gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs bundler and redis-server, which this machine lacks."
          },
          "lane": "rails-1p"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby"
        },
        {
          "here": {
            "fix": "gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs bundler, which this machine lacks."
          },
          "lane": "ruby-1p"
        },
        {
          "here": {
            "fix": "mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0 && mise install java@openjdk-25 && mise use java@openjdk-25 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs jruby and java and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "jruby"
        },
        {
          "here": {
            "fix": "mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0 && mise install java@openjdk-25 && mise use java@openjdk-25 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs jruby and java and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "jruby-40t"
        },
        {
          "here": {
            "fix": "mise install ruby@jruby-10.1.1.0 && mise use ruby@jruby-10.1.1.0 && mise install java@openjdk-25 && mise use java@openjdk-25 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs jruby and java and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "jruby-512m"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "truffleruby"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "truffleruby-unlocked"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "truffleruby-4t"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "truffleruby-12t"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "truffleruby-40t"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler and redis-server, which this machine lacks. TruffleRuby gives every C extension that has not declared itself thread-safe a global lock, so without --cexts-lock=false its threads serialise on sqlite3 (the post measured 432 req/s locked, 1,078 unlocked). A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "rails-truffleruby"
        },
        {
          "here": {
            "fix": "mise install ruby@truffleruby-40.0.0 && mise use ruby@truffleruby-40.0.0 && gem install bundler && sudo apt-get install redis-server",
            "state": "blocked",
            "why": "Cannot run: it needs truffleruby and bundler and redis-server, which this machine lacks. A precompiled gem in the lockfile is a landmine for a second runtime: this lane needs a lockfile of its own beside the tree, seeded from the main one."
          },
          "lane": "rails-truffleruby-unlocked"
        },
        {
          "here": {
            "fix": "sudo apt-get install make build-essential curl npm && gem install bundler",
            "state": "blocked",
            "why": "Cannot run: it needs make and cc and curl and npm and bundler, which this machine lacks."
          },
          "lane": "spinel"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The row-stepping script is not published."
          },
          "lane": "rowstep-cruby"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The row-stepping script is not published."
          },
          "lane": "rowstep-truffleruby"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The row-stepping script is not published."
          },
          "lane": "rowstep-truffleruby-unlocked"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The previous post's five-endpoint blog fixture on stock Rails, CRuby+YJIT, given for context; this recipe does not run it."
          },
          "lane": "blog-rails"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The previous post's blog fixture on stock Rails under TruffleRuby, given for context; this recipe does not run it."
          },
          "lane": "blog-rails-truffleruby"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The previous post's blog fixture as Roundhouse emits it, on CRuby+YJIT, given for context; this recipe does not run it."
          },
          "lane": "blog-ruby"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The previous post's blog fixture as Roundhouse emits it, under TruffleRuby, given for context; this recipe does not run it."
          },
          "lane": "blog-truffleruby"
        }
      ],
      "post": {
        "author": "Sam Ruby",
        "date": "2026-09",
        "id": "campfire-runtimes",
        "run": "the nightly of September 22",
        "summary": "Campfire, emitted by Roundhouse and as stock Rails, on CRuby+YJIT, JRuby and TruffleRuby. One JRuby process with twelve threads serves the room page at 1,712 req/s (8 ms median against Rails' 44): 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row and 0.72× of eight CRuby workers, for 1.6 GB and a five-to-six-second boot — the first multi-core row Campfire could deploy as it stands. TruffleRuby buys stock Rails 1.8× on the room page (at 2.9 GB) but, as shipped, costs the emit (0.9× of CRuby's one process): sqlite3 2.9.3 declares no thread safety, so TruffleRuby's global C-extension lock serializes every row, and its thread ladder inverts. Turning the lock off (--cexts-lock=false) is worth 2.5× (432 → 1,078 req/s). The Spinel binary stays the smallest and fastest row: 2,570 req/s in 140 MB.",
        "title": "Campfire on CRuby, JRuby and TruffleRuby",
        "unknowns": [
          "Roundhouse's commit is not given; the post's reproduction clones its default branch.",
          "The Rails revision is not given as a SHA: Rails 8.2.0.alpha at the revision Campfire's Gemfile.lock pins at ed0f9a5.",
          "The tables of the post (the 2×3 on /rooms/1 and the deployed rows) did not survive as text; only the figures in its sentences are transcribed, so the /rooms/1 req/s of rails, rails-1p and jruby at 40 threads are known only through the ratios the post states.",
          "The machine's details (CPU name, 6 cores / 12 threads, 3.6 GHz, performance governor, 63 GB, Ubuntu 24.04.5) come from the benchmark page (post 002), which this post says is the same machine; this post itself says only a bare-metal Ryzen 5 3600 with the governor pinned and boost off.",
          "Memory figures are given in GB in the post (1.6 GB, ~1 GB, 2.9 GB); they are written here in MB at 1024 MB to the GB, as the harness's rss_mb and rps_per_gb count. The post does not say whether its memory is RSS or PSS, so they are memory_mb.",
          "Boot times: the post says 'a boot of five seconds to accept and six to a rendered room, against 1.7 for the CRuby cluster and a third of a second for the binary'; this recipe reads 1.7 and a third of a second as time to a rendered page. Stock Rails on TruffleRuby's 'boot of nine seconds' is not split into accept and page; it is written as time to a page.",
          "How many cold starts the harness measured per lane is not stated in the post; this recipe boots each lane three times, as the harness's cold_start does (rubys/roundhouse scripts/bench-campfire at 004fe64f), each timed to its first answer and to the signed-in room page.",
          "The post gives no Spinel revision. Spinel is public (github.com/matz/spinel); this recipe builds its master, unpinned, as Roundhouse's own CI does (its build-spinel job: make deps, make all) and as the nightly does.",
          "How the harness emits, compiles and serves the spinel lane is not in the post. The recipe follows Roundhouse's own tooling for its spinel target: roundhouse --target spinel from the checkout's root; make assets, then make build in the emitted tree with Spinel's bin/ (spinel and spin) on PATH, as scripts/bench does; the binary started from the tree as build/bin/blog with PORT, BLOG_DB, DATABASE_POOL_SIZE=64 and SECRET_KEY_BASE (campfire-oracle's benchmark secret), as scripts/bench-campfire's start_lane starts it (its diagnostic SPINEL_GC_STATS and SPINEL_GC_PHASES are left out). That binary's name and the variables it reads are the emitted tree's at the reader's Roundhouse revision, not the post's; its OS worker count is the runtime's own autodetection (the benchmark page's 'workers autodetected'), whose number the post does not give.",
          "The message-list endpoint is named /rooms/1/messages in the post; the harness's suite requests it with ?before={id}, and the id is not given, so this recipe requests /rooms/1/messages.",
          "The heap experiment ('512 MB holds it, at a 24% cost to garbage collection') names neither the runtime nor the endpoint; the harness's notes say it was measured on JRuby, so this recipe runs it as jruby-512m on the room page.",
          "The row-stepping microbenchmark (100 message rows stepped 2,000 times, single-threaded) is not published, nor is the 'pure-Ruby half' that runs 'more than an order of magnitude faster on TruffleRuby', which the post gives no figures for.",
          "The flag experiment's figures (89 and 93 req/s for stock Rails, 432 and 1,078 for the emit, 2.44 and 2.36 µs a row) may come from runs other than the nightly's; the post does not date them. This recipe reads 432 as the truffleruby lane's room-page figure, which agrees with the post's 0.9× against ruby-1p's 478; 89 and 93 are kept apart from the nightly's 118.",
          "The blog fixture's figures (3.4× on HTML, 5.2× on JSON, the emit's 1.8×) come from the previous post and are carried as context lanes this recipe cannot run.",
          "The post's 'dividend that was 7.4× on CRuby has been halved' compares two ratios (3.6× on TruffleRuby against 7.4× on CRuby); a claim between two ratios cannot be written, so each ratio is its own claim."
        ],
        "url": null
      },
      "runnable": 15,
      "runs_here": 0,
      "steps": 27,
      "units": [
        {
          "metric": "req_per_s",
          "name": "throughput",
          "unit": "req/s"
        },
        {
          "metric": "p50_ms",
          "name": "median latency",
          "unit": "ms"
        },
        {
          "metric": "percent",
          "name": "percentages",
          "unit": "%"
        },
        {
          "metric": "tags",
          "name": "response shape",
          "unit": "tags"
        },
        {
          "metric": "memory_mb",
          "name": "memory",
          "unit": "MB"
        },
        {
          "metric": "req_per_s_per_gb",
          "name": "throughput per GB",
          "unit": "req/s/GB"
        },
        {
          "metric": "boot_accept_s",
          "name": "boot time",
          "unit": "s"
        },
        {
          "metric": "boot_page_s",
          "name": "time to first page",
          "unit": "s"
        },
        {
          "metric": "us_per_row",
          "name": "time per row",
          "unit": "µs/row"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 3,
      "figures": 8,
      "lanes": [
        {
          "here": {
            "state": "runs"
          },
          "lane": "fibers"
        },
        {
          "here": {
            "state": "runs"
          },
          "lane": "threads"
        }
      ],
      "post": {
        "author": "unknown (an older Ruby blog)",
        "date": "2008",
        "id": "fibers-vs-threads",
        "run": null,
        "summary": "Ruby 1.9 fibers are touted as much lighter than threads. The post spawns a number of fibers (or threads), keeps them all reachable so nothing is collected, and records the time the creation took and the VM size afterwards; it does not measure context switching. Its charts of creation time and memory did not survive as text. Its conclusion: fibers are much faster to create than threads and eat much less memory; threads hit a limit at 3,070 on Ruby 1.9, while 100,000 fibers were created without complaint, though that took 203 seconds and about 500 MB. This recipe runs the same comparison at N = 10,000 with the Ruby the machine has, five runs of each: past the post's 3,070-thread limit, and bounded so that it cannot exhaust the machine.",
        "title": "Fibers vs threads: creation time and memory",
        "unknowns": [
          "The post's author, URL and exact date are not given; it is from the Ruby 1.9 era.",
          "The post's N for its creation-time and memory charts is not given, and the charts did not survive as text, so the per-N figures are unknown. This recipe uses N = 10,000 so each run takes seconds; it is past the post's 3,070-thread limit, so a Ruby that still stops near there shows it.",
          "On Linux the limit a modern Ruby meets is usually the kernel's, not Ruby's: threads stop at the pid limit (kernel.pid_max, the user's process limit), fibers at the number of memory mappings (vm.max_map_count, each fiber's stack having a guard page). Asking for more than 10,000 of each would meet those limits on a typical machine (about 32,000 tasks), and while it lasted no other process on the reader's machine could start: the cap of 10,000 stays well below them, so where both lanes make all 10,000 the verdict says both reached the cap.",
          "The post's machine, OS and exact Ruby 1.9 version are not given; its 3,070-thread limit depends on them (stack size, ulimit, address space).",
          "The post's script is not published. Whether its fibers were resumed (so each had its own stack) is not said; this recipe's script resumes each fiber once to a Fiber.yield, so every fiber holds a stack, and parks each thread in sleep.",
          "'500MB of RAM' is read as the VM size the post says it recorded; the script also prints VmRSS."
        ],
        "url": null
      },
      "runnable": 2,
      "runs_here": 2,
      "steps": 2,
      "units": [
        {
          "metric": "count",
          "name": "counts",
          "unit": ""
        },
        {
          "metric": "seconds",
          "name": "durations",
          "unit": "s"
        },
        {
          "metric": "memory_mb",
          "name": "memory",
          "unit": "MB"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 4,
      "figures": 2,
      "lanes": [
        {
          "here": {
            "state": "runs"
          },
          "lane": "puma"
        },
        {
          "here": {
            "fix": "gem install falcon",
            "state": "blocked",
            "why": "Cannot run: it needs falcon, which this machine lacks."
          },
          "lane": "falcon"
        },
        {
          "here": {
            "state": "runs"
          },
          "lane": "nginx"
        }
      ],
      "post": {
        "author": "Sam Ruby",
        "date": "2026-10",
        "id": "hello-ceiling",
        "run": "the October 16 run",
        "summary": "Before reading a cached route's throughput, the post measures what the app server alone can do: a hello-world app under Puma serves about 54,000 requests a second on the benchmark box, under Falcon 106,000. Cached Campfire responses were already near Puma's ceiling, which is why moving them to Falcon, and then answering cache hits ahead of Falcon's Rack adapter, paid off.",
        "title": "Campfire under Falcon: the hello-world ceilings",
        "unknowns": [
          "The post gives no Puma or Falcon version, worker count or thread count for the hello-world runs; this recipe runs two Puma workers of four threads, with the Puma the machine has.",
          "The post's hello-world app is not published; this recipe's app returns a constant 13-byte body, as the load-generator baselines do.",
          "The post's date is given only as the October 16 run; the day of publication is not stated."
        ],
        "url": null
      },
      "runnable": 3,
      "runs_here": 2,
      "steps": 3,
      "units": [
        {
          "metric": "req_per_s",
          "name": "throughput",
          "unit": "req/s"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 10,
      "figures": 13,
      "lanes": [
        {
          "here": {
            "state": "runs"
          },
          "lane": "nginx-loopback"
        },
        {
          "here": {
            "state": "published_only",
            "why": "Built into Reprise (`reprise validate` starts it in process); it is not a command a recipe runs."
          },
          "lane": "reference"
        },
        {
          "here": {
            "state": "published_only",
            "why": "This recipe measures one generator, pinned (Reprise's own, on the CPU nginx does not use): wrk and oha, pinned and unpinned, would all read that one cell, so their baselines are published only."
          },
          "lane": "generator-baselines"
        }
      ],
      "post": {
        "author": "Reprise",
        "date": "2026-11-30",
        "id": "machine",
        "run": null,
        "summary": "Before reproducing anyone's numbers, check the machine: can it serve a trivial response on loopback at the rate a quiet two-core box does, with the client and server on separate cores, and does the load generator stay within its budget (post 004's: at most about half a core, timer lag around a millisecond)? A box that cannot reach the baseline, or whose generator eats the server's CPU, will turn every recipe's verdict into a verdict on the box. The baselines are Reprise's own measurements on its Debian 12 build machines (2 cores), not a post's; the reference machine below is the nightly benchmark's, for comparison of the machine fingerprint.",
        "title": "Is this box fit to benchmark on?",
        "unknowns": [
          "The loopback baselines were measured on the project's shared Debian 12 machines (2 cores), not on the reference machine named below; the schema holds one machine per recipe, so each figure's condition says where it was measured.",
          "FACTS.md gives no run duration for the baselines; this recipe's workload runs 10 s, three times.",
          "Pinning the client to core 1 is the load step's business; the recipe pins nginx's worker to core 0 in its config and the wrk step with taskset."
        ],
        "url": null
      },
      "runnable": 1,
      "runs_here": 1,
      "steps": 4,
      "units": [
        {
          "metric": "req_per_s",
          "name": "throughput",
          "unit": "req/s"
        },
        {
          "metric": "percent",
          "name": "percentages",
          "unit": "%"
        },
        {
          "metric": "seconds",
          "name": "durations",
          "unit": "s"
        }
      ]
    },
    {
      "checksum": {
        "status": "matches"
      },
      "claims": 21,
      "figures": 46,
      "lanes": [
        {
          "here": {
            "state": "published_only",
            "why": "Neither the app nor the author's monkey-patched, fiber-aware ruby postgres driver was published, and the post names its unicycle monorail server (an EventMachine HTTP server) without a source or version; there is nothing published a reader could stand up."
          },
          "lane": "nonblocking"
        },
        {
          "here": {
            "state": "published_only",
            "why": "The same app, server and patched postgres driver as the nonblocking lane, none of which was published."
          },
          "lane": "blocking"
        }
      ],
      "post": {
        "author": "unknown (an older Ruby blog)",
        "date": "2008",
        "id": "nonblocking-db",
        "run": null,
        "summary": "After an evented database benchmark showed up to 40% improvement, the author monkey-patched the Ruby Postgres driver to be fiber-aware, plugged it into Sequel, and served a dumb controller (query the database, render with Object#to_json) from the unicycle monorail server in an EventMachine loop. One URL ran the database operations blocking, the other non-blocking (every action wrapped in a fiber). A long query ran every n short queries, n in {5, 10, 20, 50, 100}. The table gives requests per second for each ratio and concurrency level (10, 100, 1000) in both modes, and the non-blocking advantage: from 16% (1 to 100, 100 concurrent) to 162% (1 to 5, 1000 concurrent). The conclusion: non-blocking wins as long as enough long queries come into play, already at one long query per 100 short. The same older blog's App Engine post (a data-store page, 'top notch performance') and Thin post (0.6.1 over UNIX sockets, 'uses less memory than Mongrel') carry no figures: their charts did not survive and their text gives no numbers, so they have no recipe.",
        "title": "Non-blocking vs blocking database access in Ruby 1.9",
        "unknowns": [
          "The post's author, URL and exact date are not given; it is from the Ruby 1.9 era ('Rails ... does not support Ruby 1.9 yet').",
          "Concurrency levels disagree inside the post: the text says the concurrency 'had the possible values of [5, 10, 20, 50, 100]' (the same set as the query ratios), the table's columns are 10, 100 and 1000. The figures follow the table.",
          "The load generator, request count, machine, Postgres version, the long and short queries and the two URLs are not given.",
          "The post's charts ('Full results', 'Advantage Graph') did not survive; the table repeats their data.",
          "'up to 40% improvement' is the previous post's (evented database access) result and is transcribed as one figure with that condition.",
          "'If all the db queries are very small then the blocking mode will triumph mainly due to the overhead of fibers' is stated without a measurement; no figure backs it, so it is not a claim here.",
          "The closing estimate (16 Thin processes replaced by 4, with RubyEE's 30% memory savings, for an 82.5% smaller memory footprint) is a projection, not a measurement: 'I reckon' and 'I am guessing'. It is not transcribed as figures.",
          "The App Engine post and the Thin post from the same blog carry no figures (no numbers in their text; their charts did not survive), so nothing of them is transcribed beyond this note."
        ],
        "url": null
      },
      "runnable": 0,
      "runs_here": 0,
      "steps": 0,
      "units": [
        {
          "metric": "percent",
          "name": "percentages",
          "unit": "%"
        },
        {
          "metric": "req_per_s",
          "name": "throughput",
          "unit": "req/s"
        }
      ]
    }
  ]
};

/** Everyone's results for hello-ceiling, from the cache (not fetched now). */
export const community: Community = {
  "apart": [
    {
      "author": "mallory",
      "number": 7,
      "title": "<script>document.title=\"pwned\"</script>",
      "url": "https://github.com/rubys/reprise/discussions/7",
      "why": "malformed",
      "words": "malformed: EOF while parsing a list at line 2 column 0"
    },
    {
      "author": "mallory",
      "number": 6,
      "title": "From the future",
      "url": "https://github.com/rubys/reprise/discussions/6",
      "why": "other_schema",
      "words": "another schema (reprise-result v7; this Reprise reads v1)"
    }
  ],
  "cache_unread": null,
  "claims": [
    {
      "band": [
        45900.0,
        62100.0
      ],
      "band_reading": "45,900–62,100 req/s",
      "by_cpu": [
        {
          "could_not_say": 2,
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "not_reproduced": 0,
          "reproduced": 0
        },
        {
          "could_not_say": 1,
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "not_reproduced": 0,
          "reproduced": 0
        },
        {
          "could_not_say": 1,
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "not_reproduced": 0,
          "reproduced": 0
        }
      ],
      "claim": "puma-ceiling",
      "could_not_say": 4,
      "kind": "absolute",
      "not_reproduced": 0,
      "points": [
        {
          "answer": "could_not_say",
          "author": "mallory",
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "hypervisor": null,
          "measured": {
            "estimate": 30200.0,
            "high": 30449.328,
            "low": 29952.49463
          },
          "number": 5,
          "outcome": "not_comparable",
          "reading": "30,200 req/s (29,952–30,449)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/5",
          "vendor": "GenuineIntel",
          "virtual_machine": null
        },
        {
          "answer": "could_not_say",
          "author": "chen",
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "hypervisor": null,
          "measured": {
            "estimate": 50200.0,
            "high": 50448.96306,
            "low": 49952.13341
          },
          "number": 4,
          "outcome": "not_comparable",
          "reading": "50,200 req/s (49,952–50,449)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/4",
          "vendor": "AuthenticAMD",
          "virtual_machine": false
        },
        {
          "answer": "could_not_say",
          "author": "ben",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": "QEMU",
          "measured": {
            "estimate": 30200.0,
            "high": 30449.328,
            "low": 29952.49463
          },
          "number": 3,
          "outcome": "not_comparable",
          "reading": "30,200 req/s (29,952–30,449)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/3",
          "vendor": "GenuineIntel",
          "virtual_machine": true
        },
        {
          "answer": "could_not_say",
          "author": "ana",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": null,
          "measured": {
            "estimate": 21200.0,
            "high": 21449.71789,
            "low": 20952.87852
          },
          "number": 2,
          "outcome": "not_comparable",
          "reading": "21,200 req/s (20,953–21,450)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/2",
          "vendor": "GenuineIntel",
          "virtual_machine": false
        }
      ],
      "published": 54000.0,
      "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second",
      "reproduced": 0,
      "this_machine": {
        "answer": "could_not_say",
        "higher_than": 1,
        "lower_than": 1,
        "measured": {
          "estimate": 30200.0,
          "high": 30449.328,
          "low": 29952.49463
        },
        "of": 4,
        "outcome": "not_comparable",
        "reading": "30,200 req/s (29,952–30,449)",
        "words": "not comparable, 30,200 req/s (29,952–30,449): higher than 1, lower than 1 and level with 2 of 4 other machines"
      },
      "unit": "req/s"
    },
    {
      "band": [
        90100.0,
        121900.0
      ],
      "band_reading": "90,100–121,900 req/s",
      "by_cpu": [
        {
          "could_not_say": 2,
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "not_reproduced": 0,
          "reproduced": 0
        },
        {
          "could_not_say": 1,
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "not_reproduced": 0,
          "reproduced": 0
        },
        {
          "could_not_say": 1,
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "not_reproduced": 0,
          "reproduced": 0
        }
      ],
      "claim": "falcon-ceiling",
      "could_not_say": 4,
      "kind": "absolute",
      "not_reproduced": 0,
      "points": [
        {
          "answer": "could_not_say",
          "author": "mallory",
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "hypervisor": null,
          "measured": {
            "estimate": 58700.0,
            "high": 58948.88339,
            "low": 58452.05431
          },
          "number": 5,
          "outcome": "not_comparable",
          "reading": "58,700 req/s (58,452–58,949)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/5",
          "vendor": "GenuineIntel",
          "virtual_machine": null
        },
        {
          "answer": "could_not_say",
          "author": "chen",
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "hypervisor": null,
          "measured": {
            "estimate": 100200.0,
            "high": 100448.6887,
            "low": 99951.86063
          },
          "number": 4,
          "outcome": "not_comparable",
          "reading": "100,200 req/s (99,952–100,449)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/4",
          "vendor": "AuthenticAMD",
          "virtual_machine": false
        },
        {
          "answer": "could_not_say",
          "author": "ben",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": "QEMU",
          "measured": {
            "estimate": 45200.0,
            "high": 45449.02396,
            "low": 44952.19381
          },
          "number": 3,
          "outcome": "not_comparable",
          "reading": "45,200 req/s (44,952–45,449)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/3",
          "vendor": "GenuineIntel",
          "virtual_machine": true
        },
        {
          "answer": "could_not_say",
          "author": "ana",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": null,
          "measured": {
            "estimate": 41200.0,
            "high": 41449.08334,
            "low": 40952.25266
          },
          "number": 2,
          "outcome": "not_comparable",
          "reading": "41,200 req/s (40,952–41,449)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/2",
          "vendor": "GenuineIntel",
          "virtual_machine": false
        }
      ],
      "published": 106000.0,
      "quote": "under Falcon, 106,000.",
      "reproduced": 0,
      "this_machine": {
        "answer": "could_not_say",
        "higher_than": 3,
        "lower_than": 1,
        "measured": {
          "estimate": 60200.0,
          "high": 60448.87167,
          "low": 59952.04266
        },
        "of": 4,
        "outcome": "not_comparable",
        "reading": "60,200 req/s (59,952–60,449)",
        "words": "not comparable, 60,200 req/s (59,952–60,449): higher than 3 and lower than 1 of 4 other machines"
      },
      "unit": "req/s"
    },
    {
      "band": [
        1.666,
        2.254
      ],
      "band_reading": "1.67–2.25×",
      "by_cpu": [
        {
          "could_not_say": 0,
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "not_reproduced": 1,
          "reproduced": 1
        },
        {
          "could_not_say": 0,
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "not_reproduced": 0,
          "reproduced": 1
        },
        {
          "could_not_say": 0,
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "not_reproduced": 0,
          "reproduced": 1
        }
      ],
      "claim": "falcon-twice-puma",
      "could_not_say": 0,
      "kind": "ratio",
      "not_reproduced": 1,
      "points": [
        {
          "answer": "reproduced",
          "author": "mallory",
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "hypervisor": null,
          "measured": {
            "estimate": 1.943708609,
            "high": 1.95708526,
            "low": 1.930433764
          },
          "number": 5,
          "outcome": "reproduced",
          "reading": "1.94× (1.93–1.96)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/5",
          "vendor": "GenuineIntel",
          "virtual_machine": null
        },
        {
          "answer": "reproduced",
          "author": "chen",
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "hypervisor": null,
          "measured": {
            "estimate": 1.996015936,
            "high": 2.004294148,
            "low": 1.987775854
          },
          "number": 4,
          "outcome": "reproduced",
          "reading": "2× (1.99–2)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/4",
          "vendor": "AuthenticAMD",
          "virtual_machine": false
        },
        {
          "answer": "not_reproduced",
          "author": "ben",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": "QEMU",
          "measured": {
            "estimate": 1.496688742,
            "high": 1.506858604,
            "low": 1.486593532
          },
          "number": 3,
          "outcome": "not_reproduced",
          "reading": "1.5× (1.49–1.51)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/3",
          "vendor": "GenuineIntel",
          "virtual_machine": true
        },
        {
          "answer": "reproduced",
          "author": "ana",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": null,
          "measured": {
            "estimate": 1.943396226,
            "high": 1.96247929,
            "low": 1.924519714
          },
          "number": 2,
          "outcome": "reproduced",
          "reading": "1.94× (1.92–1.96)",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/2",
          "vendor": "GenuineIntel",
          "virtual_machine": false
        }
      ],
      "published": 1.96,
      "quote": "A hello-world app under Puma on the same box serves about 54,000 requests a second; under Falcon, 106,000.",
      "reproduced": 3,
      "this_machine": {
        "answer": "reproduced",
        "higher_than": 3,
        "lower_than": 1,
        "measured": {
          "estimate": 1.993377483,
          "high": 2.001570936,
          "low": 1.98522843
        },
        "of": 4,
        "outcome": "reproduced",
        "reading": "1.99× (1.99–2)",
        "words": "reproduced, 1.99× (1.99–2): higher than 3 and lower than 1 of 4 other machines"
      },
      "unit": "×"
    },
    {
      "band": null,
      "band_reading": null,
      "by_cpu": [
        {
          "could_not_say": 0,
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "not_reproduced": 0,
          "reproduced": 2
        },
        {
          "could_not_say": 0,
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "not_reproduced": 0,
          "reproduced": 1
        },
        {
          "could_not_say": 0,
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "not_reproduced": 0,
          "reproduced": 1
        }
      ],
      "claim": "falcon-above-puma",
      "could_not_say": 0,
      "kind": "ordering",
      "not_reproduced": 0,
      "points": [
        {
          "answer": "reproduced",
          "author": "mallory",
          "cpu": "<img src=x onerror=\"document.title='pwned'\">Xeon",
          "hypervisor": null,
          "measured": null,
          "number": 5,
          "outcome": "reproduced",
          "reading": "—",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/5",
          "vendor": "GenuineIntel",
          "virtual_machine": null
        },
        {
          "answer": "reproduced",
          "author": "chen",
          "cpu": "AMD EPYC 7763 64-Core Processor",
          "hypervisor": null,
          "measured": null,
          "number": 4,
          "outcome": "reproduced",
          "reading": "—",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/4",
          "vendor": "AuthenticAMD",
          "virtual_machine": false
        },
        {
          "answer": "reproduced",
          "author": "ben",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": "QEMU",
          "measured": null,
          "number": 3,
          "outcome": "reproduced",
          "reading": "—",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/3",
          "vendor": "GenuineIntel",
          "virtual_machine": true
        },
        {
          "answer": "reproduced",
          "author": "ana",
          "cpu": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
          "hypervisor": null,
          "measured": null,
          "number": 2,
          "outcome": "reproduced",
          "reading": "—",
          "this_machine": false,
          "url": "https://github.com/rubys/reprise/discussions/2",
          "vendor": "GenuineIntel",
          "virtual_machine": false
        }
      ],
      "published": null,
      "quote": "under Falcon, 106,000.",
      "reproduced": 4,
      "this_machine": {
        "answer": "reproduced",
        "higher_than": 0,
        "lower_than": 0,
        "measured": null,
        "of": 0,
        "outcome": "reproduced",
        "reading": "—",
        "words": "reproduced"
      },
      "unit": "req/s"
    }
  ],
  "counted": 4,
  "discussions": 7,
  "discussions_url": "https://github.com/rubys/reprise/discussions",
  "dropped": 0,
  "fetch": {
    "fetch": "offline"
  },
  "fetched_at": "2026-12-01T05:00:00Z",
  "rate": null,
  "recipe": "hello-ceiling",
  "repo": "rubys/reprise",
  "reviewed_sha256": "5bed0d922286a02700b5a5cdbd37b46b28c1297af9667c8b3f7f00d62996dab6",
  "superseded": 1,
  "this_machine": {
    "created_at": "2026-11-30T05:00:00Z",
    "machine": {
      "arch": "x86_64",
      "boost": false,
      "cores": 8,
      "cpu": "AMD Ryzen 7 5800X 8-Core Processor",
      "governor": "performance",
      "hypervisor": null,
      "kernel": "6.1.0-27-amd64",
      "max_mhz": 3800,
      "memory_mib": 32000,
      "min_mhz": 2200,
      "os": "Debian GNU/Linux 12 (bookworm)",
      "smt": true,
      "threads": 16,
      "vendor": "AuthenticAMD",
      "virtual_machine": false
    },
    "reviewed": true,
    "run": "hello-ceiling-20261130-050000",
    "shared_as": null,
    "smoke_run": false
  }
};

/** hello-ceiling's preflight once falcon is set up, the versions asked. */
export const preflightSetUp: Preflight = {
  "absolute_comparable": false,
  "blocked_lanes": [],
  "claims": {
    "judged": [
      "falcon-twice-puma",
      "falcon-above-puma"
    ],
    "not_judged": [
      {
        "claims": [
          "puma-ceiling",
          "falcon-ceiling"
        ],
        "fix": null,
        "why": "an absolute figure is judged only on a machine like the post's, and this one differs"
      }
    ],
    "summary": "2 of 4 claims: falcon-twice-puma, falcon-above-puma",
    "total": 4
  },
  "items": [
    {
      "fix": null,
      "here": "AMD Ryzen 7 5800X 8-Core Processor",
      "name": "CPU",
      "reference": "AMD Ryzen 5 3600 6-Core Processor",
      "subject": "cpu",
      "verdict": "differs",
      "why": "The post's figures were measured on the AMD Ryzen 5 3600 6-Core Processor; on another CPU absolute numbers move, while ratios between lanes measured here still compare."
    },
    {
      "fix": null,
      "here": "8 cores / 16 threads",
      "name": "cores/threads",
      "reference": "6 cores / 12 threads",
      "subject": "cores",
      "verdict": "differs",
      "why": "Worker and thread counts were sized to the post's CPUs; with fewer, every multi-process or multi-threaded lane is capped, with more the same counts leave cores idle."
    },
    {
      "fix": null,
      "here": "on",
      "name": "SMT",
      "reference": "on",
      "subject": "smt",
      "verdict": "matches",
      "why": "Two hardware threads share one core's execution units; with SMT in another state the same thread counts run on different hardware."
    },
    {
      "fix": null,
      "here": "3.8 GHz",
      "name": "frequency",
      "reference": "3.6 GHz",
      "subject": "frequency",
      "verdict": "differs",
      "why": "Throughput of a CPU-bound server scales with its clock; the post's numbers are at its clock."
    },
    {
      "fix": null,
      "here": "performance",
      "name": "governor",
      "reference": "performance",
      "subject": "governor",
      "verdict": "matches",
      "why": "The post pinned the governor to performance; another governor lets the clock drop between requests and changes absolute numbers."
    },
    {
      "fix": null,
      "here": "off",
      "name": "boost",
      "reference": "off",
      "subject": "boost",
      "verdict": "matches",
      "why": "The post ran with boost off; boost raises the clock above base for as long as the chip stays cool, so absolute numbers change with it."
    },
    {
      "fix": null,
      "here": "31 GB",
      "name": "memory",
      "reference": "63 GB",
      "subject": "memory",
      "verdict": "differs",
      "why": "Heaps and worker counts were sized for the post's memory; with less, a lane may swap or be killed, and its memory figures are not the post's."
    },
    {
      "fix": null,
      "here": "none",
      "name": "virtualisation",
      "reference": "none",
      "subject": "virtualization",
      "verdict": "matches",
      "why": "The post measured bare metal; under a hypervisor the host takes CPU time (steal) and neighbours share caches, so absolute numbers move from run to run."
    },
    {
      "fix": null,
      "here": "Ruby 3.3.8 (/usr/bin/ruby)",
      "name": "toolchain ruby",
      "reference": "ruby *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The post does not say which Ruby ran the hello-world app; any Ruby that runs Puma will do."
    },
    {
      "fix": null,
      "here": "puma 6.6.0 (/usr/bin/puma)",
      "name": "toolchain puma",
      "reference": "puma *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The server whose ceiling is measured."
    },
    {
      "fix": null,
      "here": "falcon 0.51.1 (/usr/bin/falcon)",
      "name": "toolchain falcon",
      "reference": "falcon *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "The fiber server the post moved the emitted app to."
    },
    {
      "fix": null,
      "here": "nginx 1.26.3 (/usr/bin/nginx)",
      "name": "toolchain nginx",
      "reference": "nginx *",
      "subject": "toolchain",
      "verdict": "matches",
      "why": "A reference lane of this recipe's own (not in the post): a C server on the same machine, so the reader can see how much of a Ruby server's ceiling is the machine."
    },
    {
      "fix": null,
      "here": "ruby: Ruby 3.3.8 (/usr/bin/ruby); puma: puma 6.6.0 (/usr/bin/puma)",
      "name": "lane puma",
      "reference": "ruby *, puma *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    },
    {
      "fix": null,
      "here": "ruby: Ruby 3.3.8 (/usr/bin/ruby); falcon: falcon 0.51.1 (/usr/bin/falcon)",
      "name": "lane falcon",
      "reference": "ruby *, falcon *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    },
    {
      "fix": null,
      "here": "nginx: nginx 1.26.3 (/usr/bin/nginx)",
      "name": "lane nginx",
      "reference": "nginx *",
      "subject": "lane",
      "verdict": "matches",
      "why": ""
    }
  ],
  "published_only_lanes": [],
  "recipe": "hello-ceiling",
  "runnable_lanes": [
    "puma",
    "falcon",
    "nginx"
  ],
  "version_commands": [
    "ruby --version",
    "puma --version",
    "falcon --version",
    "nginx -v"
  ],
  "versions_asked": true
};

/** A new run of hello-ceiling with falcon set up. */
export const planWithFalcon: RunPlan = {
  "checksum": {
    "status": "matches"
  },
  "claims": {
    "judged": [
      "falcon-twice-puma",
      "falcon-above-puma"
    ],
    "not_judged": [
      {
        "claims": [
          "puma-ceiling",
          "falcon-ceiling"
        ],
        "fix": null,
        "why": "an absolute figure is judged only on a machine like the post's, and this one differs"
      }
    ],
    "summary": "2 of 4 claims: falcon-twice-puma, falcon-above-puma",
    "total": 4
  },
  "consent": {
    "files": [
      {
        "lines": 1,
        "path": "hello/config.ru",
        "script": false
      },
      {
        "lines": 16,
        "path": "hello/nginx.conf",
        "script": false
      }
    ],
    "lane_address": "127.0.0.1",
    "lanes": [
      {
        "command": "in files/hello: puma --bind tcp://127.0.0.1:9292 --workers 2 --threads 4:4 --environment production config.ru (port 9292)",
        "env": [],
        "name": "puma"
      },
      {
        "command": "in files/hello: falcon serve --bind http://127.0.0.1:9294 --count 2 --config config.ru (port 9294)",
        "env": [],
        "name": "falcon"
      },
      {
        "command": "in files/hello: nginx -p . -c nginx.conf -g 'daemon off;' (port 9293)",
        "env": [],
        "name": "nginx"
      }
    ],
    "records_machine": [
      "uname -a",
      "uname -s",
      "uname -m",
      "hostname",
      "lscpu --json",
      "uptime",
      "mise ls --current --json",
      "git rev-parse HEAD",
      "git rev-parse --abbrev-ref HEAD",
      "git log -1 --format=%s",
      "git status --porcelain",
      "ruby --version",
      "jruby --version",
      "spinel --version",
      "rustc --version",
      "cargo --version",
      "go version",
      "node --version",
      "bun --version",
      "crystal --version",
      "shards --version",
      "python3 --version",
      "uv --version",
      "dotnet --version",
      "wrk --version",
      "curl --version",
      "mise --version",
      "sqlite3 --version"
    ],
    "requests": [
      "GET /"
    ],
    "server_host": null,
    "services": [],
    "steps": [
      {
        "does": "boot each lane once until it answers",
        "env": [],
        "id": "serve",
        "kind": "serve"
      },
      {
        "does": "one checked request per endpoint of hello per lane",
        "env": [],
        "id": "check",
        "kind": "check"
      },
      {
        "does": "measure hello: lanes × endpoints × runs",
        "env": [],
        "id": "measure",
        "kind": "load"
      }
    ],
    "version_commands": [
      "ruby --version",
      "puma --version",
      "falcon --version",
      "nginx -v"
    ],
    "withheld": [
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "GH_ENTERPRISE_TOKEN"
    ]
  },
  "deviations": [],
  "judged_elsewhere": [],
  "lanes": [
    "puma",
    "falcon",
    "nginx"
  ],
  "recipe": "hello-ceiling",
  "resumes": null,
  "reviewed_diff": null,
  "sources": [],
  "steps": [
    {
      "decision": "run",
      "describe": "boot each lane once until it answers",
      "expected": null,
      "expected_quick": null,
      "id": "serve",
      "kind": "serve",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Boot each lane and wait until it answers, recording how long that took; a lane that cannot boot is skipped with its reason."
    },
    {
      "decision": "run",
      "describe": "one checked request per endpoint of hello per lane",
      "expected": null,
      "expected_quick": null,
      "id": "check",
      "kind": "check",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "One checked request per lane before measuring: every server must answer the same 13 bytes, or the numbers do not compare."
    },
    {
      "decision": "run",
      "describe": "measure hello: lanes × endpoints × runs",
      "expected": {
        "cell_seconds": 20.0,
        "cells": 9,
        "lanes": 3,
        "quick": false,
        "runs": 3,
        "seconds": 216.0,
        "summary": "3 lanes × 1 endpoint × 3 runs of 20 s, each after its lane's warm-up (36 s in all): about 3 min 36 s",
        "warmup_seconds": 36.0
      },
      "expected_quick": {
        "cell_seconds": 2.0,
        "cells": 6,
        "lanes": 3,
        "quick": true,
        "runs": 2,
        "seconds": 18.0,
        "summary": "3 lanes × 1 endpoint × 2 runs of 2 s (quick: the recipe's 3 runs of 20 s), each after a warm-up of 1 s (6 s in all): about 18 s",
        "warmup_seconds": 6.0
      },
      "id": "measure",
      "kind": "load",
      "last_reason": null,
      "last_status": null,
      "reason": null,
      "why": "Three timed runs per lane after a warm-up, lanes alternating, server and client on separate CPUs where the machine allows."
    }
  ]
};

/** A quick validation of the desktop. */
export const readyValidation: Validation = {
  "ceiling": "74,210 req/s median over 3 runs, spread 0.5%",
  "ceiling_split": "server on CPU 0, load generator on CPU 1",
  "checks": [
    {
      "fix": null,
      "found": "governor performance",
      "id": "governor",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "boost off",
      "id": "boost",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "SMT on",
      "id": "smt",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "transparent huge pages: madvise",
      "id": "transparent_hugepages",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "16 usable CPUs",
      "id": "cpus",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "bare metal",
      "id": "virtualization",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "no CPU quota",
      "id": "cpu_quota",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "steal 0.0%",
      "id": "steal",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "no swap in use",
      "id": "swap",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "26.7 GiB available",
      "id": "memory",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "200.0 GiB free at /var/lib/reprise",
      "id": "disk",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "load average 0.08 on 16 CPUs",
      "id": "load_average",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "container engine: Docker Engine - Community 27.3.1 at unix:///var/run/docker.sock",
      "id": "container_engine",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "SHA-256 over 16 MiB runs vary by 0.7% (CV, worst CPU 1); median 14.00 ms",
      "id": "kernel_runs",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "CPUs differ by 0.0% (CV of 2 CPUs' medians)",
      "id": "kernel_cores",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "0.5% of the allowed CPUs busy with other work during the runs, load average 0.10",
      "id": "background_load",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "a 1 ms sleep wakes 0.060 ms late (p50), 0.090 ms (p99), over 200 sleeps",
      "id": "timer_lag",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "74,210 req/s median over 3 of 3 runs (min 73,900, max 74,800, spread 0.5%); server on CPU 0, load generator on CPU 1; 1.06× the 2-core baseline (70,000–76,000 req/s)",
      "id": "ceiling",
      "level": "ok",
      "why": ""
    }
  ],
  "created_at": "2026-12-01T09:00:00Z",
  "fitness": "ready",
  "history": {
    "id": "machine-20261201-090000",
    "outcome": "stored"
  },
  "mode": "quick",
  "summary": "reprise validate: ready — AMD Ryzen 7 5800X 8-Core Processor (16 CPUs); ceiling 74,210 req/s ±0.5% (3 runs, split); kernel CV 0.7% runs, 0.0% CPUs; timer lag p99 0.09 ms; background 0%"
};

/** A quick validation of the desktop whose ceiling had one run with data. */
export const oneRunValidation: Validation = {
  "ceiling": "74,210 req/s median over 1 run, no spread to read",
  "ceiling_split": "server on CPU 0, load generator on CPU 1",
  "checks": [
    {
      "fix": null,
      "found": "governor performance",
      "id": "governor",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "boost off",
      "id": "boost",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "SMT on",
      "id": "smt",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "transparent huge pages: madvise",
      "id": "transparent_hugepages",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "16 usable CPUs",
      "id": "cpus",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "bare metal",
      "id": "virtualization",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "no CPU quota",
      "id": "cpu_quota",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "steal 0.0%",
      "id": "steal",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "no swap in use",
      "id": "swap",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "26.7 GiB available",
      "id": "memory",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "200.0 GiB free at /var/lib/reprise",
      "id": "disk",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "load average 0.08 on 16 CPUs",
      "id": "load_average",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "container engine: Docker Engine - Community 27.3.1 at unix:///var/run/docker.sock",
      "id": "container_engine",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "SHA-256 over 16 MiB runs vary by 0.7% (CV, worst CPU 1); median 14.00 ms",
      "id": "kernel_runs",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "CPUs differ by 0.0% (CV of 2 CPUs' medians)",
      "id": "kernel_cores",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "0.5% of the allowed CPUs busy with other work during the runs, load average 0.10",
      "id": "background_load",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "a 1 ms sleep wakes 0.060 ms late (p50), 0.090 ms (p99), over 200 sleeps",
      "id": "timer_lag",
      "level": "ok",
      "why": ""
    },
    {
      "fix": "stop other work and run again; more runs narrow the median",
      "found": "74,210 req/s median over 1 of 3 runs (min 74,210, max 74,210, no spread to read); server on CPU 0, load generator on CPU 1; 1.06× the 2-core baseline (70,000–76,000 req/s)",
      "id": "ceiling",
      "level": "warn",
      "why": "the same trivial load gives different rates from run to run (or failed in some runs): every ceiling measured here carries that spread"
    }
  ],
  "created_at": "2026-12-01T09:00:00Z",
  "fitness": "usable_with_caveats",
  "history": {
    "outcome": "nothing_to_store"
  },
  "mode": "quick",
  "summary": "reprise validate: usable with caveats — AMD Ryzen 7 5800X 8-Core Processor (16 CPUs); ceiling 74,210 req/s (1 run, split); kernel CV 0.7% runs, 0.0% CPUs; timer lag p99 0.09 ms; background 0% — caveats: ceiling"
};

/** A quick validation of a cloud VM, whose history could not be written. */
export const caveatsValidation: Validation = {
  "ceiling": "74,210 req/s median over 3 runs, spread 0.5%",
  "ceiling_split": "server on CPU 0, load generator on CPU 1",
  "checks": [
    {
      "fix": null,
      "found": "no cpufreq policies: the clock is not scaled by this kernel",
      "id": "governor",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "boost not reported by this kernel",
      "id": "boost",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "SMT on",
      "id": "smt",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "transparent huge pages not reported",
      "id": "transparent_hugepages",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "2 usable CPUs",
      "id": "cpus",
      "level": "ok",
      "why": ""
    },
    {
      "fix": "use bare metal or dedicated (pinned) vCPUs; compare ratios rather than absolute figures",
      "found": "virtual machine (Google)",
      "id": "virtualization",
      "level": "warn",
      "why": "vCPUs share physical cores with other guests, so numbers move with the neighbours and absolute figures are not the posts' bare-metal ones"
    },
    {
      "fix": null,
      "found": "no CPU quota",
      "id": "cpu_quota",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "steal not reported",
      "id": "steal",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "no swap in use",
      "id": "swap",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "6.1 GiB available",
      "id": "memory",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "200.0 GiB free at /var/lib/reprise",
      "id": "disk",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "load average not reported",
      "id": "load_average",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "no container engine answered: only lanes placed in containers need one",
      "id": "container_engine",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "SHA-256 over 16 MiB runs vary by 0.7% (CV, worst CPU 1); median 14.00 ms",
      "id": "kernel_runs",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "CPUs differ by 0.0% (CV of 2 CPUs' medians)",
      "id": "kernel_cores",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "0.5% of the allowed CPUs busy with other work during the runs, load average 0.10",
      "id": "background_load",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "a 1 ms sleep wakes 0.060 ms late (p50), 0.090 ms (p99), over 200 sleeps",
      "id": "timer_lag",
      "level": "ok",
      "why": ""
    },
    {
      "fix": null,
      "found": "74,210 req/s median over 3 of 3 runs (min 73,900, max 74,800, spread 0.5%); server on CPU 0, load generator on CPU 1; 1.06× the 2-core baseline (70,000–76,000 req/s)",
      "id": "ceiling",
      "level": "ok",
      "why": ""
    }
  ],
  "created_at": "2026-12-01T09:00:00Z",
  "fitness": "usable_with_caveats",
  "history": {
    "outcome": "failed",
    "reason": "history.sqlite: attempt to write a readonly database"
  },
  "mode": "quick",
  "summary": "reprise validate: usable with caveats — Intel(R) Xeon(R) CPU @ 2.20GHz (2 CPUs, VM); ceiling 74,210 req/s ±0.5% (3 runs, split); kernel CV 0.7% runs, 0.0% CPUs; timer lag p99 0.09 ms; background 0% — caveats: virtualization"
};
