/**
 * Training-Free GRPO as a Learner. Before each proposal it puts the site's
 * library (or its most relevant part) in the prompt as numbered experiences.
 * After each episode it adds the attempt to its group; when the group closes
 * (G attempts, or earlier once it holds both a success and a failure) a
 * group with mixed outcomes is turned into library operations — through the
 * model's semantic advantage when there is a model, through page-type
 * contrasts otherwise — consolidated, capped and written with an undoable
 * revision. A group whose attempts all ended alike changes nothing, and the
 * report says so. Best-effort: failures become report notes, never throws.
 */
import type { Episode } from '../../episode/episode.ts';
import { describeError } from '../../errors.ts';
import type { PromptSection } from '../../policy/policy.ts';
import type { ChatModel, Clock } from '../../ports.ts';
import type {
  AdjustInput, AdjustOutput, FinishedEpisode, LearnReport, Learner, RequestChange, RequestShape, StepContext,
} from '../learner.ts';
import { consolidate } from './consolidate.ts';
import type { TfgrpoEvidence } from './evidence.ts';
import {
  evictionOrder, isNearDuplicate, MAX_EXPERIENCE_CHARS, normalizeText, type GroupRef, type TfgrpoExperience,
} from './experience.ts';
import {
  groupKeyOf, groupRefOf, splitGroup, unchangedReason,
  type AttemptOutcome, type GroupAttempt, type GroupVerdict,
} from './group.ts';
import { applyOperations, type LibraryRevision } from './library.ts';
import { deriveRules } from './offline-rules.ts';
import type { LibraryOperation } from './operations.ts';
import { experienceSections, selectForPrompt } from './prompt-experiences.ts';
import { proposeUpdate, semanticAdvantage } from './semantic-advantage.ts';
import type { TfgrpoSettings } from './tfgrpo-settings.ts';
import type { TfgrpoStore } from './tfgrpo-store.ts';
import { NEEDS_MODEL } from './definition.ts';

export { NEEDS_MODEL };

export interface TfgrpoLearnerOptions {
  store: TfgrpoStore;
  settings: () => TfgrpoSettings;
  /** The reflecting model; a function when the provider can change at run time. Null = offline. */
  model: ChatModel | null | (() => ChatModel | null);
  clock: Clock;
}

/** What one call did, for the episode's learning notes, the panel and the benchmark. */
export interface TfgrpoLearnReport extends LearnReport {
  /** 'pending' while the group is still collecting attempts. */
  verdict: GroupVerdict | 'pending' | 'skipped';
  groupSize: number;
  path: 'model' | 'rules' | null;
  added: string[];
  updated: string[];
  deleted: string[];
  evicted: string[];
  /** Operations refused (malformed, unknown number, over the delete cap). */
  refused: string[];
  /** Principles the critique produced (model path). */
  principles: string[];
  /** Why the library did not change, when it did not. */
  reason: string | null;
  notes: string[];
}

export interface TfgrpoLibrarySummary {
  experiences: TfgrpoExperience[];
  lastUpdate: { at: number; task: string; added: number; updated: number; deleted: number; evicted: number } | null;
  capability: string | null;
}

const emptyReport = (verdict: TfgrpoLearnReport['verdict'], groupSize: number): TfgrpoLearnReport => ({
  verdict, groupSize, path: null, added: [], updated: [], deleted: [], evicted: [], refused: [], principles: [], reason: null, notes: [],
});

/** One sentence for the panel: what the group did to the library, or why it did nothing. */
export function summarizeReport(r: TfgrpoLearnReport): string {
  if (r.verdict === 'pending' || r.verdict === 'skipped') return `library unchanged: ${r.reason ?? 'nothing to learn'}`;
  const changes = [
    r.added.length > 0 ? `${r.added.length} added` : '',
    r.updated.length > 0 ? `${r.updated.length} updated` : '',
    r.deleted.length > 0 ? `${r.deleted.length} deleted` : '',
    r.evicted.length > 0 ? `${r.evicted.length} evicted` : '',
  ].filter(Boolean);
  const how = r.path === 'model' ? 'through the model' : r.path === 'rules' ? 'by page-type contrasts (no model)' : '';
  const refused = r.refused.length > 0 ? `; ${r.refused.length} operation${r.refused.length === 1 ? '' : 's'} refused` : '';
  return changes.length > 0
    ? `group of ${r.groupSize} attempts (${r.verdict}): experiences ${changes.join(', ')} ${how}${refused}`.replace(/\s+;/, ';').trim()
    : `group of ${r.groupSize} attempts (${r.verdict}): library unchanged: ${r.reason ?? 'no change proposed'}${refused}`;
}

