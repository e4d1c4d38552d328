// @vitest-environment happy-dom
// Issue 31 in the side panel: done is one click away, Stop asks for a
// verdict, each card says why in words (numbers under Details, no internal
// ids), Enter starts a task, and the proposal takes the focus and has keys.
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { App } from '../../src/ui/app/app.tsx';
import { CandidateList } from '../../src/ui/app/step-view.tsx';
import { actionWords } from '../../src/ui/app/action-words.ts';
import { taskMatch, whyLine } from '../../src/ui/app/candidate-words.ts';
import { candidate, episode, fakeConnector, fakeTabs, settings, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const known = (q: number, support: number) => ({ jitrl: { q, advantage: q, normAdvantage: q, support, valueKind: 'known' as const } });
const proposal = step({
  index: 1,
  selection: { how: 'argmax', probability: 1, temperature: 1 },
  replayed: ['d-7mg4ug', 's-ao8up2'],
  candidates: [
    candidate({ action: 'click([5])', semantic: 'click(<link "Wireless mouse">)', adjustedLogit: -0.2, adjustedProb: 0.8, baseProb: 0.6 }),
    candidate({ action: 'click([3])', semantic: 'click(<link "Cart">)', adjustedLogit: -1.8, adjustedProb: 0.16, evidence: known(0.65, 2) }),
    candidate({ action: 'click([9])', semantic: 'click(<button "Remove">)', adjustedLogit: -4, adjustedProb: 0.04, barred: 'rejected' }),
  ],
});
const awaiting = episode({ task: 'Buy a wireless mouse', steps: [step({ index: 0, chosen: { action: 'click([1])', semantic: 'click(<link "Shop">)', decision: 'approved' }, result: { ok: true, navigated: true } }), proposal] });

function setup(current: Episode | null, extra: Parameters<typeof fakeConnector>[0] = {}) {
  const fake = fakeConnector({
    'episode.current': async () => current,
    'settings.get': async () => settings(),
    'page.highlight': async () => ({ ok: true }),
    'episode.decide': async () => ({ ...awaiting, status: 'running' }),
    ...extra,
  });
  const user = userEvent.setup();
  render(<App connector={fake.connector} tabs={fakeTabs()} tabIdOverride={null} openOptions={() => undefined} surface="sidepanel" />);
  return { ...fake, user };
}

describe('words first on each candidate', () => {
  it('one line says why; the numbers sit under a closed Details; no internal ids anywhere', () => {
    render(<CandidateList step={proposal} task="Buy a wireless mouse" />);
    const items = within(screen.getByRole('list', { name: /Candidates for step 2/ })).getAllByRole('listitem');
    expect(items.map((li) => within(li).getByTestId('why').textContent)).toEqual([
      'Matches “wireless mouse” in your task.',
      'You did this here last time.',
      'You rejected this on this page.',
    ]);
    const adjusted = items[0]!.querySelector('[data-field="adjustedProb"]')!;
    expect(adjusted.textContent).toBe('80.0%');
    const details = adjusted.closest('details')!;
    expect(details.querySelector('summary')!.textContent).toBe('Details');
    expect(details).not.toHaveAttribute('open');
    expect(document.body.textContent).not.toMatch(/[ds]-[0-9a-z]{6}/);
  });

  it('says the action as a person would, and what of the task it matches', () => {
    expect(actionWords('fill(<textbox "Email">, "ada@example.com")')).toBe('Type “ada@example.com” into “Email”');
    expect(actionWords('select_option(<combobox "Role">, "Viewer")')).toBe('Choose “Viewer” in “Role”');
    expect(actionWords('send_msg_to_user("42")')).toBe('Finish with the answer “42”');
    expect(actionWords('not an action')).toBe('not an action');
    // The target is named with where it sits, so look-alikes are told apart (issue 31, Build 3).
    expect(actionWords('click(<button "Remove" in row "Alan Turing">)')).toBe('Click “Remove” (row “Alan Turing”)');
    expect(actionWords('click(<button "OK" in listitem "Ada" in dialog "Confirm">)')).toBe('Click “OK” (item “Ada”, dialog “Confirm”)');
    expect(taskMatch('fill(<textbox "Email">, "ada@example.com")', 'Sign up as ada@example.com')).toEqual({ kind: 'value', text: 'ada@example.com' });
    expect(taskMatch('click(<link "Help">)', 'Buy a wireless mouse')).toBeNull();
    expect(whyLine(proposal, candidate({ semantic: 'click(<link "Help">)' }), 'Buy a wireless mouse')).toBe('Suggested by the model.');
    expect(whyLine(proposal, candidate({ semantic: 'click(<link "Help">)', evidence: known(-0.5, 1) }), 'x')).toBe('This did not work out here before.');
  });
});

describe('keyboard and focus', () => {
  it('Enter starts the task; Shift+Enter adds a line; the keys are shown', async () => {
    const { callsOf, user } = setup(null, { 'episode.start': async () => episode({ status: 'running', steps: [] }) });
    const input = await screen.findByLabelText('Task for this tab');
    expect(screen.getByText(/starts · /)).toHaveTextContent('Enter starts · Shift+Enter adds a line');
    await user.type(input, 'Buy a{Shift>}{Enter}{/Shift}mouse');
    expect(input).toHaveValue('Buy a\nmouse');
    expect(callsOf('episode.start')).toEqual([]);
    await user.keyboard('{Enter}');
    expect(callsOf('episode.start')).toEqual([{ tabId: 7, task: 'Buy a\nmouse' }]);
  });

  it('the action form is an advanced field: under a closed disclosure, after Pick an element (issue 31, Build 4)', async () => {
    setup(awaiting);
    const edit = await screen.findByLabelText('Edit the action');
    const details = edit.closest('details')!;
    expect(details).toHaveClass('edit-advanced');
    expect(details).not.toHaveAttribute('open');
    expect(details.querySelector(':scope > summary')!.textContent).toBe('Advanced: type the action');
    const pick = screen.getByRole('button', { name: /^Pick an element/ });
    expect(pick.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a proposal takes the focus on Approve, which names what it runs; A approves, R rejects, not while typing', async () => {
    const { callsOf, user } = setup(awaiting);
    const approve = await screen.findByRole('button', { name: 'Approve: Click “Wireless mouse”' });
    await waitFor(() => expect(approve).toHaveFocus());
    expect(approve).toHaveAttribute('aria-keyshortcuts', 'a');
    expect(screen.getByText(/^Keys:/)).toHaveTextContent('Keys: A approve, R reject, S show me, P pick an element, D task is done (not while typing).');
    await user.type(screen.getByLabelText('Edit the action'), 'ar');
    expect(callsOf('episode.decide')).toEqual([]);
    approve.focus();
    await user.keyboard('r');
    expect(callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'reject', index: 0, step: 1, candidate: 'click(<link "Wireless mouse">)' } }]);
  });

  it('after a Reject the current proposal is unmistakable: its card says Approve runs it, and Approve names it', async () => {
    const afterReject = { ...awaiting, steps: [awaiting.steps[0]!, { ...proposal, rejected: ['click(<link "Wireless mouse">)'] }] };
    setup(afterReject);
    const approve = await screen.findByRole('button', { name: 'Approve: Click “Cart”' });
    const items = within(screen.getByRole('list', { name: /Candidates for step 2/ })).getAllByRole('listitem');
    expect(items.map((li) => [li.classList.contains('top'), li.getAttribute('aria-current'), li.querySelector('.current-badge')?.textContent ?? null])).toEqual([
      [false, null, null], [true, 'true', 'Approve runs this'], [false, null, null],
    ]);
    await waitFor(() => expect(approve).toHaveFocus());
  });

  it('A approves the proposal', async () => {
    const { callsOf, user } = setup(awaiting);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Approve/ })).toHaveFocus());
    await user.keyboard('a');
    expect(callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'approve', step: 1, candidate: 'click(<link "Wireless mouse">)' } }]);
  });
});

