// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExperienceEntry } from '../../src/learners/cer/core/experience.ts';
import type { StepRow } from '../../src/core/stores/step-rows.ts';
import type { EpisodeSummary } from '../../src/protocol/messages.ts';
import { HistoryTab } from '../../src/ui/app/history-tab.tsx';
import { MemoryTab } from '../../src/ui/app/memory-tab.tsx';
import { episode, fakeConnector, learnerActions, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const O = 'http://127.0.0.1:9';
const summary = (over: Partial<EpisodeSummary>): EpisodeSummary => ({
  id: 'e1', origin: O, task: 'Sign up as Ada', status: 'failure', attempt: 1, steps: 6, startedAt: 1000, endedAt: 2000, kind: 'live', ...over,
});

describe('History tab', () => {
  it('groups episodes per task, draws the learning curve and expands step records', async () => {
    const fake = fakeConnector({
      'history.list': async () => [
        summary({ id: 'e1', attempt: 1, status: 'failure', steps: 6, startedAt: 1000 }),
        summary({ id: 'e2', attempt: 2, status: 'success', steps: 3, startedAt: 3000 }),
      ],
      'history.curve': async () => [
        { attempt: 1, episodeId: 'e1', success: 0, steps: 6 },
        { attempt: 2, episodeId: 'e2', success: 1, steps: 3 },
      ],
      'episode.get': async ({ episodeId }) => episode({
        id: episodeId, status: 'success', attempt: 2,
        steps: [step({ index: 0, chosen: { action: 'click([5])', semantic: 'click(<button "Sign up">)', decision: 'edited' }, result: { ok: true, navigated: true }, reward: 1 })],
      }),
    });
    const user = userEvent.setup();
    render(<HistoryTab client={fake.connector.client} origin={O} />);
    const group = await screen.findByRole('button', { name: /Sign up as Ada · http:\/\/127.0.0.1:9 · 2 attempts/ });
    expect(fake.callsOf('history.list')).toEqual([{ origin: O, limit: 500 }]);
    expect(group).toHaveAttribute('aria-expanded', 'false');
    await user.click(group);
    expect(group).toHaveAttribute('aria-expanded', 'true');
    const chart = await screen.findByRole('img', { name: /Learning curve for "Sign up as Ada"/ });
    expect(fake.callsOf('history.curve')).toEqual([{ origin: O, task: 'Sign up as Ada' }]);
    expect(chart.getAttribute('aria-label')).toContain('attempt 1: success 0, 6 steps; attempt 2: success 1, 3 steps');
    const dots = [...chart.querySelectorAll('circle.point-success')];
    expect(dots.map((d) => d.getAttribute('data-success'))).toEqual(['0', '1']);
    // Success 1 sits higher (smaller y) than success 0; 3 steps sits lower than 6.
    expect(Number(dots[1]!.getAttribute('cy'))).toBeLessThan(Number(dots[0]!.getAttribute('cy')));
    const pts = chart.querySelector('polyline')!.getAttribute('points')!.split(' ').map((p) => p.split(',').map(Number));
    expect(pts).toHaveLength(2);
    expect(pts[1]![1]).toBeGreaterThan(pts[0]![1]!);
    expect(within(screen.getByRole('table', { name: 'Attempts of "Sign up as Ada"' })).getAllByRole('row')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: /Attempt 2: Succeeded/ }));
    // Words first; the grammar form stays one hover away.
    expect(await screen.findByText('Click “Sign up”')).toHaveAttribute('title', 'click(<button "Sign up">)');
    expect(screen.getByText('edited')).toBeInTheDocument();
    expect(fake.callsOf('episode.get')).toEqual([{ episodeId: 'e2' }]);

    await user.click(screen.getByRole('radio', { name: 'All sites' }));
    await waitFor(() => expect(fake.callsOf('history.list').at(-1)).toEqual({ origin: null, limit: 500 }));
  });
});

const transition = (id: string, action: string, reward: number): StepRow => ({
  id, origin: O, regUrl: '127.0.0.1/form.html', effectiveState: [], stateTokens: [], task: 'Sign up as Ada', taskTokens: [],
  action, reward, rewardSource: 'person', futureRewards: [reward], episodeId: 'e1', stepIndex: 0, createdAt: 1, updatedAt: 1,
});

