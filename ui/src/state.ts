// Page state that outlives a page: the route (in the URL hash, so a run can
// be left and re-entered), and the live view of an event stream.

import type { Event } from './bindings/Event';
import type { Left } from './bindings/Left';
import type { LiveCell } from './bindings/LiveCell';
import type { StreamMessage } from './bindings/StreamMessage';

export type Route =
  | { page: 'library' }
  | { page: 'post'; id: string }
  | { page: 'preflight'; id: string }
  | { page: 'run'; id: string }
  | { page: 'others'; id: string }
  | { page: 'results'; run?: string }
  | { page: 'share'; run?: string }
  | { page: 'machine' };

const withId = ['post', 'preflight', 'run', 'others'] as const;

/** `#/post/hello-ceiling` → `{ page: 'post', id: 'hello-ceiling' }`; anything else → library. */
export function parseRoute(hash: string): Route {
  const [page, rawId] = hash.replace(/^#\/?/, '').split('/');
  const id = rawId ? decodeURIComponent(rawId) : undefined;
  if ((withId as readonly string[]).includes(page) && id) return { page, id } as Route;
  if (page === 'results' || page === 'share') return { page, run: id };
  if (page === 'machine') return { page };
  return { page: 'library' };
}

export function href(route: Route): string {
  if ('id' in route) return `#/${route.page}/${encodeURIComponent(route.id)}`;
  if ('run' in route && route.run) return `#/${route.page}/${encodeURIComponent(route.run)}`;
  return `#/${route.page}`;
}

/** What a step shows while a stream runs. */
export interface StepLive {
  done: number;
  total: number | null;
  reqPerS: number | null;
  p99Ms: number | null;
  /** The cell being measured (the latest known), for measuring steps. */
  cell: LiveCell | null;
  log: string[];
  dropped: number;
}

/** Where a step is, from the engine's events. */
export interface StepStatus {
  status: 'running' | 'finished' | 'skipped' | 'failed' | 'cancelled';
  reason?: string;
  durationMs?: number;
}

export interface LiveState {
  steps: Record<string, StepLive>;
  status: Record<string, StepStatus>;
  /** The run folder's id, once the engine says it. */
  runId: string | null;
  /** Every event that is not progress or a log line, in order. */
  events: Event[];
  /** Events folded into the batches so far (progress merged counts). */
  received: number;
  batches: number;
  /** Throughput samples for the live chart, newest last, bounded. */
  reqPerS: number[];
  /** How long the run had left to measure at its latest batch, as the app
   *  counts it (the CLI's count); `null` when nothing is left or unknown. */
  left: Left | null;
}

export const LOG_LIMIT = 500;
export const SAMPLE_LIMIT = 120;

export function emptyLive(): LiveState {
  return { steps: {}, status: {}, runId: null, events: [], received: 0, batches: 0, reqPerS: [], left: null };
}

const blankStep = (): StepLive => ({ done: 0, total: null, reqPerS: null, p99Ms: null, cell: null, log: [], dropped: 0 });

/** Folds one batch from the app into the live state (a new object). */
export function applyBatch(state: LiveState, batch: StreamMessage[]): LiveState {
  const steps = { ...state.steps };
  let events = state.events;
  let received = state.received;
  let reqPerS = state.reqPerS;
  let status = state.status;
  let runId = state.runId;
  let left = state.left;
  for (const m of batch) {
    if (m.type === 'left') {
      left = m.left;
      continue;
    }
    if (m.type === 'event') {
      const e = m.event;
      events = [...events, e];
      received += 1;
      if (e.event === 'run') runId = e.id;
      else if (e.event === 'started') status = { ...status, [e.step]: { status: 'running' } };
      else if (e.event === 'finished') status = { ...status, [e.step]: { status: 'finished', durationMs: e.duration_ms } };
      else if (e.event === 'skipped' || e.event === 'failed') status = { ...status, [e.step]: { status: e.event, reason: e.reason } };
      else if (e.event === 'cancelled') status = { ...status, [e.step]: { status: 'cancelled' } };
      // A step that stopped shows no figure of the cell it was cut off in.
      if ((e.event === 'failed' || e.event === 'cancelled') && steps[e.step]) steps[e.step] = { ...steps[e.step], reqPerS: null, p99Ms: null, cell: null };
      continue;
    }
    const step = { ...(steps[m.step] ?? blankStep()) };
    if (m.type === 'progress') {
      step.done = m.done;
      step.total = m.total;
      step.reqPerS = m.req_per_s;
      step.p99Ms = m.p99_ms;
      if (m.cell) step.cell = m.cell;
      received += m.merged;
      if (m.req_per_s !== null) reqPerS = [...reqPerS, m.req_per_s].slice(-SAMPLE_LIMIT);
    } else {
      step.log = [...step.log, ...m.lines].slice(-LOG_LIMIT);
      step.dropped += m.dropped;
      received += m.lines.length + m.dropped;
    }
    steps[m.step] = step;
  }
  return { steps, status, runId, events, received, batches: state.batches + 1, reqPerS, left };
}

/** A step's progress as a fraction 0–1, or null when its total is unknown. */
export function fraction(step: StepLive): number | null {
  if (!step.total || step.total <= 0) return null;
  return Math.min(1, Math.max(0, step.done / step.total));
}
