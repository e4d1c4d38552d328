/**
 * The person teaching in the page, during an agent episode.
 *
 *   Show me   — a proposal is wrong: the person does that one step in the
 *               page. The demonstration recorder (content/record) reports it
 *               in semantic form, and it becomes the step's executed action
 *               through the controller's decision path (a correction of kind
 *               'show', shown-correction.ts). The agent then proposes again.
 *   Take over — the person does several steps (a login, a CAPTCHA), then
 *               presses Continue. The steps are recorded as in a
 *               demonstration (secrets masked); "don't learn from this"
 *               keeps them from every learner.
 *
 * Bad input — a step in another tab, a navigation no recorded action caused,
 * an action the recorder cannot express — ends teaching with a clear message
 * and keeps the episode: Show me returns to the proposal, Take over pauses.
 *
 * The state lives in the episode record (`teaching`), never in this object,
 * so it survives the service worker being killed.
 */
import { describeError } from '../errors.ts';
import type { Clock, Logger } from '../ports.ts';
import type { Episode, Teaching } from '../episode/episode.ts';
import { isUnfinished, type EpisodeStore } from '../episode/episode-store.ts';
import { samePage } from '../page/same-page.ts';
import type { AgentController } from './agent-controller.ts';
import { DecisionError } from './controller-types.ts';
import { appendStep, MAX_DEMONSTRATION_STEPS, type RecordedAction } from './demonstration-recorder.ts';

export type TeachingMode = Teaching['mode'];

/** A teaching request that cannot be carried out (wrong state, page did not answer): nothing changed. */
export class TeachingError extends Error {
  override name = 'TeachingError';
}

/** The tab side (chrome messaging in the extension; plain objects in tests). */
export interface TeachingPage {
  /** Switches the content script's recorder on or off; switching off first sends what is pending. */
  setRecording(tabId: number, on: boolean): Promise<void>;
  /** Waits until the tab is quiet after a shown step (a click may load a page); its URL then, null if unknown. */
  settle(tabId: number): Promise<string | null>;
}

export interface TeachingDeps {
  controller: Pick<AgentController, 'get' | 'amend' | 'decide' | 'pause' | 'resume'>;
  episodes: EpisodeStore;
  page: TeachingPage;
  clock: Clock;
  logger: Logger;
}

/** Why teaching ended early: each becomes the message the panel shows. */
export const TEACHING_STOPS = {
  otherTab: 'the step was done in another tab; teach in the tab Apprentice works in',
  navigated: 'the page changed without an action Apprentice could record',
  tabClosed: 'the tab closed',
  unrecordable: (what: string) => `Apprentice cannot record ${what}`,
} as const;

/**
 * The panel's message. When the page changed under a Show me, its proposal
 * was for the page before: the episode pauses and Resume proposes afresh.
 */
export function teachingStopMessage(mode: TeachingMode, reason: string, pageChanged = false): string {
  if (mode === 'takeover') return `Take over ended: ${reason}. The steps you did are kept; press Resume for the next proposal.`;
  return pageChanged
    ? `Show me ended: ${reason}. The proposal was for the page before; press Resume for a proposal on this page.`
    : `Show me ended: ${reason}. The proposal is still here: show the step again, pick another candidate, or edit the action.`;
}

export class TeachingSession {
  /** One queue for every teaching change, so a step and the page load it caused are handled in arrival order. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: TeachingDeps) {}

  /** The unfinished episode being taught in this tab, if any. */
  async teachingIn(tabId: number): Promise<Episode | null> {
    const open = (await this.deps.episodes.unfinished()).filter((e) => e.tabId === tabId && e.teaching !== undefined && e.kind !== 'demonstration');
    return open.sort((a, b) => b.startedAt - a.startedAt)[0] ?? null;
  }

