// How numbers, figures and outcomes read on screen.

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

export const outcomeLabels: Record<string, string> = {
  reproduced: 'Reproduced',
  not_reproduced: 'Not reproduced',
  inconclusive: 'Inconclusive',
  not_comparable: 'Not comparable',
};

export function outcomeLabel(outcome: string): string {
  return outcomeLabels[outcome] ?? outcome.replace(/_/g, ' ');
}

/** Metric names as a reader says them. */
const metricNames: Record<string, string> = {
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

export function metricName(metric: string): string {
  return metricNames[metric] ?? metric.replace(/_/g, ' ');
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
