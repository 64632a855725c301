// Chart.js behind a small component: a line of live throughput. Animations
// off: the data is the point. (Each claim's picture is an inline SVG:
// ClaimPicture.tsx.)

import { useEffect, useRef } from 'preact/hooks';
import { CategoryScale, Chart, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';

Chart.register(CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

function colors() {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  return {
    text: dark ? '#d6d9de' : '#24292f', grid: dark ? '#3a3f47' : '#e3e6ea', measured: dark ? '#58a6ff' : '#2563eb',
  };
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