  /** Starts Show me (a proposal is pending) or Take over (any time before the verdict), and arms the recorder. */
  async begin(episodeId: string, mode: TeachingMode): Promise<Episode> {
    let episode = await this.deps.controller.get(episodeId);
    if (episode.tabId === null) throw new TeachingError('this episode has no tab to teach in');
    if (episode.teaching) throw new TeachingError(mode === episode.teaching.mode ? 'already on' : 'finish the current teaching first');
    // A proposal being worked out is stopped: the person has the page now.
    if (mode === 'takeover' && episode.status === 'running') episode = await this.deps.controller.pause(episodeId);
    const tabId = episode.tabId!;
    const since = this.deps.clock.now();
    const started = await this.deps.controller.amend(episodeId, (e) => {
      const refusal = beginRefusal(e, mode);
      if (refusal) throw new TeachingError(refusal);
      const pending = e.steps.at(-1);
      // Take over drops a pending proposal, unless the person already rejected some of it (that signal is kept).
      const steps = mode === 'takeover' && pending && pending.chosen === null && pending.rejected.length === 0 ? e.steps.slice(0, -1) : e.steps;
      return { ...e, steps, status: 'awaiting_approval', error: null, teaching: { mode, since } };
    });
    try {
      await this.deps.page.setRecording(tabId, true);
    } catch (err) {
      await this.deps.controller.amend(episodeId, (e) => clearTeaching(e, mode === 'show' ? 'proposal' : 'pause', null));
      throw new TeachingError(`${mode === 'show' ? 'Show me' : 'Take over'} could not start: ${describeError(err)}`);
    }
    return started;
  }

  /**
   * One action the person did in a tab; null when nobody teaches there. It
   * joins the queue at once (the check is inside), so a step and the page load
   * it caused are handled in the order they happened.
   */
  record(tabId: number, step: RecordedAction): Promise<Episode | null> {
    return this.serial(async () => {
      const episode = await this.teachingIn(tabId);
      if (!episode?.teaching) return null;
      return episode.teaching.mode === 'show' ? this.shown(episode, tabId, step) : this.takenOver(episode, step);
    });
  }

  /** The page in the episode's tab finished loading. */
  tabLoaded(tabId: number, url: string): Promise<boolean> {
    return this.serial(async () => {
      const episode = await this.teachingIn(tabId);
      if (!episode?.teaching) return false;
      // The shown step that caused a load was handled before this (same queue): so nothing recorded caused this one.
      if (episode.teaching.mode === 'show') {
        await this.stopNow(episode, `${TEACHING_STOPS.navigated} (${url})`, { pageChanged: true });
        return true;
      }
      // Take over goes on across pages: the new page's recorder is armed again.
      await this.deps.page.setRecording(tabId, true).catch((err: unknown) => {
        this.deps.logger.warn('recording could not resume on the new page', { episodeId: episode.id, error: describeError(err) });
      });
      return true;
    });
  }

  /** Ends teaching with a message (bad input); the episode is kept. */
  interrupt(episodeId: string, reason: string): Promise<Episode> {
    return this.serial(async () => this.stopNow(await this.deps.controller.get(episodeId), reason));
  }

  /** The recorder in this tab saw an action it cannot express. */
  unrecordable(tabId: number, what: string): Promise<Episode | null> {
    return this.serial(async () => {
      const episode = await this.teachingIn(tabId);
      return episode ? this.stopNow(episode, TEACHING_STOPS.unrecordable(what)) : null;
    });
  }

  /** The person cancels Show me: back to the proposal, nothing recorded. */
  async cancel(episodeId: string): Promise<Episode> {
    const episode = await this.deps.controller.get(episodeId);
    if (episode.teaching?.mode !== 'show') throw new TeachingError('Show me is not on');
    await this.recordingOff(episode);
    return this.serial(() => this.deps.controller.amend(episodeId, (e) => clearTeaching(e, 'proposal', null)));
  }

  /** Continue after Take over: the steps are kept (for learning, unless `learn` is false) and the agent proposes again. */
  async continueAfterTakeOver(episodeId: string, options: { learn: boolean }): Promise<Episode> {
    const episode = await this.deps.controller.get(episodeId);
    if (episode.teaching?.mode !== 'takeover') throw new TeachingError('Take over is not on');
    // Off first and outside the queue: what the recorder still holds (a field being typed in) arrives as a step.
    await this.recordingOff(episode);
    await this.serial(() => this.deps.controller.amend(episodeId, (e) => {
      if (e.teaching?.mode !== 'takeover') return e;
      const since = e.teaching.since;
      const steps = e.steps.map((s) => (s.takeOver && s.startedAt >= since ? { ...s, takeOver: { learn: options.learn } } : s));
      return clearTeaching({ ...e, steps }, 'pause', null);
    }));
    return this.deps.controller.resume(episodeId, { awaitNext: false });
  }

