import { describe, expect, it } from 'vitest';
import type { Verdict } from './bindings/Verdict';
import type { VerdictRow } from './bindings/VerdictRow';
import { axis, claimCells, claimNumbers, deviationsToSay } from './claims';

/** A verdict as the session gives it: its numbers, and how they read. */
const row = (v: Partial<Verdict>, text: Partial<Omit<VerdictRow, 'verdict'>> = {}): VerdictRow => ({
  verdict: {
    claim: 'c', kind: 'absolute', quote: 'q', outcome: 'reproduced', why: { why: 'worded', text: 'r' }, notes: [], published: null, unit: 'req/s', tolerance: 0.15,
    band: null, measured: null, more_runs: null, decided_after: null, cpu: null, figures: [], deviations: [], ...v,
  },
  published: '—', band: null, measured: '—', card: { why: 'r.', reasoning: null, differs_in: [] }, ...text,
});



describe('a claim’s axis', () => {
  it('spans the band, the interval and the published number in round ticks', () => {
    expect(axis([1.67, 2.25, 1.98, 2.0, 1.96])).toEqual({ lo: 1.4, hi: 2.4, ticks: [1.4, 1.6, 1.8, 2, 2.2, 2.4] });
    const rps = axis([45900, 62100, 30100, 30300, 54000])!;
    expect(rps.ticks).toEqual([20000, 40000, 60000, 80000]);
  });
  it('starts no lower than zero for numbers that are not negative, and draws one value', () => {
    expect(axis([0.01, 1])!.lo).toBe(0);
    expect(axis([-0.01, 1])!.lo).toBeLessThan(0);
    const one = axis([6, 6, 6])!;
    expect(one.lo).toBeLessThan(6);
    expect(one.hi).toBeGreaterThan(6);
    expect(axis([])).toBeNull();
  });
  it('shows a spread as percentages', () => {
    const n = claimNumbers(row({ kind: 'spread', unit: '%', published: 0.117, band: [0.1, 0.13], measured: { estimate: 0.12, low: 0.11, high: 0.125 } }).verdict);
    expect(n.unit).toBe('%');
    expect(n.published).toBeCloseTo(11.7);
    expect(n.band?.[1]).toBeCloseTo(13);
    expect(n.measured?.low).toBeCloseTo(11);
  });
});

describe('a claim’s cells and the machine’s table', () => {
  it('finds the cells that measured a claim’s figures', () => {
    const cell = (lane: string, figures: string[]) => ({ key: { lane, endpoint: '/', metric: 'req_per_s' }, figures }) as never;
    const lanes = [{ lane: 'puma', cells: [cell('puma', ['puma-hello'])] }, { lane: 'nginx', cells: [cell('nginx', [])] }] as never;
    expect(claimCells(row({ figures: ['puma-hello', 'falcon-hello'] }).verdict, lanes).map((c) => c.key.lane)).toEqual(['puma']);
  });
});

describe('deviationsToSay', () => {
  it('leaves out a lane not measured, which its own list says, and keeps the rest', () => {
    const quick = { kind: 'quick' as const, what: 'a smoke run (--quick)', lanes: [] };
    const falcon = { kind: 'lane' as const, what: 'lane falcon was not measured (preflight): it needs falcon', lanes: ['falcon'] };
    const nginx = { kind: 'lane' as const, what: 'lane nginx was not measured (load): cancelled', lanes: ['nginx'] };
    expect(deviationsToSay([quick, falcon, nginx], [{ lane: 'falcon' }])).toEqual([quick, nginx]);
    expect(deviationsToSay([quick, falcon, nginx], [{ lane: 'falcon' }, { lane: 'nginx' }])).toEqual([quick]);
    // How a lane ran is not why it was not measured: it stays.
    const image = { kind: 'placement' as const, what: 'falcon ran in the image localhost/falcon, given with --image rather than taken from the recipe', lanes: ['falcon'] };
    expect(deviationsToSay([image, falcon], [{ lane: 'falcon' }])).toEqual([image]);
  });
});
