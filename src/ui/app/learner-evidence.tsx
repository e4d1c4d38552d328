/**
 * Each learner's evidence, shown by that learner's view: for a step
 * (`step.evidence[learnerId]`, views in EVIDENCE_VIEWS) and for one candidate
 * (`candidate.evidence[learnerId]`, views in CANDIDATE_EVIDENCE_VIEWS). A
 * learner without a view gets the generic list of its fields.
 */
import type { ComponentType } from 'preact';
import type { CandidateRecord, StepRecord } from '../../core/episode/episode.ts';
import { LEARNERS } from '../../core/learning/registry.ts';
import { TfgrpoEvidenceView } from './tfgrpo-evidence.tsx';
import { EvotestCandidateEvidenceView, EvotestEvidenceView } from './evotest-evidence-view.tsx';
import { MetaTtlEpisodePanel } from './metattl-guide-panel.tsx';
import type { Episode } from '../../core/episode/episode.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { JitrlCandidateEvidenceView, JitrlEvidenceView, jitrlCandidateWhy } from './jitrl-evidence.tsx';

export interface EvidenceViewProps {
  /** The stored evidence: validate it with the learner's evidenceSchema before trusting its shape. */
  evidence: unknown;
}

export interface CandidateEvidenceViewProps {
  /** The learner's stored evidence about this candidate: validate it with its candidateEvidenceSchema. */
  evidence: unknown;
  /** The same learner's evidence for the whole step (`step.evidence[learnerId]`), if any. */
  stepEvidence: unknown;
  candidate: CandidateRecord;
}

/** Per-learner views of one candidate's evidence, by learner id. */
export const CANDIDATE_EVIDENCE_VIEWS: Readonly<Record<string, ComponentType<CandidateEvidenceViewProps>>> = {
  jitrl: JitrlCandidateEvidenceView,
  evotest: EvotestCandidateEvidenceView,
};

/** One plain line a learner's evidence gives for a candidate (the card's why line), by learner id; null when it has none. */
export const CANDIDATE_WHY: Readonly<Record<string, (evidence: unknown) => string | null>> = {
  jitrl: jitrlCandidateWhy,
};

/** Per-learner views, by learner id (one line per learner). */
export const EVIDENCE_VIEWS: Readonly<Record<string, ComponentType<EvidenceViewProps>>> = {
  jitrl: JitrlEvidenceView,
  tfgrpo: TfgrpoEvidenceView,
  evotest: EvotestEvidenceView,
};

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

export interface EpisodePanelProps {
  client: UiClient;
  episode: Episode;
}

/** Learners with a panel of their own beside the episode in the Run tab (Meta-TTL's guide), by learner id. */
export const EPISODE_PANELS: Readonly<Record<string, ComponentType<EpisodePanelProps>>> = {
  metattl: MetaTtlEpisodePanel,
};

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
