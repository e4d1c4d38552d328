/**
 * "What each attempt needed" (issue 31): asks, corrections and model calls
 * per attempt of one task, the numbers that fall as Apprentice learns it.
 * A hand-written SVG line chart (one line per measure, each with its own
 * marker and dash, so colour is never the only cue), a sentence that says
 * what fell, and a table with every number for screen readers.
 */
import type { CurvePoint } from '../../protocol/messages.ts';

export const COST_SERIES = [
  { key: 'asks', label: 'asks', className: 'line-asks', dash: '' },
  { key: 'corrections', label: 'corrections', className: 'line-corrections', dash: '5 3' },
  { key: 'modelCalls', label: 'model calls', className: 'line-calls', dash: '2 2' },
] as const;
type CostKey = (typeof COST_SERIES)[number]['key'];

const valueOf = (p: CurvePoint, key: CostKey): number | null => p[key] ?? null;

/**
 * The first attempt against the last, in words: "asks 3 → 0, corrections
 * 2 → 0, model calls 4 → 0". Null with fewer than two attempts that carry
 * the numbers (older records lack them).
 */
export function fellSummary(points: readonly CurvePoint[]): string | null {
  const known = [...points].filter((p) => p.asks !== undefined).sort((a, b) => a.attempt - b.attempt);
  if (known.length < 2) return null;
  const first = known[0]!;
  const last = known[known.length - 1]!;
  return COST_SERIES.map((s) => `${s.label} ${valueOf(first, s.key) ?? 0} → ${valueOf(last, s.key) ?? 0}`).join(', ');
}

const W = 300;
const H = 140;
const PAD = { l: 30, r: 12, t: 10, b: 24 };

function Marker({ kind, x, y }: { kind: CostKey; x: number; y: number }) {
  if (kind === 'asks') return <circle cx={x} cy={y} r={3.5} />;
  if (kind === 'corrections') return <rect x={x - 3.5} y={y - 3.5} width={7} height={7} />;
  return <path d={`M${x} ${y - 4.5} L${x + 4.5} ${y + 3.5} L${x - 4.5} ${y + 3.5} Z`} />;
}

export function CostChart({ task, points }: { task: string; points: readonly CurvePoint[] }) {
  const sorted = [...points].filter((p) => p.asks !== undefined).sort((a, b) => a.attempt - b.attempt);
  if (sorted.length === 0) return null;
  const minA = sorted[0]!.attempt;
  const maxA = sorted[sorted.length - 1]!.attempt;
  const maxY = Math.max(1, ...sorted.flatMap((p) => COST_SERIES.map((s) => valueOf(p, s.key) ?? 0)));
  const plotW = W - PAD.l - PAD.r;
  const plotH = H - PAD.t - PAD.b;
  const x = (a: number) => PAD.l + (maxA === minA ? plotW / 2 : ((a - minA) / (maxA - minA)) * plotW);
  const y = (v: number) => PAD.t + (1 - v / maxY) * plotH;
  const spoken = sorted.map((p) => `attempt ${p.attempt}: ${COST_SERIES.map((s) => `${valueOf(p, s.key) ?? 0} ${s.label}`).join(', ')}`).join('; ');
  const fell = fellSummary(sorted);
  return (
    <figure class="chart cost-chart">
      {fell ? <p class="fell" data-testid="what-fell">From the first attempt to the last: {fell}.</p> : null}
      <svg role="img" aria-label={`What each attempt of "${task}" needed. ${spoken}`} viewBox={`0 0 ${W} ${H}`} width="100%">
        <line class="axis" x1={PAD.l} y1={PAD.t + plotH} x2={PAD.l + plotW} y2={PAD.t + plotH} />
        <line class="axis" x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={PAD.t + plotH} />
        <text class="chart-label" x={PAD.l - 4} y={PAD.t + 4} text-anchor="end">{maxY}</text>
        <text class="chart-label" x={PAD.l - 4} y={PAD.t + plotH} text-anchor="end">0</text>
        {sorted.map((p) => <text key={`x${p.attempt}`} class="chart-label" x={x(p.attempt)} y={H - 8} text-anchor="middle">{p.attempt}</text>)}
        {COST_SERIES.map((s) => (
          <g key={s.key} class={s.className} data-series={s.key}>
            <polyline fill="none" stroke-dasharray={s.dash || undefined} points={sorted.map((p) => `${x(p.attempt)},${y(valueOf(p, s.key) ?? 0)}`).join(' ')} />
            {sorted.map((p) => <Marker key={p.attempt} kind={s.key} x={x(p.attempt)} y={y(valueOf(p, s.key) ?? 0)} />)}
          </g>
        ))}
      </svg>
      <figcaption class="legend">
        x: attempt · {COST_SERIES.map((s) => <span key={s.key}><span class={`swatch ${s.className}`} aria-hidden="true" /> {s.label} </span>)}
      </figcaption>
      <table class="cost-table">
        <caption>What each attempt needed</caption>
        <thead>
          <tr><th scope="col">Attempt</th><th scope="col">Success</th><th scope="col">Steps</th><th scope="col">Asks</th><th scope="col">Corrections</th><th scope="col">Model calls</th><th scope="col">From a plan</th></tr>
        </thead>
        <tbody>
          {sorted.map((p) => (
            <tr key={p.episodeId}>
              <th scope="row">{p.attempt}</th><td>{p.success === 1 ? 'yes' : p.success === 0 ? 'no' : 'partly'}</td><td>{p.steps}</td>
              <td>{p.asks ?? 0}</td><td>{p.corrections ?? 0}</td><td>{p.modelCalls ?? 0}</td><td>{p.replayed ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