  private async shown(episode: Episode, tabId: number, step: RecordedAction): Promise<Episode> {
    // A click may load a page: the next proposal must read the page it leads to.
    const landed = await this.deps.page.settle(tabId).catch(() => null);
    const navigated = landed !== null && !samePage(step.url, landed);
    try {
      const decided = await this.deps.controller.decide(episode.id, { kind: 'show', action: step.action, url: step.url, title: step.title, navigated }, { awaitNext: false });
      await this.recordingOff(episode);
      return decided;
    } catch (err) {
      if (!(err instanceof DecisionError)) throw err;
      const pageChanged = !samePage(episode.steps.at(-1)?.url ?? step.url, step.url);
      return this.stopNow(await this.deps.controller.get(episode.id), err.message, { pageChanged });
    }
  }

  private async takenOver(episode: Episode, step: RecordedAction): Promise<Episode> {
    try {
      return await this.deps.controller.amend(episode.id, (e) => {
        if (e.steps.filter((s) => s.takeOver).length >= MAX_DEMONSTRATION_STEPS) throw new TeachingError(`a take-over keeps at most ${MAX_DEMONSTRATION_STEPS} steps`);
        const steps = appendStep(e, step, this.deps.clock.now());
        const added = steps.at(-1)!;
        return { ...e, steps: [...steps.slice(0, -1), { ...added, takeOver: { learn: true } }] };
      });
    } catch (err) {
      return this.stopNow(await this.deps.controller.get(episode.id), describeError(err));
    }
  }

  /** Ends teaching now (inside the queue): Show me returns to the proposal, Take over pauses. */
  private async stopNow(episode: Episode, reason: string, options: { pageChanged?: boolean } = {}): Promise<Episode> {
    const mode = episode.teaching?.mode;
    if (!mode) return episode;
    const pageChanged = options.pageChanged === true;
    const stopped = await this.deps.controller.amend(episode.id, (e) =>
      e.teaching ? clearTeaching(e, pageChanged || e.teaching.mode === 'takeover' ? 'pause' : 'proposal', teachingStopMessage(e.teaching.mode, reason, pageChanged)) : e);
    await this.recordingOff(episode);
    return stopped;
  }

  private async recordingOff(episode: Episode): Promise<void> {
    if (episode.tabId === null) return;
    await this.deps.page.setRecording(episode.tabId, false).catch((err: unknown) => {
      this.deps.logger.info('the page did not answer when teaching ended', { episodeId: episode.id, error: describeError(err) });
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** Why teaching cannot start in this state, or null. */
function beginRefusal(e: Episode, mode: TeachingMode): string | null {
  if (!isUnfinished(e.status)) return `the episode already ended (${e.status})`;
  if (e.teaching) return 'finish the current teaching first';
  if (e.status === 'awaiting_verdict') return 'the episode waits for your verdict';
  const pending = e.steps.at(-1);
  if (mode === 'show' && (e.status !== 'awaiting_approval' || !pending || pending.chosen !== null)) return 'Show me needs a proposal to correct';
  if (mode === 'takeover' && e.status === 'running') return 'a proposal is being worked out; pause first';
  return null;
}

/**
 * The episode with teaching over. `back: 'proposal'` returns to the pending
 * proposal; `'pause'` pauses, and Resume proposes afresh on whatever page the
 * person left (after Take over, or when the page changed under a Show me).
 */
function clearTeaching(e: Episode, back: 'proposal' | 'pause', message: string | null): Episode {
  const { teaching: _over, ...rest } = e;
  if (!isUnfinished(e.status)) return rest;
  return back === 'proposal' ? { ...rest, status: 'awaiting_approval', error: message } : { ...rest, status: 'paused', error: message };
}

