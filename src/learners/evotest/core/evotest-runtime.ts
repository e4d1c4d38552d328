/**
 * EvoTest's Act–Evolve loop, independent of how the agent calls it:
 *  - `begin`: load (or start) the lineage of this site and task template and
 *    choose the episode's configuration by UCB (or the pinned one);
 *  - `stepGuidance`: the running configuration's memory hints and milestones
 *    for the current page;
 *  - `shift`: the hint logit shifts for the proposed candidates, with why;
 *  - `finish`: score the episode, record it, evolve children, save.
 * The learner adapter (evotest-learner.ts) maps these onto the learner
 * contract.
 */
import type { ChatModel, Clock } from '../../../core/ports.ts';
import type { Tunables } from '../../../core/learning/tunables.ts';
import { taskTemplateOf, type EvoConfiguration } from './configuration.ts';
import { evolveAfterEpisode, type EvolveReport } from './evolve.ts';
import type { EvoCandidateEvidence, EvoPlan, EvoStepEvidence } from './episode-plan.ts';
import { buildMemory, hintsFor, phraseHints, type MemoryHints } from './experience-memory.ts';
import { hintShift } from './apply-hints.ts';
import { lineageKey, MAX_EPISODES_PER_LINEAGE, newLineage, type EpisodeDigest, type Lineage, type Outcome } from './lineage.ts';
import { selectConfiguration } from './select-configuration.ts';
import type { LineageStore } from './lineage-store.ts';
import type { EvotestSettings } from './settings.ts';
import { abstractDigest, milestonesIn } from './state-abstraction.ts';

export interface EvotestRuntimeOptions {
  store: LineageStore;
  settings: () => EvotestSettings;
  /** The evolver model; null = offline evolver. */
  model: () => ChatModel | null;
  /** The starting configuration of a new lineage (from the product's current settings). */
  seed: () => EvoConfiguration;
  /** The registry's tunables: what the configurations' hyperparameters may set beyond EvoTest's own. */
  tunables: Tunables;
  clock: Clock;
}

export interface TrajectoryStepInput {
  /** The page's origin, when known (memory is keyed by origin and page type). */
  origin?: string;
  regUrl: string;
  title: string;
  /** The page digest the trajectory kept for this step (rendered snapshot, capped, secrets masked). */
  pageDigest: string;
  /** Semantic action that ran. */
  action: string;
  ok: boolean;
  reward: number;
  rejected: string[];
  /** EvoTest's evidence recorded on this step, when it ran. */
  evidence: EvoStepEvidence | null;
}

export interface TrajectoryInput {
  episodeId: string;
  task: string;
  outcome: Outcome;
  hitStepLimit: boolean;
  steps: TrajectoryStepInput[];
}

export interface StepGuidance {
  hints: MemoryHints;
  milestones: string[];
  /** Prompt text (hints phrased by the rules, milestones), empty when there is nothing to say. */
  text: string;
}

/** Which evolver runs: the model when one is configured and allowed, else the offline operators. */
export const evolverMode = (settings: EvotestSettings, model: ChatModel | null): 'model' | 'offline' => (settings.useModel && model ? 'model' : 'offline');

/** Episode score on [0, 1] for UCB: the fraction of the task achieved. */
export const scoreOfOutcome = (outcome: Outcome): number => (outcome === 'success' ? 1 : outcome === 'partial' ? 0.5 : 0);

export class EvotestRuntime {
  /**
   * Read-modify-writes of one lineage run one at a time, in call order: two
   * tabs' episodes finishing together each add their run (none is lost), as
   * the other learners' stores do.
   */
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(private readonly options: EvotestRuntimeOptions) {}

  #serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }

  mode(): 'model' | 'offline' {
    return evolverMode(this.options.settings(), this.options.model());
  }

  async lineageFor(origin: string, task: string): Promise<Lineage> {
    const template = taskTemplateOf(task);
    return (await this.options.store.get(lineageKey(origin, template))) ??
      newLineage({ origin, template, seed: this.options.seed(), now: this.options.clock.now() });
  }

