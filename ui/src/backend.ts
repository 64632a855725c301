// The one module every call to the app goes through. Two implementations:
// the desktop app's (Tauri IPC: invoke and Channel) and a scripted one for
// tests in a plain browser. Pages never import @tauri-apps/api themselves.

import type { CommandError } from './bindings/CommandError';
import type { Library } from './bindings/Library';
import type { MachineBasics } from './bindings/MachineBasics';
import type { PostView } from './bindings/PostView';
import type { ResultsView } from './bindings/ResultsView';
import type { RunRow } from './bindings/RunRow';
import type { SharePreview } from './bindings/SharePreview';
import type { StreamMessage } from './bindings/StreamMessage';
import type { StreamSummary } from './bindings/StreamSummary';

/** What this build can do; a page for a missing capability says so. */
export interface Capabilities {
  /** Machine probe and preflight (reprise-probe). */
  probe: boolean;
  /** Running a recipe (reprise-engine). */
  engine: boolean;
  /** The synthetic event stream bench/desktop measures with. */
  benchStream: boolean;
}

export interface Backend {
  readonly name: 'tauri' | 'scripted';
  readonly capabilities: Capabilities;
  library(): Promise<Library>;
  post(id: string): Promise<PostView>;
  history(): Promise<RunRow[]>;
  results(run: string): Promise<ResultsView>;
  sharePreview(run: string): Promise<SharePreview>;
  machine(): Promise<MachineBasics>;
  /** Streams synthetic progress events for `millis` ms through the app's throttle. */
  benchStream(millis: number, onBatch: (batch: StreamMessage[]) => void): Promise<StreamSummary>;
}

/** A failure as pages show it: what happened and what to do. */
export class BackendError extends Error implements CommandError {
  kind: string;
  hint: string;
  constructor(e: CommandError) {
    super(e.message);
    this.kind = e.kind;
    this.hint = e.hint;
  }
}

/** Turns whatever a call rejected with into a BackendError. */
export function toBackendError(e: unknown): BackendError {
  if (e instanceof BackendError) return e;
  if (e && typeof e === 'object' && 'message' in e && 'kind' in e) {
    const c = e as CommandError;
    return new BackendError({ kind: String(c.kind), message: String(c.message), hint: String(c.hint ?? '') });
  }
  const message = e instanceof Error ? e.message : String(e);
  return new BackendError({
    kind: 'ipc',
    message,
    hint: 'The app did not answer as expected; restart it, and report the message if it persists.',
  });
}

type Invoke = <T>(cmd: string, args?: Record<string, unknown>) => Promise<T>;

/** The minimal surface of @tauri-apps/api's Channel this module needs. */
export interface ChannelLike<T> {
  onmessage: (message: T) => void;
}

/** The desktop app's backend, over Tauri's IPC. */
export function tauriBackend(
  invoke: Invoke,
  makeChannel: <T>() => ChannelLike<T>,
  capabilities: Capabilities,
): Backend {
  const call = async <T>(cmd: string, args?: Record<string, unknown>): Promise<T> => {
    try {
      return await invoke<T>(cmd, args);
    } catch (e) {
      throw toBackendError(e);
    }
  };
  return {
    name: 'tauri',
    capabilities,
    library: () => call('library'),
    post: (id) => call('post', { id }),
    history: () => call('history'),
    results: (run) => call('results', { run }),
    sharePreview: (run) => call('share_preview', { run }),
    machine: () => call('machine'),
    benchStream: (millis, onBatch) => {
      const channel = makeChannel<StreamMessage[]>();
      channel.onmessage = onBatch;
      return call('bench_stream', { millis, onEvent: channel });
    },
  };
}

/** One scripted answer: a value, or an error, after an optional delay. */
export type Scripted<T> = { value: T; delayMs?: number } | { error: CommandError; delayMs?: number };

export interface Script {
  capabilities?: Partial<Capabilities>;
  library?: Scripted<Library>;
  post?: Record<string, Scripted<PostView>>;
  history?: Scripted<RunRow[]>;
  results?: Record<string, Scripted<ResultsView>>;
  share?: Record<string, Scripted<SharePreview>>;
  machine?: Scripted<MachineBasics>;
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
  return {
    name: 'scripted',
    capabilities: { probe: false, engine: false, benchStream: !!script.stream, ...script.capabilities },
    library: () => answer(script.library, 'library'),
    post: (id) => answer(script.post?.[id], `post ${id}`),
    history: () => answer(script.history, 'history'),
    results: (run) => answer(script.results?.[run], `results ${run}`),
    sharePreview: (run) => answer(script.share?.[run], `share preview ${run}`),
    machine: () => answer(script.machine, 'machine'),
    benchStream: async (_millis, onBatch) => {
      let events = 0;
      for (const batch of script.stream ?? []) {
        await new Promise((r) => setTimeout(r, 0));
        for (const m of batch) events += m.type === 'progress' ? m.merged : m.type === 'log' ? m.lines.length + m.dropped : 1;
        onBatch(batch);
      }
      return { events, batches: script.stream?.length ?? 0 };
    },
  };
}
