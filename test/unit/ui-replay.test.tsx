// @vitest-environment happy-dom
/** Issue 25 in the panel: the plan card (approve once, edit a value, decline), the saving, fallback and refusal messages, and the Memory tab's procedures. */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { EpisodeReplay } from '../../src/core/episode/episode.ts';
import { EMPTY_REPLAY_STATUS } from '../../src/core/replay/procedure.ts';
import { ProcedureList } from '../../src/ui/app/procedure-list.tsx';
import { ReplayPlan } from '../../src/ui/app/replay-plan.tsx';
import { ProposalPanel } from '../../src/ui/app/proposal-panel.tsx';
import { candidate, episode, fakeConnector, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const plan = (over: Partial<EpisodeReplay> = {}): EpisodeReplay => ({
  procedureId: 's-1', template: 'Set the display name to {display_name}', values: { display_name: 'Grace' },
  abstractSteps: [], steps: [{ regUrl: '/', action: 'click(<link "Profile">)' }, { regUrl: '/profile', action: 'fill(<textbox "Display name">, "Grace")' }],
  origins: ['https://profile.test'], endsWithAnswer: false, status: 'offered', fallback: null, message: null, tokensPerModelStep: 1500, ...over,
});
const replayed = (i: number) => step({ index: i, replayStep: { procedureId: 's-1', step: i, of: 2 }, candidates: [candidate({ origin: 'memory' })], chosen: { action: 'click([1])', semantic: 'click(<link "Profile">)', decision: 'approved' }, result: { ok: true, navigated: true } });

describe('the replay plan card', () => {
  it('shows the whole plan, its values and origins; approve sends the edited value', async () => {
    const ep = episode({ replay: plan(), status: 'awaiting_approval' });
    const fake = fakeConnector({ 'episode.plan': async () => ep });
    render(<ReplayPlan client={fake.connector.client} episode={ep} onEpisode={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Learned plan: Set the display name to {display_name}' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Plan steps' }).textContent).toContain('fill(<textbox "Display name">, "Grace")');
    expect(screen.getByText(/Origins it touches: https:\/\/profile.test/)).toBeInTheDocument();
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Value display_name' });
    await user.clear(input);
    await user.type(input, 'Hopper');
    await user.click(screen.getByRole('button', { name: 'Run the plan with these values' }));
    await waitFor(() => expect(fake.callsOf('episode.plan')).toEqual([{ episodeId: ep.id, decision: { kind: 'approve', values: { display_name: 'Hopper' } } }]));
  });

  it('declines', async () => {
    const ep = episode({ replay: plan(), status: 'awaiting_approval' });
    const fake = fakeConnector({ 'episode.plan': async () => ep });
    render(<ReplayPlan client={fake.connector.client} episode={ep} onEpisode={() => {}} />);
    await userEvent.setup().click(screen.getByRole('button', { name: "Don't use the plan" }));
    await waitFor(() => expect(fake.callsOf('episode.plan')).toEqual([{ episodeId: ep.id, decision: { kind: 'decline' } }]));
  });

  it('says "replayed from memory · 0 model calls" with the tokens saved, and where and why it fell back', () => {
    const ep = episode({ replay: plan({ status: 'fell_back', fallback: { step: 1, reason: '<textbox "Display name"> is not on the page' } }), steps: [replayed(0)] });
    render(<ReplayPlan client={fakeConnector({}).connector.client} episode={ep} onEpisode={() => {}} />);
    expect(screen.getByTestId('replay-saving')).toHaveTextContent('replayed from memory · 0 model calls · 1 step · about 1500 tokens saved');
    expect(screen.getByTestId('replay-fallback')).toHaveTextContent('Replay stopped at step 2 of 2: <textbox "Display name"> is not on the page. The policy takes over from here.');
  });

  it('without a model-driven step on the site, says it cannot estimate the tokens saved; a refusal is said plainly', () => {
    const ep = episode({ replay: plan({ status: 'finished', tokensPerModelStep: null }), steps: [replayed(0), replayed(1)] });
    render(<ReplayPlan client={fakeConnector({}).connector.client} episode={ep} onEpisode={() => {}} />);
    expect(screen.getByTestId('replay-saving')).toHaveTextContent('0 model calls · 2 steps · tokens saved: no model-driven step on this site yet to estimate from');
    cleanup();
    const refused = episode({ replay: plan({ status: 'refused', message: 'Not replayed: "X" needs {password}, which the task does not give. The policy runs instead.' }) });
    render(<ReplayPlan client={fakeConnector({}).connector.client} episode={refused} onEpisode={() => {}} />);
    expect(screen.getByTestId('replay-refused')).toHaveTextContent('needs {password}, which the task does not give');
  });
});

