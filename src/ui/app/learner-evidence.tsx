/**
 * Each learner's evidence, shown by that learner's view: for a step
 * (`step.evidence[learnerId]`, views in EVIDENCE_VIEWS) and for one candidate
 * (`candidate.evidence[learnerId]`, views in CANDIDATE_EVIDENCE_VIEWS). A
 * learner without a view gets the generic list of its fields.
 */
import type { ComponentType } from 'preact';
import type { CandidateRecord, StepRecord } from '../../core/episode/episode.ts';
import type { CandidateEvidenceViewProps, EpisodePanelProps, EvidenceViewProps } from './learner-view-types.ts';
import { CANDIDATE_EVIDENCE_VIEWS, EPISODE_PANELS, EVIDENCE_VIEWS } from './learner-views.ts';

export type { CandidateEvidenceViewProps, EpisodePanelProps, EvidenceViewProps } from './learner-view-types.ts';
export { CANDIDATE_EVIDENCE_VIEWS, CANDIDATE_WHY, EPISODE_PANELS, EVIDENCE_VIEWS } from './learner-views.ts';
import { LEARNERS } from '../../core/learning/registry/registry.ts';



const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));

/** The fallback: the evidence's fields as a definition list (or the value itself). */
export function GenericEvidence({ evidence }: EvidenceViewProps) {
  if (typeof evidence !== 'object' || evidence === null || Array.isArray(evidence)) return <p class="meta">{show(evidence)}</p>;
  return (
    <dl class="values">
      {Object.entries(evidence).map(([key, value]) => <div key={key}><dt>{key}</dt><dd>{show(value)}</dd></div>)}
    </dl>
  );
}

export function LearnerEvidence({ step, views = EVIDENCE_VIEWS }: { step: StepRecord; views?: Readonly<Record<string, ComponentType<EvidenceViewProps>>> }) {
  const entries = Object.entries(step.evidence ?? {});
  if (entries.length === 0) return null;
  return (
    <>
      {entries.map(([learnerId, evidence]) => {
        const View = views[learnerId] ?? GenericEvidence;
        return (
          <section key={learnerId} class="learner-evidence" aria-label={`Evidence of ${learnerId}`}>
            <p class="meta">{LEARNERS.find((d) => d.id === learnerId)?.label ?? learnerId}</p>
            <View evidence={evidence} />
          </section>
        );
      })}
    </>
  );
}


export function LearnerEpisodePanels({ client, episode, panels = EPISODE_PANELS }: EpisodePanelProps & { panels?: Readonly<Record<string, ComponentType<EpisodePanelProps>>> }) {
  return <>{Object.entries(panels).map(([id, Panel]) => <Panel key={id} client={client} episode={episode} />)}</>;
}

/** What each learner says about one candidate (inside the card's Evidence section). */
export function CandidateEvidence({ step, candidate, views = CANDIDATE_EVIDENCE_VIEWS }: { step: StepRecord; candidate: CandidateRecord; views?: Readonly<Record<string, ComponentType<CandidateEvidenceViewProps>>> }) {
  const entries = Object.entries(candidate.evidence ?? {});
  if (entries.length === 0) return <p class="empty">No learner weighed this candidate.</p>;
  return (
    <>
      {entries.map(([learnerId, evidence]) => {
        const View = views[learnerId];
        return (
          <section key={learnerId} class="learner-evidence" aria-label={`Evidence of ${learnerId} for this candidate`}>
            {View ? <View evidence={evidence} stepEvidence={step.evidence?.[learnerId]} candidate={candidate} /> : <GenericEvidence evidence={evidence} />}
          </section>
        );
      })}
    </>
  );
}
