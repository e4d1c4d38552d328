/**
 * Recording a person's demonstration (the hybrid setting: live and demonstrated): the
 * person does the task in a tab while the content script reports each of
 * their actions in semantic form. The result is an episode of kind
 * 'demonstration' whose steps are those actions, checkpointed after every
 * step, and that the learners learn from when it ends, by the same call as
 * after a live episode (learn-trajectory.ts), with the steps' page titles.
 *
 * Which tab is being recorded is read from the episode store (the unfinished
 * demonstration with that tab id), never from a module variable, so a
 * recording survives the service worker being killed. A demonstration that is
 * abandoned (or whose tab closes) is kept as partial, never as a success.
 */
import { maskTaskSecrets } from '../secrets/task-secrets.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { assignStepRewards } from '../credit/rewards.ts';
import type { Learner } from '../learning/learner.ts';
import { learnFromTrajectory } from '../learning/learn-trajectory.ts';
import { trajectoryOf } from '../episode/trajectory.ts';
import { describeError } from '../errors.ts';
import type { Clock, Logger } from '../ports.ts';
import type { RewardSource } from '../episode/reward-source.ts';
import type { Settings } from '../settings.ts';
import type { Episode, Verdict } from '../episode/episode.ts';
import { isUnfinished, type EpisodeStore } from '../episode/episode-store.ts';
import type { DemonstrationOutcome, RecordedAction } from './person-input.ts';
import { appendStep, DemonstrationError } from './recorded-step.ts';

export type { DemonstrationOutcome, RecordedAction } from './person-input.ts';
export { appendStep, DemonstrationError, recordedStep } from './recorded-step.ts';

/** The tab side of recording (chrome messaging in the extension; plain objects in tests). */
export interface DemonstrationPage {
  /**
   * Switches recording on or off in the tab's content script and resolves
   * once it answered. Switching off first sends what is still pending (text
   * typed in a field that has not lost focus yet).
   */
  setRecording(tabId: number, on: boolean): Promise<void>;
  /** The tab's current URL; rejects for pages Apprentice cannot record (not http(s)). */
  tabUrl(tabId: number): Promise<string>;
}

export interface DemonstrationDeps {
  episodes: EpisodeStore;
  page: DemonstrationPage;
  /** The learners that learn (enabled ones, in registry order), as for a live episode. */
  learners(): readonly Learner[];
  settings(): Settings;
  clock: Clock;
  logger: Logger;
  newId(): string;
  /** Called after every saved change (the UI broadcast). */
  onUpdate?(episode: Episode): void;
}

/** A step arrived from a tab that is not being recorded (the recording ended meanwhile). */
export class NotRecordingError extends Error {
  override name = 'NotRecordingError';
}

/** A person can be slow, but a recording that never ends is a stuck page script. */
export const MAX_DEMONSTRATION_STEPS = 300;

export const statusOfOutcome = (outcome: DemonstrationOutcome): Verdict =>
  outcome === 'abandoned' ? 'partial' : outcome;

export class DemonstrationRecorder {
  /** One queue for every change to a demonstration, so steps land in arrival order and never overwrite each other. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: DemonstrationDeps) {}

  /** The unfinished demonstration recorded in this tab, if any. */
  async recordingIn(tabId: number): Promise<Episode | null> {
    const open = (await this.deps.episodes.unfinished()).filter((e) => e.kind === 'demonstration' && e.tabId === tabId);
    return open.sort((a, b) => b.startedAt - a.startedAt)[0] ?? null;
  }

  /** Starts recording in the tab. An earlier recording in the same tab ends as abandoned (partial). */
  async start(input: { tabId: number; task: string }): Promise<Episode> {
    // A secret typed in the task is stored masked (task-secrets.ts); a demonstration types its own values.
    input = { ...input, task: maskTaskSecrets(input.task).task };
    const earlier = await this.recordingIn(input.tabId);
    if (earlier) await this.stop(earlier.id, 'abandoned');
    const startUrl = await this.deps.page.tabUrl(input.tabId);
    const { origin } = regularizeUrl(startUrl);
    const before = await this.deps.episodes.list({ origin, task: input.task, limit: 10_000 });
    const episode: Episode = {
      id: this.deps.newId(),
      origin,
      task: input.task,
      startUrl,
      tabId: input.tabId,
      status: 'running',
      steps: [],
      answer: null,
      error: null,
      learners: this.deps.learners().map((l) => l.id),
      attempt: before.filter((e) => e.kind === 'demonstration').length + 1,
      kind: 'demonstration',
      startedAt: this.deps.clock.now(),
      endedAt: null,
    };
    await this.save(episode);
    try {
      await this.deps.page.setRecording(input.tabId, true);
    } catch (err) {
      // Nothing was recorded and nothing will be: close it as an error, not as experience.
      const failed: Episode = { ...episode, status: 'error', endedAt: this.deps.clock.now(), error: `recording could not start: ${describeError(err)}` };
      await this.save(failed);
      throw new DemonstrationError(failed.error!);
    }
    return episode;
  }

