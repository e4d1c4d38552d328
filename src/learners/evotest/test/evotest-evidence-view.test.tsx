// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { EvotestCandidateEvidenceView, EvotestEvidenceView } from '../ui/evotest-evidence-view.tsx';
import { CandidateEvidence } from '../../../ui/app/learner-evidence.tsx';
import type { StepRecord } from '../../../core/episode/episode.ts';

afterEach(cleanup);

describe('EvoTest evidence view', () => {
  it('shows the configuration, hints and milestones of the step', () => {
    render(<EvotestEvidenceView evidence={{ configurationId: 'c3', hinted: ['click(<link "Orders">)'], avoided: ['click(<button "Next">)'], milestones: ['Order placed'] }} />);
    expect(screen.getByText('c3')).toBeInTheDocument();
    expect(screen.getByText('Milestones: Order placed')).toBeInTheDocument();
    expect(screen.getByText(/Went wrong here before/)).toBeInTheDocument();
  });

  it('shows a candidate\'s shift and why, through the candidate evidence registration', () => {
    const next = { action: 'click([4])', semantic: 'click(<button "Next">)', origin: 'model' as const, baseLogit: 2, adjustedLogit: 0.5, baseProb: 0.5, adjustedProb: 0.2, evidence: { evotest: { shift: -1.5, reason: 'avoided' } } };
    const step = { evidence: { evotest: { configurationId: 'c3', hinted: [], avoided: [next.semantic], milestones: [] } } } as unknown as StepRecord;
    render(<CandidateEvidence step={step} candidate={next} />);
    expect(screen.getByText('-1.50 (failure pattern)')).toBeInTheDocument();
    expect(screen.getByText('c3')).toBeInTheDocument();
  });

  it('says when a candidate\'s stored evidence does not parse', () => {
    const c = { action: 'click([4])', semantic: 'click(<button "Next">)', origin: 'model' as const, baseLogit: 0, adjustedLogit: 0, baseProb: 1, adjustedProb: 1 };
    render(<EvotestCandidateEvidenceView evidence={{ shift: '-1.5' }} stepEvidence={undefined} candidate={c} />);
    expect(screen.getByText(/unreadable/)).toBeInTheDocument();
  });

  it('says when stored evidence does not parse', () => {
    render(<EvotestEvidenceView evidence={{ configurationId: 3 }} />);
    expect(screen.getByText(/EvoTest evidence unreadable/)).toBeInTheDocument();
  });
});