  async begin(input: { origin: string; task: string }): Promise<EvoPlan> {
    const lineage = await this.#serial(lineageKey(input.origin, taskTemplateOf(input.task)), async () => {
      const found = await this.lineageFor(input.origin, input.task);
      if (found.episodes.length === 0 && found.nodes.length === 1) await this.options.store.put(found);
      return found;
    });
    const { node, ucb, chosenBy } = selectConfiguration(lineage, this.options.settings().exploration);
    return { lineageKey: lineage.key, configurationId: node.id, configuration: node.configuration, mode: this.mode(), pinned: chosenBy === 'pinned', chosenBy, ucb: ucb?.rows ?? null };
  }

  /** `origin`: the current page's; absent = the lineage's site. */
  async stepGuidance(plan: EvoPlan, input: { origin?: string; regUrl: string; pageText: string; done: readonly string[]; earlierMilestones: readonly string[] }): Promise<StepGuidance> {
    const lineage = await this.options.store.get(plan.lineageKey);
    const rules = plan.configuration.memoryRules;
    const hints = lineage
      ? hintsFor(buildMemory(lineage.episodes, rules, lineage.origin), rules, { origin: input.origin ?? lineage.origin, regUrl: input.regUrl, done: input.done })
      : { suggested: [], avoid: [] };
    const here = milestonesIn(input.pageText, plan.configuration.stateAbstraction);
    const milestones = [...new Set([...input.earlierMilestones, ...here])];
    const parts: string[] = [];
    if (milestones.length) parts.push(milestones.map((m) => `Milestone: ${m}`).join('\n'));
    const phrased = phraseHints(hints, rules);
    if (phrased) parts.push(phrased);
    return { hints, milestones, text: parts.join('\n') };
  }

  /**
   * Logit shifts of the hint rules for candidates (semantic form), each
   * shifted candidate's evidence (null where no rule applied), and the step's.
   */
  shift(plan: EvoPlan, guidance: StepGuidance, semantics: readonly string[]): { shifts: number[]; candidates: (EvoCandidateEvidence | null)[]; evidence: EvoStepEvidence } {
    const rules = plan.configuration.memoryRules;
    const evidence: EvoStepEvidence = {
      configurationId: plan.configurationId,
      hinted: guidance.hints.suggested,
      avoided: guidance.hints.avoid.map((f) => f.action),
      milestones: guidance.milestones,
    };
    const applied = semantics.map((semantic) => hintShift(semantic, guidance.hints, rules));
    return {
      shifts: applied.map((s) => s.shift),
      candidates: applied.map((s) => (s.reason ? { shift: s.shift, reason: s.reason } : null)),
      evidence,
    };
  }

  /**
   * An episode no configuration ran (a demonstration, an import): not scored,
   * nothing evolves, but the lineage's shared memory keeps it (its success
   * pairs are as good as any). Returns whether it was kept.
   */
  async remember(origin: string, trajectory: TrajectoryInput): Promise<boolean> {
    if (trajectory.steps.length === 0) return false;
    return this.#serial(lineageKey(origin, taskTemplateOf(trajectory.task)), () => this.#remember(origin, trajectory));
  }

  async #remember(origin: string, trajectory: TrajectoryInput): Promise<boolean> {
    const lineage = await this.lineageFor(origin, trajectory.task);
    const current = lineage.nodes.find((n) => n.id === lineage.currentId) ?? lineage.nodes[0]!;
    const digest = this.#digest(trajectory, '', current.configuration, lineage.origin);
    const episodes = [...lineage.episodes.filter((e) => e.episodeId !== digest.episodeId), digest].slice(-MAX_EPISODES_PER_LINEAGE);
    await this.options.store.put({ ...lineage, episodes, updatedAt: digest.at });
    return true;
  }

  #digest(trajectory: TrajectoryInput, configurationId: string, configuration: EvoConfiguration, origin: string): EpisodeDigest {
    return {
      episodeId: trajectory.episodeId,
      task: trajectory.task,
      configurationId,
      outcome: trajectory.outcome,
      score: scoreOfOutcome(trajectory.outcome),
      hitStepLimit: trajectory.hitStepLimit,
      at: this.options.clock.now(),
      steps: trajectory.steps.map((s) => ({
        ...(s.origin !== undefined && s.origin !== origin ? { origin: s.origin } : {}),
        regUrl: s.regUrl,
        title: s.title,
        action: s.action,
        ok: s.ok,
        reward: s.reward,
        rejected: s.rejected,
        hinted: s.evidence?.hinted ?? [],
        page: abstractDigest(s.pageDigest, configuration.stateAbstraction),
      })),
    };
  }

  async finish(plan: EvoPlan, trajectory: TrajectoryInput, signal?: AbortSignal): Promise<EvolveReport> {
    return this.#serial(plan.lineageKey, () => this.#finish(plan, trajectory, signal));
  }

  async #finish(plan: EvoPlan, trajectory: TrajectoryInput, signal?: AbortSignal): Promise<EvolveReport> {
    const now = this.options.clock.now();
    const stored = await this.options.store.get(plan.lineageKey);
    // Forgotten or reset while the episode ran: the person asked to start over, so this result is dropped.
    const lineage = stored?.nodes.some((n) => n.id === plan.configurationId) ? stored : null;
    if (!lineage) return { mode: plan.mode, added: [], invalid: 0, notes: [`the configuration ${plan.configurationId} was reset or forgotten during the episode: nothing recorded`] };
    const digest = this.#digest(trajectory, plan.configurationId, plan.configuration, lineage.origin);
    const model = this.mode() === 'model' ? this.options.model() : null;
    const { lineage: next, report } = await evolveAfterEpisode(lineage, digest, { model, children: this.options.settings().childrenPerEpisode, now, tunables: this.options.tunables, ...(signal ? { signal } : {}) });
    await this.options.store.put(next);
    return report;
  }
}