  /** Appends one recorded action to the tab's demonstration and saves it (the checkpoint). */
  record(tabId: number, step: RecordedAction): Promise<Episode> {
    // Enqueued synchronously, so steps keep the order in which they arrived.
    return this.serial(async () => {
      const episode = await this.recordingIn(tabId);
      if (!episode) throw new NotRecordingError(`tab ${tabId} is not being recorded`);
      const executed = episode.steps.filter((s) => s.chosen);
      if (executed.length >= MAX_DEMONSTRATION_STEPS) {
        throw new DemonstrationError(`a demonstration keeps at most ${MAX_DEMONSTRATION_STEPS} steps`);
      }
      const updated = { ...episode, steps: appendStep(episode, step, this.deps.clock.now()) };
      await this.save(updated);
      return updated;
    });
  }

  /** Re-arms recording after the tab loaded a new page (the content script starts afresh on every page). */
  async tabLoaded(tabId: number): Promise<boolean> {
    const episode = await this.recordingIn(tabId);
    if (!episode) return false;
    try {
      await this.deps.page.setRecording(tabId, true);
      return true;
    } catch (err) {
      this.deps.logger.warn('recording could not resume on the new page', { episodeId: episode.id, error: describeError(err) });
      return false;
    }
  }

  /** The tab closed mid-recording: what was recorded is kept, as partial. */
  async tabClosed(tabId: number): Promise<Episode | null> {
    const episode = await this.recordingIn(tabId);
    if (!episode) return null;
    return this.conclude(episode.id, 'abandoned', 'the tab closed while recording');
  }

  /**
   * Ends the demonstration with the person's outcome: asks the page for what
   * is still pending, then assigns rewards and lets every learner learn.
   */
  async stop(episodeId: string, outcome: DemonstrationOutcome): Promise<Episode> {
    const episode = await this.deps.episodes.get(episodeId);
    if (!episode || episode.kind !== 'demonstration') throw new DemonstrationError(`no demonstration ${episodeId}`);
    if (!isUnfinished(episode.status)) throw new DemonstrationError(`the demonstration already ended (${episode.status})`);
    let note: string | null = null;
    if (episode.tabId !== null) {
      try {
        await this.deps.page.setRecording(episode.tabId, false);
      } catch (err) {
        note = `the page did not answer when recording stopped (${describeError(err)})`;
      }
    }
    return this.conclude(episodeId, outcome, note);
  }

  private async conclude(episodeId: string, outcome: DemonstrationOutcome, note: string | null): Promise<Episode> {
    const closed = await this.serial(async () => {
      const episode = await this.deps.episodes.get(episodeId);
      if (!episode) throw new DemonstrationError(`no demonstration ${episodeId}`);
      if (!isUnfinished(episode.status)) return null; // ended meanwhile (tab closed and stop raced)
      const status = statusOfOutcome(outcome);
      const { rewards, source } = assignStepRewards({
        steps: episode.steps, outcome: status, evaluatorScores: null, settings: this.deps.settings().rewards,
      });
      const notes = [episode.error, outcome === 'abandoned' ? 'demonstration abandoned: kept as partial' : null, note].filter((n): n is string => !!n);
      const done: Episode = {
        ...episode,
        steps: episode.steps.map((s, i) => ({ ...s, reward: rewards[i] ?? 0 })),
        status,
        endedAt: this.deps.clock.now(),
        error: notes.length ? notes.join('; ') : null,
      };
      await this.save(done);
      return { episode: done, rewardSource: source };
    });
    if (!closed) return (await this.deps.episodes.get(episodeId))!;
    await this.learn(closed.episode, closed.rewardSource);
    return closed.episode;
  }

  /** Learning is best-effort, by the live episodes' path: a failing learner is a note, the demonstration stays saved. */
  private async learn(episode: Episode, rewardSource: RewardSource): Promise<void> {
    const trajectory = trajectoryOf(episode, { rewardSource, pageTitles: episode.steps.map((s) => s.pageTitle ?? null) });
    const { notes } = await learnFromTrajectory(this.deps.learners(), trajectory, { logger: this.deps.logger, source: 'demonstration' });
    if (notes.length) this.deps.logger.info('learned from a demonstration', { episodeId: episode.id, notes });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  private async save(episode: Episode): Promise<void> {
    await this.deps.episodes.put(episode);
    this.deps.onUpdate?.(episode);
  }
}
