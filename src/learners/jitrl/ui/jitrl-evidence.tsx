/**
 * JitRL's views. Per step: V(s), how many neighbours it came from, and the
 * remembered actions that were not on the page. Per candidate: the advantage
 * before and after normalization (Eq. 7, 25), Q and which branch of Eq. 6
 * gave it, its support, and the past steps that took the action.
 */
import type { CandidateRecord } from '../../../core/episode/episode.ts';
import { JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema, type NeighbourSummary } from '../core/evidence.ts';
import { fmtNum } from '../../../ui/app/format.ts';
import type { CandidateEvidenceViewProps, EvidenceViewProps } from '../../../ui/app/learner-view-types.ts';

const VALUE_KIND_TEXT = {
  known: 'known (seen in memory)',
  optimistic: 'optimistic (unseen; exploration bonus)',
  neutral: 'neutral (unseen; no bonus)',
  none: 'none (no neighbours)',
} as const;

/** The neighbours behind one candidate: those whose recorded action is this one (or what it was remembered as), most similar first. */
export function neighboursFor(neighbours: readonly NeighbourSummary[], candidate: Pick<CandidateRecord, 'semantic' | 'action' | 'remembered'>, limit = 3): NeighbourSummary[] {
  const names = new Set([candidate.semantic, candidate.action, ...(candidate.remembered !== undefined ? [candidate.remembered] : [])]);
  return neighbours
    .filter((n) => names.has(n.action))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit);
}

/** JitRL's reason in one plain line, when this state's memory has one: the person did it here, or it did not work out. */
export function jitrlCandidateWhy(evidence: unknown): string | null {
  const c = JitrlCandidateEvidenceSchema.safeParse(evidence).data;
  if (!c || c.valueKind !== 'known' || c.support === 0 || c.q === null || c.q === 0) return null;
  return c.q > 0 ? 'You did this here last time.' : 'This did not work out here before.';
}

export function JitrlEvidenceView({ evidence }: EvidenceViewProps) {
  const parsed = JitrlStepEvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="note">JitRL's record for this step is unreadable.</p>;
  const { v, neighbours, droppedMemoryActions } = parsed.data;
  return (
    <>
      <p class="meta" data-testid="jitrl-value">V(s) = {fmtNum(v)} · {neighbours.length} neighbour{neighbours.length === 1 ? '' : 's'}</p>
      {droppedMemoryActions > 0 ? (
        <p class="note">
          {droppedMemoryActions} remembered action{droppedMemoryActions === 1 ? '' : 's'} no longer on this page: marked stale in memory.
        </p>
      ) : null}
    </>
  );
}

export function JitrlCandidateEvidenceView({ evidence, stepEvidence, candidate }: CandidateEvidenceViewProps) {
  const parsed = JitrlCandidateEvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="note">JitRL's record for this candidate is unreadable.</p>;
  const c = parsed.data;
  const step = JitrlStepEvidenceSchema.safeParse(stepEvidence).data;
  const past = step ? neighboursFor(step.neighbours, candidate) : [];
  return (
    <>
      <dl class="numbers">
        <div><dt>Advantage A</dt><dd data-field="advantage">{fmtNum(c.advantage, 2, true)}</dd></div>
        <div><dt>Normalized Ã</dt><dd data-field="normAdvantage">{fmtNum(c.normAdvantage, 2, true)}</dd></div>
        <div><dt>V(s)</dt><dd>{fmtNum(step?.v)}</dd></div>
        <div><dt>Q(s,a)</dt><dd>{c.valueKind === 'optimistic' ? 'no evidence: Eq. 6 exploration bonus, not a return' : fmtNum(c.q)}</dd></div>
        <div><dt>Support</dt><dd>{c.support} neighbour{c.support === 1 ? '' : 's'}</dd></div>
        <div><dt>Value</dt><dd>{VALUE_KIND_TEXT[c.valueKind]}</dd></div>
      </dl>
      {past.length > 0 ? (
        <table class="neighbours">
          <caption>Past steps that took this action</caption>
          <thead><tr><th scope="col">Task</th><th scope="col">Similarity</th><th scope="col">Return</th></tr></thead>
          <tbody>
            {past.map((n) => (
              <tr key={n.transitionId}><td>{n.task}</td><td>{fmtNum(n.similarity)}</td><td>{fmtNum(n.ret, 2, true)}</td></tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="empty">No past step took this action here.</p>
      )}
    </>
  );
}
