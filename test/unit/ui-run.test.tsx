// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { App } from '../../src/ui/app/app.tsx';
import { ErrorBoundary } from '../../src/ui/app/error-boundary.tsx';
import { candidate, episode, fakeConnector, fakeTabs, settings, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const jitrl = (q: number | null, advantage: number | null, support: number, valueKind: 'known' | 'optimistic' | 'neutral' | 'none') => ({ jitrl: { q, advantage, normAdvantage: advantage, support, valueKind } });
const proposal = step({
  index: 1,
  candidates: [
    candidate({ action: 'click([3])', semantic: 'click(<button "Cancel">)', baseLogit: -0.69, adjustedLogit: -1.49, baseProb: 0.5, adjustedProb: 0.2, evidence: jitrl(-0.15, -0.4, 2, 'known') }),
    candidate({ action: 'click([5])', semantic: 'click(<button "Sign up">)', baseLogit: -1.2, adjustedLogit: -0.4, baseProb: 0.3, adjustedProb: 0.7, evidence: jitrl(0.65, 0.4, 3, 'known') }),
    candidate({ action: 'fill([2], "ada")', semantic: 'fill(<textbox "Name">, "ada")', origin: 'memory', baseLogit: -3, adjustedLogit: -3, baseProb: 0.2, adjustedProb: 0.1, evidence: jitrl(2.2, 1.95, 0, 'optimistic') }),
  ],
  evidence: {
    jitrl: {
      v: 0.25,
      neighbours: [
        { transitionId: 'e0:1', episodeId: 'e0', task: 'Sign up as Bob', action: 'click(<button "Sign up">)', similarity: 0.91, ret: 1.1 },
        { transitionId: 'e9:1', episodeId: 'e9', task: 'Sign up as Cy', action: 'click(<button "Cancel">)', similarity: 0.85, ret: -1 },
      ],
      droppedMemoryActions: 1,
    },
  },
  replayed: ['dyn:form-submit', 'skill:signup'],
  learningNotes: ['distillation skipped: no model'],
});
const done = step({ index: 0, chosen: { action: 'fill([1], "Ada")', semantic: 'fill(<textbox "Name">, "Ada")', decision: 'approved' }, result: { ok: true, navigated: false }, reward: 0.2 });
const awaiting = episode({ steps: [done, proposal] });

function setup(current: Episode | null, extra: Parameters<typeof fakeConnector>[0] = {}) {
  const fake = fakeConnector({
    'episode.current': async () => current,
    'settings.get': async () => settings(),
    'page.highlight': async () => ({ ok: true }),
    'episode.decide': async ({ decision }) => ({ ...awaiting, status: 'running', steps: [done, { ...proposal, chosen: { action: 'x', semantic: 'x', decision: decision.kind === 'approve' ? 'approved' : 'picked' } }] }),
    ...extra,
  });
  const user = userEvent.setup();
  render(<App connector={fake.connector} tabs={fakeTabs()} tabIdOverride={null} openOptions={() => undefined} surface="sidepanel" />);
  return { ...fake, user };
}

const candidateList = () => screen.findByRole('list', { name: /Candidates for step 2/ });

describe('Run tab: a proposed step', () => {
  it('ranks candidates by adjusted probability and shows base and adjusted numbers', async () => {
    setup(awaiting);
    const items = within(await candidateList()).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.semantic')?.textContent?.replace(/^Rank \d+: /, ''))).toEqual([
      'Click “Sign up”', 'Click “Cancel”', 'Type “ada” into “Name”',
    ]);
    expect(items.map((li) => li.dataset['semantic'])).toEqual(['click(<button "Sign up">)', 'click(<button "Cancel">)', 'fill(<textbox "Name">, "ada")']);
    const top = items[0]!;
    const field = (el: HTMLElement, f: string) => el.querySelector(`[data-field="${f}"]`)?.textContent;
    expect(field(top, 'adjustedProb')).toBe('70.0%');
    expect(field(top, 'baseProb')).toBe('30.0%');
    expect(field(top, 'baseLogit')).toBe('-1.20');
    expect(field(top, 'adjustedLogit')).toBe('-0.40');
    expect(field(top, 'advantage')).toBe('+0.40');
    expect(field(items[1]!, 'advantage')).toBe('-0.40');
    // Evidence: support, value kind and the neighbour that took the action.
    expect(within(top).getByText('3 neighbours')).toBeInTheDocument();
    expect(within(top).getByRole('table')).toHaveTextContent('Sign up as Bob0.91+1.10');
    expect(within(items[2]!).getByText('optimistic (unseen; exploration bonus)')).toBeInTheDocument();
    // Step-level context: V, CER replay, notes, dropped memory actions, step counter.
    expect(screen.getByText(/V\(s\) = 0\.25 · 2 neighbours/)).toBeInTheDocument();
    // Replayed experience is counted, never shown by its internal id.
    expect(screen.getByTestId('replayed')).toHaveTextContent('Used 2 remembered experiences from this site.');
    expect(screen.queryByText(/dyn:form-submit|skill:signup/)).toBeNull();
    expect(screen.getByText('distillation skipped: no model')).toBeInTheDocument();
    expect(screen.getByText(/1 remembered action no longer on this page/)).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 15')).toBeInTheDocument();
  });

  it('draws base versus adjusted bars for every candidate with a text alternative', async () => {
    setup(awaiting);
    await candidateList();
    const img = screen.getByRole('img', { name: /Base versus adjusted probability/ });
    expect(img.getAttribute('aria-label')).toContain('#1 click(<button "Sign up">): base 30.0%, adjusted 70.0%');
    expect(img.querySelectorAll('rect.bar-base')).toHaveLength(3);
    expect(img.querySelectorAll('rect.bar-adjusted')).toHaveLength(3);
    const widths = [...img.querySelectorAll('rect.bar-adjusted')].map((r) => Number(r.getAttribute('width')));
    expect(widths[0]! / widths[1]!).toBeCloseTo(0.7 / 0.2, 5);
    const table = screen.getByRole('table', { name: 'Base versus adjusted probability' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
  });

  it('highlights the top candidate in the page, follows the focused one, and clears after', async () => {
    const { callsOf, user } = setup(awaiting);
    await candidateList();
    await waitFor(() => expect(callsOf('page.highlight')).toEqual([{ tabId: 7, ref: '5' }]));
    await user.hover(within(await candidateList()).getByText('click(<button "Cancel">)'));
    await waitFor(() => expect(callsOf('page.highlight').at(-1)).toEqual({ tabId: 7, ref: '3' }));
    await user.click(screen.getByRole('button', { name: /^Approve/ }));
    await waitFor(() => expect(callsOf('page.highlight').at(-1)).toEqual({ tabId: 7, ref: null }));
  });

  it('approve, pick, reject and edit send the matching decisions, naming the step and the candidate shown', async () => {
    const { callsOf, user } = setup(awaiting);
    await candidateList();
    await user.click(screen.getByRole('button', { name: /^Approve/ }));
    expect(callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'approve', step: 1, candidate: 'click(<button "Sign up">)' } }]);
    cleanup();

    const b = setup(awaiting);
    await candidateList();
    // The proposal itself has Approve; only the others offer "Run this instead".
    expect(screen.getAllByRole('button', { name: /^Run this instead/ }).map((el) => el.textContent)).toEqual([
      'Run this instead (click(<button "Cancel">))', 'Run this instead (fill(<textbox "Name">, "ada"))',
    ]);
    await b.user.click(screen.getByRole('button', { name: 'Run this instead (click(<button "Cancel">))' }));
    expect(b.callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'pick', index: 0, step: 1, candidate: 'click(<button "Cancel">)' } }]);
    cleanup();

    const afterReject = episode({ steps: [done, { ...proposal, rejected: ['click(<button "Sign up">)'] }] });
    const c = setup(awaiting, { 'episode.decide': async ({ decision }) => (decision.kind === 'reject' ? afterReject : awaiting) });
    await candidateList();
    expect(screen.getByLabelText('Edit the action')).toHaveValue('click(<button "Sign up">)');
    await c.user.click(screen.getByRole('button', { name: /^Reject/ }));
    expect(c.callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'reject', index: 1, step: 1, candidate: 'click(<button "Sign up">)' } }]);
    // The rejected one stays listed, marked; the next open candidate is now the proposal.
    const items = within(await candidateList()).getAllByRole('listitem');
    await waitFor(() => expect(within(items[0]!).queryByText('rejected')).not.toBeNull());
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Approve: Click “Cancel”' })).toBeEnabled();
    const edit = screen.getByLabelText('Edit the action');
    await waitFor(() => expect(edit).toHaveValue('click(<button "Cancel">)'));
    await c.user.clear(edit);
    await c.user.type(edit, 'fill([[2], "Ada"){Enter}'); // '[[' types a literal '['
    expect(c.callsOf('episode.decide').at(-1)).toEqual({ episodeId: 'ep-1', decision: { kind: 'edit', action: 'fill([2], "Ada")', step: 1 } });
  });

  it('says in plain words when an edited action does not parse, sends nothing, and keeps the proposal', async () => {
    const { callsOf, user } = setup(awaiting);
    await candidateList();
    const edit = screen.getByLabelText('Edit the action');
    await user.clear(edit);
    await user.type(edit, 'clik([[5]');
    await user.click(screen.getByRole('button', { name: 'Run edited' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^The action does not parse: .+\. Pick an element lets you point at it in the page instead\.$/);
    expect(callsOf('episode.decide')).toEqual([]);
    expect(edit).toHaveAttribute('aria-invalid', 'true');
    expect(edit).toHaveValue('clik([5]');
    expect(screen.getByRole('button', { name: /^Approve/ })).toBeEnabled();
  });

  it('shows the background error when an edited action does not fit the page, and keeps the proposal', async () => {
    const { user } = setup(awaiting, {
      'episode.decide': async () => { throw Object.assign(new Error('the edited action does not fit this page: no element [99]'), { name: 'DecisionError' }); },
    });
    await candidateList();
    const edit = screen.getByLabelText('Edit the action');
    await user.clear(edit);
    await user.type(edit, 'click([[99])');
    await user.click(screen.getByRole('button', { name: 'Run edited' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('DecisionError: the edited action does not fit this page: no element [99]');
    expect(edit).toHaveAttribute('aria-invalid', 'true');
  });

  it('is operable from the keyboard: Tab reaches Approve and Enter decides', async () => {
    const { callsOf, user } = setup(awaiting);
    await candidateList();
    const approve = screen.getByRole('button', { name: /^Approve/ });
    for (let i = 0; i < 40 && document.activeElement !== approve; i++) await user.tab();
    expect(approve).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'approve', step: 1, candidate: 'click(<button "Sign up">)' } }]);
  });
});

