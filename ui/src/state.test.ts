import { describe, expect, it } from 'vitest';
import { applyBatch, emptyLive, fraction, href, LOG_LIMIT, parseRoute, SAMPLE_LIMIT } from './state';

describe('routes', () => {
  it('round-trip through the hash, so a page can be left and re-entered', () => {
    for (const r of [
      { page: 'library' },
      { page: 'post', id: 'hello-ceiling' },
      { page: 'run', id: 'campfire runtimes' },
      { page: 'results', run: 'hello-ceiling-1' },
      { page: 'machine' },
    ] as const) {
      expect(parseRoute(href(r))).toEqual(r);
    }
  });

  it('send anything unknown to the library', () => {
    expect(parseRoute('#/nowhere')).toEqual({ page: 'library' });
    expect(parseRoute('')).toEqual({ page: 'library' });
    expect(parseRoute('#/post')).toEqual({ page: 'library' });
  });
});

describe('the live state', () => {
  it('keeps the latest progress and counts merged events', () => {
    let s = emptyLive();
    s = applyBatch(s, [{ type: 'progress', step: 'runs', done: 10, total: 100, req_per_s: 70000, p99_ms: 1.5, cell: null, merged: 3000 }]);
    s = applyBatch(s, [{ type: 'progress', step: 'runs', done: 50, total: 100, req_per_s: 72000, p99_ms: 1.4, cell: null, merged: 2000 }]);
    expect(s.steps.runs.done).toBe(50);
    expect(fraction(s.steps.runs)).toBe(0.5);
    expect(s.received).toBe(5000);
    expect(s.batches).toBe(2);
    expect(s.reqPerS).toEqual([70000, 72000]);
  });

  it('keeps how long the run has left as the app last counted it', () => {
    let s = emptyLive();
    expect(s.left).toBeNull();
    s = applyBatch(s, [{ type: 'left', left: { seconds: 70, measuring: false } }]);
    expect(s.left).toEqual({ seconds: 70, measuring: false });
    s = applyBatch(s, [{ type: 'event', event: { event: 'note', message: 'x' } }]);
    expect(s.left).toEqual({ seconds: 70, measuring: false });
    s = applyBatch(s, [{ type: 'left', left: null }]);
    expect(s.left).toBeNull();
  });

  it('keeps the cell being measured until another replaces it', () => {
    const puma = { lane: 'puma', endpoint: '/', run: 1 };
    let s = emptyLive();
    s = applyBatch(s, [{ type: 'progress', step: 'measure', done: 0, total: 4, req_per_s: 6000, p99_ms: 2, cell: puma, merged: 2 }]);
    s = applyBatch(s, [{ type: 'progress', step: 'measure', done: 1, total: 4, req_per_s: null, p99_ms: null, cell: null, merged: 1 }]);
    expect(s.steps.measure.cell).toEqual(puma);
    s = applyBatch(s, [{ type: 'progress', step: 'measure', done: 1, total: 4, req_per_s: 22000, p99_ms: 1, cell: { lane: 'nginx', endpoint: '/', run: 1 }, merged: 1 }]);
    expect(s.steps.measure.cell?.lane).toBe('nginx');
  });

  it('bounds the log and the chart samples', () => {
    let s = emptyLive();
    for (let i = 0; i < SAMPLE_LIMIT + 10; i++) {
      s = applyBatch(s, [
        { type: 'log', step: 'bundle', lines: Array.from({ length: 10 }, (_, j) => `line ${i}.${j}`), dropped: 1 },
        { type: 'progress', step: 'bundle', done: i, total: null, req_per_s: i, p99_ms: null, cell: null, merged: 1 },
      ]);
    }
    expect(s.steps.bundle.log.length).toBe(LOG_LIMIT);
    expect(s.steps.bundle.log.at(-1)).toBe(`line ${SAMPLE_LIMIT + 9}.9`);
    expect(s.steps.bundle.dropped).toBe(SAMPLE_LIMIT + 10);
    expect(s.reqPerS.length).toBe(SAMPLE_LIMIT);
    expect(fraction(s.steps.bundle)).toBeNull();
  });

  it('keeps step events in order', () => {
    const started = { event: 'started', step: 'clone', kind: 'clone' } as const;
    const finished = { event: 'finished', step: 'clone', duration_ms: 12 } as const;
    const s = applyBatch(emptyLive(), [
      { type: 'event', event: started },
      { type: 'event', event: finished },
    ]);
    expect(s.events).toEqual([started, finished]);
  });
});

describe('step status from engine events', () => {
  it('follows started → finished, keeps reasons, and reads the run id', () => {
    let s = emptyLive();
    s = applyBatch(s, [
      { type: 'event', event: { event: 'run', id: 'hello-ceiling-20261130-1', dir: '/d' } },
      { type: 'event', event: { event: 'started', step: 'emit', kind: 'emit' } },
    ]);
    expect(s.runId).toBe('hello-ceiling-20261130-1');
    expect(s.status.emit.status).toBe('running');
    s = applyBatch(s, [
      { type: 'event', event: { event: 'finished', step: 'emit', duration_ms: 2041 } },
      { type: 'event', event: { event: 'skipped', step: 'measure', reason: 'load steps are not in this build' } },
      { type: 'event', event: { event: 'note', message: 'stored run hello-ceiling-20261130-1 in the history' } },
    ]);
    expect(s.status.emit).toEqual({ status: 'finished', durationMs: 2041 });
    expect(s.status.measure.reason).toBe('load steps are not in this build');
    expect(s.events.length).toBe(5);
  });
});
