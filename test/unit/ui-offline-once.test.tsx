// @vitest-environment happy-dom
/**
 * Issue 31: after a failure with a model set up, the Run tab offers this one step without the model,
 * and sends the resume that says so; with the offline provider (or no failure) it offers nothing.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { App } from '../../src/ui/app/app.tsx';
import { episode, fakeConnector, fakeTabs } from './ui-fake-connector.ts';

afterEach(cleanup);

const withModel: Settings = { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, preset: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'prosy' } };
const failed = episode({ status: 'paused', steps: [], error: "The model's answer could not be understood, even after a repair and a retry: the answer contains no JSON object." });

function setup(current: Episode, settings: Settings) {
  const fake = fakeConnector({
    'episode.current': async () => current, 'settings.get': async () => settings,
    'episode.resume': async () => ({ ...current, status: 'running', error: null }),
  });
  render(<App connector={fake.connector} tabs={fakeTabs()} tabIdOverride={null} openOptions={() => undefined} surface="sidepanel" />);
  return { ...fake, user: userEvent.setup() };
}

describe('this step without the model', () => {
  it('is offered after a failure with a model set up, and resumes with the offline policy once', async () => {
    const { user, callsOf } = setup(failed, withModel);
    await user.click(await screen.findByRole('button', { name: 'Propose this step without the model' }));
    expect(callsOf('episode.resume')).toEqual([{ episodeId: 'ep-1', offlineOnce: true }]);
  });

  it('is not offered with the offline provider, nor without a failure', async () => {
    setup(failed, DEFAULT_SETTINGS);
    await screen.findByRole('button', { name: 'Resume' });
    expect(screen.queryByRole('button', { name: 'Propose this step without the model' })).toBeNull();
    cleanup();
    setup({ ...failed, error: null }, withModel);
    await screen.findByRole('button', { name: 'Resume' });
    expect(screen.queryByRole('button', { name: 'Propose this step without the model' })).toBeNull();
  });
});
