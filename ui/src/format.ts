// How the page's own numbers, dates and words read on screen: live figures
// (gauges, chart ticks), counts, moments and durations. What both front
// ends show of a run (intervals, published figures, spreads, flags, plan
// rows, time left) comes from the app already worded, as the CLI prints it.

import type { ChecksumStatus } from './bindings/ChecksumStatus';
import type { Fitness } from './bindings/Fitness';
import type { Outcome } from './bindings/Outcome';

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A number with sensible precision: 54,000 · 1.96 · 0.012. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  if (abs >= 1000) return grouped.format(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return trim(value.toFixed(1));
  if (abs >= 1) return trim(value.toFixed(2));
  if (abs === 0) return '0';
  return trim(value.toPrecision(2));
}

function trim(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A live value with its unit, as the session's readings write theirs:
 *  `54,000 req/s`, `12 ms`, `1.96×` (a ratio's unit), `12%`, and a count
 *  (whose unit is empty) bare: `6`. */
export function formatValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '—';
  if (unit === '') return formatNumber(value);
  if (unit === '×' || unit === '%') return `${formatNumber(value)}${unit}`;
  return `${formatNumber(value)} ${unit}`;
}

/** `n` and the noun it counts, singular for one: `1 run`, `3 runs`,
 *  `2 policies` (with `many` given). */
export function count(n: number, one: string, many: string = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** A validation's verdict on the machine, as the Machine page heads it. */
export const fitnessWords: Record<Fitness, string> = {
  ready: 'Ready to benchmark on',
  usable_with_caveats: 'Usable, with caveats',
  not_suitable: 'Not suitable for benchmarking',
};

export const outcomeLabels: Record<Outcome, string> = {
  reproduced: 'Reproduced',
  not_reproduced: 'Not reproduced',
  inconclusive: 'Inconclusive',
  no_data: 'No data',
  not_measured: 'Not measured',
  not_comparable: 'Not comparable',
};

export function outcomeLabel(outcome: Outcome): string {
  return outcomeLabels[outcome];
}


/** A recipe's checksum status as a person reads it. */
export function checksumWord(c: ChecksumStatus): string {
  switch (c.status) {
    case 'matches':
      return 'reviewed';
    case 'modified':
      return 'modified';
    case 'unlisted':
      return 'not listed';
    case 'unreadable':
      return 'unreadable';
  }
}

/** `2026-10` → `October 2026`; full dates as `16 October 2026`. */
export function formatPostDate(date: string): string {
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(date);
  if (!m) return date;
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const [, y, mo, d] = m;
  if (!mo) return y;
  const month = months[Number(mo) - 1] ?? mo;
  return d ? `${Number(d)} ${month} ${y}` : `${month} ${y}`;
}

const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An RFC 3339 moment (a run's `created_at`) in local time, or in
 *  `timeZone`: `1 Dec 2026, 22:03`. Anything else is returned as given. */
export function formatWhen(iso: string, timeZone?: string): string {
  const t = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(t.getTime())) return iso;
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  });
  for (const p of format.formatToParts(t)) parts[p.type] = p.value;
  return `${Number(parts.day)} ${shortMonths[Number(parts.month) - 1]} ${parts.year}, ${parts.hour}:${parts.minute}`;
}

/** How long ago a recent moment was: `just now`, `5 min ago`, `3 h ago`,
 *  `2 days ago`; `null` from a week on, for a moment ahead of `now`, or for
 *  one that does not read. */
export function formatAgo(iso: string, now: number = Date.now()): string | null {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const seconds = (now - t) / 1000;
  // A minute's grace for clocks that disagree.
  if (seconds < -60) return null;
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return days === 1 ? '1 day ago' : `${days} days ago`;
  return null;
}


/** Seconds as a person reads them, worded as the engine words them (the
 *  plan's `about 3 min 12 s`): `8 s`, `1 min 12 s`, `2 h 5 min`; under ten
 *  seconds with a tenth where it has one. */
export function formatDuration(seconds: number): string {
  const t = Math.max(0, seconds);
  // A step that took a few milliseconds took some time, not none.
  if (t > 0 && t < 0.05) return 'under 0.1 s';
  if (t < 10 && Math.round(t * 10) % 10 !== 0) return `${t.toFixed(1)} s`;
  const s = Math.round(t);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  if (h === 0 && m === 0) return `${r} s`;
  if (h === 0) return r === 0 ? `${m} min` : `${m} min ${r} s`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
