import { describe, expect, it } from 'vitest';
import { checksumWord, claimFigures, count, describeCell, formatAgo, formatDuration, formatInterval, formatNumber, formatPostDate, formatPublished, formatRange, formatValue, formatWhen, laneFlags, outcomeLabel } from './format';

describe('numbers', () => {
  it('groups thousands and trims decimals', () => {
    expect(formatNumber(54000)).toBe('54,000');
    expect(formatNumber(106000.4)).toBe('106,000');
    expect(formatNumber(1.96)).toBe('1.96');
    expect(formatNumber(12.5)).toBe('12.5');
    expect(formatNumber(2.0)).toBe('2');
    expect(formatNumber(0.0123)).toBe('0.012');
    expect(formatNumber(NaN)).toBe('—');
  });

  it('puts the unit after the value, ratios as ×', () => {
    expect(formatValue(54000, 'req/s')).toBe('54,000 req/s');
    expect(formatValue(1.96, '×')).toBe('1.96×');
    expect(formatValue(12, '%')).toBe('12%');
    expect(formatValue(null, 'ms')).toBe('—');
  });

  it('shows a count (whose unit is empty) bare, not as a ratio', () => {
    expect(formatValue(6, '')).toBe('6');
    expect(formatValue(1234, '')).toBe('1,234');
    expect(formatInterval({ estimate: 6, low: 5, high: 7 }, '')).toBe('6 (5–7)');
  });

  it('writes a range with its unit once, as an interval writes its bounds', () => {
    expect(formatRange(45900, 62100, 'req/s')).toBe('45,900–62,100 req/s');
    expect(formatRange(1.67, 2.25, '×')).toBe('1.67–2.25×');
    expect(formatRange(5, 7, '')).toBe('5–7');
  });

  it('reads published figures as the post gave them', () => {
    expect(formatPublished({ value: 54000, approx: true }, 'req/s')).toBe('≈ 54,000 req/s');
    expect(formatPublished({ value: null, range: [360, 716] }, 'ms')).toBe('360–716 ms');
    expect(formatPublished({ value: null, range: null, unknown: 'only as a ratio' }, 'req/s')).toBe('not given');
  });

  it('shows an interval with its bounds', () => {
    expect(formatInterval({ estimate: 1.99, low: 1.9, high: 2.05 }, '×')).toBe('1.99× (1.9–2.05)');
    expect(formatInterval(null, '×')).toBe('—');
  });
});

describe('counts', () => {
  it('says one in the singular and every other number in the plural', () => {
    expect(count(1, 'run')).toBe('1 run');
    expect(count(0, 'run')).toBe('0 runs');
    expect(count(3, 'lane')).toBe('3 lanes');
    expect(count(1, 'batch', 'batches')).toBe('1 batch');
    expect(count(2, 'batch', 'batches')).toBe('2 batches');
    expect(count(152501, 'event')).toBe('152,501 events');
  });
});

describe('words', () => {
  it('labels outcomes and dates for a reader', () => {
    expect(outcomeLabel('not_reproduced')).toBe('Not reproduced');
    expect(outcomeLabel('not_comparable')).toBe('Not comparable');
    expect(outcomeLabel('no_data')).toBe('No data');
    expect(outcomeLabel('not_measured')).toBe('Not measured');
    expect(formatPostDate('2026-10')).toBe('October 2026');
    expect(formatPostDate('2026-09-22')).toBe('22 September 2026');
    expect(formatPostDate('autumn')).toBe('autumn');
  });

  it('says what a cell, a checksum and a claim are from their typed values', () => {
    expect(describeCell({ status: 'client_bound', run: 2, client_cpu: 0.97 })).toBe(
      'client-bound: the load generator used 97% of its CPU in run 2',
    );
    // As the report says it (reprise-verdict's CellStatus::describe).
    expect(describeCell({ status: 'network_bound', run: 1, req_per_s: 46000, ceiling: 50000 })).toBe(
      "network-bound: run 1 reached 92% of the link's ceiling (46000 of 50000 req/s)",
    );
    expect(describeCell(null)).toBe('not measured');
    expect(checksumWord({ status: 'modified', expected: 'a', actual: 'b' })).toBe('modified');
    expect(
      claimFigures({ id: 'r', quote: 'q', tolerance: 0.1, kind: 'ratio', numerator: 'a', denominator: 'b', value: 2 }),
    ).toEqual(['a', 'b']);
  });
});

