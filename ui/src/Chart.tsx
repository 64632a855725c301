// Chart.js behind small components: the claims, published against measured
// with the measured interval and the band each claim accepts, and a line of
// live throughput. Animations off: the data is the point.

import { useEffect, useRef } from 'preact/hooks';
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip,
  type ChartConfiguration, type Plugin,
} from 'chart.js';
import type { Interval } from './bindings/Interval';
import type { VerdictRow } from './bindings/VerdictRow';
import { formatNumber } from './format';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

function colors() {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  return {
    text: dark ? '#d6d9de' : '#24292f', grid: dark ? '#3a3f47' : '#e3e6ea', published: dark ? '#8b949e' : '#9aa4af', measured: dark ? '#58a6ff' : '#2563eb',
    band: dark ? 'rgba(74, 194, 107, 0.18)' : 'rgba(26, 127, 55, 0.14)', bandEdge: dark ? '#4ac26b' : '#1a7f37',
  };
}

function useChart(config: () => ChartConfiguration<'bar'>, deps: unknown[]) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'bar'> | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    chart.current?.destroy();
    chart.current = new Chart(canvas.current, config());
    return () => chart.current?.destroy();
  }, deps);
  return canvas;
}

/** One claim on a chart: the published number, the measured one with its
 *  interval, and the band the claim accepts; each as it reads (the
 *  session's words, as the reports write them) for the tooltip. */
export interface ClaimBar {
  claim: string;
  published: number;
  measured: Interval | null;
  band: [number, number] | null;
  text: { published: string; measured: string; band: string | null };
}

/** The claims a chart can show (those with a published number), a chart
 *  per unit, in the verdicts' order; a spread's fractions as percentages. */
export function claimCharts(rows: VerdictRow[]): { unit: string; bars: ClaimBar[] }[] {
  const charts: { unit: string; bars: ClaimBar[] }[] = [];
  for (const { verdict: v, published, measured, band } of rows) {
    if (v.published === null) continue;
    const scale = v.kind === 'spread' ? 100 : 1;
    const unit = v.kind === 'spread' ? '%' : v.unit;
    const bar: ClaimBar = {
      claim: v.claim,
      published: v.published * scale,
      measured: v.measured && { estimate: v.measured.estimate * scale, low: v.measured.low * scale, high: v.measured.high * scale },
      band: v.band && [v.band[0] * scale, v.band[1] * scale],
      text: { published, measured, band },
    };
    const chart = charts.find((c) => c.unit === unit);
    if (chart) chart.bars.push(bar);
    else charts.push({ unit, bars: [bar] });
  }
  return charts;
}

/** A claim's tooltip: what was published, what was measured (with its
 *  interval) and what the claim accepts. */
export function claimTooltip(bar: ClaimBar): string[] {
  const lines = [`Published: ${bar.text.published}`, `Measured: ${bar.measured ? bar.text.measured : 'not measured'}`];
  if (bar.text.band) lines.push(`Accepted: ${bar.text.band}`);
  return lines;
}

/** Draws each claim's accepted band behind its bars and the measured
 *  interval over the measured bar; the canvas's data-bands, data-intervals
 *  and data-y-ticks say what was drawn. */
