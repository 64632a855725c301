// The one module every call to the app goes through. Two implementations:
// the desktop app's (Tauri IPC: invoke and Channel) and a scripted one for
// tests in a plain browser. Pages never import @tauri-apps/api themselves.

import type { CommandError } from './bindings/CommandError';
import type { ErrorKind } from './bindings/ErrorKind';
import type { Library } from './bindings/Library';
import type { ThisMachine } from './bindings/ThisMachine';
import type { Validation } from './bindings/Validation';
import type { Preflight } from './bindings/Preflight';
import type { RunPlan } from './bindings/RunPlan';
import type { RunOutcome } from './bindings/RunOutcome';
import type { ShareStatus } from './bindings/ShareStatus';
import type { SignInCode } from './bindings/SignInCode';
import type { CreatedDiscussion } from './bindings/CreatedDiscussion';
import type { PostView } from './bindings/PostView';
import type { ResultsView } from './bindings/ResultsView';
import type { RunChoices } from './bindings/RunChoices';
import type { ServerChoice } from './bindings/ServerChoice';
import type { RunSummary } from './bindings/RunSummary';
import type { ShareView } from './bindings/ShareView';
import type { SetupEnd } from './bindings/SetupEnd';
import type { SetupPlan } from './bindings/SetupPlan';
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
  history(): Promise<RunSummary[]>;
  results(run: string): Promise<ResultsView>;
  sharePreview(run: string): Promise<ShareView>;
  machine(): Promise<ThisMachine>;
  /** Validates this machine as `reprise validate` does (`quick`: about 15 s, else about a minute); each stage's line arrives on `onProgress`. */
  validateMachine(quick: boolean, onProgress: (line: string) => void): Promise<Validation>;
  /** The preflight; `askVersions` runs the recipe's version commands (the reader accepted them). */
  preflight(id: string, askVersions: boolean): Promise<Preflight>;
  /** What setting up the recipe's toolchains (through mise) installs, writes and runs. */
  setupPlan(id: string, lanes: string[]): Promise<SetupPlan>;
  /** Installs them; mise's output arrives on `onBatch`. */
  startSetup(id: string, lanes: string[], onBatch: (batch: StreamMessage[]) => void): Promise<SetupEnd>;
  cancelSetup(id: string): Promise<boolean>;
  /** The plan, with the lanes on another machine where `server` says so. */
  planRun(id: string, server: ServerChoice | null): Promise<RunPlan>;
  /** Runs (or, unless `choices.fresh`, resumes) the recipe; batches of events arrive on `onBatch`. */
  startRun(id: string, choices: RunChoices, onBatch: (batch: StreamMessage[]) => void): Promise<RunOutcome>;
  cancelRun(id: string): Promise<boolean>;
  shareStatus(): Promise<ShareStatus>;
  /** A device code to enter at GitHub. */
  shareSignIn(): Promise<SignInCode>;
  /** Resolves once the code was entered (with where the token is kept). */
  shareWaitSignIn(): Promise<string>;
  shareSubmit(run: string): Promise<CreatedDiscussion>;
  /** Keeps the repository to post in (owner/name, checked by the app); answers the status with it. */
  shareChooseRepo(repo: string): Promise<ShareStatus>;
  /** Writes the run's redacted report (Markdown) to the data dir; answers the file. */
  shareSave(run: string): Promise<string>;
  /** Opens an http(s) link (a post) in the system's browser. */
  openLink(url: string): Promise<void>;
  /** Streams synthetic progress events for `millis` ms through the app's throttle. */
  benchStream(millis: number, onBatch: (batch: StreamMessage[]) => void, forward?: boolean): Promise<StreamSummary>;
}

/** A failure as pages show it: what happened and what to do. */
export class BackendError extends Error {
  /** The app's kind of failure, or `ipc` when the app did not answer as expected. */
  kind: ErrorKind | 'ipc';
  hint: string;
  constructor(e: { kind: ErrorKind | 'ipc'; message: string; hint: string }) {
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
    return new BackendError({ kind: c.kind, message: String(c.message), hint: String(c.hint ?? '') });
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
    validateMachine: (quick, onProgress) => {
      const channel = makeChannel<string>();
      channel.onmessage = onProgress;
      return call('validate_machine', { quick, onProgress: channel });
    },
    preflight: (id, askVersions) => call('preflight', { id, askVersions }),
    setupPlan: (id, lanes) => call('setup_plan', { id, lanes }),
    startSetup: (id, lanes, onBatch) => {
      const channel = makeChannel<StreamMessage[]>();
      channel.onmessage = onBatch;
      return call('start_setup', { id, lanes, onEvent: channel });
    },
    cancelSetup: (id) => call('cancel_setup', { id }),
    planRun: (id, server) => call('plan_run', { id, server }),
    startRun: (id, choices, onBatch) => {
      const channel = makeChannel<StreamMessage[]>();
      channel.onmessage = onBatch;
      return call('start_run', { id, choices, onEvent: channel });
    },
    cancelRun: (id) => call('cancel_run', { id }),
    shareStatus: () => call('share_status'),
    shareSignIn: () => call('share_sign_in'),
    shareWaitSignIn: () => call('share_wait_sign_in'),
    shareSubmit: (run) => call('share_submit', { run }),
    shareChooseRepo: (repo) => call('share_choose_repo', { repo }),
    shareSave: (run) => call('share_save', { run }),
    openLink: (url) => call('open_link', { url }),
    benchStream: (millis, onBatch, forward = true) => {
      const channel = makeChannel<StreamMessage[]>();
      channel.onmessage = onBatch;
      return call('bench_stream', { millis, forward, onEvent: channel });
    },
  };
}
