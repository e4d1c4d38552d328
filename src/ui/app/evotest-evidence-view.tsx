/**
 * EvoTest's evidence for one step: which configuration ran, the memory hints
 * and failure patterns it applied on this page, milestones seen, and the
 * logit shifts it made (validated with its schema: stored data is untrusted).
 */
import { EvoStepEvidenceSchema } from '../../core/learning/evotest/episode-plan.ts';
import { fmtNum } from './format.ts';

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
      {e.shifts.length ? (
        <ul>
          {e.shifts.map((s) => <li key={s.semantic}><code>{s.semantic}</code> {fmtNum(s.shift, 2, true)} ({s.reason === 'hinted' ? 'instruction from memory' : 'failure pattern'})</li>)}
        </ul>
      ) : <p class="muted">No logit changed.</p>}
    </div>
  );
}
