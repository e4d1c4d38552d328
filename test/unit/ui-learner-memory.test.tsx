// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import type { LearnerDefinition } from '../../src/core/learning/learner-definition.ts';
import { LearnerMemorySections, type MemoryViewProps } from '../../src/ui/app/learner-memory.tsx';
import { fakeConnector, learnerActions } from './ui-fake-connector.ts';

afterEach(cleanup);

const example = {
  id: 'example', label: 'Example learner',
  settings: { schema: {} as never, defaults: {}, read: () => ({}) },
  enabled: () => true,
  needsModel: { level: 'no', description: '' },
  keepsMemory: true,
} as unknown as LearnerDefinition;

describe('Memory tab: a section per registry learner with memory', () => {
  it('asks every registry learner with memory (or shows its own panel), shows only those that list records, with the learner\'s view or the generic one', async () => {
    const fake = fakeConnector({
      'learner.memory': async ({ learnerId, origin }) => (learnerId === 'example' ? [{ learnerId, origin, key: 'tally', value: { episodes: 2 }, updatedAt: 0 }] : null),
      'learner.action': learnerActions({
        cer: { list: async () => [] },
        jitrl: { site: async () => ({ transitions: 0, pages: 0, lastUpdated: 0 }), list: async () => [] },
      }),
    });
    const Tally = ({ records }: MemoryViewProps) => <p>{records.length} tally record</p>;
    const { rerender } = render(<LearnerMemorySections client={fake.connector.client} origin="https://shop.test" version={0} registry={[...LEARNERS.filter((d) => d.id === 'cer' || d.id === 'jitrl'), example]} />);
    expect(await screen.findByText('tally')).toBeInTheDocument();
    expect(screen.getByText(/"episodes": 2/)).toBeInTheDocument();
    // CER and JitRL have panels of their own (MEMORY_PANELS): they ask their learner, not for a list of records.
    expect(fake.callsOf('learner.memory')).toEqual([{ learnerId: 'example', origin: 'https://shop.test' }]);
    expect(fake.actionCalls('cer', 'list')).toEqual([{ origin: 'https://shop.test' }]);
    expect(fake.actionCalls('jitrl', 'site')).toEqual([{ origin: 'https://shop.test' }]);
    expect(await screen.findByText('No distilled experience on this site yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('group', { name: 'JitRL memory' })).toBeNull());
    expect(screen.queryByRole('group', { name: 'CER memory' })).toBeNull();

    rerender(<LearnerMemorySections client={fake.connector.client} origin="https://shop.test" version={1} registry={[...LEARNERS.filter((d) => d.id === 'cer' || d.id === 'jitrl'), example]} views={{ example: Tally }} />);
    expect(await screen.findByText('1 tally record')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Example learner memory' })).toBeInTheDocument();
  });

  it('a record imported from an archive or team memory says where it came from', async () => {
    const fake = fakeConnector({
      'learner.memory': async ({ learnerId, origin }) => [
        { learnerId, origin, key: 'tally', value: { episodes: 2 }, updatedAt: 0, importedFrom: 'team memory, shared by Ada' },
        { learnerId, origin, key: 'mine', value: { episodes: 1 }, updatedAt: 0 },
      ],
    });
    render(<LearnerMemorySections client={fake.connector.client} origin="https://shop.test" version={0} registry={[example]} />);
    expect(await screen.findByText(/imported from team memory, shared by Ada/)).toBeInTheDocument();
    expect(screen.getAllByText(/imported from/)).toHaveLength(1);
  });

  it('shows nothing for a learner that lists nothing, and says so when it has learned nothing', async () => {
    const fake = fakeConnector({ 'learner.memory': async () => null });
    render(<LearnerMemorySections client={fake.connector.client} origin="https://a.test" version={0} registry={[example]} />);
    expect(screen.getByText('Example learner')).toBeInTheDocument(); // loading
    await waitFor(() => expect(screen.queryByText('Example learner')).toBeNull());
    expect(fake.callsOf('learner.memory')).toHaveLength(1);
    cleanup();
    const empty = fakeConnector({ 'learner.memory': async () => [] });
    render(<LearnerMemorySections client={empty.connector.client} origin="https://a.test" version={0} registry={[example]} />);
    expect(await screen.findByText('Example learner has learned nothing on this site yet.')).toBeInTheDocument();
  });
});
