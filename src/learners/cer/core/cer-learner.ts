/**
 * CER as a Learner: before the policy proposes it replays retrieved dynamics
 * and skills as prompt sections; after an episode it distils new experience
 * into the site's buffer and credits the entries that were replayed in a
 * successful episode. Best-effort throughout: failures become notes in the
 * report, never exceptions out of the learner.
 */
import type { Episode } from '../../../core/episode/episode.ts';
import { describeError } from '../../../core/errors.ts';
import type { PromptSection } from '../../../core/policy/policy.ts';
import type { ChatModel, Clock } from '../../../core/ports.ts';
import type { CerSettings } from './settings.ts';
import type { LearnReport, Learner, RequestChange, RequestShape, StepContext, Trajectory } from '../../../core/learning/learner.ts';
import { mergeIntoBuffer } from './buffer.ts';
import { distillOffline, distillWithModel, type DistillInput } from './distill.ts';
import type { ExperienceStore } from './experience-store.ts';
import type { ExperienceEntry } from './experience.ts';
import { completePick, pickWithModel, rankLexical, renderSelection, type ModelPick } from './retrieve.ts';

export interface CerLearnerOptions {
  store: ExperienceStore;
  settings: () => CerSettings;
  /** The distiller/retriever model; a function when the provider can change at run time. Null = offline. */
  model: ChatModel | null | (() => ChatModel | null);
  clock: Clock;
}

/** What one call to `learn` did, for the episode's learning notes and the panel. */
export interface CerLearnReport extends LearnReport {
  added: number;
  merged: number;
  /** Entries removed by the per-site cap. */
  evicted: number;
  /** Replayed entries credited with a success. */
  credited: number;
  /** Why nothing was distilled, when nothing was. */
  reason: string | null;
  notes: string[];
}

interface EpisodeCache {
  origin: string;
  entries: ExperienceEntry[];
  /** The model's choice, made once per episode; null = rank lexically on each page. */
  pick: ModelPick | null;
  sections: Map<string, PromptSection[]>;
  /** Entries already counted as retrieved in this episode. */
  counted: Set<string>;
  notes: string[];
}

/** Episodes whose retrieval is kept in memory (a few run side by side at most). */
const MAX_CACHED_EPISODES = 16;

