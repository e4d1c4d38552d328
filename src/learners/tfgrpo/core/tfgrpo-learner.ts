/**
 * Training-Free GRPO as a Learner. Before each proposal it puts the site's
 * library (or its most relevant part) in the prompt as numbered experiences.
 * After each episode it adds the attempt to its group; when the group closes
 * (G attempts, or earlier once it holds both a success and a failure) a
 * group with mixed outcomes is turned into library operations — through the
 * model's semantic advantage when there is a model, through page-type
 * contrasts otherwise — consolidated, capped and written with an undoable
 * revision. A group whose attempts all ended alike changes nothing, and the
 * report says so (group-update.ts). Best-effort: failures become report
 * notes, never throws.
 */
import type { Episode } from '../../../core/episode/episode.ts';
import { describeError } from '../../../core/errors.ts';
import type { PromptSection } from '../../../core/policy/policy.ts';
import type { ChatModel, Clock } from '../../../core/ports.ts';
import type {
  AdjustInput, AdjustOutput, FinishedEpisode, Learner, RequestChange, RequestShape, StepContext,
} from '../../../core/learning/learner.ts';
import type { TfgrpoEvidence } from './evidence.ts';
import { evictionOrder, isNearDuplicate, MAX_EXPERIENCE_CHARS, normalizeText, type TfgrpoExperience } from './experience.ts';
import { groupKeyOf, splitGroup, type GroupAttempt } from './group.ts';
import type { LibraryRevision } from './library.ts';
import { experienceSections, selectForPrompt } from './prompt-experiences.ts';
import type { TfgrpoSettings } from './tfgrpo-settings.ts';
import type { TfgrpoStore } from './tfgrpo-store.ts';
import { NEEDS_MODEL } from './tfgrpo-settings.ts';
import { emptyReport, summarizeReport, type TfgrpoLearnReport } from './learn-report.ts';
import { attemptFromEpisode } from './episode-attempt.ts';
import { learnFromGroups } from './group-update.ts';

export { NEEDS_MODEL };
export { attemptFromEpisode, outcomeOf } from './episode-attempt.ts';
export { summarizeReport, type TfgrpoLearnReport } from './learn-report.ts';

export interface TfgrpoLearnerOptions {
  store: TfgrpoStore;
  settings: () => TfgrpoSettings;
  /** The reflecting model; a function when the provider can change at run time. Null = offline. */
  model: ChatModel | null | (() => ChatModel | null);
  clock: Clock;
}

export interface TfgrpoLibrarySummary {
  experiences: TfgrpoExperience[];
  lastUpdate: { at: number; task: string; added: number; updated: number; deleted: number; evicted: number } | null;
  capability: string | null;
}

export class TfgrpoLearner implements Learner {
  readonly id = 'tfgrpo';
  readonly #store: TfgrpoStore;
  readonly #settings: () => TfgrpoSettings;
  readonly #model: () => ChatModel | null;
  readonly #clock: Clock;
  /** The library as loaded at an episode's first step (it does not change mid-episode). */
  readonly #episodes = new Map<string, TfgrpoExperience[]>();
  /** What shapeRequest put in each step's prompt, by `${episodeId}:${stepIndex}`, until adjust records it. */
  readonly #shown = new Map<string, TfgrpoEvidence['experiences']>();
  #writes: Promise<unknown> = Promise.resolve();

  constructor(options: TfgrpoLearnerOptions) {
    this.#store = options.store;
    this.#settings = options.settings;
    const model = options.model;
    this.#model = typeof model === 'function' ? model : () => model;
    this.#clock = options.clock;
  }