const provenance = { episodeIds: ['e1', 'e2'], createdAt: 1, updatedAt: 2, retrieved: 3, retrievedThenSucceeded: 2, source: 'live' as const };
const experiences: ExperienceEntry[] = [
  { id: 'dyn-form', origin: O, kind: 'dynamics', pageName: 'Sign-up form', description: 'Creates an account.', usages: ['open an account'], regUrl: '/form.html', exampleUrl: `${O}/form.html`, provenance },
  { id: 'skill-signup', origin: O, kind: 'skill', name: 'Sign up with the email {email}', variables: ['email'], steps: [{ text: 'Type the email', exampleActions: ['fill(<textbox "Email">, "{email}")'] }], provenance },
];

function memorySetup(extra: Parameters<typeof fakeConnector>[0] = {}) {
  let sites = [{ origin: O, items: 5, lastUpdated: 5 }, { origin: 'https://b.test', items: 1, lastUpdated: 4 }];
  let items = [transition('e1:0', 'click(<button "Sign up">)', 1), { ...transition('e1:1', 'click(<button "Cancel">)', -1), stale: 2, staleAt: 3 }];
  const fake = fakeConnector({
    'memory.sites': async () => sites,
    'memory.forgetSite': async ({ origin }) => { sites = sites.filter((s) => s.origin !== origin); return { deleted: 2, episodes: 1, steps: 3, decisions: 2, approvals: 1 }; },
    'learner.action': learnerActions({
      // The transition browser is JitRL's panel (its folder's views.ts), asked through its actions.
      jitrl: {
        list: async ({ query }: { query: string }) => items.filter((t) => t.action.toLowerCase().includes(query.toLowerCase())),
        site: async ({ origin }: { origin: string }) => (origin === O ? { transitions: items.length, pages: 1, lastUpdated: 5 } : { transitions: 0, pages: 0, lastUpdated: 0 }),
        delete: async ({ ids }: { ids: string[] }) => { items = items.filter((t) => !ids.includes(t.id)); return { deleted: ids.length }; },
      },
      cer: { list: async ({ origin }: { origin: string }) => (origin === O ? experiences : []) },
      tfgrpo: { library: async () => ({ experiences: [], lastUpdate: null, capability: null }) },
      evotest: { lineages: async () => ({ mode: 'offline' as const, lineages: [] }) },
    }),
    'procedures.list': async () => [],
    'learner.memory': async () => null,
    ...extra,
  });
  const downloads: [string, string][] = [];
  const user = userEvent.setup();
  render(<MemoryTab client={fake.connector.client} origin={O} download={(f, j) => downloads.push([f, j])} />);
  return { ...fake, user, downloads };
}

