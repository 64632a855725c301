// A backend that answers from a script, for tests in a plain browser and
// Vitest: every page's states without the app. Loaded only in test mode
// (`vite build --mode test`, Vitest); the app's bundle has none of it.

import { BackendError, type Backend, type Capabilities } from '../backend';
import { commandNames } from '../bindings/commands';
import type { CommandError } from '../bindings/CommandError';
import type { Library } from '../bindings/Library';
import type { ThisMachine } from '../bindings/ThisMachine';
import type { Validation } from '../bindings/Validation';
import type { Preflight } from '../bindings/Preflight';
import type { RunPlan } from '../bindings/RunPlan';
import type { RunOutcome } from '../bindings/RunOutcome';
import type { ShareStatus } from '../bindings/ShareStatus';
import type { SignInCode } from '../bindings/SignInCode';
import type { Community } from '../bindings/Community';
import type { CreatedDiscussion } from '../bindings/CreatedDiscussion';
import type { PostView } from '../bindings/PostView';
import type { ResultsView } from '../bindings/ResultsView';
import type { RunSummary } from '../bindings/RunSummary';
import type { SharePreview } from '../bindings/SharePreview';
import type { SetupEnd } from '../bindings/SetupEnd';
import type { SetupPlan } from '../bindings/SetupPlan';
import type { StreamMessage } from '../bindings/StreamMessage';

/** One scripted answer: a value, or an error, after an optional delay. */
export type Scripted<T> = { value: T; delayMs?: number } | { error: CommandError; delayMs?: number };

/** A run: the batches it streams (one per tick, `tickMs` apart), then its
 *  outcome; `fresh`, the batches a new run streams where they differ. */
export interface ScriptedRun {
  batches: StreamMessage[][];
  fresh?: StreamMessage[][];
  outcome: Scripted<RunOutcome>;
  tickMs?: number;
}

export interface Script {
  capabilities?: Partial<Capabilities>;
  library?: Scripted<Library>;
  post?: Record<string, Scripted<PostView>>;
  history?: Scripted<RunSummary[]>;
  results?: Record<string, Scripted<ResultsView>>;
  share?: Record<string, Scripted<SharePreview>>;
  machine?: Scripted<ThisMachine>;
  /** A validation: the progress lines it sends (`tickMs` apart), then its answer. */
  validation?: { lines: string[]; end: Scripted<Validation>; tickMs?: number };
  preflight?: Record<string, Scripted<Preflight>>;
  plan?: Record<string, Scripted<RunPlan>>;
  /** The plan and the run with the lanes on a server host (any). */
  planOnServer?: Record<string, Scripted<RunPlan>>;
  runOnServer?: Record<string, ScriptedRun>;
  /** Runs started with "Until conclusive" checked. */
  runUntilConclusive?: Record<string, ScriptedRun>;
  setupPlan?: Record<string, Scripted<SetupPlan>>;
  /** A setup: the batches it streams, then how it ended; the preflight it leaves behind. */
  setup?: Record<string, { batches: StreamMessage[][]; end: Scripted<SetupEnd>; tickMs?: number; after?: Preflight }>;
  shareStatus?: Scripted<ShareStatus>;
  signIn?: Scripted<SignInCode>;
  waitSignIn?: Scripted<string>;
  submit?: Scripted<CreatedDiscussion>;
  /** Saving a share: the file it answers. */
  shareSave?: Scripted<string>;
  /** Opening a link in the browser. */
  openLink?: Scripted<null>;
  /** Everyone's results, by recipe: the answer to each fetch in turn (the
   *  last one repeats). */
  community?: Record<string, Scripted<Community>[]>;
  run?: Record<string, ScriptedRun>;
  /** Batches a bench stream delivers, one per animation-free tick. */
  stream?: StreamMessage[][];
}

const missing = (what: string): CommandError => ({
  kind: 'not_found',
  message: `the script has no ${what}`,
  hint: 'Add it to the test script.',
});

function answer<T>(s: Scripted<T> | undefined, what: string): Promise<T> {
  const a = s ?? { error: missing(what) };
  return new Promise((resolve, reject) => {
    const settle = () => ('error' in a ? reject(new BackendError(a.error)) : resolve(a.value));
    if (a.delayMs) setTimeout(settle, a.delayMs);
    else queueMicrotask(settle);
  });
}

