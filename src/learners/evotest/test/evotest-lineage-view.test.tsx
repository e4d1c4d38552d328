// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { addChildren, newLineage, recordEpisode } from '../core/lineage.ts';
import { EvotestLineageView } from '../ui/evotest-lineage-view.tsx';
import { digest, SEED } from './evotest-helpers.ts';

afterEach(cleanup);

function lineage() {
  let l = newLineage({ origin: 'https://a.test', template: 'open order …', seed: SEED, now: 0 });
  l = recordEpisode(l, digest([], { episodeId: 'e1', configurationId: 'c0', score: 0, at: 10 }), 10);
  l = addChildren(l, 'c0', [{ configuration: { ...SEED, hyperparameters: { ...SEED.hyperparameters, numCandidates: 4 } }, source: 'offline', rationale: 'widen the search after a failure' }], 11, 1).lineage;
  l = recordEpisode(l, digest([], { episodeId: 'e2', configurationId: 'c1', score: 1, at: 20 }), 20);
  return l;
}

describe('EvoTest lineage view', () => {
  it('lists configurations with scores and runs, shows the current one’s diff against its parent, pins and resets', async () => {
    const pins: [string, string | null][] = [];
    const resets: string[] = [];
    const l = lineage();
    const user = userEvent.setup();
    const { rerender } = render(<EvotestLineageView lineages={[l]} mode="offline" onPin={(k, id) => pins.push([k, id])} onReset={(k) => resets.push(k)} />);
    expect(screen.getByText(/offline \(rule-based operators/)).toBeInTheDocument();
    expect(screen.getByText(/2 configurations · 2 episodes · 1 invalid proposals dropped/)).toBeInTheDocument();
    expect(screen.getByText('Ran: #1 c0 (0.0) · #2 c1 (1.0)')).toBeInTheDocument();
    // The current configuration (c1) is selected: its change against c0.
    const changes = screen.getByRole('table', { name: 'Changes against c0' });
    expect(within(changes).getByText('hyperparameters.numCandidates')).toBeInTheDocument();
    expect(within(changes).getByText('3')).toBeInTheDocument();
    expect(within(changes).getByText('4')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pin c1' }));
    await user.click(screen.getByRole('button', { name: 'c0' }));
    expect(screen.getByText('The starting configuration.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset to the starting configuration' }));
    expect(pins).toEqual([[l.key, 'c1']]);
    expect(resets).toEqual([l.key]);
    rerender(<EvotestLineageView lineages={[{ ...l, pinnedId: 'c1' }]} mode="model" onPin={(k, id) => pins.push([k, id])} onReset={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'c1' }));
    await user.click(screen.getByRole('button', { name: 'Unpin' }));
    expect(pins.at(-1)).toEqual([l.key, null]);
  });

  it('says when there is nothing yet', () => {
    render(<EvotestLineageView lineages={[]} mode="offline" onPin={() => undefined} onReset={() => undefined} />);
    expect(screen.getByText(/no configurations for this site yet/)).toBeInTheDocument();
  });
});
