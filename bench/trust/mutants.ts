/**
 * The mutants of `bench:trust`: each switches one defence off inside the
 * bench process, so the bench itself shows the figure that defence holds
 * going wrong. Patched on the controller's prototype for the run and
 * restored after; production code has no switch for them.
 *
 * - gate-off: every proposal runs unasked (the autonomy gate says yes);
 * - word-list-gate: the gate before issue 24 (auto-approve on the site, a word list decides);
 * - act-time-check-off: the element as approved is not sent to the page
 *   layer (done in the driver wrapper of adaptive-run.ts);
 * - task-masking-off: the secret the person typed in the task reaches the
 *   stored episode (and so the prompt) unmasked (done in the store wrapper of
 *   adaptive-run.ts).
 */
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { autoApproveVerdict } from '../../src/core/agent/sensitive-actions.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';

export type Mutant = 'gate-off' | 'word-list-gate' | 'act-check-off' | 'task-masking-off';

type Gate = (this: AgentController, episode: Episode, observation: PageObservation) => Promise<{ run: boolean; episode: Episode }>;

export function installMutant(mutant: Mutant | null, siteOrigin: string): () => void {
  if (mutant !== 'gate-off' && mutant !== 'word-list-gate') return () => {};
  const proto = AgentController.prototype as unknown as { runsUnasked: Gate };
  const original = proto.runsUnasked;
  proto.runsUnasked = async function (this: AgentController, episode, observation) {
    const latest = await this.get(episode.id);
    if (latest.status !== 'awaiting_approval') return { run: false, episode: latest };
    if (mutant === 'gate-off') return { run: true, episode: latest };
    const top = latest.steps.at(-1)?.candidates[0];
    const parsed = top ? parseAction(top.action) : null;
    if (!top || !parsed?.ok) return { run: false, episode: latest };
    const verdict = autoApproveVerdict({ grantedOrigins: [siteOrigin], observation, action: parsed.action, candidateOrigin: top.origin, previousUrl: latest.steps.at(-2)?.url ?? null });
    return { run: !verdict.sensitive, episode: latest };
  };
  return () => {
    proto.runsUnasked = original;
  };
}