function claimMarks(bars: ClaimBar[], c: ReturnType<typeof colors>): Plugin<'bar'> {
  return {
    id: 'claimMarks',
    beforeDatasetsDraw(chart) {
      const { ctx, scales: { y } } = chart;
      const published = chart.getDatasetMeta(0).data;
      const measured = chart.getDatasetMeta(1).data;
      let drawn = 0;
      ctx.save();
      ctx.fillStyle = c.band;
      ctx.strokeStyle = c.bandEdge;
      ctx.setLineDash([4, 3]);
      bars.forEach((b, i) => {
        const first = published[i] as unknown as { x: number; width: number } | undefined;
        // A claim measured nowhere has no measured bar: the band spans the published one.
        const last = b.measured ? (measured[i] as unknown as { x: number; width: number } | undefined) : first;
        if (!b.band || !first || !last) return;
        // Across the claim's two bars and a little beyond.
        const left = first.x - first.width / 2 - 8;
        const right = last.x + last.width / 2 + 8;
        const top = y.getPixelForValue(b.band[1]);
        const bottom = y.getPixelForValue(b.band[0]);
        ctx.fillRect(left, top, right - left, bottom - top);
        ctx.strokeRect(left, top, right - left, bottom - top);
        drawn++;
      });
      ctx.restore();
      chart.canvas.dataset.bands = String(drawn);
    },
    afterDatasetsDraw(chart) {
      const { ctx, scales: { y } } = chart;
      const measured = chart.getDatasetMeta(1).data;
      let drawn = 0;
      ctx.save();
      ctx.strokeStyle = c.text;
      ctx.lineWidth = 2;
      bars.forEach((b, i) => {
        const bar = measured[i] as unknown as { x: number; width: number } | undefined;
        if (!b.measured || !bar) return;
        const low = y.getPixelForValue(b.measured.low);
        const high = y.getPixelForValue(b.measured.high);
        const cap = Math.max(bar.width / 4, 3);
        ctx.beginPath();
        ctx.moveTo(bar.x, low);
        ctx.lineTo(bar.x, high);
        ctx.moveTo(bar.x - cap, low);
        ctx.lineTo(bar.x + cap, low);
        ctx.moveTo(bar.x - cap, high);
        ctx.lineTo(bar.x + cap, high);
        ctx.stroke();
        drawn++;
      });
      ctx.restore();
      chart.canvas.dataset.intervals = String(drawn);
    },
    afterDraw(chart) {
      chart.canvas.dataset.yTicks = chart.scales.y.ticks.map((t) => String(t.label)).join('|');
    },
  };
}

/** Published (grey) against measured here (blue) per claim, the measured
 *  interval as error bars and the claim's accepted band shaded. */
export function ClaimChart({ unit, bars, title }: { unit: string; bars: ClaimBar[]; title: string }) {
  const canvas = useChart(() => {
    const c = colors();
    const top = Math.max(0, ...bars.flatMap((b) => [b.published, b.measured?.high ?? 0, b.band?.[1] ?? 0]));
    return {
      type: 'bar',
      data: {
        labels: bars.map((b) => b.claim),
        datasets: [
          { label: 'Published', data: bars.map((b) => b.published), backgroundColor: c.published, maxBarThickness: 120 },
          { label: 'Measured here', data: bars.map((b) => b.measured?.estimate ?? null), backgroundColor: c.measured, maxBarThickness: 120 },
        ],
      },
      plugins: [claimMarks(bars, c)],
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { labels: { color: c.text } },
          tooltip: {
            callbacks: {
              label: (item) => claimTooltip(bars[item.dataIndex])[item.datasetIndex],
              footer: (items) => (items.length ? claimTooltip(bars[items[0].dataIndex])[2] ?? '' : ''),
            },
          },
        },
        scales: {
          x: { ticks: { color: c.text }, grid: { color: c.grid } },
          y: {
            beginAtZero: true,
            suggestedMax: top * 1.05,
            title: { display: true, text: unit, color: c.text },
            ticks: { color: c.text, callback: (v) => formatNumber(Number(v)) },
            grid: { color: c.grid },
          },
        },
      },
    };
  }, [JSON.stringify(bars), unit]);
  return (
    <figure class="chart" data-chart-unit={unit}>
      <div class="chart-box"><canvas ref={canvas} role="img" aria-label={title} /></div>
      <figcaption>{title}</figcaption>
    </figure>
  );
}

export function LiveLine({ samples, label }: { samples: number[]; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const c = colors();
    chart.current = new Chart(canvas.current, {
      type: 'line',
      data: { labels: [], datasets: [{ label, data: [], borderColor: c.measured, pointRadius: 0, borderWidth: 2 }] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: false } },
        scales: { x: { display: false }, y: { beginAtZero: true, ticks: { color: c.text }, grid: { color: c.grid } } },
      },
    });
    return () => chart.current?.destroy();
  }, []);
  // Redraw at most four times a second, however often samples arrive.
  const latest = useRef(samples);
  latest.current = samples;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useEffect(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const ch = chart.current;
      if (!ch) return;
      ch.data.labels = latest.current.map((_, i) => i);
      ch.data.datasets[0].data = latest.current;
      ch.update('none');
    }, 250);
  }, [samples]);
  return <div class="chart-box small"><canvas ref={canvas} role="img" aria-label={label} /></div>;
}
