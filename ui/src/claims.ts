// A claim's card on the Results page, as plain data: the axis its picture
// is drawn on, the cells that measured it, and the machine's differences as
// a table. Its words and rows (its sentence of why, its reasoning, the
// claims not measured here once per why and the lane each names, the
// machine's rows) are the reports' own, given with the view
// (crates/report/src/cards.rs, `VerdictRow.card`).

import type { Deviation } from './bindings/Deviation';
import type { MeasuredCell } from './bindings/MeasuredCell';
import type { MeasuredLane } from './bindings/MeasuredLane';
import type { Verdict } from './bindings/Verdict';

/** An axis for a claim's picture: its ends and its ticks, round numbers
 *  around every value it must show (the band, the interval, the published
 *  number), starting no lower than zero when none is negative. */
export interface Axis {
  lo: number;
  hi: number;
  ticks: number[];
}

/** A step of 1, 2 or 5 times a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

export function axis(values: number[]): Axis | null {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return null;
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  const span = hi - lo || Math.abs(hi) * 0.1 || 1;
  const pad = span * 0.15;
  const step = niceStep((span + 2 * pad) / 4);
  const nonNegative = lo >= 0;
  lo = Math.floor((lo - pad) / step) * step;
  hi = Math.ceil((hi + pad) / step) * step;
  if (nonNegative && lo < 0) lo = 0;
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + step / 1e6; i++) ticks.push(Number((lo + i * step).toFixed(decimals)));
  return { lo: ticks[0], hi: ticks[ticks.length - 1], ticks };
}

/** A claim's numbers on its picture's scale (a spread's fractions as
 *  percentages, as the session words them). */
export interface ClaimNumbers {
  published: number | null;
  band: [number, number] | null;
  measured: { estimate: number; low: number; high: number } | null;
  unit: string;
}

export function claimNumbers(v: Verdict): ClaimNumbers {
  const scale = v.kind === 'spread' ? 100 : 1;
  return {
    published: v.published === null ? null : v.published * scale,
    band: v.band && [v.band[0] * scale, v.band[1] * scale],
    measured: v.measured && { estimate: v.measured.estimate * scale, low: v.measured.low * scale, high: v.measured.high * scale },
    unit: v.kind === 'spread' ? '%' : v.unit,
  };
}

/** The cells that measured a claim's figures, with their lanes. */
export function claimCells(v: Verdict, lanes: MeasuredLane[]): MeasuredCell[] {
  return lanes.flatMap((l) => l.cells.filter((c) => c.figures.some((f) => v.figures.includes(f))));
}

/** How a run differs from the post, less the sentence that a lane was not
 *  measured: the page says each such lane under "Not measured" (pointing to
 *  the claims it stops, where they say it). The reports, without that list,
 *  leave out only what the claims say (reprise-report's `listed_deviations`). */
export function deviationsToSay(deviations: Deviation[], notMeasured: { lane: string }[]): Deviation[] {
  return deviations.filter((d) => !(d.kind === 'lane' && d.lanes.length > 0 && d.lanes.every((l) => notMeasured.some((n) => n.lane === l))));
}
