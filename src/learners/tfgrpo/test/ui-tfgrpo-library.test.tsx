// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { LibraryRevision } from '../core/library.ts';
import { TfgrpoLearner } from '../core/tfgrpo-learner.ts';
import { InMemoryTfgrpoStore } from '../core/tfgrpo-store.ts';
import { TfgrpoLibrary } from '../ui/tfgrpo-library.tsx';
import { fakeConnector, learnerActions } from '../../../../test/unit/ui-fake-connector.ts';
import { experience, G1, ORIGIN, TFGRPO_ON } from './tfgrpo-helpers.ts';
import { DEFAULT_TFGRPO } from '../core/tfgrpo-settings.ts';

const DEFAULT_TFGRPO_RULE_HINTS = DEFAULT_TFGRPO.ruleHints;

afterEach(cleanup);

async function setUp(ruleHints = true) {
  const store = new InMemoryTfgrpoStore();
  const before = [experience('x-a', 'Sort first: sort by price.'), experience('x-b', 'Header: the cart is in the header.')];
  const after = [experience('x-a', 'Sort first: sort by price.', { inPrompt: 3, inPromptThenSucceeded: 2 })];
  const revision: LibraryRevision = { id: 'r-1', origin: ORIGIN, group: G1, at: 0, before, added: [], updated: [], deleted: ['x-b'], evicted: [] };
  await store.saveLibrary(ORIGIN, after, revision);
  const learner = new TfgrpoLearner({ store, settings: () => ({ ...TFGRPO_ON, ruleHints }), model: null, clock: { now: () => 9 } });
  const fake = fakeConnector({
    'learner.action': learnerActions({ tfgrpo: {
      library: async ({ origin }: { origin: string }) => learner.view(origin),
      edit: async ({ origin, id, text }: { origin: string; id: string; text: string }) => ({ ok: await learner.edit(origin, id, text) }),
      delete: async ({ origin, ids }: { origin: string; ids: string[] }) => ({ deleted: await learner.remove(origin, ids) }),
      undo: async ({ origin }: { origin: string }) => ({ undone: (await learner.undoLastUpdate(origin)) !== null }),
    } }),
  });
  render(<TfgrpoLibrary client={fake.connector.client} origin={ORIGIN} version={0} />);
  return { store, fake };
}

describe('Memory tab: Training-Free GRPO library', () => {
  it('lists experiences with their provenance, edits one, and undoes the last update', async () => {
    const { store } = await setUp();
    const list = await screen.findByRole('list', { name: `Experiences on ${ORIGIN}` });
    expect(list).toHaveTextContent('Sort first: sort by price.');
    expect(list).toHaveTextContent('model, from a group of 2 attempts at “Add the teapot to the cart” · in a prompt 3× · then succeeded 2×');
    expect(screen.getByText(/Last update .* 0 added, 0 changed, 1 deleted/)).toBeInTheDocument();
    expect(screen.getByText('No model: learning page-type contrasts only (rule hints).')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit experience x-a' }));
    const box = screen.getByLabelText('Experience text');
    await user.clear(box);
    await user.type(box, 'Sort: cheapest first.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Experience saved.');
    expect((await store.library(ORIGIN)).map((e) => [e.text, e.source])).toEqual([['Sort: cheapest first.', 'person']]);

    await user.click(screen.getByRole('button', { name: 'Undo this update' }));
    await screen.findByText('The last update was undone.');
    expect((await store.library(ORIGIN)).map((e) => e.id)).toEqual(['x-a', 'x-b']);
    await waitFor(() => expect(screen.getByRole('list', { name: `Experiences on ${ORIGIN}` })).toHaveTextContent('Header: the cart is in the header.'));
  });

  it('deletes one experience', async () => {
    const { store } = await setUp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete experience x-a' }));
    await screen.findByText('Experience deleted.');
    expect(await store.library(ORIGIN)).toEqual([]);
  });

  it('says plainly that it needs a model when it has no way to learn', async () => {
    await setUp(false);
    expect(await screen.findByText(/Training-Free GRPO learns its experiences through a model/)).toBeInTheDocument();
  });
});

describe('Panel: the experiences in a step\'s prompt', () => {
  it('lists them with the numbers the policy saw', async () => {
    const { LearnerEvidence } = await import('../../../ui/app/learner-evidence.tsx');
    const { step } = await import('../../../../test/unit/ui-fake-connector.ts');
    render(<LearnerEvidence step={step({ index: 0, evidence: { tfgrpo: { experiences: [{ number: 1, id: 'x-a', text: 'Quantity first: set it.' }, { number: 2, id: 'x-b', text: 'Cart: in the header.' }] } } })} />);
    const list = screen.getByRole('list', { name: 'Experiences in the prompt' });
    expect([...list.querySelectorAll('li')].map((li) => [li.getAttribute('value'), li.textContent])).toEqual([
      ['1', 'Quantity first: set it. [x-a]'],
      ['2', 'Cart: in the header. [x-b]'],
    ]);
  });

  it('says when no experience was shown, and when the record is unreadable', async () => {
    const { LearnerEvidence } = await import('../../../ui/app/learner-evidence.tsx');
    const { step } = await import('../../../../test/unit/ui-fake-connector.ts');
    render(<LearnerEvidence step={step({ index: 0, evidence: { tfgrpo: { experiences: [] } } })} />);
    expect(screen.getByText('No learned experience was in the prompt (none on this site yet).')).toBeInTheDocument();
    cleanup();
    render(<LearnerEvidence step={step({ index: 0, evidence: { tfgrpo: { shown: 'x' } } })} />);
    expect(screen.getByText('Training-Free GRPO\'s record for this step is unreadable.')).toBeInTheDocument();
  });
});

describe('Options: Training-Free GRPO settings', () => {
  it('says what it needs of a model, validates with its schema and saves under settings.learners.tfgrpo', async () => {
    const { OptionsPage } = await import('../../../ui/app/options-page.tsx');
    const { DEFAULT_SETTINGS } = await import('../../../core/settings.ts');
    const fake = fakeConnector({
      'settings.get': async () => DEFAULT_SETTINGS,
      'settings.set': async ({ settings }) => settings,
      'settings.reset': async () => DEFAULT_SETTINGS,
    });
    render(<OptionsPage client={fake.connector.client} />);
    const section = await screen.findByRole('group', { name: 'Training-Free GRPO settings' });
    expect(section).toHaveTextContent(/Training-Free GRPO learns its experiences through a model/);
    const user = userEvent.setup();
    const size = within(section).getByLabelText('Attempts per group (G)');
    await user.clear(size);
    await user.type(size, '1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Not saved: 1 field/)).toBeInTheDocument();
    expect(fake.callsOf('settings.set')).toEqual([]);
    await user.clear(size);
    await user.type(size, '5');
    await user.click(within(section).getByLabelText('Without a model: learn page-type contrasts from the group\'s own actions'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    const [call] = fake.callsOf('settings.set') as { settings: { learners: Record<string, unknown> } }[];
    expect(call!.settings.learners['tfgrpo']).toMatchObject({ groupSize: 5, ruleHints: !DEFAULT_TFGRPO_RULE_HINTS });
  });
});
