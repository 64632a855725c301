// The one module every call to the app goes through: the client generated
// from the app's command list (bindings/commands.ts) over Tauri's IPC, its
// failures turned into BackendErrors. Tests in a plain browser use a
// scripted backend of the same shape (testing/scripted.ts, test builds
// only). Pages never import @tauri-apps/api themselves.

import { commands, type Commands, type Invoke } from './bindings/commands';
import type { Capabilities } from './bindings/Capabilities';
import type { CommandError } from './bindings/CommandError';
import type { ErrorKind } from './bindings/ErrorKind';

export type { Capabilities };

/** The app's commands, with what this build can do read once at start: a
 *  page for a missing capability says so. */
export interface Backend extends Omit<Commands, 'capabilities'> {
  readonly name: 'tauri' | 'scripted';
  readonly capabilities: Capabilities;
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

/** The minimal surface of @tauri-apps/api's Channel this module needs. */
export interface ChannelLike<T> {
  onmessage: (message: T) => void;
}

/** The generated client over Tauri's IPC, failures as BackendErrors. */
export function tauriCommands(invoke: Invoke, makeChannel: <T>() => ChannelLike<T>): Commands {
  const call: Invoke = async (cmd, args) => {
    try {
      return await invoke(cmd, args);
    } catch (e) {
      throw toBackendError(e);
    }
  };
  return commands(call, (onMessage) => {
    const channel = makeChannel<Parameters<typeof onMessage>[0]>();
    channel.onmessage = onMessage;
    return channel;
  });
}

/** The desktop app's backend: its commands, and what this build can do. */
export function tauriBackend(client: Commands, capabilities: Capabilities): Backend {
  return { ...client, name: 'tauri', capabilities };
}
