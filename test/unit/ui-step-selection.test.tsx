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
    candidate({ action: 'click([5])', semantic: 'click(<button "Sign up">)', adjustedProb: 0.3, adjustedLogit: -1.2 }),
    candidate({ action: 'click([3])', semantic: 'click(<button "Cancel">)', adjustedProb: 0.6, adjustedLogit: -0.51 }),
    candidate({ action: 'click([7])', semantic: 'click(<link "Mug">)', adjustedProb: 0.1, adjustedLogit: -0.3, barred: 'loop' }),
    candidate({ action: 'click([8])', semantic: 'click(<button "Wishlist">)', origin: 'memory', remembered: 'click(<button "Wish list">)', adjustedProb: 0, adjustedLogit: -9 }),
  ],
});

describe('the proposal and its choice in the panel', () => {
  it('lists the sampled proposal first, with its probability under Details, whatever the adjusted ranking', () => {
    render(<CandidateList step={sampled} />);
    const list = screen.getByRole('list', { name: 'Candidates for step 3, the proposal first' });
    const items = within(list).getAllByRole('listitem');
    expect(within(items[0]!).getByText('Click “Sign up”', { exact: false })).toBeInTheDocument();
    expect(within(items[0]!).getByText('exploring')).toBeInTheDocument();
    expect(within(items[0]!).getByTestId('selection')).toHaveTextContent('sampled (p = 30.0%, T = 1.0)');
    expect(within(items[0]!).getByTestId('selection').closest('details')).not.toHaveAttribute('open');
    expect(within(items[2]!).getByText('barred: leads round a loop')).toBeInTheDocument();
    expect(within(items[3]!).getByText('Remembered as Click “Wish list”; on this page it acts on the element shown.')).toBeInTheDocument();
  });

  it('says in words when the proposal is exploring, and which card is the likeliest (issue 31)', () => {
    render(<CandidateList step={sampled} />);
    const items = within(screen.getByRole('list', { name: /Candidates for step 3/ })).getAllByRole('listitem');
    // Stored in proposal order: "Cancel" (z′ highest) is card #2.
    expect(within(items[0]!).getByTestId('exploring')).toHaveTextContent('Trying a less likely option to learn; the likeliest is #2.');
    expect(screen.getAllByTestId('exploring')).toHaveLength(1);
    cleanup();
    // Drawn, but the likeliest anyway: nothing to explain.
    const likeliest = { ...sampled, candidates: [sampled.candidates[1]!, sampled.candidates[0]!] };
    render(<CandidateList step={likeliest} />);
    expect(screen.queryByTestId('exploring')).toBeNull();
  });

  it('shows the loop to the person', () => {
    render(<StepContext step={sampled} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loop: the page is back to how it was before step 1, 2 steps without progress. Not proposed again here: click(<link "Mug">).');
  });
});
