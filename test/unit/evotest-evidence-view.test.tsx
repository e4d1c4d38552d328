// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { EvotestEvidenceView } from '../../src/ui/app/evotest-evidence-view.tsx';

afterEach(cleanup);

describe('EvoTest evidence view', () => {
  it('shows the configuration, hints and shifts', () => {
    render(<EvotestEvidenceView evidence={{ configurationId: 'c3', hinted: ['click(<link "Orders">)'], avoided: ['click(<button "Next">)'], milestones: ['Order placed'], shifts: [{ semantic: 'click(<button "Next">)', shift: -1.5, reason: 'avoided' }] }} />);
    expect(screen.getByText('c3')).toBeInTheDocument();
    expect(screen.getByText('Milestones: Order placed')).toBeInTheDocument();
    expect(screen.getByText(/-1.50 \(failure pattern\)/)).toBeInTheDocument();
  });

  it('says when stored evidence does not parse', () => {
    render(<EvotestEvidenceView evidence={{ configurationId: 3 }} />);
    expect(screen.getByText(/EvoTest evidence unreadable/)).toBeInTheDocument();
  });
});
