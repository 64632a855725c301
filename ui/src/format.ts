// How numbers, figures and outcomes read on screen.

import type { CellStatus } from './bindings/CellStatus';
import type { ChecksumStatus } from './bindings/ChecksumStatus';
import type { Claim } from './bindings/Claim';
import type { Metric } from './bindings/Metric';
import type { MetricUnit } from './bindings/MetricUnit';
import type { Outcome } from './bindings/Outcome';
import type { RunSummary } from './bindings/RunSummary';

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

/** A value with its unit: `54,000 req/s`, `12 ms`, `1.96×` for ratios. */
export function formatValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '—';
  if (unit === '' || unit === 'ratio' || unit === '×') return `${formatNumber(value)}×`;
  if (unit === '%') return `${formatNumber(value)}%`;
  return `${formatNumber(value)} ${unit}`;
}

/** A published figure: value, range, or why it is unknown. */
export function formatPublished(
  f: { value?: number | null; range?: number[] | null; unknown?: string | null; approx?: boolean },
  unit: string,
): string {
  if (f.value !== null && f.value !== undefined) return `${f.approx ? '≈ ' : ''}${formatValue(f.value, unit)}`;
  if (f.range && f.range.length === 2) return `${formatNumber(f.range[0])}–${formatValue(f.range[1], unit)}`;
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

/** A stored run's verdicts counted by outcome, each on its own; the ones
 *  a run may well not have (no data, not measured, not comparable) only
 *  where there are some: `3 reproduced, 0 not, 1 inconclusive, 2 not measured`. */
export function runCounts(r: RunSummary): string {
  const parts = [`${r.reproduced} reproduced`, `${r.not_reproduced} not`, `${r.inconclusive} inconclusive`];
  if (r.no_data > 0) parts.push(`${r.no_data} no data`);
  if (r.not_measured > 0) parts.push(`${r.not_measured} not measured`);
  if (r.not_comparable > 0) parts.push(`${r.not_comparable} not comparable`);
  return parts.join(', ');
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
    case 'not_comparable':
      return `not comparable: ${status.reason}`;
  }
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