describe('done is one click away', () => {
  it('with a proposal waiting: the answer is sent as the finishing step, then the verdict is success', async () => {
    const answered = { ...awaiting, status: 'awaiting_verdict' as const, answer: '42' };
    const { callsOf, user } = setup(awaiting, {
      'episode.decide': async () => answered,
      'episode.verdict': async () => ({ ...answered, status: 'success' as const }),
    });
    await user.type(await screen.findByLabelText('Answer, if the task asked for one (optional)'), '42');
    await user.click(screen.getByRole('button', { name: 'Task is done' }));
    await screen.findByText('Outcome: Succeeded.');
    expect(callsOf('episode.decide')).toEqual([{ episodeId: 'ep-1', decision: { kind: 'edit', action: 'send_msg_to_user("42")', step: 1, done: true } }]);
    expect(callsOf('episode.verdict')).toEqual([{ episodeId: 'ep-1', verdict: 'success', runEvaluator: false }]);
  });

  it('while it thinks: pauses, then records success with the answer; no step is made up', async () => {
    const running = episode({ status: 'running', steps: [awaiting.steps[0]!] });
    const { callsOf, user } = setup(running, {
      'episode.pause': async () => ({ ...running, status: 'paused' as const }),
      'episode.verdict': async () => ({ ...running, status: 'success' as const, answer: 'done it' }),
    });
    await user.type(await screen.findByLabelText('Answer, if the task asked for one (optional)'), 'done it');
    await user.click(screen.getByRole('button', { name: 'Task is done' }));
    await screen.findByText('Outcome: Succeeded.');
    expect(callsOf('episode.decide')).toEqual([]);
    expect(callsOf('episode.pause')).toEqual([{ episodeId: 'ep-1' }]);
    expect(callsOf('episode.verdict')).toEqual([{ episodeId: 'ep-1', verdict: 'success', runEvaluator: false, answer: 'done it' }]);
  });

  it('Stop asks for a verdict: Partly is learned from as a verdict, not a plain stop', async () => {
    const { callsOf, user } = setup(awaiting, {
      'episode.pause': async () => ({ ...awaiting, status: 'paused' as const }),
      'episode.verdict': async () => ({ ...awaiting, status: 'partial' as const }),
    });
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    const group = await screen.findByRole('group', { name: 'Verdict after stopping' });
    expect(screen.getByRole('heading', { name: 'Stopped. How did it go?' })).toBeInTheDocument();
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['Success', 'Failure', 'Partly', 'Skip']);
    await user.click(within(group).getByRole('button', { name: 'Partly' }));
    await screen.findByText('Outcome: Partly done.');
    expect(callsOf('episode.pause')).toEqual([{ episodeId: 'ep-1' }]);
    expect(callsOf('episode.verdict')).toEqual([{ episodeId: 'ep-1', verdict: 'partial', runEvaluator: false }]);
    expect(callsOf('episode.stop')).toEqual([]);
  });
});
