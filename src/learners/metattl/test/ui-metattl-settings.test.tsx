// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { importMetaPrompt, resetStrategy } from '../core/import-meta-prompt.ts';
import { META_PROMPT_FORMAT, type MetaPromptFile } from '../core/meta-prompt-file.ts';
import { SHIPPED_STRATEGY } from '../core/meta-prompt.ts';
import { DEFAULT_METATTL, type MetaTtlSettings } from '../core/metattl-settings.ts';
import { MetaTtlSettingsSection } from '../ui/metattl-settings-section.tsx';

afterEach(cleanup);

const FILE: MetaPromptFile = {
  format: META_PROMPT_FORMAT, version: 1, strategy: 'Name the exact control.', createdAt: '2026-11-23T06:00:00.000Z',
  training: {
    suite: 'apprentice-sites', train: ['a'], val: ['x', 'y'], budget: 10, evaluations: 9, attempts: 3, selection: 'mean',
    validation: { x: 0.5, y: 1 }, seedValidation: { x: 0, y: 0.5 }, model: 'test-model',
  },
};

describe('importing a meta-training file', () => {
  it('replaces the strategy and notes where it came from', () => {
    const r = importMetaPrompt(DEFAULT_METATTL, JSON.stringify(FILE));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings).toMatchObject({ strategy: 'Name the exact control.', strategySource: 'imported' });
    // mean validation (0.5 + 1)/2 = 75%, seed (0 + 0.5)/2 = 25%
    expect(r.summary).toBe('meta-trained on apprentice-sites (1 training, 2 validation tasks, 9 evaluations, test-model); validation W-AUC 75.0% vs seed 25.0%, 2026-11-23');
    expect(resetStrategy(r.settings)).toMatchObject({ strategy: SHIPPED_STRATEGY, strategySource: 'shipped', strategyNote: '' });
  });
  it('rejects other files with a clear reason', () => {
    expect(importMetaPrompt(DEFAULT_METATTL, 'nope')).toEqual({ ok: false, error: 'the file is not JSON' });
    expect(importMetaPrompt(DEFAULT_METATTL, '{"transitions": []}')).toMatchObject({ ok: false, error: expect.stringMatching(/not a meta-prompt file/) });
    expect(importMetaPrompt(DEFAULT_METATTL, JSON.stringify({ ...FILE, strategy: 'x'.repeat(20_000) }))).toMatchObject({ ok: false, error: expect.stringMatching(/^the meta-prompt file is invalid: strategy/) });
  });
});

describe('Meta-TTL settings section', () => {
  it('imports a file in the options page, and a bad file changes nothing', async () => {
    const saved: MetaTtlSettings[] = [];
    const user = userEvent.setup();
    render(<MetaTtlSettingsSection settings={DEFAULT_METATTL} needsModel={null} onChange={async (s) => { saved.push(s); }} />);
    expect(screen.getByText('the shipped strategy')).toBeInTheDocument();
    const input = screen.getByLabelText('Import meta-prompt');
    await user.upload(input, new File(['{"x":1}'], 'bad.json', { type: 'application/json' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('bad.json was not imported, and nothing was changed: not a meta-prompt file');
    expect(saved).toEqual([]);
    await user.upload(input, new File([JSON.stringify(FILE)], 'meta-prompt.json', { type: 'application/json' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Imported the meta-prompt from meta-prompt.json');
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ strategy: 'Name the exact control.', strategySource: 'imported' });
  });
  it('says it needs a model when none is configured', () => {
    render(<MetaTtlSettingsSection settings={DEFAULT_METATTL} needsModel="Meta-TTL needs a model." onChange={async () => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Meta-TTL needs a model.');
  });
});

describe('the options page', () => {
  it('imports a meta-training file into settings.learners.metattl, and the main Save keeps it', async () => {
    const { OptionsPage } = await import('../../../ui/app/options-page.tsx');
    const { fakeConnector } = await import('../../../../test/unit/ui-fake-connector.ts');
    const { DEFAULT_SETTINGS } = await import('../../../core/settings.ts');
    const { NEEDS_MODEL } = await import('../core/guide-adaptation.ts');
    let stored = DEFAULT_SETTINGS;
    const fake = fakeConnector({
      'settings.get': async () => stored,
      'settings.set': async ({ settings }) => (stored = settings),
    });
    const user = userEvent.setup();
    render(<OptionsPage client={fake.connector.client} />);
    const input = await screen.findByLabelText('Import meta-prompt');
    // The offline preset: Meta-TTL says it needs a model.
    expect(screen.getAllByRole('status').some((s) => s.textContent === NEEDS_MODEL)).toBe(true);
    await user.upload(input, new File([JSON.stringify(FILE)], 'meta-prompt.json', { type: 'application/json' }));
    expect(await screen.findByText(/Imported the meta-prompt from meta-prompt.json/)).toBeInTheDocument();
    expect(stored.learners?.['metattl']).toMatchObject({ strategy: 'Name the exact control.', strategySource: 'imported' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(stored.learners?.['metattl']).toMatchObject({ strategySource: 'imported' });
  });
});
