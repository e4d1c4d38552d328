// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { App } from '../../src/ui/app/app.tsx';
import { episode, fakeConnector, fakeTabs, settings, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const recording = episode({ id: 'demo-1', kind: 'demonstration', status: 'running', task: 'Sign up as Ada', learners: ['cer', 'jitrl'] });
const recorded = (n: number) =>
  Array.from({ length: n }, (_, i) => step({ index: i, chosen: { action: `click(<button "B${i}">)`, semantic: `click(<button "B${i}">)`, decision: 'demonstrated' }, result: { ok: true, navigated: false }, candidates: [] }));

function setup(current: Episode | null, stopped: Episode['status'] = 'partial') {
  const fake = fakeConnector({
    'episode.current': async () => current,
    'settings.get': async () => settings(),
    'demo.start': async () => recording,
    'demo.stop': async ({ outcome }) => ({ ...recording, steps: recorded(2), status: outcome === 'abandoned' ? 'partial' : stopped, endedAt: 2 }),
  });
  render(<App connector={fake.connector} tabs={fakeTabs()} tabIdOverride={null} openOptions={() => undefined} surface="sidepanel" />);
  return { ...fake, user: userEvent.setup() };
}

describe('Run tab: recording a demonstration', () => {
  it('starts a recording with the typed task, shows live progress, and abandons it as partial', async () => {
    const { user, callsOf, emit } = setup(null);
    const button = await screen.findByRole('button', { name: 'Record a demonstration' });
    expect(button).toBeDisabled(); // no task yet
    await user.type(screen.getByLabelText('Task for this tab'), 'Sign up as Ada');
    await user.click(button);
    expect(callsOf('demo.start')).toEqual([{ tabId: 7, task: 'Sign up as Ada' }]);

    expect(await screen.findByRole('heading', { name: 'Recording your demonstration' })).toBeInTheDocument();
    expect(screen.getByText(/\(0 so far\)/)).toBeInTheDocument();
    // The agent's own controls are not offered over a recording.
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();

    emit({ type: 'episode.updated', episode: { ...recording, steps: recorded(2) } });
    expect(await screen.findByText(/\(2 so far\)/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Abandon' }));
    expect(callsOf('demo.stop')).toEqual([{ episodeId: 'demo-1', outcome: 'abandoned' }]);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Recording your demonstration' })).toBeNull());
    expect(document.querySelector('[data-outcome]')).toHaveAttribute('data-outcome', 'partial');
    expect(screen.getByRole('button', { name: 'Record a demonstration' })).toBeEnabled();
  });

  it('stops with the outcome the person chose', async () => {
    const { user, callsOf } = setup({ ...recording, steps: recorded(1) }, 'success');
    await user.click(await screen.findByRole('button', { name: 'Stop: it worked' }));
    expect(callsOf('demo.stop')).toEqual([{ episodeId: 'demo-1', outcome: 'success' }]);
    await waitFor(() => expect(document.querySelector('[data-outcome]')).toHaveAttribute('data-outcome', 'success'));
  });

  it('offers no recording while an agent episode works in the tab', async () => {
    setup(episode({ status: 'awaiting_approval' }));
    await screen.findByRole('button', { name: 'Pause' });
    expect(screen.queryByRole('button', { name: 'Record a demonstration' })).toBeNull();
  });
});