/** The person's verdict as GRPO's reward; null when the episode ended without one. */
export function outcomeOf(status: Episode['status']): AttemptOutcome | null {
  return status === 'success' || status === 'partial' || status === 'failure' ? status : null;
}

/** An attempt from an episode record: only what the person saw, the actions taken, and the verdict. */
export function attemptFromEpisode(episode: Episode): GroupAttempt | null {
  const outcome = outcomeOf(episode.status);
  if (outcome === null) return null;
  return {
    episodeId: episode.id,
    origin: episode.origin,
    task: episode.task,
    outcome,
    answer: episode.answer,
    endedAt: episode.endedAt ?? episode.startedAt,
    steps: episode.steps.flatMap((s) => s.chosen
      ? [{
          url: s.url,
          regUrl: s.regUrl,
          title: s.pageTitle ?? null,
          digest: s.pageDigest ?? null,
          action: s.chosen.semantic,
          ok: s.result?.ok !== false,
          error: s.result && !s.result.ok ? s.result.message : null,
        }]
      : []),
  };
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
    const settings = this.#settings();
    const report = emptyReport('skipped', groups.reduce((n, g) => n + g.length, 0));
    const now = this.#clock.now();
    const bySite = new Map<string, { ops: LibraryOperation[]; group: GroupRef; library: TfgrpoExperience[] }>();
    const verdicts: GroupVerdict[] = [];
    const reasons: string[] = [];
    for (const attempts of groups) {
      if (attempts.length === 0) continue;
      const split = splitGroup(attempts);
      verdicts.push(split.verdict);
      if (split.verdict !== 'mixed') {
        reasons.push(unchangedReason(split.verdict, attempts.length));
        continue;
      }
      const origin = attempts[0]!.origin;
      const group = groupRefOf(attempts, now);
      const site = bySite.get(origin) ?? { ops: [], group, library: await this.#store.library(origin) };
      bySite.set(origin, site);
      const model = this.#model();
      if (model) {
        report.path = 'model';
        const advantage = await semanticAdvantage(model, split, site.library, signal);
        report.notes.push(...advantage.notes);
        if (!advantage.ok) {
          reasons.push(advantage.reason);
          continue;
        }
        report.principles.push(...advantage.principles);
        const proposed = await proposeUpdate(model, advantage.principles, site.library, group, signal);
        if (!proposed.ok) {
          reasons.push(proposed.reason);
          continue;
        }
        if (proposed.repaired) report.notes.push('update: malformed JSON was repaired');
        report.refused.push(...proposed.refused);
        site.ops.push(...proposed.operations);
      } else if (settings.ruleHints) {
        report.path = 'rules';
        const rules = deriveRules(split, group);
        if (rules.reason) reasons.push(rules.reason);
        site.ops.push(...rules.operations);
      } else {
        reasons.push(NEEDS_MODEL);
      }
    }
    report.verdict = verdicts.includes('mixed') ? 'mixed' : verdicts[0] ?? 'skipped';

    for (const [origin, site] of bySite) {
      const batch = consolidate(site.library, site.ops);
      report.notes.push(...batch.notes);
      const update = applyOperations(origin, site.library, batch.operations, {
        maxSize: settings.maxPerSite, maxDeleteFraction: settings.maxDeleteFraction,
      }, { group: site.group, now, source: report.path === 'model' ? 'model' : 'rule' });
      report.refused.push(...update.refused);
      report.added.push(...update.added);
      report.updated.push(...update.updated);
      report.deleted.push(...update.deleted);
      report.evicted.push(...update.evicted);
      if (update.revision) await this.#store.saveLibrary(origin, update.library, update.revision);
    }
    const changed = report.added.length + report.updated.length + report.deleted.length + report.evicted.length > 0;
    if (!changed) report.reason = reasons[0] ?? 'the update proposed no change';
    return report;
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