/** A backend that answers from a script: for tests in a plain browser. */
export function scriptedBackend(script: Script): Backend {
  const cancelled: Record<string, boolean> = {};
  const fetches: Record<string, number> = {};
  const setUp: Record<string, boolean> = {};
  let signedIn = false;
  let signedInWith: string | null = null;
  let login: string | null = null;
  // Like the app, a chosen repository is kept and names the prefilled link.
  let chosenRepo: string | null = null;
  // Every command the script does not answer says so, as the app's would fail.
  const unscripted = Object.fromEntries(commandNames.map((name) => [name, () => answer(undefined, name)]));
  const scripted: Omit<Backend, 'name' | 'capabilities'> = {
    ...(unscripted as unknown as Omit<Backend, 'name' | 'capabilities'>),
    library: () => answer(script.library, 'library'),
    post: (id) => answer(script.post?.[id], `post ${id}`),
    history: () => answer(script.history, 'history'),
    results: (run) => answer(script.results?.[run], `results ${run}`),
    sharePreview: (run) =>
      answer(script.share?.[run], `share preview ${run}`).then((p) => {
        if (!chosenRepo) return p;
        const q = new URLSearchParams({ category: p.category, title: p.title, body: p.body });
        return { ...p, repo: chosenRepo, prefilled_url: `https://github.com/${chosenRepo}/discussions/new?${q}`, body_in_link: true };
      }),
    machine: () => answer(script.machine, 'machine'),
    validateMachine: async (_quick, onProgress) => {
      const v = script.validation;
      if (!v) return answer<Validation>(undefined, 'validation');
      for (const line of v.lines) {
        await new Promise((r) => setTimeout(r, v.tickMs ?? 0));
        onProgress(line);
      }
      return answer(v.end, 'validation');
    },
    preflight: (id, askVersions) => {
      const after = setUp[id] ? script.setup?.[id]?.after : undefined;
      const p = after ? { value: after } : script.preflight?.[id];
      return answer(p, `preflight ${id}`).then((p) => ({ ...p, versions_asked: askVersions }));
    },
    setupPlan: (id) => answer(script.setupPlan?.[id], `setup plan ${id}`),
    startSetup: async (id, _lanes, onBatch) => {
      const setup = script.setup?.[id];
      if (!setup) return answer<SetupEnd>(undefined, `setup ${id}`);
      cancelled[`setup ${id}`] = false;
      for (const batch of setup.batches) {
        await new Promise((r) => setTimeout(r, setup.tickMs ?? 0));
        if (cancelled[`setup ${id}`]) return 'cancelled';
        onBatch(batch);
      }
      const end = await answer(setup.end, `setup ${id}`);
      if (end === 'installed') setUp[id] = true;
      return end;
    },
    cancelSetup: async (id) => {
      const going = cancelled[`setup ${id}`] === false;
      cancelled[`setup ${id}`] = true;
      return going;
    },
    planRun: (id, server) => (server ? answer(script.planOnServer?.[id], `plan ${id} on ${server.host}`) : answer(script.plan?.[id], `plan ${id}`)),
    startRun: async (id, choices, onBatch) => {
      const run = choices.server
        ? script.runOnServer?.[id]
        : choices.until_conclusive
          ? script.runUntilConclusive?.[id]
          : script.run?.[id];
      if (!run) return answer<RunOutcome>(undefined, `run ${id}`);
      cancelled[id] = false;
      const batches = (choices.fresh && run.fresh) || run.batches;
      // The step going when a cancel comes, which the engine says was cancelled.
      let going: string | null = null;
      for (const batch of batches) {
        await new Promise((r) => setTimeout(r, run.tickMs ?? 0));
        if (cancelled[id]) {
          if (going) onBatch([{ type: 'event', event: { event: 'cancelled', step: going } }]);
          const summary = going ? '1 step cancelled' : 'no step ran';
          return {
            run: `${id}-1`,
            ending: 'cancelled',
            headline: `Run ${id}-1 cancelled: ${summary}`,
            steps: { finished: [], reused: [], skipped: [], failed: [], cancelled_steps: going ? [going] : [], cancelled: true, lanes_failed: [] },
            skipped_lanes: [],
            summary,
            history: { outcome: 'nothing_to_store' },
          };
        }
        for (const m of batch) if (m.type === 'event' && m.event.event === 'started') going = m.event.step;
        onBatch(batch);
      }
      return answer(run.outcome, `run ${id}`);
    },
    // Like the app, a finished sign-in is remembered.
    shareStatus: () =>
      answer(script.shareStatus, 'share status').then((s) => ({ ...s, ...(signedIn ? { signed_in: true, signed_in_with: signedInWith, login, can_sign_out: true } : {}), repo: chosenRepo ?? s.repo })),
    shareSignIn: () => answer(script.signIn, 'sign-in'),
    shareWaitSignIn: () =>
      answer(script.waitSignIn, 'sign-in wait').then((where) => {
        signedIn = true;
        signedInWith = 'the token kept at sign-in';
        return where;
      }),
    // As the app checks a pasted token: 20 to 255 visible characters, then
    // GitHub names its account (here `octo-reader`) or refuses it (here a
    // token that says it is revoked).
    shareKeepToken: (token) => {
      const t = token.trim();
      if (!/^[\x21-\x7e]{20,255}$/.test(t)) {
        return answer<ShareStatus>({ error: { kind: 'share', message: 'that is not a GitHub token (20 to 255 visible characters, no spaces): make one at https://github.com/settings/tokens', hint: 'Paste the whole token, as GitHub showed it (https://github.com/settings/tokens).' } }, 'token');
      }
      if (t.includes('revoked')) {
        return answer<ShareStatus>({ error: { kind: 'share', message: 'GitHub refused the token (401: Bad credentials): it is mistyped, expired or revoked', hint: 'Sign out, then paste a new token (https://github.com/settings/tokens) or sign in again; or “Open on GitHub” to post it yourself.' } }, 'token');
      }
      signedIn = true;
      signedInWith = 'the token kept at sign-in';
      login = 'octo-reader';
      return answer(script.shareStatus, 'share status').then((s) => ({ ...s, signed_in: true, signed_in_with: signedInWith, login, can_sign_out: true, repo: chosenRepo ?? s.repo }));
    },
    shareSignOut: () => {
      signedIn = false;
      signedInWith = null;
      login = null;
      return answer(script.shareStatus, 'share status').then((s) => ({ ...s, signed_in: false, signed_in_with: null, login: null, can_sign_out: false, repo: chosenRepo ?? s.repo }));
    },
    shareSubmit: () => answer(script.submit, 'submit'),
    // As the app checks it: owner/name, else the app's error.
    shareChooseRepo: (repo) => {
      const r = repo.trim();
      if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?\/[A-Za-z0-9._-]+$/.test(r) || r.endsWith('/.') || r.endsWith('/..')) {
        return answer<ShareStatus>({ error: { kind: 'invalid', message: `\`${r}\` is not a repository: write it as OWNER/NAME, e.g. rubys/roundhouse`, hint: 'Write the repository as owner/name, as in its GitHub address: github.com/owner/name.' } }, 'repo');
      }
      chosenRepo = r;
      return answer(script.shareStatus, 'share status').then((s) => ({ ...s, repo: r, ...(signedIn ? { signed_in: true, signed_in_with: signedInWith } : {}) }));
    },
    shareSave: () => answer(script.shareSave, 'share save'),
    openLink: (url) => answer(script.openLink, `open ${url}`),
    community: (id) => {
      const answers = script.community?.[id];
      fetches[id] = (fetches[id] ?? 0) + 1;
      return answer(answers?.[Math.min(fetches[id], answers.length) - 1], `community ${id}`);
    },
    cancelRun: async (id) => {
      const going = cancelled[id] === false;
      cancelled[id] = true;
      return going;
    },
    benchStream: async (_millis, _forward, onBatch) => {
      let events = 0;
      for (const batch of script.stream ?? []) {
        await new Promise((r) => setTimeout(r, 0));
        for (const m of batch) events += m.type === 'progress' ? m.merged : m.type === 'log' ? m.lines.length + m.dropped : 1;
        onBatch(batch);
      }
      return { events, batches: script.stream?.length ?? 0 };
    },
  };
  return {
    ...scripted,
    name: 'scripted',
    capabilities: { probe: true, engine: true, bench_stream: !!script.stream, ...script.capabilities },
  };
}
