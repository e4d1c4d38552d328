// @vitest-environment happy-dom
// Issue 24 in the panel: the approval card says where the element leads (link
// and origin, or the form's action and method), marks the rationale as the
// model's words, and the step says why it ran unasked or why it asks.
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CandidateList, StepContext } from '../../src/ui/app/step-view.tsx';
import { candidate, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const proposed = step({
  index: 0,
  autonomy: { ran: false, reason: 'you approved it 1× here; 2 needed' },
  candidates: [
    candidate({ action: 'click([5])', semantic: 'click(<link "Claim reward">)', rationale: 'The page says to claim it first.', target: { role: 'link', name: 'Claim reward', href: 'https://evil.test/collect?s=1', submits: false } }),
    candidate({ action: 'click([3])', semantic: 'click(<button "Save">)', target: { role: 'button', name: 'Save', formAction: 'https://shop.test/settings', formMethod: 'post', submits: true } }),
  ],
});

describe('the approval card', () => {
  it('shows the link and its origin, or the form action and method, and marks the rationale as model text', () => {
    render(<CandidateList step={proposed} />);
    const [link, save] = within(screen.getByRole('list', { name: /Candidates for step 1/ })).getAllByRole('listitem');
    expect(within(link!).getByTestId('target-details')).toHaveTextContent('Goes to https://evil.test/collect?s=1 (origin https://evil.test).');
    expect(within(link!).getByText("model's words")).toHaveAttribute('title', expect.stringMatching(/Written by the model/));
    expect(within(save!).getByTestId('target-details')).toHaveTextContent('Its form goes to https://shop.test/settings (origin https://shop.test, post); this submits it.');
  });

  it('says why the step asks, or why it ran unasked', () => {
    render(<StepContext step={proposed} />);
    expect(screen.getByTestId('autonomy-reason')).toHaveTextContent('Asks because you approved it 1× here; 2 needed.');
    cleanup();
    render(<StepContext step={{ ...proposed, autonomy: { ran: true, reason: 'you approved it 3× on this page, same target' } }} />);
    expect(screen.getByTestId('autonomy-reason')).toHaveTextContent('Ran without asking: you approved it 3× on this page, same target.');
  });
});