describe('Run tab: running, events and the end', () => {
  it('starts a task for the active tab and shows the busy state while the model thinks', async () => {
    const running = episode({ status: 'running', steps: [] });
    const { callsOf, user, emit } = setup(null, { 'episode.start': async () => running });
    const input = await screen.findByLabelText('Task for this tab');
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    await user.type(input, '  Sign up as Ada ');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(callsOf('episode.start')).toEqual([{ tabId: 7, task: 'Sign up as Ada' }]);
    const status = await screen.findByText('Thinking…');
    expect(status.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    expect(document.querySelector('.status-line .spinner')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled();
    // The background pushes the proposal over the port.
    emit({ type: 'episode.updated', episode: awaiting });
    expect(await candidateList()).toBeInTheDocument();
    expect(screen.getByText('Waiting for your decision').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'false');
  });

  it('pauses, resumes and stops', async () => {
    const { callsOf, user } = setup(awaiting, {
      'episode.pause': async () => ({ ...awaiting, status: 'paused' }),
      'episode.resume': async () => awaiting,
      'episode.stop': async () => ({ ...awaiting, status: 'stopped' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    await user.click(await screen.findByRole('button', { name: 'Resume' }));
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    // Stop pauses and asks how it went; Skip stops without a verdict.
    await user.click(within(await screen.findByRole('group', { name: 'Verdict after stopping' })).getByRole('button', { name: 'Skip' }));
    expect(callsOf('episode.pause')).toEqual([{ episodeId: 'ep-1' }, { episodeId: 'ep-1' }]);
    expect(callsOf('episode.resume')).toEqual([{ episodeId: 'ep-1' }]);
    expect(callsOf('episode.stop')).toEqual([{ episodeId: 'ep-1' }]);
    // A stopped episode is closed: no verdict is asked for.
    expect(await screen.findByText('Outcome: Stopped.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Verdict' })).toBeNull();
  });

  it('asks for the verdict at the end, shows the answer, and sends run-evaluator', async () => {
    const finished = episode({ status: 'awaiting_verdict', answer: 'The total is $42', steps: [done] });
    const { callsOf, user } = setup(finished, { 'episode.verdict': async ({ verdict }) => ({ ...finished, status: verdict }) });
    expect(await screen.findByText('The total is $42')).toBeInTheDocument();
    await user.click(screen.getByLabelText(/Also run the model evaluator/));
    await user.click(screen.getByRole('button', { name: 'Partly' }));
    expect(callsOf('episode.verdict')).toEqual([{ episodeId: 'ep-1', verdict: 'partial', runEvaluator: true }]);
    expect(await screen.findByText('Outcome: Partly done.')).toBeInTheDocument();
    // The task is offered again for the next attempt.
    expect(screen.getByLabelText('Task for this tab')).toHaveValue('Sign up as Ada');
    expect(screen.getByRole('button', { name: 'Start again' })).toBeEnabled();
  });

  it('chooses the ask mode per site, asking every step by default, and says what always asks', async () => {
    const { callsOf, user } = setup(awaiting, {
      'askMode.set': async ({ origin, mode }) => settings({ askModes: { [origin]: mode } }),
    });
    const select = await screen.findByRole('combobox', { name: /Asking on http:\/\/127\.0\.0\.1:9/ });
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveValue('every-step');
    expect(select).toHaveAccessibleDescription(/approved that same action on this page 2 times.*Passwords and payment fields, going to or sending a form to another site, downloads and file uploads always ask/);
    await user.selectOptions(select, "Ask only for what I haven't approved");
    expect(callsOf('askMode.set')).toEqual([{ origin: 'http://127.0.0.1:9', mode: 'unapproved-only' }]);
    await waitFor(() => expect(select).toHaveValue('unapproved-only'));
  });

  it('shows a clear message when the background cannot be reached', async () => {
    setup(null, { 'episode.current': async () => { throw Object.assign(new Error('The model provider took too long'), { name: 'ProviderError' }); } });
    expect(await screen.findByRole('alert')).toHaveTextContent('took too long');
  });

  it('uses ?tabId= over the active tab', async () => {
    const fake = fakeConnector({ 'episode.current': async () => null, 'settings.get': async () => settings() });
    render(<App connector={fake.connector} tabs={fakeTabs(99)} tabIdOverride={12} openOptions={() => undefined} surface="popup" />);
    await screen.findByLabelText('Task for this tab');
    expect(fake.callsOf('episode.current')).toEqual([{ tabId: 12 }]);
  });
});

describe('App shell', () => {
  it('moves between tabs with the arrow keys and opens the options page', async () => {
    const fake = fakeConnector({
      'episode.current': async () => null,
      'settings.get': async () => settings(),
      'history.list': async () => [],
      'memory.sites': async () => [],
    });
    let opened = 0;
    const user = userEvent.setup();
    render(<App connector={fake.connector} tabs={fakeTabs()} tabIdOverride={null} openOptions={() => { opened++; }} surface="sidepanel" />);
    const run = screen.getByRole('tab', { name: 'Run' });
    run.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'History' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No episodes yet on http://127.0.0.1:9.')).toBeInTheDocument();
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Memory' })).toHaveFocus();
    expect(await screen.findByText(/Nothing learned yet/)).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(run).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(opened).toBe(1);
  });

  it('shows a render error as a message with a retry, never a blank panel', async () => {
    let fail = true;
    const Boom = () => { if (fail) throw new Error('bad record'); return <p>fine</p>; };
    const user = userEvent.setup();
    render(<ErrorBoundary label="The Run view"><Boom /></ErrorBoundary>);
    expect(screen.getByRole('alert')).toHaveTextContent('The Run view hit an error.bad record');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('fine')).toBeInTheDocument();
  });
});
