// @vitest-environment happy-dom
/**
 * The Run tab's Show me and Take over: the buttons beside a proposal, what
 * the panel says while the person teaches (and that its own decisions wait),
 * Continue with "Don't learn from this", and the step list's badges.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { App } from '../../src/ui/app/app.tsx';
import { candidate, episode, fakeConnector, fakeTabs, settings, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const proposal = step({ candidates: [candidate({ action: 'click([3])', semantic: 'click(<link "Help">)' })], chosen: null });
const waiting = episode({ status: 'awaiting_approval', steps: [proposal] });

function setup(current: Episode, handlers: Parameters<typeof fakeConnector>[0] = {}) {
  const fake = fakeConnector({ 'episode.current': async () => current, 'settings.get': async () => settings(), ...handlers });
  render(<App connector={fake.connector} tabs={fakeTabs()} tabIdOverride={null} openOptions={() => undefined} surface="sidepanel" />);
  return { ...fake, user: userEvent.setup() };
}

describe('Run tab: Show me and Take over', () => {
  it('Show me starts teaching the pending step; the panel\'s decisions wait; Cancel goes back', async () => {
    const showing = { ...waiting, teaching: { mode: 'show' as const, since: 1 } };
    const { user, callsOf } = setup(waiting, { 'teach.start': async () => showing, 'teach.cancel': async () => waiting });
    await user.click(await screen.findByRole('button', { name: 'Show me' }));
    expect(callsOf('teach.start')).toEqual([{ episodeId: 'ep-1', mode: 'show' }]);
    expect(await screen.findByText(/Do the step in the page/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Run edited' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Cancel Show me' }));
    expect(callsOf('teach.cancel')).toEqual([{ episodeId: 'ep-1' }]);
    expect(await screen.findByRole('button', { name: /^Approve/ })).toBeInTheDocument();
  });

  it('S starts Show me and Escape in the panel cancels it; both keys are shown, and not taken while typing (issue 31)', async () => {
    const showing = { ...waiting, teaching: { mode: 'show' as const, since: 1 } };
    const { user, callsOf } = setup(waiting, { 'teach.start': async () => showing, 'teach.cancel': async () => waiting });
    const show = await screen.findByRole('button', { name: 'Show me' });
    expect(show).toHaveAttribute('aria-keyshortcuts', 's');
    expect(show.querySelector('kbd')!.textContent).toBe('S');
    (document.activeElement as HTMLElement | null)?.blur();
    await user.type(screen.getByLabelText('Edit the action'), 's');
    expect(callsOf('teach.start')).toEqual([]);
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('s');
    expect(callsOf('teach.start')).toEqual([{ episodeId: 'ep-1', mode: 'show' }]);
    const cancel = await screen.findByRole('button', { name: 'Cancel Show me' });
    expect(cancel).toHaveAttribute('aria-keyshortcuts', 'Escape');
    // The keys are bound once the panel has settled after the request (an effect): press until it takes.
    await waitFor(async () => {
      await user.keyboard('{Escape}');
      expect(callsOf('teach.cancel')).toEqual([{ episodeId: 'ep-1' }]);
    });
    expect(await screen.findByRole('button', { name: /^Approve/ })).toBeInTheDocument();
  });

  it('Take over, then Continue with "Don\'t learn from this"', async () => {
    const taken = { ...waiting, steps: [], teaching: { mode: 'takeover' as const, since: 1 } };
    const { user, callsOf, emit } = setup(waiting, { 'teach.start': async () => taken, 'teach.continue': async () => ({ ...taken, teaching: undefined, status: 'running' }) });
    await user.click(await screen.findByRole('button', { name: 'Take over' }));
    expect(callsOf('teach.start')).toEqual([{ episodeId: 'ep-1', mode: 'takeover' }]);
    expect(await screen.findByText(/\(0 recorded so far\)/)).toBeInTheDocument();
    const did = step({ index: 0, chosen: { action: 'click(<button "Go">)', semantic: 'click(<button "Go">)', decision: 'demonstrated' }, takeOver: { learn: true }, startedAt: 5, result: { ok: true, navigated: false } });
    emit({ type: 'episode.updated', episode: { ...taken, steps: [did] } });
    expect(await screen.findByText(/\(1 recorded so far\)/)).toBeInTheDocument();
    await user.click(screen.getByLabelText("Don't learn from this"));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(callsOf('teach.continue')).toEqual([{ episodeId: 'ep-1', learn: false }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull());
  });

  it('a refused start says why; the step list names shown and taken-over steps', async () => {
    const shown = step({ index: 0, chosen: { action: 'click(<button "Book">)', semantic: 'click(<button "Book">)', decision: 'edited', correction: 'show' }, result: { ok: true, navigated: false } });
    const private_ = step({ index: 1, chosen: { action: 'click(<button "Go">)', semantic: 'click(<button "Go">)', decision: 'demonstrated' }, takeOver: { learn: false }, result: { ok: true, navigated: false } });
    const { user } = setup({ ...waiting, steps: [shown, private_, { ...proposal, index: 2 }] }, {
      'teach.start': async () => { throw Object.assign(new Error('Show me could not start: the page does not answer'), { name: 'TeachingError' }); },
    });
    await user.click(await screen.findByRole('button', { name: 'Show me' }));
    expect(await screen.findByText(/Show me could not start: the page does not answer/)).toBeInTheDocument();
    const summaries = [...document.querySelectorAll('.step-summary > details > summary')].map((s) => s.textContent);
    expect(summaries[0]).toMatch(/Book.*shown/);
    expect(summaries[1]).toMatch(/Go.*taken over, not learned/);
  });
});
