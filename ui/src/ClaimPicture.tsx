import type { Outcome } from './bindings/Outcome';
import { axis, type ClaimNumbers } from './claims';
import { formatNumber } from './format';

const WIDTH = 480;
const LEFT = 14;
const RIGHT = 14;
const HEIGHT = 66;
const AXIS_Y = 40;

/** A claim on one axis: the range it accepts shaded, the published number
 *  as a tick, the measured interval as a bar with its estimate as a dot,
 *  and round numbers under it. Nothing where nothing was measured. */
export function ClaimPicture({ numbers, outcome, label }: { numbers: ClaimNumbers; outcome: Outcome; label: string }) {
  const { published, band, measured, unit } = numbers;
  if (!measured) return null;
  const a = axis([measured.low, measured.high, measured.estimate, ...(band ?? []), ...(published === null ? [] : [published])]);
  if (!a) return null;
  const x = (v: number) => LEFT + ((v - a.lo) / (a.hi - a.lo || 1)) * (WIDTH - LEFT - RIGHT);
  const withUnit = (v: number) => (unit === '' ? formatNumber(v) : unit === '×' || unit === '%' ? `${formatNumber(v)}${unit}` : `${formatNumber(v)} ${unit}`);
  const last = a.ticks.length - 1;
  return (
    <svg class={`claim-picture ${outcome}`} data-claim-picture viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      {band && (
        <rect class="band" data-band x={x(band[0])} y={8} width={Math.max(x(band[1]) - x(band[0]), 1)} height={26} rx={3} />
      )}
      {published !== null && <line class="published" data-published x1={x(published)} x2={x(published)} y1={4} y2={AXIS_Y - 2} />}
      <line class="measured" data-interval x1={x(measured.low)} x2={Math.max(x(measured.high), x(measured.low) + 2)} y1={21} y2={21} />
      <circle class="measured" data-estimate cx={x(measured.estimate)} cy={21} r={5} />
      <line class="axis" x1={LEFT} x2={WIDTH - RIGHT} y1={AXIS_Y} y2={AXIS_Y} />
      {a.ticks.map((t, i) => (
        <g class="tick">
          <line x1={x(t)} x2={x(t)} y1={AXIS_Y} y2={AXIS_Y + 4} />
          <text data-tick x={x(t)} y={AXIS_Y + 17} text-anchor={i === 0 ? 'start' : i === last ? 'end' : 'middle'}>
            {i === last ? withUnit(t) : formatNumber(t)}
          </text>
        </g>
      ))}
    </svg>
  );
}
