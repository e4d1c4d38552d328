/**
 * Meta-TTL's inner loop over stored guides: which guide is in force for a task,
 * and what happens after an attempt — its log joins the meta conversation
 * (one message per attempt, capped), the meta-agent writes a new guide, and
 * that guide replaces the old one. Without a model nothing is read or written.
 */
import { describeError } from '../../../core/errors.ts';
import type { ChatModel, Clock } from '../../../core/ports.ts';
import { adaptGuide, type AdaptUsage } from './adapt-guide.ts';
import { renderEpisodeLog, type EpisodeLog, type EpisodeLogLimits, DEFAULT_LOG_LIMITS } from './episode-log.ts';
import { guideKey } from './guide-key.ts';
import { appendEpisodeMessage, editGuide, emptyGuideRecord, replaceGuide, resetGuide, type GuideRecord } from './guide-record.ts';
import type { GuideStore } from './guide-store.ts';
import type { MetaTtlSettings } from './metattl-settings.ts';
import { NEEDS_MODEL } from './plan.ts';

export const SWITCHED_OFF = 'Meta-TTL is switched off in settings.';
export { NEEDS_MODEL };

export interface AfterEpisodeReport {
  /** The guide was replaced. */
  changed: boolean;
  record: GuideRecord | null;
  usage: AdaptUsage;
  notes: string[];
}

export const NO_GUIDE_STORE = 'Meta-TTL has no guide store here, so it changes nothing.';

export interface GuideAdaptationOptions {
  store: GuideStore | null;
  model: () => ChatModel | null;
  settings: () => MetaTtlSettings;
  clock: Clock;
  logLimits?: EpisodeLogLimits;
}

const NO_USAGE: AdaptUsage = { calls: 0, promptTokens: 0, completionTokens: 0 };

export class GuideAdaptation {
  readonly #o: GuideAdaptationOptions;
  /** Writes run one at a time, so two attempts finishing together never overwrite each other. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(options: GuideAdaptationOptions) {
    this.#o = options;
  }

  keyFor(origin: string, task: string): string {
    return guideKey(origin, task, this.#o.settings().scope);
  }

  /** Why the loop is idle, or null when it runs. */
  inactiveReason(): string | null {
    if (!this.#o.settings().enabled) return SWITCHED_OFF;
    if (!this.#o.model()) return NEEDS_MODEL;
    if (!this.#o.store) return NO_GUIDE_STORE;
    return null;
  }

  /** The guide in force for this task, or null (none yet, or the loop is idle). */
  async guideFor(origin: string, task: string): Promise<{ key: string; guide: string; record: GuideRecord } | null> {
    if (this.inactiveReason()) return null;
    const key = this.keyFor(origin, task);
    const record = await this.#o.store!.get(origin, key);
    return record?.guide ? { key, guide: record.guide, record } : null;
  }

  /** The stored record for this task, shown in the panel whether or not the loop runs. */
  async recordFor(origin: string, task: string): Promise<GuideRecord | null> {
    return this.#o.store ? this.#o.store.get(origin, this.keyFor(origin, task)) : null;
  }

  /** The person's text becomes the guide in force for this task. */
  async edit(origin: string, task: string, text: string): Promise<GuideRecord> {
    return this.#serial(async (store) => {
      const key = this.keyFor(origin, task);
      const now = this.#o.clock.now();
      const record = editGuide((await store.get(origin, key)) ?? emptyGuideRecord(key, origin, task, now), text, now);
      await store.put(record);
      return record;
    });
  }

  /** No guide and a fresh meta conversation for this task; null when there was nothing to reset. */
  async reset(origin: string, task: string): Promise<GuideRecord | null> {
    return this.#serial(async (store) => {
      const stored = await store.get(origin, this.keyFor(origin, task));
      if (!stored) return null;
      const record = resetGuide(stored, this.#o.clock.now());
      await store.put(record);
      return record;
    });
  }

  #serial<T>(work: (store: GuideStore) => Promise<T>): Promise<T> {
    const store = this.#o.store;
    if (!store) return Promise.reject(new Error(NO_GUIDE_STORE));
    const next = this.#writes.then(() => work(store), () => work(store));
    this.#writes = next.catch(() => undefined);
    return next;
  }

  /** After an attempt: log → conversation → meta-agent → new guide (or the old one kept, with a note). */
  async afterEpisode(origin: string, log: EpisodeLog, signal?: AbortSignal): Promise<AfterEpisodeReport> {
    const idle = this.inactiveReason();
    if (idle) return { changed: false, record: null, usage: NO_USAGE, notes: [idle] };
    const model = this.#o.model()!;
    const settings = this.#o.settings();
    const key = this.keyFor(origin, log.task);
    const run = async (store: GuideStore): Promise<AfterEpisodeReport> => {
      const now = this.#o.clock.now();
      const stored = (await store.get(origin, key)) ?? emptyGuideRecord(key, origin, log.task, now);
      const attempt = stored.attempts + 1;
      const message = renderEpisodeLog({ ...log, attempt }, this.#o.logLimits ?? DEFAULT_LOG_LIMITS);
      let record = appendEpisodeMessage(stored, message, settings.conversationCap, log.task);
      const result = await adaptGuide(model, {
        strategy: settings.strategy,
        conversation: record.conversation,
        omitted: record.omitted,
        temperature: settings.temperature,
        maxTokens: settings.maxTokens,
      }, signal);
      const notes: string[] = [];
      if (result.ok) {
        record = replaceGuide(record, { guide: result.answer.guide, diagnosis: result.answer.diagnosis, afterAttempt: attempt, outcome: log.outcome, now });
        notes.push(...result.repairs.map((r) => `Meta-TTL: ${r}.`));
      } else {
        notes.push(`Meta-TTL: ${result.error}`);
      }
      // The attempt's log is kept even when the answer was dropped: the next call sees it.
      await store.put(record);
      return { changed: result.ok, record, usage: result.usage, notes };
    };
    try {
      return await this.#serial(run);
    } catch (err) {
      return { changed: false, record: null, usage: NO_USAGE, notes: [`Meta-TTL could not update the guide: ${describeError(err)}`] };
    }
  }
}