describe('Memory tab', () => {
  it('marks stale transitions (remembered actions that stopped resolving) with their count', async () => {
    memorySetup();
    const list = await screen.findByRole('list', { name: `Transitions on ${O}` });
    expect(within(list).getByText('stale ×2')).toBeInTheDocument();
    expect(within(list).getAllByText(/stale ×/)).toHaveLength(1);
  });

  it('shows the distilled dynamics and skills with their provenance', async () => {
    memorySetup();
    const dynamics = await screen.findByRole('list', { name: `Dynamics on ${O}` });
    expect(within(dynamics).getByText('Sign-up form')).toBeInTheDocument();
    expect(within(dynamics).getByText('for: open an account')).toBeInTheDocument();
    const skills = screen.getByRole('list', { name: `Skills on ${O}` });
    expect(within(skills).getByText('Sign up with the email {email}')).toBeInTheDocument();
    expect(within(skills).getByText('fill(<textbox "Email">, "{email}")')).toBeInTheDocument();
    expect(within(skills).getByText(/from 2 episodes \(live\) · replayed 3× · then succeeded 2×/)).toBeInTheDocument();
  });

  it('browses, searches and deletes transitions of the current site (JitRL\'s panel, through learner.action)', async () => {
    const { callsOf, user } = memorySetup();
    const jitrlCalls = (action: string) => callsOf('learner.action').filter((c) => (c as { learnerId: string; action: string }).learnerId === 'jitrl' && (c as { action: string }).action === action).map((c) => (c as { payload: unknown }).payload);
    const list = await screen.findByRole('list', { name: `Transitions on ${O}` });
    // The site table: the current tab's site is shown; raw transitions sit under a closed disclosure.
    const table = screen.getByRole('table', { name: 'What is remembered, per site' });
    expect(within(table).getByRole('button', { name: `Show ${O}` })).toHaveAttribute('aria-pressed', 'true');
    expect(list.closest('details')).not.toHaveAttribute('open');
    // The site table counts every learner's items; the panel says its own transitions.
    expect(within(table).getByRole('row', { name: new RegExp(O) })).toHaveTextContent(`${O}5`);
    expect(screen.getByText(/^Raw transitions \(2\)$/)).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('r = -1.00')).toHaveClass('err');
    await user.type(screen.getByLabelText('Search transitions'), 'cancel{Enter}');
    await waitFor(() => expect(jitrlCalls('list').at(-1)).toEqual({ origin: O, query: 'cancel', limit: 50, offset: 0 }));
    const filtered = await screen.findByRole('list', { name: `Transitions on ${O}` });
    await waitFor(() => expect(within(filtered).getAllByRole('listitem')).toHaveLength(1));
    // Delete hides it at once with an Undo; Undo brings it back and nothing is deleted.
    await user.click(screen.getByRole('button', { name: 'Delete click(<button "Cancel">) (e1:1)' }));
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Deleted the step click(<button "Cancel">). Undo');
    expect(within(filtered).queryAllByRole('listitem')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(within(filtered).getAllByRole('listitem')).toHaveLength(1);
    expect(jitrlCalls('delete')).toEqual([]);
    // Deleted for good once the grace period ends (or the view is left).
    await user.click(screen.getByRole('button', { name: 'Delete click(<button "Cancel">) (e1:1)' }));
    cleanup();
    await waitFor(() => expect(jitrlCalls('delete')).toEqual([{ ids: ['e1:1'] }]));
  });

  it('forgets a site only after confirmation', async () => {
    const { callsOf, user } = memorySetup();
    await screen.findByRole('list', { name: `Transitions on ${O}` });
    await user.click(screen.getByRole('button', { name: 'Forget this site…' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent(`Forget everything learned on ${O}? This deletes 5 remembered items`);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(callsOf('memory.forgetSite')).toEqual([]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Forget this site…' })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Forget this site…' }));
    await user.click(screen.getByRole('button', { name: `Yes, forget ${O}` }));
    expect(callsOf('memory.forgetSite')).toEqual([{ origin: O }]);
    // The panel says what went (the fake answers 2 learned items, 1 task, 3 steps, 2 decisions, 1 approval).
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Forgot ${O}: removed 2 learned items, 1 task that started there, 3 episode steps on the site, with 2 decisions of yours, 1 approval among them.`,
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Show https://b.test' })).toHaveAttribute('aria-pressed', 'true'));
    // "Forget…" in the table row asks the same question for that site.
    await user.click(screen.getByRole('button', { name: 'Forget… https://b.test' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Forget everything learned on https://b.test?');
  });

  it('exports memory to a JSON file', async () => {
    const { downloads, user } = memorySetup({ 'memory.export': async () => ({ json: '{"format":"apprentice"}', filename: 'apprentice-memory.json' }) });
    await user.click(await screen.findByRole('button', { name: 'Export to JSON' }));
    expect(downloads).toEqual([['apprentice-memory.json', '{"format":"apprentice"}']]);
    expect(await screen.findByText('Exported to apprentice-memory.json.')).toBeInTheDocument();
  });

  it('says why a bad import file was refused, and that nothing changed', async () => {
    const { callsOf, user } = memorySetup({
      'memory.import': async () => { throw Object.assign(new Error('not an Apprentice export (missing "format")'), { name: 'ImportError' }); },
    });
    await screen.findByRole('list', { name: `Transitions on ${O}` });
    const file = new File(['{"hello":1}'], 'other.json', { type: 'application/json' });
    await user.upload(screen.getByLabelText('Import from JSON'), file);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('other.json was not imported, and nothing was changed: ImportError: not an Apprentice export (missing "format")');
    expect(callsOf('memory.import')).toEqual([{ json: '{"hello":1}', importId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(callsOf('memory.sites')).toHaveLength(1);
  });

  it('reports a good import and reloads the sites', async () => {
    const { user, callsOf } = memorySetup({ 'memory.import': async () => ({ transitions: 4, episodes: 2, experiences: 1 }) });
    await screen.findByRole('list', { name: `Transitions on ${O}` });
    await user.upload(screen.getByLabelText('Import from JSON'), new File(['{}'], 'mine.json', { type: 'application/json' }));
    expect(await screen.findByText('Imported 4 transitions, 2 episodes and 1 experiences from mine.json.')).toBeInTheDocument();
    await waitFor(() => expect(callsOf('memory.sites')).toHaveLength(2));
  });
});
