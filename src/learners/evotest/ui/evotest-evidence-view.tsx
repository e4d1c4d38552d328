/**
 * EvoTest's evidence: for one step, which configuration ran, the memory hints
 * and failure patterns it applied on this page and the milestones seen; for
 * one candidate, the logit shift a hint rule made and why (both validated
 * with their schemas: stored data is untrusted).
 */
import { EvoCandidateEvidenceSchema, EvoStepEvidenceSchema } from '../core/episode-plan.ts';
import type { CandidateEvidenceViewProps } from '../../../ui/app/learner-view-types.ts';
import { fmtNum } from '../../../ui/app/format.ts';

export function EvotestEvidenceView({ evidence }: { evidence: unknown }) {
  const parsed = EvoStepEvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="meta">EvoTest evidence unreadable ({parsed.error.issues[0]?.message ?? 'invalid'}).</p>;
  const e = parsed.data;
  return (
    <div class="evotest-evidence">
      <p class="meta">Configuration <strong>{e.configurationId}</strong></p>
      {e.milestones.length ? <p>Milestones: {e.milestones.join(' · ')}</p> : null}
      {e.hinted.length ? <p>Memory hinted: {e.hinted.map((a) => <code key={a}>{a} </code>)}</p> : null}
      {e.avoided.length ? <p>Went wrong here before: {e.avoided.map((a) => <code key={a}>{a} </code>)}</p> : null}
    </div>
  );
}

const REASON_TEXT = { hinted: 'instruction from memory', avoided: 'failure pattern' } as const;

export function EvotestCandidateEvidenceView({ evidence, stepEvidence }: CandidateEvidenceViewProps) {
  const parsed = EvoCandidateEvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="note">EvoTest's record for this candidate is unreadable.</p>;
  const configuration = EvoStepEvidenceSchema.safeParse(stepEvidence).data?.configurationId;
  return (
    <dl class="numbers">
      <div><dt>EvoTest shift</dt><dd data-field="evotest-shift">{fmtNum(parsed.data.shift, 2, true)} ({REASON_TEXT[parsed.data.reason]})</dd></div>
      {configuration ? <div><dt>Configuration</dt><dd>{configuration}</dd></div> : null}
    </dl>
  );
}
