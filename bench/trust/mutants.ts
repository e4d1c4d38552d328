/**
 * The mutants of `bench:trust`: each switches one defence off inside the
 * bench process, so the bench itself shows the figure that defence holds
 * going wrong. Patched on the controller's prototype for the run and
 * restored after; production code has no switch for them.
 *
 * - gate-off: every proposal runs unasked (the autonomy gate says yes);
 * - word-list-gate: the gate before issue 24 (auto-approve on the site, a word list decides);
 * - effect-binding-off: the gate before issue 30 — links, forms and pages
 *   compared by origin and path, no form data (the real gate on a blurred
 *   view: effect-blur.ts);
 * - act-time-check-off: the element as approved is not sent to the page
 *   layer (done in the driver wrapper of adaptive-run.ts);
 * - task-masking-off: the secret the person typed in the task reaches the
 *   stored episode (and so the prompt) unmasked (done in the store wrapper of
 *   adaptive-run.ts);
 * - fingerprint-off, repeat-off, n-tasks-off, rejection-off,
 *   own-approvals-off, always-ask-off, origin-change-off, unknown-outcome-off:
 *   the real gate with one of its rules blinded (gate-rule-mutants.ts);
 * - forget-start-only: "Forget this site" as before issue 30, deleting only
 *   the tasks that started on the site (done in adaptive-run.ts);
 * - content-check-off: replay's check that the page still shows the task's
 *   item before a plan step acts on it has nothing to look for (the plan's
 *   steps with the values written in: plan-shapes.ts `benchReplayPort`).
 *
 * `MUTANTS` lists them all: the bench runs every one, and
 * `test/e2e/trust-adaptive.e2e.test.ts` fails when one leaves its figure as
 * the real gate prints it.
 */
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { proposeOnce } from '../../src/core/agent/step-proposal.ts';
import type { AgentRuntime } from '../../src/core/agent/agent-runtime.ts';
import { autoApproveVerdict } from '../../src/core/agent/sensitive-actions.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { autonomyVerdict } from '../../src/core/agent/autonomy-stage.ts';
import { blurEpisode, blurObservation, blurredStore } from './effect-blur.ts';
import type { AttackClass } from './attack-classes.ts';
import { isRuleMutant, RULE_MUTANTS, ruleMutantVerdict, type RuleMutant } from './gate-rule-mutants.ts';

type GateMutant = 'gate-off' | 'word-list-gate' | 'effect-binding-off' | RuleMutant;
export const MUTANTS = ['gate-off', 'word-list-gate', 'effect-binding-off', 'act-check-off', 'task-masking-off', ...RULE_MUTANTS, 'forget-start-only', 'content-check-off'] as const;
export type Mutant = (typeof MUTANTS)[number];

/**
 * The attack classes each mutant must do harm on (one page of each is enough):
 * the CI check runs every mutant on its classes and fails when one leaves a
 * page's figure as the real gate prints it. A mutant without an entry does not typecheck.
 */
export const MUTANT_TARGETS: Readonly<Record<Mutant, readonly AttackClass[]>> = {
  'gate-off': ['key-alias-submit'],
  'word-list-gate': ['script-button'],
  'effect-binding-off': ['other-row', 'other-query'],
  'act-check-off': ['href-swap', 'capture-swap'],
  'task-masking-off': ['comment-exfil'],
  'fingerprint-off': ['same-name-elsewhere'],
  'repeat-off': ['repeat'],
  'n-tasks-off': ['one-task-approvals'],
  'rejection-off': ['rejected-since'],
  'own-approvals-off': ['imported-approvals'],
  'always-ask-off': ['other-origin-link'],
  'origin-change-off': ['from-other-origin'],
  'unknown-outcome-off': ['unknown-outcome'],
  'forget-start-only': ['forgotten-elsewhere'],
  'content-check-off': ['substitute-item'],
};
const isGateMutant = (m: Mutant | null): m is GateMutant => m === 'gate-off' || m === 'word-list-gate' || m === 'effect-binding-off' || isRuleMutant(m);

/** The controller's insides the gate mutants replace: its runtime, its propose loop, how it carries out an approval. */
interface ControllerInsides {
  rt: AgentRuntime;
  proposeStep(episodeId: string, options?: { exclude?: string[] }): Promise<Episode>;
  carryOut(episodeId: string, decision: { kind: 'approve' }, options: { auto?: boolean }): Promise<{ episode: Episode; exclude: string[] }>;
}

/** The mutant's gate: whether the pending proposal runs without the person. */
async function mutantRuns(mutant: GateMutant, rt: AgentRuntime, episode: Episode, observation: PageObservation, siteOrigin: string): Promise<boolean> {
  const latest = await rt.get(episode.id);
  if (latest.status !== 'awaiting_approval') return false;
  if (mutant === 'gate-off') return true;
  // Replayed plan steps keep their own verdict; these mutants are about earned autonomy.
  if (isRuleMutant(mutant)) return latest.steps.at(-1)?.replayStep === undefined && (await ruleMutantVerdict(mutant, rt.deps.episodes, latest, observation, rt.deps.settings())).run;
  if (mutant === 'effect-binding-off') {
    if (latest.steps.at(-1)?.replayStep !== undefined) return false;
    return (await autonomyVerdict(blurredStore(rt.deps.episodes), blurEpisode(latest), blurObservation(observation), rt.deps.settings())).run;
  }
  const top = latest.steps.at(-1)?.candidates[0];
  const parsed = top ? parseAction(top.action) : null;
  if (!top || !parsed?.ok) return false;
  const verdict = autoApproveVerdict({ grantedOrigins: [siteOrigin], observation, action: parsed.action, candidateOrigin: top.origin, previousUrl: latest.steps.at(-2)?.url ?? null });
  return !verdict.sensitive;
}

/**
 * Replaces the controller's propose loop (AgentController.proposeStep) by the
 * same loop with the mutant's gate in place of the autonomy gate. Throws when
 * the controller no longer has the insides it patches, so a refactor cannot
 * turn a mutant into a silent no-op (its test would then see 0 harm anyway).
 */
export function installMutant(mutant: Mutant | null, siteOrigin: string): () => void {
  if (!isGateMutant(mutant)) return () => {};
  const proto = AgentController.prototype as unknown as ControllerInsides;
  const original = proto.proposeStep;
  if (typeof original !== 'function' || typeof proto.carryOut !== 'function') throw new Error('mutants.ts: AgentController has no proposeStep/carryOut to patch');
  proto.proposeStep = async function (this: ControllerInsides, episodeId, options = {}) {
    if (!this.rt) throw new Error('mutants.ts: AgentController has no runtime (rt) to patch');
    let proposed = await proposeOnce(this.rt, episodeId, options.exclude ?? []);
    while (proposed.observation) {
      if (!(await mutantRuns(mutant, this.rt, proposed.episode, proposed.observation, siteOrigin))) break;
      const acted = await this.carryOut(episodeId, { kind: 'approve' }, { auto: true });
      if (acted.episode.status !== 'running') return acted.episode;
      proposed = await proposeOnce(this.rt, episodeId, acted.exclude);
    }
    return this.rt.get(episodeId);
  };
  return () => {
    proto.proposeStep = original;
  };
}
