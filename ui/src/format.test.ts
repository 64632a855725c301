import { describe, expect, it } from 'vitest';
import { checksumWord, claimFigures, describeCell, formatInterval, formatNumber, formatPostDate, formatPublished, formatValue, outcomeLabel, runCounts } from './format';

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
    expect(formatValue(null, 'ms')).toBe('—');
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

  it('counts no data and not measured apart from inconclusive', () => {
    const run = { id: 'r', created_at: '2026-11-30T05:00:00Z', recipe: 'hello-ceiling', title: 'T', origin: null, cells: 6 };
    expect(runCounts({ ...run, reproduced: 2, not_reproduced: 0, inconclusive: 1, no_data: 1, not_measured: 3, not_comparable: 0 })).toBe(
      '2 reproduced, 0 not, 1 inconclusive, 1 no data, 3 not measured',
    );
    expect(runCounts({ ...run, reproduced: 1, not_reproduced: 0, inconclusive: 0, no_data: 0, not_measured: 0, not_comparable: 2 })).toBe(
      '1 reproduced, 0 not, 0 inconclusive, 2 not comparable',
    );
  });

  it('says what a cell, a checksum and a claim are from their typed values', () => {
    expect(describeCell({ status: 'client_bound', run: 2, client_cpu: 0.97 })).toBe(
      'client-bound: the load generator used 97% of its CPU in run 2',
    );
    expect(describeCell(null)).toBe('not measured');
    expect(checksumWord({ status: 'modified', expected: 'a', actual: 'b' })).toBe('modified');
    expect(
      claimFigures({ id: 'r', quote: 'q', tolerance: 0.1, kind: 'ratio', numerator: 'a', denominator: 'b', value: 2 }),
    ).toEqual(['a', 'b']);
  });
});
