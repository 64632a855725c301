import { describe, expect, it } from 'vitest';
import { checksumWord, count, formatAgo, formatDuration, formatNumber, formatPostDate, formatValue, formatWhen, outcomeLabel } from './format';

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

  it('says what a checksum status is', () => {
    expect(checksumWord({ status: 'modified', expected: 'a', actual: 'b' })).toBe('modified');
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

describe('durations', () => {
  it('reads as the engine words them', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(0.02)).toBe('under 0.1 s');
    expect(formatDuration(1.5)).toBe('1.5 s');
    expect(formatDuration(8)).toBe('8 s');
    expect(formatDuration(59.6)).toBe('1 min');
    expect(formatDuration(192)).toBe('3 min 12 s');
    expect(formatDuration(3907)).toBe('1 h 5 min');
    expect(formatDuration(-3)).toBe('0 s');
  });
});
