/** Training-Free GRPO's view of a step: which experiences were in its prompt, numbered as the policy saw them. */
import { TfgrpoEvidenceSchema } from '../core/evidence.ts';
import type { EvidenceViewProps } from '../../../ui/app/learner-view-types.ts';

export function TfgrpoEvidenceView({ evidence }: EvidenceViewProps) {
  const parsed = TfgrpoEvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="note">Training-Free GRPO's record for this step is unreadable.</p>;
  const { experiences } = parsed.data;
  if (experiences.length === 0) return <p class="meta">No learned experience was in the prompt (none on this site yet).</p>;
  return (
    <div>
      <p class="meta">Experiences in the prompt:</p>
      <ol class="tfgrpo-shown" aria-label="Experiences in the prompt">
        {experiences.map((e) => (
          <li key={e.id} value={e.number}>{e.text} <span class="muted">[{e.id}]</span></li>
        ))}
      </ol>
    </div>
  );
}