describe('a plan offered beside its first step (issue 31: two Approve buttons)', () => {
  const pending = step({ index: 0, replayStep: { procedureId: 's-1', step: 0, of: 2 }, candidates: [candidate({ origin: 'memory', action: 'click([1])', semantic: 'click(<link "Profile">)' })], chosen: null, result: null });
  const run = (replay: EpisodeReplay) => {
    const ep = episode({ replay, status: 'awaiting_approval', steps: [pending] });
    const fake = fakeConnector({ 'episode.plan': async () => ep });
    const { container } = render(
      <div>
        <ReplayPlan client={fake.connector.client} episode={ep} onEpisode={() => {}} />
        <ProposalPanel client={fake.connector.client} tabId={null} episode={ep} proposal={pending} disabled={false} decide={async () => true} />
      </div>,
    );
    return { fake, ep, container };
  };

  it('one primary action, the step\'s Approve; the plan is its own choice: run every step without asking', async () => {
    const { fake, ep, container } = run(plan());
    expect(screen.getAllByRole('button', { name: /approve/i })).toHaveLength(1);
    expect([...container.querySelectorAll('button.primary')].map((b) => b.textContent)).toEqual(['Approve: Click “Profile” A']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Run all 2 steps without asking' }));
    await waitFor(() => expect(fake.callsOf('episode.plan')).toEqual([{ episodeId: ep.id, decision: { kind: 'approve' } }]));
  });

  it('a one-step plan is its step: no second way to approve it', () => {
    const { container } = run(plan({ steps: [{ regUrl: '/', action: 'click(<link "Profile">)' }] }));
    expect(screen.getAllByRole('button', { name: /approve|plan|steps/i }).map((b) => b.textContent)).toEqual(["Don't use the plan", 'Approve: Click “Profile” A']);
    expect(container.querySelectorAll('button.primary')).toHaveLength(1);
    expect(screen.getByText('Approve the proposed step below to do it from memory.')).toBeInTheDocument();
  });
});

describe('the Memory tab\'s procedures', () => {
  it('lists provenance, success count, last use; "Never replay" and Delete call the background', async () => {
    const view = {
      procedure: { id: 's-1', origin: 'https://profile.test', template: 'Set the display name to {display_name}', variables: ['display_name'], steps: [{ regUrl: '/', action: 'click(<link "Profile">)' }], sources: [{ episodeId: 'e1', source: 'live' as const, taught: true, endedAt: 1 }, { episodeId: 'e2', source: 'demonstration' as const, taught: true, endedAt: 2 }], endsWithAnswer: false },
      status: { ...EMPTY_REPLAY_STATUS, successes: 1, lastUsedAt: null }, successCount: 3, blocked: null,
    };
    const fake = fakeConnector({ 'procedures.list': async () => [view], 'procedures.neverReplay': async () => ({ ok: true }), 'procedures.delete': async () => ({ ok: true }) });
    render(<ProcedureList client={fake.connector.client} origin="https://profile.test" version={0} />);
    expect(await screen.findByText('Set the display name to {display_name}')).toBeInTheDocument();
    expect(screen.getByText(/from a taught attempt, a demonstration · 3 successes · last used never/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Never replay' }));
    // Steps in words (the grammar in the title); Delete can be undone until the view is left.
    expect(screen.getByTitle('click(<link "Profile">)').textContent).toBe('Click “Profile” on /');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('status').textContent).toBe('Deleted the plan “Set the display name to {display_name}”. Undo');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Set the display name to {display_name}')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(fake.callsOf('procedures.delete')).toEqual([]);
    cleanup();
    await waitFor(() => expect(fake.callsOf('procedures.delete')).toEqual([{ origin: 'https://profile.test', id: 's-1' }]));
    expect(fake.callsOf('procedures.neverReplay')).toEqual([{ origin: 'https://profile.test', id: 's-1', never: true }]);
  });
});
