/**
 * Two small hand-written SVG charts: base versus adjusted probability per
 * candidate, and a task's learning curve. Each is an image with a spoken
 * summary (role="img" + aria-label) and a data table for the same numbers.
 */
import type { CurvePoint } from '../../protocol/messages.ts';
import { fmtPct, type RankedCandidate } from './format.ts';

const BAR_H = 8;
const ROW_H = 2 * BAR_H + 10;
const LABEL_W = 28;
const CHART_W = 300;

/**
 * `chosenFrom`: the distribution the proposal was actually drawn from, by
 * candidate index (`choiceDistribution`), with the rule that chose when no
 * sampling took place. Drawn as a third bar, so what memory's logits say
 * (adjusted) and what decided (chosen from) are never confused.
 */
export function ProbabilityChart({ ranked, chosenFrom = null }: { ranked: readonly RankedCandidate[]; chosenFrom?: { p: number[]; rule: string | null } | null }) {
  const rowH = chosenFrom ? ROW_H + BAR_H + 1 : ROW_H;
  const height = ranked.length * rowH + 4;
  const plotW = CHART_W - LABEL_W - 44;
  const summary = ranked
    .map((r) => `#${r.rank} ${r.candidate.semantic}: base ${fmtPct(r.candidate.baseProb)}, adjusted ${fmtPct(r.candidate.adjustedProb)}`)
    .join('; ');
  return (
    <figure class="chart">
      <svg
        role="img"
        aria-label={`Base versus adjusted probability. ${summary}`}
        viewBox={`0 0 ${CHART_W} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        {ranked.map((r, i) => {
          const y = i * rowH + 2;
          const base = Math.max(0, Math.min(1, r.candidate.baseProb));
          const adj = Math.max(0, Math.min(1, r.candidate.adjustedProb));
          const chosen = chosenFrom ? Math.max(0, Math.min(1, chosenFrom.p[r.index] ?? 0)) : null;
          return (
            <g key={r.index} data-candidate={r.index}>
              <text x={0} y={y + BAR_H * 1.5} class="chart-label">#{r.rank}</text>
              <rect class="bar-base" x={LABEL_W} y={y} width={Math.max(1, base * plotW)} height={BAR_H} rx={2} />
              <text x={LABEL_W + base * plotW + 4} y={y + BAR_H - 1} class="chart-value">{fmtPct(base)}</text>
              <rect class="bar-adjusted" x={LABEL_W} y={y + BAR_H + 1} width={Math.max(1, adj * plotW)} height={BAR_H} rx={2} />
              <text x={LABEL_W + adj * plotW + 4} y={y + 2 * BAR_H} class="chart-value">{fmtPct(adj)}</text>
              {chosen !== null ? (
                <>
                  <rect class="bar-chosen" x={LABEL_W} y={y + 2 * BAR_H + 2} width={Math.max(1, chosen * plotW)} height={BAR_H} rx={2} />
                  <text x={LABEL_W + chosen * plotW + 4} y={y + 3 * BAR_H + 1} class="chart-value">{fmtPct(chosen)}{chosenFrom?.rule ? ` (${chosenFrom.rule})` : ''}</text>
                </>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        <span class="swatch bar-base" aria-hidden="true" /> base (model)
        <span class="swatch bar-adjusted" aria-hidden="true" /> adjusted (with memory)
        {chosenFrom ? (
          <>
            <span class="swatch bar-chosen" aria-hidden="true" /> {chosenFrom.rule ? `chosen by a rule: ${chosenFrom.rule} (not sampled)` : 'chosen from: Softmax(z′/T) over the open candidates'}
          </>
        ) : null}
      </figcaption>
      <details class="chart-data">
        <summary>Chart data</summary>
        <table>
          <caption>Base versus adjusted probability</caption>
          <thead><tr><th scope="col">Rank</th><th scope="col">Action</th><th scope="col">Base</th><th scope="col">Adjusted</th></tr></thead>
          <tbody>
            {ranked.map((r) => (
              <tr key={r.index}>
                <td>{r.rank}</td><td>{r.candidate.semantic}</td><td>{fmtPct(r.candidate.baseProb)}</td><td>{fmtPct(r.candidate.adjustedProb)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

const CW = 300;
const CH = 140;
const PAD = { l: 30, r: 30, t: 10, b: 24 };

/** Attempt on x; success (0–1, left axis, dots) and steps (right axis, line). */
export function LearningCurve({ task, points }: { task: string; points: readonly CurvePoint[] }) {
  if (points.length === 0) return <p class="empty">No finished attempts of this task yet.</p>;
  const sorted = [...points].sort((a, b) => a.attempt - b.attempt);
  const minA = sorted[0]!.attempt;
  const maxA = sorted[sorted.length - 1]!.attempt;
  const maxSteps = Math.max(1, ...sorted.map((p) => p.steps));
  const plotW = CW - PAD.l - PAD.r;
  const plotH = CH - PAD.t - PAD.b;
  const x = (a: number) => PAD.l + (maxA === minA ? plotW / 2 : ((a - minA) / (maxA - minA)) * plotW);
  const ySuccess = (s: number) => PAD.t + (1 - s) * plotH;
  const ySteps = (n: number) => PAD.t + (1 - n / maxSteps) * plotH;
  const summary = sorted.map((p) => `attempt ${p.attempt}: success ${p.success}, ${p.steps} steps`).join('; ');
  return (
    <figure class="chart">
      <svg role="img" aria-label={`Learning curve for "${task}". ${summary}`} viewBox={`0 0 ${CW} ${CH}`} width="100%">
        <line class="axis" x1={PAD.l} y1={PAD.t + plotH} x2={PAD.l + plotW} y2={PAD.t + plotH} />
        <line class="axis" x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={PAD.t + plotH} />
        <line class="axis" x1={PAD.l + plotW} y1={PAD.t} x2={PAD.l + plotW} y2={PAD.t + plotH} />
        <text class="chart-label" x={PAD.l - 4} y={PAD.t + 4} text-anchor="end">1</text>
        <text class="chart-label" x={PAD.l - 4} y={PAD.t + plotH} text-anchor="end">0</text>
        <text class="chart-label" x={PAD.l + plotW + 4} y={PAD.t + 4}>{maxSteps}</text>
        <text class="chart-label" x={PAD.l + plotW + 4} y={PAD.t + plotH}>0</text>
        {sorted.map((p) => (
          <text key={`x${p.attempt}`} class="chart-label" x={x(p.attempt)} y={CH - 8} text-anchor="middle">{p.attempt}</text>
        ))}
        <polyline class="line-steps" fill="none" points={sorted.map((p) => `${x(p.attempt)},${ySteps(p.steps)}`).join(' ')} />
        {sorted.map((p) => (
          <rect key={`s${p.attempt}`} class="point-steps" x={x(p.attempt) - 5} y={ySteps(p.steps) - 5} width={10} height={10} />
        ))}
        {sorted.map((p) => (
          <circle key={`c${p.attempt}`} class="point-success" data-success={p.success} cx={x(p.attempt)} cy={ySuccess(p.success)} r={4} />
        ))}
      </svg>
      <figcaption class="legend">
        x: attempt · <span class="swatch point-success" aria-hidden="true" /> success (left, 0–1) ·{' '}
        <span class="swatch line-steps" aria-hidden="true" /> steps (right)
      </figcaption>
      <details class="chart-data">
        <summary>Chart data</summary>
        <table>
          <caption>Attempts of "{task}"</caption>
          <thead><tr><th scope="col">Attempt</th><th scope="col">Success</th><th scope="col">Steps</th></tr></thead>
          <tbody>
            {sorted.map((p) => (
              <tr key={p.episodeId}><td>{p.attempt}</td><td>{p.success}</td><td>{p.steps}</td></tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
