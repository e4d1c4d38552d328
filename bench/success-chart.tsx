/**
 * The benchmark chart: success rate by attempt, one line per learner. A plain
 * preact SVG component, rendered to a string in Node (and to PNG by resvg).
 */
import { renderToString } from 'preact-render-to-string';

export interface ChartSeries {
  label: string;
  /** Success rate in [0, 1] at attempt 1..K. */
  values: number[];
}

export interface SuccessChartProps {
  title: string;
  subtitle: string;
  series: ChartSeries[];
  width?: number;
  height?: number;
  /** Top of the y axis (default 1, shown as percentages); another value shows plain numbers. */
  yMax?: number;
  yLabel?: string;
  xLabel?: string;
}

// Colour-blind-safe (Okabe–Ito) and distinguishable in greyscale by dash.
const COLOURS = ['#000000', '#E69F00', '#56B4E9', '#009E73', '#D55E00', '#CC79A7', '#0072B2', '#F0E442'];
const DASHES = ['6 4', '', '2 3', '', '8 3 2 3', '', '4 2', ''];
const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

export function SuccessChart({ title, subtitle, series, width = 720, height = 420, yMax = 1, yLabel = 'Success rate', xLabel = 'Attempt' }: SuccessChartProps) {
  const percent = yMax === 1;
  const show = (v: number) => (percent ? `${Math.round(v * 100)}%` : Number.isInteger(v) ? String(v) : v.toFixed(1));
  const m = { top: 64, right: 150, bottom: 52, left: 60 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const K = Math.max(1, ...series.map((s) => s.values.length));
  const x = (k: number) => m.left + (K === 1 ? w / 2 : ((k - 1) / (K - 1)) * w);
  const y = (v: number) => m.top + (1 - v / yMax) * h;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * yMax);
  return (
    <svg xmlns="http://www.w3.org/2000/svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title} font-family={FONT}>
      <rect width={width} height={height} fill="#ffffff" />
      <text x={m.left} y={26} font-size="17" font-weight="bold" fill="#111">{title}</text>
      <text x={m.left} y={46} font-size="12" fill="#555">{subtitle}</text>
      {ticks.map((t) => (
        <g key={`y${t}`}>
          <line x1={m.left} x2={m.left + w} y1={y(t)} y2={y(t)} stroke="#e5e5e5" />
          <text x={m.left - 8} y={y(t) + 4} font-size="11" text-anchor="end" fill="#444">{show(t)}</text>
        </g>
      ))}
      {Array.from({ length: K }, (_, i) => (
        <text key={`x${i}`} x={x(i + 1)} y={m.top + h + 18} font-size="11" text-anchor="middle" fill="#444">{String(i + 1)}</text>
      ))}
      <line x1={m.left} x2={m.left + w} y1={m.top + h} y2={m.top + h} stroke="#888" />
      <line x1={m.left} x2={m.left} y1={m.top} y2={m.top + h} stroke="#888" />
      <text x={m.left + w / 2} y={height - 12} font-size="12" text-anchor="middle" fill="#333">{xLabel}</text>
      <text x={16} y={m.top + h / 2} font-size="12" text-anchor="middle" fill="#333" transform={`rotate(-90 16 ${m.top + h / 2})`}>{yLabel}</text>
      {series.map((s, i) => {
        const colour = COLOURS[i % COLOURS.length]!;
        const points = s.values.map((v, k) => `${x(k + 1).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
        const last = s.values.at(-1) ?? 0;
        return (
          <g key={s.label}>
            <polyline points={points} fill="none" stroke={colour} stroke-width="2.5" stroke-dasharray={DASHES[i % DASHES.length] || undefined} />
            {s.values.map((v, k) => <circle key={k} cx={x(k + 1)} cy={y(v)} r="3.5" fill={colour} />)}
            <text x={m.left + w + 12} y={m.top + 14 + i * 20} font-size="12" fill={colour}>{`${s.label} (${show(last)})`}</text>
          </g>
        );
      })}
    </svg>
  );
}

export function renderSuccessChart(props: SuccessChartProps): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderToString(<SuccessChart {...props} />)}\n`;
}
