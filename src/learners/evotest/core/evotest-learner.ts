/**
 * EvoTest as a learner (the Act–Evolve loop on the learning seam):
 *  - beginEpisode: the configuration for this episode, by UCB over the
 *    lineage's pool (or the pinned one); checkpointed as the episode's plan;
 *  - shapeRequest: the configuration's guidance (appended to the guide), its
 *    temperature and number of candidates, and a section with its memory
 *    hints and milestones;
 *  - adjust: the hint rules' logit shifts (instruction bonus, avoid penalty),
 *    chained after the learners before it, with the hints as step evidence and each shift as
 *    its candidate's evidence;
 *  - learn: score the episode, record it on the configuration that ran,
 *    evolve children (model and/or offline operators).
 * Demonstrations and imports carry no plan: they are not scored, but the
 * lineage's shared memory keeps them.
 */
import { withEvidence, withProbabilities } from '../../../core/learning/candidate.ts';
import type { AdjustInput, AdjustOutput, EpisodeStartContext, FinishedEpisode, Learner, LearnReport, RequestChange, StepContext } from '../../../core/learning/learner.ts';
import { EvoPlanSchema, EvoStepEvidenceSchema, type EvoCandidateEvidence, type EvoPlan } from './episode-plan.ts';
import type { EvotestRuntime, StepGuidance, TrajectoryInput } from './evotest-runtime.ts';
import { pageDigest } from '../../../core/secrets/page-digest.ts';
import { regularizeUrl } from '../../../core/page/regularize-url.ts';
import type { Outcome } from './lineage.ts';
import { EVOTEST_ID } from './settings.ts';

export { EVOTEST_ID };

export class EvotestLearner implements Learner {
  readonly id = EVOTEST_ID;

  constructor(readonly runtime: EvotestRuntime) {}

  async beginEpisode(start: EpisodeStartContext): Promise<EvoPlan | undefined> {
    // A demonstration is the person acting: no configuration runs it.
    if (start.kind === 'demonstration') return undefined;
    return this.runtime.begin({ origin: start.origin, task: start.task });
  }

  async shapeRequest(context: StepContext): Promise<RequestChange> {
    const plan = planOf(context.plan);
    if (!plan) return {};
    const { temperature, numCandidates, maxSteps: _steps, ...tuned } = plan.configuration.hyperparameters;
    const guidance = await this.#guidance(plan, context);
    return {
      temperature,
      numCandidates,
      // The other learners' tunables, as this configuration sets them (each reads its own keys).
      tuned,
      ...(plan.configuration.guidance ? { guide: { mode: 'append' as const, text: plan.configuration.guidance } } : {}),
      ...(guidance.text
        ? { sections: [{ id: `evotest:${plan.configurationId}`, title: 'What earlier attempts on this site showed', text: guidance.text, suggestedActions: guidance.hints.suggested }] }
        : {}),
    };
  }

  stepLimit(plan: unknown): number | undefined {
    return planOf(plan)?.configuration.hyperparameters.maxSteps;
  }

  async adjust(input: AdjustInput): Promise<AdjustOutput> {
    const plan = planOf(input.context.plan);
    let shifts = input.candidates.map(() => 0);
    let why: (EvoCandidateEvidence | null)[] = [];
    let evidence: unknown;
    const notes: string[] = [];
    if (plan) {
      const shifted = this.runtime.shift(plan, await this.#guidance(plan, input.context), input.candidates.map((c) => c.semantic));
      shifts = shifted.shifts;
      why = shifted.candidates;
      evidence = shifted.evidence;
    } else {
      notes.push('evotest: no configuration for this episode (it started before EvoTest was on): logits unchanged');
    }
    // z as it came + the hint rules' shift, softmax taken again.
    const candidates = withProbabilities(input.candidates.map((c, i) => {
      const shifted = { ...c, adjustedLogit: c.adjustedLogit + shifts[i]! };
      return why[i] ? withEvidence(shifted, EVOTEST_ID, why[i]) : shifted;
    }));
    return { candidates, ...(evidence !== undefined ? { evidence } : {}), notes };
  }

  async learn(finished: FinishedEpisode, signal?: AbortSignal): Promise<LearnReport> {
    const plan = planOf(finished.episode.plans?.[EVOTEST_ID]);
    const trajectory = trajectoryOf(finished);
    // No configuration ran it (demonstration, import), or it was stopped without a verdict: remembered, never scored.
    if (!plan || trajectory.outcome === 'stopped') {
      const kept = await this.runtime.remember(finished.episode.origin, trajectory);
      const why = plan ? 'stopped without a verdict, so not scored' : 'no configuration ran this episode';
      return { notes: kept ? [`kept in the lineage memory (${why})`] : [] };
    }
    const report = await this.runtime.finish(plan, trajectory, signal);
    const added = report.added.map((n) => `${n.id} (${n.changes.map((c) => c.path).join(', ')})`);
    return {
      notes: [
        `${plan.configurationId} scored ${trajectory.outcome}; evolver (${report.mode}) proposed ${added.length ? added.join('; ') : 'no new configuration'}${report.invalid ? `; ${report.invalid} invalid dropped` : ''}`,
        ...report.notes,
      ],
    };
  }

  async #guidance(plan: EvoPlan, context: StepContext): Promise<StepGuidance> {
    return this.runtime.stepGuidance(plan, {
      origin: context.origin,
      regUrl: context.regUrl,
      pageText: pageDigest(context.observation),
      done: context.effectiveState,
      earlierMilestones: [],
    });
  }
}

function planOf(value: unknown): EvoPlan | null {
  const parsed = EvoPlanSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const OUTCOMES: Record<string, Outcome> = { success: 'success', partial: 'partial', failure: 'failure' };

/** The trajectory as EvoTest reads it: executed steps, with what the page showed and EvoTest's evidence. */
export function trajectoryOf(finished: FinishedEpisode): TrajectoryInput {
  const { episode, rewards } = finished;
  const steps = episode.steps.flatMap((s, i) => {
    if (!s.chosen || s.chosen.decision === 'rejected') return [];
    const evidence = EvoStepEvidenceSchema.safeParse(s.evidence?.[EVOTEST_ID]);
    const origin = regularizeUrl(s.url).origin;
    return [{
      ...(origin ? { origin } : {}),
      regUrl: s.regUrl,
      title: s.pageTitle ?? '',
      pageDigest: s.pageDigest ?? '',
      action: s.chosen.semantic,
      ok: s.result?.ok !== false,
      reward: rewards[i] ?? 0,
      rejected: s.rejected,
      evidence: evidence.success ? evidence.data : null,
    }];
  });
  return {
    episodeId: episode.id,
    task: episode.task,
    outcome: OUTCOMES[episode.status] ?? 'stopped',
    hitStepLimit: /step limit/.test(episode.error ?? ''),
    steps,
  };
}
