// How numbers, figures and outcomes read on screen.

import type { CellStatus } from './bindings/CellStatus';
import type { ChecksumStatus } from './bindings/ChecksumStatus';
import type { Claim } from './bindings/Claim';
import type { Metric } from './bindings/Metric';
import type { MetricUnit } from './bindings/MetricUnit';
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

/** A value with its unit as the verdict crate's `format_number` writes it:
 *  `54,000 req/s`, `12 ms`, `1.96×` (a ratio's unit), `12%`, and a count
 *  (whose unit is empty) bare: `6`. */
export function formatValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '—';
  if (unit === '') return formatNumber(value);
  if (unit === '×' || unit === '%') return `${formatNumber(value)}${unit}`;
  return `${formatNumber(value)} ${unit}`;
}

/** A range with its unit once, after the upper bound: `45,900–62,100 req/s`,
 *  `1.67–2.25×`; the range every page and tooltip writes. */
export function formatRange(low: number, high: number, unit: string): string {
  return `${formatNumber(low)}–${formatValue(high, unit)}`;
}

/** `n` and the noun it counts, singular for one: `1 run`, `3 runs`,
 *  `2 policies` (with `many` given). */
export function count(n: number, one: string, many: string = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** A published figure: value, range, or why it is unknown. */
export function formatPublished(
  f: { value?: number | null; range?: number[] | null; unknown?: string | null; approx?: boolean },
  unit: string,
): string {
  if (f.value !== null && f.value !== undefined) return `${f.approx ? '≈ ' : ''}${formatValue(f.value, unit)}`;
  if (f.range && f.range.length === 2) return formatRange(f.range[0], f.range[1], unit);
  return f.unknown ? 'not given' : '—';
}

/** An interval: `1.98× (1.91–2.05)`. */
export function formatInterval(i: { estimate: number; low: number; high: number } | null, unit: string): string {
  if (!i) return '—';
  return `${formatValue(i.estimate, unit)} (${formatNumber(i.low)}–${formatNumber(i.high)})`;
}

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

/** A cell's validity as one line (as the reports say it). */
export function describeCell(status: CellStatus | null): string {
  if (!status) return 'not measured';
  switch (status.status) {
    case 'valid':
      return 'valid';
    case 'no_data':
      return `no data: ${status.reason}`;
    case 'client_bound':
      return `client-bound: the load generator used ${Math.round(status.client_cpu * 100)}% of its CPU in run ${status.run}`;
    case 'network_bound':
      return `network-bound: run ${status.run} reached ${Math.round((status.req_per_s / status.ceiling) * 100)}% of the link's ceiling (${Math.round(status.req_per_s)} of ${Math.round(status.ceiling)} req/s)`;
    case 'not_comparable':
      return `not comparable: ${status.reason}`;
  }
}

/** What a reader should know before trusting a lane's numbers: each of its
 *  cells that failed a gate (client-bound, no data, not comparable) or whose
 *  runs vary past the threshold, named by metric; once, that its runs were
 *  single (no spread to read) or that it has none recorded. */
export function laneFlags(cells: { key: { metric: Metric }; status: CellStatus; stats: { runs: number; cv: number; unstable: boolean } | null }[]): string[] {
  const flags: string[] = [];
  for (const c of cells) {
    const what = metricName(c.key.metric);
    if (c.status.status !== 'valid') flags.push(`${what}: ${describeCell(c.status)}`);
    if (c.stats?.unstable) flags.push(`${what}: high spread, runs vary ${(c.stats.cv * 100).toFixed(1)}%`);
  }
  const runs = cells.map((c) => c.stats?.runs ?? 0);
  if (runs.length > 0 && runs.every((n) => n === 0)) flags.push('no runs recorded');
  else if (runs.length > 0 && runs.every((n) => n <= 1)) flags.push('one run: no spread to read');
  return flags;
}

/** The unit of a metric, from the units a view carries. */
export function unitOf(units: MetricUnit[], metric: Metric): string {
  return units.find((u) => u.metric === metric)?.unit ?? '';
}

/** The figures a claim rests on. */
export function claimFigures(c: Claim): string[] {
  switch (c.kind) {
    case 'absolute':
    case 'spread':
      return [c.figure];
    case 'ratio':
      return [c.numerator, c.denominator];
    case 'ordering':
      return c.order;
  }
}

/** Metric names as a reader says them. */
const metricNames: Record<Metric, string> = {
  req_per_s: 'throughput',
  p50_ms: 'median latency',
  p99_ms: 'tail latency',
  rss_mb: 'memory (RSS)',
  pss_mb: 'memory (PSS)',
  memory_mb: 'memory',
  boot_accept_s: 'boot time',
  boot_page_s: 'time to first page',
  us_per_row: 'time per row',
  us_per_request: 'time per request',
  req_per_s_per_gb: 'throughput per GB',
  tags: 'response shape',
  count: 'counts',
  seconds: 'durations',
  percent: 'percentages',
};

export function metricName(metric: Metric): string {
  return metricNames[metric];
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
  if (t < 10 && Math.round(t * 10) % 10 !== 0) return `${t.toFixed(1)} s`;
  const s = Math.round(t);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  if (h === 0 && m === 0) return `${r} s`;
  if (h === 0) return r === 0 ? `${m} min` : `${m} min ${r} s`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