  /** Whether the learner can learn at all right now, and how; for settings, panel and benchmark. */
  capability(): { path: 'model' | 'rules' | null; message: string | null } {
    if (this.#model()) return { path: 'model', message: null };
    if (this.#settings().ruleHints) return { path: 'rules', message: 'No model: learning page-type contrasts only (rule hints).' };
    return { path: null, message: NEEDS_MODEL };
  }

  /**
   * Before the policy proposes: the library (or its most relevant part) as
   * numbered experiences, and — when a model proposes — the paper's rollout
   * temperature (rollouts sample; critique and update run at 0).
   */
  async shapeRequest(context: StepContext, _current: Readonly<RequestShape>): Promise<RequestChange> {
    const settings = this.#settings();
    if (!settings.enabled) return {};
    const sections = await this.promptSections(context);
    this.#shown.set(`${context.episodeId}:${context.stepIndex}`, sections.map((s, i) => ({ number: i + 1, id: s.id, text: s.text })));
    while (this.#shown.size > 64) this.#shown.delete(this.#shown.keys().next().value!);
    return { sections, ...(this.#model() ? { temperature: settings.rolloutTemperature } : {}) };
  }

  async promptSections(context: StepContext): Promise<PromptSection[]> {
    const settings = this.#settings();
    if (!settings.enabled || settings.inPrompt === 0) return [];
    // Keyed by episode and origin: another site's pages read that site's library.
    const cacheKey = `${context.episodeId}\n${context.origin}`;
    let library = this.#episodes.get(cacheKey);
    if (!library) {
      library = await this.#store.library(context.origin);
      this.#episodes.set(cacheKey, library);
      while (this.#episodes.size > 16) this.#episodes.delete(this.#episodes.keys().next().value!);
    }
    const selected = selectForPrompt(library, context.task, context.regUrl, settings.inPrompt);
    return experienceSections(selected, context.task, context.regUrl);
  }

  /**
   * Changes no logit. The seam keeps a learner's evidence from `adjust` only,
   * so this is where the step records which experiences were in its prompt
   * (number, id and text as shown), for the panel.
   */
  async adjust(input: AdjustInput): Promise<AdjustOutput> {
    const shown = this.#shown.get(`${input.context.episodeId}:${input.context.stepIndex}`) ?? [];
    const evidence: TfgrpoEvidence = { experiences: shown };
    return { candidates: [...input.candidates], evidence, notes: [] };
  }

  async learn(finished: FinishedEpisode, signal?: AbortSignal): Promise<TfgrpoLearnReport> {
    const { episode } = finished;
    for (const key of [...this.#episodes.keys()]) if (key.startsWith(`${episode.id}\n`)) this.#episodes.delete(key);
    for (const key of this.#shown.keys()) if (key.startsWith(`${episode.id}:`)) this.#shown.delete(key);
    const report = await this.learnAttempt(episode, attemptFromEpisode(episode), signal);
    // The controller shows a report's notes on the episode's last step: lead with what happened to the library.
    report.notes.unshift(summarizeReport(report));
    return report;
  }

  /** Credits the experiences the episode saw, then adds its attempt to its group and closes the group when due. */
  async learnAttempt(episode: Episode, attempt: GroupAttempt | null, signal?: AbortSignal): Promise<TfgrpoLearnReport> {
    const settings = this.#settings();
    if (!settings.enabled) return { ...emptyReport('skipped', 0), reason: 'Training-Free GRPO is switched off' };
    const notes: string[] = [];
    try {
      await this.#serial(() => this.#credit(episode));
    } catch (err) {
      notes.push(`could not count the experiences used: ${describeError(err)}`);
    }
    if (attempt === null) return { ...emptyReport('skipped', 0), reason: `the episode ended as ${episode.status}, without a verdict`, notes };
    const key = groupKeyOf(attempt.origin, attempt.task);
    try {
      return await this.#serial(async () => {
        const pending = (await this.#store.pendingGroup(key)) ?? { key, origin: attempt.origin, attempts: [] };
        pending.attempts = [...pending.attempts.filter((a) => a.episodeId !== attempt.episodeId), attempt];
        const size = pending.attempts.length;
        const mixed = splitGroup(pending.attempts).verdict === 'mixed';
        if (size < settings.groupSize && !(settings.closeWhenMixed && mixed)) {
          await this.#store.savePendingGroup(pending);
          return { ...emptyReport('pending', size), reason: `the group has ${size} of ${settings.groupSize} attempts`, notes };
        }
        await this.#store.deletePendingGroup(key);
        const report = await this.#learnGroups([pending.attempts], signal);
        report.notes.unshift(...notes);
        return report;
      });
    } catch (err) {
      return { ...emptyReport('skipped', 0), reason: 'the group could not be stored', notes: [...notes, describeError(err)] };
    }
  }

  /**
   * Learns from complete groups at once (an import, a batch): each mixed
   * group proposes operations, the batch is consolidated, and each site's
   * library is updated once.
   */
  async learnGroups(groups: readonly (readonly GroupAttempt[])[], signal?: AbortSignal): Promise<TfgrpoLearnReport> {
    return this.#serial(() => this.#learnGroups(groups, signal));
  }

  async #learnGroups(groups: readonly (readonly GroupAttempt[])[], signal?: AbortSignal): Promise<TfgrpoLearnReport> {
    return learnFromGroups(groups, { store: this.#store, settings: this.#settings(), model: this.#model, now: this.#clock.now() }, signal);
  }

  /** Counts, for each experience the episode had in its prompt, one use and (when it succeeded) one success. */
  async #credit(episode: Episode): Promise<void> {
    const shown = new Set(episode.steps.flatMap((s) => s.replayed));
    if (shown.size === 0) return;
    const library = await this.#store.library(episode.origin);
    let touched = false;
    for (const e of library) {
      if (!shown.has(e.id)) continue;
      e.provenance.inPrompt++;
      if (episode.status === 'success') e.provenance.inPromptThenSucceeded++;
      touched = true;
    }
    if (touched) await this.#store.saveLibrary(episode.origin, library, null);
  }

  // ---- What the person can do from the Memory tab -------------------------------------------

  list(origin: string): Promise<TfgrpoExperience[]> {
    return this.#store.library(origin);
  }

  /** Rewrites one experience's text (the person's edit); its hint goes, since the text no longer matches it. */
  async edit(origin: string, id: string, text: string): Promise<boolean> {
    const clean = normalizeText(text);
    if (clean === '' || clean.length > MAX_EXPERIENCE_CHARS) return false;
    return this.#serial(async () => {
      const library = await this.#store.library(origin);
      const e = library.find((x) => x.id === id);
      if (!e) return false;
      e.text = clean;
      e.hint = null;
      e.source = 'person';
      e.provenance.updatedAt = this.#clock.now();
      await this.#store.saveLibrary(origin, library, null);
      return true;
    });
  }

  async remove(origin: string, ids: readonly string[]): Promise<number> {
    const gone = new Set(ids);
    return this.#serial(async () => {
      const library = await this.#store.library(origin);
      const kept = library.filter((e) => !gone.has(e.id));
      if (kept.length !== library.length) await this.#store.saveLibrary(origin, kept, null);
      return library.length - kept.length;
    });
  }

  /** What the Memory tab shows for a site: the library, its newest undoable update, and what the learner can do as configured. */
  async view(origin: string): Promise<TfgrpoLibrarySummary> {
    const [experiences, last] = await Promise.all([this.#store.library(origin), this.#store.latestRevision(origin)]);
    return {
      experiences,
      lastUpdate: last
        ? { at: last.at, task: last.group.task, added: last.added.length, updated: last.updated.length, deleted: last.deleted.length, evicted: last.evicted.length }
        : null,
      capability: this.capability().message,
    };
  }

  /** Every site's experiences, for the export file. */
  exportAll(): Promise<TfgrpoExperience[]> {
    return this.#store.allExperiences();
  }

  /**
   * Adds experiences from an import (already validated): an entry with a
   * known id replaces it, one that says what the library already says is
   * skipped, the rest are appended; the cap applies. Returns how many went in.
   */
  async importAll(rows: readonly TfgrpoExperience[]): Promise<number> {
    const settings = this.#settings();
    const bySite = new Map<string, TfgrpoExperience[]>();
    for (const r of rows) bySite.set(r.origin, [...(bySite.get(r.origin) ?? []), r]);
    return this.#serial(async () => {
      let imported = 0;
      for (const [origin, incoming] of bySite) {
        const library = await this.#store.library(origin);
        for (const e of incoming) {
          const same = library.findIndex((x) => x.id === e.id);
          if (same >= 0) library[same] = e;
          else if (library.some((x) => isNearDuplicate(x.text, e.text))) continue;
          else library.push(e);
          imported++;
        }
        const overflow = library.length - settings.maxPerSite;
        if (overflow > 0) {
          const out = new Set([...library].sort(evictionOrder).slice(0, overflow).map((e) => e.id));
          for (let i = library.length - 1; i >= 0; i--) if (out.has(library[i]!.id)) library.splice(i, 1);
        }
        await this.#store.saveLibrary(origin, library, null);
      }
      return imported;
    });
  }

  /** The newest model or rule update of the site, if any (what undo would revert). */
  lastUpdate(origin: string): Promise<LibraryRevision | null> {
    return this.#store.latestRevision(origin);
  }

  /** Reverts the site's newest update: the library becomes what it was before it. */
  async undoLastUpdate(origin: string): Promise<LibraryRevision | null> {
    return this.#serial(async () => {
      const revision = await this.#store.latestRevision(origin);
      if (revision) await this.#store.undo(revision);
      return revision;
    });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => undefined);
    return run;
  }
}
