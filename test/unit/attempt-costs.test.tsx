// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { attemptCosts } from '../../src/core/episode/attempt-costs.ts';
import type { StepRecord } from '../../src/core/episode/episode.ts';
import { CostChart, fellSummary } from '../../src/ui/app/cost-chart.tsx';
import type { CurvePoint } from '../../src/protocol/messages.ts';
import { blankStep } from '../support/step-record.ts';

let n = 0;
const step = (over: Partial<StepRecord>): StepRecord => blankStep({ index: n++, url: 'https://a.test/', regUrl: 'a.test/', ...over });
const chosen = (decision: NonNullable<StepRecord['chosen']>['decision'], correction?: 'pick' | 'edit' | 'show') =>
  ({ action: 'click([1])', semantic: 'click(<button "Go">)', decision, ...(correction ? { correction } : {}) });

describe('attemptCosts: what an attempt needed', () => {
  it('counts asks, corrections, model calls and replayed steps exactly', () => {
    const steps = [
      step({ chosen: chosen('approved'), modelCalls: 1 }), // an ask
      step({ chosen: chosen('approved'), rejected: ['click(<button "No">)'], modelCalls: 2 }), // an ask and a correction (rejected first)
      step({ chosen: chosen('edited', 'edit'), rejected: ['click(<button "No">)'], modelCalls: 1 }), // one correction, not two
      step({ chosen: chosen('edited', 'show') }), // Show me: an ask and a correction
      step({ chosen: chosen('auto'), modelCalls: 1 }), // ran on its own
      step({ chosen: chosen('approved'), replayStep: { procedureId: 'p', step: 0, of: 2 } }), // from a plan, approved
      step({ chosen: chosen('demonstrated'), takeOver: { learn: true } }), // taken over: not an ask
      step({ chosen: null, modelCalls: 1 }), // pending: its call counts, nothing decided
    ];
    expect(attemptCosts({ steps })).toEqual({ asks: 5, corrections: 3, modelCalls: 6, replayed: 1 });
  });
  it('an attempt with no steps costs nothing', () => {
    expect(attemptCosts({ steps: [] })).toEqual({ asks: 0, corrections: 0, modelCalls: 0, replayed: 0 });
  });
});

const point = (attempt: number, asks: number, corrections: number, modelCalls: number, success = 1): CurvePoint =>
  ({ attempt, episodeId: `e${attempt}`, success, steps: 3, asks, corrections, modelCalls, replayed: modelCalls === 0 ? 3 : 0 });

describe('CostChart: what fell, per attempt', () => {
  it('says first → last in words', () => {
    expect(fellSummary([point(2, 1, 0, 2), point(1, 3, 2, 4), point(3, 0, 0, 0)])).toBe('asks 3 → 0, corrections 2 → 0, model calls 4 → 0');
    expect(fellSummary([point(1, 3, 2, 4)])).toBeNull();
    // Older records without the numbers are left out.
    expect(fellSummary([{ attempt: 1, episodeId: 'x', success: 1, steps: 2 }, point(2, 1, 1, 1)])).toBeNull();
  });
  it('draws a line per measure with a spoken summary and a table of every number', () => {
    render(<CostChart task="Invite Ada" points={[point(1, 3, 2, 4, 0), point(2, 0, 0, 0)]} />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'What each attempt of "Invite Ada" needed. attempt 1: 3 asks, 2 corrections, 4 model calls; attempt 2: 0 asks, 0 corrections, 0 model calls',
    );
    expect(screen.getByTestId('what-fell').textContent).toBe('From the first attempt to the last: asks 3 → 0, corrections 2 → 0, model calls 4 → 0.');
    const rows = screen.getAllByRole('row').map((r) => Array.from(r.children).map((c) => c.textContent));
    expect(rows).toEqual([
      ['Attempt', 'Success', 'Steps', 'Asks', 'Corrections', 'Model calls', 'From a plan'],
      ['1', 'no', '3', '3', '2', '4', '0'],
      ['2', 'yes', '3', '0', '0', '0', '3'],
    ]);
    const lines = Array.from(document.querySelectorAll('g[data-series] polyline')).map((l) => [l.parentElement!.getAttribute('data-series'), l.getAttribute('points')]);
    // x: 30 → 288 (plot 258 wide); y: 4 is the top (10), 0 the bottom (116).
    expect(lines).toEqual([
      ['asks', '30,36.5 288,116'],
      ['corrections', '30,63 288,116'],
      ['modelCalls', '30,10 288,116'],
    ]);
  });
});
