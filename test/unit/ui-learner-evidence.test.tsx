// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { LearnerEvidence, type EvidenceViewProps } from '../../src/ui/app/learner-evidence.tsx';
import { step } from './ui-fake-connector.ts';

afterEach(cleanup);

function BoostView({ evidence }: EvidenceViewProps) {
  const by = typeof evidence === 'object' && evidence !== null && 'by' in evidence ? String(evidence.by) : '?';
  return <p>boosted by {by}</p>;
}

describe('LearnerEvidence', () => {
  it('shows each learner\'s evidence with its own view, or its fields', () => {
    render(<LearnerEvidence step={step({ index: 0, evidence: { example: { by: 2 }, other: { plan: 'fast', n: 3 } } })} views={{ example: BoostView }} />);
    expect(within(screen.getByRole('region', { name: 'Evidence of example' })).getByText('boosted by 2')).toBeInTheDocument();
    const other = screen.getByRole('region', { name: 'Evidence of other' });
    expect(within(other).getByText('plan').nextSibling?.textContent).toBe('fast');
    expect(within(other).getByText('n').nextSibling?.textContent).toBe('3');
  });

  it('shows nothing when no learner gave evidence', () => {
    const { container } = render(<LearnerEvidence step={step({ index: 0 })} />);
    expect(container.innerHTML).toBe('');
  });
});
