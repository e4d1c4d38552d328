// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { StepContext } from '../../src/ui/app/step-view.tsx';
import { HistoryTab } from '../../src/ui/app/history-tab.tsx';
import { blankStep } from '../support/step-record.ts';
import { fakeConnector } from './ui-fake-connector.ts';

afterEach(cleanup);

describe('token usage in the panel and the history', () => {
  it('a step shows its model calls and tokens; a step without a model shows none', () => {
    render(<StepContext step={blankStep({ index: 0, url: 'https://a.test/', regUrl: 'a.test/', logitSource: 'logprobs', modelCalls: 2, promptTokens: 1830, completionTokens: 212 })} />);
    expect(screen.getByTestId('step-tokens')).toHaveTextContent('Model: 2 calls · 1830 prompt + 212 completion tokens');
    cleanup();
    render(<StepContext step={blankStep({ index: 0, url: 'https://a.test/', regUrl: 'a.test/' })} />);
    expect(screen.queryByTestId('step-tokens')).toBeNull();
  });

  it('a history row shows the episode total', async () => {
    const fake = fakeConnector({
      'history.list': async () => [
        { id: 'e1', origin: 'https://a.test', task: 'sign in', status: 'success', attempt: 1, steps: 3, startedAt: 0, endedAt: 1, kind: 'live', tokens: 4210 },
      ],
      'history.curve': async () => [{ attempt: 1, episodeId: 'e1', success: 1, steps: 3 }],
    });
    const user = userEvent.setup();
    render(<HistoryTab client={fake.connector.client} origin="https://a.test" />);
    await user.click(await screen.findByRole('button', { name: /sign in/ }));
    expect(await screen.findByRole('button', { name: /Attempt 1: .* · 3 steps · 4210 tokens/ })).toBeInTheDocument();
  });
});
