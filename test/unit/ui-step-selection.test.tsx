// @vitest-environment happy-dom
// Issue 10 in the panel: the proposal shown is the sampled one and says so;
// barred candidates, loose resolutions and loops are visible.
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CandidateList, StepContext } from '../../src/ui/app/step-view.tsx';
import { candidate, step } from './ui-fake-connector.ts';

afterEach(cleanup);

const sampled = step({
  index: 2,
  selection: { how: 'sampled', probability: 0.3, temperature: 1 },
  loop: { since: 0, length: 2, repeated: ['click(<link "Mug">)'] },
  candidates: [
    candidate({ action: 'click([5])', semantic: 'click(<button "Sign up">)', adjustedProb: 0.3 }),
    candidate({ action: 'click([3])', semantic: 'click(<button "Cancel">)', adjustedProb: 0.6 }),
    candidate({ action: 'click([7])', semantic: 'click(<link "Mug">)', adjustedProb: 0.1, barred: 'loop' }),
    candidate({ action: 'click([8])', semantic: 'click(<button "Wishlist">)', origin: 'memory', remembered: 'click(<button "Wish list">)', adjustedProb: 0 }),
  ],
});

describe('the proposal and its choice in the panel', () => {
  it('lists the sampled proposal first, with its probability, whatever the adjusted ranking', () => {
    render(<CandidateList step={sampled} />);
    const list = screen.getByRole('list', { name: 'Candidates for step 3, the proposal first' });
    const items = within(list).getAllByRole('listitem');
    expect(within(items[0]!).getByText('click(<button "Sign up">)', { exact: false })).toBeInTheDocument();
    expect(within(items[0]!).getByText('sampled (p = 30.0%, T = 1.0)')).toBeInTheDocument();
    expect(within(items[2]!).getByText('barred: leads round a loop')).toBeInTheDocument();
    expect(within(items[3]!).getByText('click(<button "Wish list">)')).toBeInTheDocument();
  });

  it('shows the loop to the person', () => {
    render(<StepContext step={sampled} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loop: the page is back to how it was before step 1, 2 steps without progress. Not proposed again here: click(<link "Mug">).');
  });
});
