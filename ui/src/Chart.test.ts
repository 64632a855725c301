import { describe, expect, it } from 'vitest';
import type { Verdict } from './bindings/Verdict';
import type { VerdictRow } from './bindings/VerdictRow';
import { claimCharts, claimTooltip } from './Chart';

/** A verdict as the session gives it: its numbers, and how they read. */
const verdict = (v: Partial<Verdict>, text: Partial<Omit<VerdictRow, 'verdict'>> = {}): VerdictRow => ({
  verdict: {
    claim: 'c', kind: 'absolute', quote: 'q', outcome: 'reproduced', reason: '', published: null, unit: 'req/s', tolerance: 0.15,
    band: null, measured: null, more_runs: null, decided_after: null, cpu: null, figures: [], deviations: [], ...v,
  },
  published: '', band: null, measured: '—', ...text,
});

describe('the claims chart', () => {
  it('puts each claim with a published number on the chart of its unit, an ordering on none', () => {
    const charts = claimCharts([
      verdict({ claim: 'puma-ceiling', published: 54000, band: [45900, 62100], measured: { estimate: 30200, low: 30100, high: 30300 } }),
      verdict({ claim: 'twice', kind: 'ratio', unit: '×', published: 1.96, band: [1.67, 2.25], measured: { estimate: 1.99, low: 1.98, high: 2 } }),
      verdict({ claim: 'falcon-ceiling', published: 106000 }),
      verdict({ claim: 'above', kind: 'ordering', published: null }),
    ]);
    expect(charts.map((c) => [c.unit, c.bars.map((b) => b.claim)])).toEqual([
      ['req/s', ['puma-ceiling', 'falcon-ceiling']],
      ['×', ['twice']],
    ]);
    expect(charts[0].bars[0]).toMatchObject({ claim: 'puma-ceiling', published: 54000, band: [45900, 62100], measured: { estimate: 30200, low: 30100, high: 30300 } });
  });

  it('shows a spread as percentages', () => {
    const [chart] = claimCharts([verdict({ kind: 'spread', unit: '%', published: 0.117, band: [0.1, 0.13], measured: { estimate: 0.12, low: 0.12, high: 0.12 } })]);
    expect(chart.unit).toBe('%');
    expect(chart.bars[0].published).toBeCloseTo(11.7);
    expect(chart.bars[0].band?.[1]).toBeCloseTo(13);
  });

  it('words the tooltip as the session reads the verdict: published, measured with its interval, accepted', () => {
    const [chart] = claimCharts([
      verdict(
        { published: 54000, band: [45900, 62100], measured: { estimate: 30200, low: 30100, high: 30300 } },
        { published: '54,000 req/s', measured: '30,200 req/s (30,100–30,300)', band: '45,900–62,100 req/s' },
      ),
    ]);
    expect(claimTooltip(chart.bars[0])).toEqual([
      'Published: 54,000 req/s',
      'Measured: 30,200 req/s (30,100–30,300)',
      'Accepted: 45,900–62,100 req/s',
    ]);
    const [unmeasured] = claimCharts([verdict({ kind: 'ratio', unit: '×', published: 2 }, { published: '2×' })]);
    expect(claimTooltip(unmeasured.bars[0])).toEqual(['Published: 2×', 'Measured: not measured']);
  });
});