describe('moments', () => {
  it('reads a run’s time as day, month, year and the local hour', () => {
    expect(formatWhen('2026-12-01T22:03:13Z', 'UTC')).toBe('1 Dec 2026, 22:03');
    // The same moment in Berlin is past midnight, on the 2nd.
    expect(formatWhen('2026-12-01T23:03:13Z', 'Europe/Berlin')).toBe('2 Dec 2026, 00:03');
    expect(formatWhen('2026-09-05T08:00:00+02:00', 'UTC')).toBe('5 Sep 2026, 06:00');
    expect(formatWhen('yesterday')).toBe('yesterday');
    expect(formatWhen('2026-12-01')).toBe('2026-12-01');
  });

  it('says how long ago a recent run was, and nothing for an old or future one', () => {
    const now = Date.parse('2026-12-01T22:08:13Z');
    expect(formatAgo('2026-12-01T22:08:00Z', now)).toBe('just now');
    expect(formatAgo('2026-12-01T22:03:13Z', now)).toBe('5 min ago');
    expect(formatAgo('2026-12-01T19:00:00Z', now)).toBe('3 h ago');
    expect(formatAgo('2026-11-30T20:00:00Z', now)).toBe('1 day ago');
    expect(formatAgo('2026-11-27T22:00:00Z', now)).toBe('4 days ago');
    expect(formatAgo('2026-11-20T22:00:00Z', now)).toBeNull();
    expect(formatAgo('2026-12-02T22:00:00Z', now)).toBeNull();
    expect(formatAgo('not a time', now)).toBeNull();
  });
});

describe('lanes', () => {
  const cell = (metric: 'req_per_s' | 'p99_ms', status: Parameters<typeof laneFlags>[0][number]['status'], runs: number, cv: number) => ({
    key: { metric }, status, stats: { runs, cv, unstable: cv > 0.1 },
  });
  it('flags a client-bound cell and a high spread by metric', () => {
    expect(
      laneFlags([cell('req_per_s', { status: 'client_bound', run: 2, client_cpu: 0.97 }, 3, 0.01), cell('p99_ms', { status: 'valid' }, 3, 0.142)]),
    ).toEqual(['throughput: client-bound: the load generator used 97% of its CPU in run 2', 'tail latency: high spread, runs vary 14.2%']);
  });
  it('says nothing of a steady lane, and once that a single run has no spread', () => {
    expect(laneFlags([cell('req_per_s', { status: 'valid' }, 3, 0.01)])).toEqual([]);
    expect(laneFlags([cell('req_per_s', { status: 'valid' }, 1, 0), cell('p99_ms', { status: 'valid' }, 1, 0)])).toEqual(['one run: no spread to read']);
  });
  it('says a lane whose cells recorded no runs has none, not that it had one', () => {
    const none = { key: { metric: 'req_per_s' as const }, status: { status: 'no_data' as const, reason: 'every run failed' }, stats: null };
    expect(laneFlags([none])).toEqual(['throughput: no data: every run failed', 'no runs recorded']);
    // One cell with a run: a single run, not none.
    expect(laneFlags([none, cell('p99_ms', { status: 'valid' }, 1, 0)])).toContain('one run: no spread to read');
  });
});

describe('durations', () => {
  it('reads as the engine words them', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(1.5)).toBe('1.5 s');
    expect(formatDuration(8)).toBe('8 s');
    expect(formatDuration(59.6)).toBe('1 min');
    expect(formatDuration(192)).toBe('3 min 12 s');
    expect(formatDuration(3907)).toBe('1 h 5 min');
    expect(formatDuration(-3)).toBe('0 s');
  });
});