export class CerLearner implements Learner {
  readonly id = 'cer';
  readonly #store: ExperienceStore;
  readonly #settings: () => CerSettings;
  readonly #model: () => ChatModel | null;
  readonly #clock: Clock;
  readonly #episodes = new Map<string, EpisodeCache>();
  /** Buffer writes run one at a time, so a counter update and a distillation never overwrite each other. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(options: CerLearnerOptions) {
    this.#store = options.store;
    this.#settings = options.settings;
    const model = options.model;
    this.#model = typeof model === 'function' ? model : () => model;
    this.#clock = options.clock;
  }

  /** Notes from retrieval in an episode (model fallbacks, failed counter updates), on every site it visited. */
  retrievalNotes(episodeId: string): string[] {
    return [...this.#episodes].filter(([key]) => key.startsWith(`${episodeId}\n`)).flatMap(([, cache]) => cache.notes);
  }

  /** The Learner hook: replayed dynamics and skills become prompt sections. */
  async shapeRequest(context: StepContext, _current: Readonly<RequestShape>, signal?: AbortSignal): Promise<RequestChange> {
    return { sections: await this.promptSections(context, signal) };
  }

  /** Retrieves the site's experience for this page and renders it as prompt sections (cached per episode and page). */
  async promptSections(context: StepContext, signal?: AbortSignal): Promise<PromptSection[]> {
    const settings = this.#settings();
    if (!settings.enabled || (settings.topDynamics === 0 && settings.topSkills === 0)) return [];
    const k = { dynamics: settings.topDynamics, skills: settings.topSkills };
    // Keyed by episode and origin: a path means nothing across sites, so a page
    // of another origin (a payment provider) reads that origin's buffer.
    const cacheKey = `${context.episodeId}\n${context.origin}`;
    let cache = this.#episodes.get(cacheKey);
    if (!cache) {
      const entries = await this.#store.list(context.origin);
      cache = { origin: context.origin, entries, pick: null, sections: new Map(), counted: new Set(), notes: [] };
      const model = this.#model();
      if (model && entries.length > 0) {
        cache.pick = await pickWithModel(model, entries, context.task, context.origin, k, signal);
        cache.notes.push(...cache.pick.notes);
      }
      this.#remember(cacheKey, cache);
    }
    // Suggestions follow the page's effective state (`skillSection`), so it is part of the key.
    const key = [context.regUrl, ...context.effectiveState].join('\n');
    const hit = cache.sections.get(key);
    if (hit) return hit;

    const selection = cache.pick
      ? completePick(cache.pick, cache.entries, context.task, context.regUrl, k)
      : rankLexical(cache.entries, context.task, context.regUrl, k);
    const sections = renderSelection(selection, context.task, context.regUrl, context.effectiveState);
    cache.sections.set(key, sections);

    const fresh = sections.map((s) => s.id).filter((id) => !cache.counted.has(id));
    for (const id of fresh) cache.counted.add(id);
    if (fresh.length > 0) {
      const notes = cache.notes;
      await this.#serial(() => this.#bump(context.origin, fresh, 'retrieved')).catch((err: unknown) => {
        notes.push(`could not count the replay of ${fresh.length} entries: ${describeError(err)}`);
      });
    }
    return sections;
  }

  /** The Learner hook: distil from a trajectory (live, demonstrated, imported), with the page titles and summaries its source knew. */
  async learn(trajectory: Trajectory, signal?: AbortSignal): Promise<CerLearnReport> {
    const { episode, pageTitles, observations } = trajectory;
    const report = await this.learnFrom({ episode, ...(pageTitles ? { pageTitles } : {}), ...(observations ? { observations } : {}) }, signal);
    for (const key of [...this.#episodes.keys()]) if (key.startsWith(`${episode.id}\n`)) this.#episodes.delete(key);
    return report;
  }

  /**
   * Distils one trajectory (a finished episode, an imported trajectory or a
   * recorded demonstration) into the buffer, and credits the entries replayed
   * in it when it succeeded.
   */
  async learnFrom(input: DistillInput, signal?: AbortSignal): Promise<CerLearnReport> {
    const report: CerLearnReport = { added: 0, merged: 0, evicted: 0, credited: 0, reason: null, notes: [], learned: 0 };
    const settings = this.#settings();
    if (!settings.enabled) {
      report.reason = 'CER is switched off';
      return report;
    }
    const { episode } = input;
    report.notes.push(...this.retrievalNotes(episode.id));
    try {
      await this.#serial(async () => {
        const now = this.#clock.now();
        const existing = await this.#store.list(episode.origin);
        const credited = creditSuccess(episode, existing);
        report.credited = credited.length;

        let put: ExperienceEntry[] = credited;
        let evicted: string[] = [];
        if (settings.successOnly && episode.status !== 'success') {
          report.reason = `not distilled: success-only is on and the episode ended as ${episode.status}`;
        } else {
          const model = this.#model();
          const distilled = model
            ? await distillWithModel(model, input, existing, now, signal)
            : distillOffline(input, existing, now);
          report.notes.push(...distilled.notes);
          report.reason = distilled.reason;
          if (distilled.reason === null) {
            const merged = mergeIntoBuffer(existing, distilled.entries, { maxEntries: settings.maxEntriesPerSite, now });
            report.added = merged.added;
            report.merged = merged.merged;
            report.learned = merged.added + merged.merged;
            report.evicted = merged.dropped;
            const byId = new Map(put.map((e) => [e.id, e]));
            // A merged entry already carries the credited counters: `existing` was updated in place.
            for (const e of merged.put) byId.set(e.id, e);
            for (const id of merged.evicted) byId.delete(id);
            put = [...byId.values()];
            evicted = merged.evicted;
          }
        }
        if (put.length > 0) await this.#store.putMany(put);
        if (evicted.length > 0) await this.#store.delete(evicted);
      });
    } catch (err) {
      report.notes.push(`CER learning failed: ${describeError(err)}`);
      report.reason ??= 'the experience buffer could not be updated';
    }
    return report;
  }

  async #bump(origin: string, ids: readonly string[], counter: 'retrieved'): Promise<void> {
    const wanted = new Set(ids);
    const entries = (await this.#store.list(origin)).filter((e) => wanted.has(e.id));
    for (const e of entries) e.provenance[counter]++;
    if (entries.length > 0) await this.#store.putMany(entries);
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => undefined);
    return run;
  }

  #remember(cacheKey: string, cache: EpisodeCache): void {
    this.#episodes.set(cacheKey, cache);
    while (this.#episodes.size > MAX_CACHED_EPISODES) {
      const oldest = this.#episodes.keys().next().value;
      if (oldest === undefined) break;
      this.#episodes.delete(oldest);
    }
  }
}

/**
 * Counts a success for every buffer entry replayed in a successful episode
 * (ids from step.replayed), at most once per episode and never above the
 * number of retrievals. Mutates `existing` and returns the changed entries.
 */
export function creditSuccess(episode: Episode, existing: ExperienceEntry[]): ExperienceEntry[] {
  if (episode.status !== 'success') return [];
  const replayed = new Set(episode.steps.flatMap((s) => s.replayed));
  const changed: ExperienceEntry[] = [];
  for (const e of existing) {
    if (!replayed.has(e.id)) continue;
    const p = e.provenance;
    if (p.retrievedThenSucceeded < p.retrieved) {
      p.retrievedThenSucceeded++;
      changed.push(e);
    }
  }
  return changed;
}
