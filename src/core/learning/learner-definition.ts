/**
 * What the registry knows about one learner, in two parts:
 *  - its definition (UI-safe: no learner code): name, settings, whether it
 *    needs a model, the schemas of what it stores on episodes (plan) and steps
 *    (evidence), and whether it keeps a memory of its own;
 *  - its factory: how to build it from ports, and its memory, if any.
 * The options page and the panel read definitions only (registry.ts); the
 * background and the benchmark build learners from factories (registry-factories.ts).
 */
import type * as z from 'zod';
import type { ChatModel, Clock, RandomSource } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { LearnerDataRecord } from './learner-data-store.ts';
import { scopedStores, type LearnerStores, type StoreDeclaration } from './learner-stores.ts';
import type { Learner } from './learner.ts';
import type { ActionableLearner, AnyActionHandlers, LearnerActions } from './learner-actions.ts';
import type { Tunables } from './tunables.ts';

/** Everything a learner may be built from. */
export interface LearnerPorts {
  /** learnerData and the stores its definition declares (learner-stores.ts). */
  stores: LearnerStores;
  settings: () => Settings;
  /** The configured chat model, or null (offline); read on each use, the provider can change. */
  model: () => ChatModel | null;
  clock: Clock;
  random: RandomSource;
}

/** A learner's stored knowledge, for the Memory tab, export, import and "forget this site". */
export interface LearnerMemory {
  /** Removes what was learned on one origin; returns how many items went. */
  forgetSite(origin: string): Promise<number>;
  /** Everything it knows, as JSON, for the export archive (under the learner's id). */
  export?(): Promise<unknown>;
  /**
   * Validates what `export` wrote, without writing: the valid records and one
   * line per rejected item (bad items are reported, never thrown). The import
   * writes the records with every other store's rows in one transaction.
   */
  prepareImport?(data: unknown): PreparedLearnerImport;
  /** What the Memory tab shows (of one origin when given). */
  list?(origin?: string): Promise<LearnerDataRecord[]>;
  /** The sites it remembers something on, with how many items (the Memory tab's site table, memory-sites.ts). */
  sites?(): Promise<{ origin: string; items: number; lastUpdated: number }[]>;
  /** Set when its knowledge is a store of its own rather than learnerData records (see OwnStore). */
  ownStore?: OwnStore;
}

/** Where one stored item lives, for team sharing and deletion. */
export interface MemoryItemAddress {
  origin: string;
  key: string;
  /** When it was taught (last changed). */
  taughtAt: number;
  /** The episode it came from, when one. */
  episodeId: string | null;
}

/**
 * A store a learner keeps of its own instead of learnerData records (two
 * learners had theirs before the generic store). Its `name` is the store's
 * name in IndexedDB, the export archive's top-level field and the team
 * documents' part, as written before the registry, so those files and
 * documents still import. Everything outside the learner's folder reaches
 * the store through this and its LearnerMemory, never by its type.
 */
export interface OwnStore {
  name: string;
  /** Writes validated rows (the in-memory import; IndexedDB writes them in its one transaction, by `name`). */
  write(rows: readonly unknown[]): Promise<void>;
  /** Removes rows by key (a teammate deleted what they shared); returns how many existed. */
  delete(keys: readonly string[]): Promise<number>;
  /** Where an exported row lives, or null when it is not one of this store's rows. */
  address(row: unknown): MemoryItemAddress | null;
  /**
   * Rows written as one group, when the store has groups: writing a group
   * replaces its earlier rows (an episode's transitions), so a merge brings a
   * group whole. Undefined or null: rows stand alone.
   */
  writeGroup?(row: unknown): string | null;
}

/** The learners' own stores (LearnerMemory.ownStore), in the memories' order. */
export function ownStoresOf(memories: readonly { memory: Pick<LearnerMemory, 'ownStore'> }[]): OwnStore[] {
  return memories.flatMap(({ memory }) => (memory.ownStore ? [memory.ownStore] : []));
}

export interface PreparedLearnerImport {
  /** Valid records, ready to be written. */
  records: LearnerDataRecord[];
  /** For a learner with an own store: its valid rows, ready to be written there. */
  rows?: unknown[];
  /** One line per item that will not be imported, saying why. */
  rejected: string[];
}

export interface LearnerImportReport {
  imported: number;
  /** One line per item that was not imported, saying why. */
  rejected: string[];
}

/** Where a definition without an `order` runs: after every shipped learner. */
export const DEFAULT_LEARNER_ORDER = 100;

export interface LearnerDefinition<S = unknown> {
  /** Stable id: the key of its evidence on steps, of its plan on episodes, and in `episode.learners`. */
  id: string;
  /** Short name for settings, panel and benchmark tables. */
  label: string;
  /**
   * Where it runs in the calling order (lower first; ties by id): request changes and
   * `adjust` outputs chain in this order. The registry reads it, so no table lists learners.
   * Absent: DEFAULT_LEARNER_ORDER (after the shipped learners).
   */
  order?: number;
  settings: {
    schema: z.ZodType<S>;
    defaults: S;
    /** Its settings as they apply (`learnerSettings`: `settings.learners[id]` over the defaults). */
    read(settings: Settings): S;
    /**
     * The top-level key its settings had before they moved under
     * `settings.learners` (settings-load.ts moves stored values once).
     */
    legacyKey?: string;
  };
  /** Whether the learner runs with these settings. */
  enabled(settings: Settings): boolean;
  /** Whether it needs a model, said plainly in settings, panel and benchmark. */
  needsModel: { level: 'no' | 'optional' | 'required'; description: string };
  /** Schema of what `adjust` returns as evidence (stored under `step.evidence[id]`). */
  evidenceSchema?: z.ZodType;
  /** Schema of its evidence about one candidate (stored under `candidate.evidence[id]`). */
  candidateEvidenceSchema?: z.ZodType;
  /**
   * Where an older stored format kept this learner's evidence, moved when such
   * a record is loaded (`stored-step-upgrade.ts`): `step` and `candidate`
   * fields of the records themselves go under `evidence[id]`; a `perCandidate`
   * field of its step evidence was a list with one `{ semantic, ... }` entry
   * per candidate, and each entry goes under that candidate's `evidence[id]`.
   */
  formerFields?: { readonly step?: readonly string[]; readonly candidate?: readonly string[]; readonly perCandidate?: readonly string[] };
  /** Schema of what `beginEpisode` returns (stored under `episode.plans[id]`). */
  planSchema?: z.ZodType;
  /** It keeps a memory the Memory tab lists (its factory has `memory`). */
  keepsMemory: boolean;
  /** Requests its own panel views make (learner-actions.ts); the factory's `actions` answers them. */
  actions?: LearnerActions;
  /** Stores of its own it needs beside learnerData (learner-stores.ts); it is handed only these. */
  stores?: readonly StoreDeclaration[];
  /** The numbers it lets other learners tune for a step (tunables.ts); it reads them back from `request.tuned`. */
  tunables?: Tunables;
  /**
   * Its settings under a benchmark mutant, by the mutant's name (`no-corrections`: the teaching figures
   * without correction rules), laid over its own for that run; the benchmark reads no setting by name.
   */
  mutants?: Readonly<Record<string, Partial<S>>>;
}

/** How to build a learner, and reach its stored knowledge. */
export interface LearnerFactory {
  create(ports: LearnerPorts): Learner;
  memory?(ports: LearnerPorts): LearnerMemory;
  /** Handlers of the definition's `actions`, on the built learner. */
  actionHandlers?(ports: LearnerPorts, learner: Learner): AnyActionHandlers;
  /** What it knows that replay builds procedures from (src/core/replay reads it through the registry, never by learner). */
  procedures?(ports: LearnerPorts): ProcedureKnowledge;
  /**
   * `npm run bench -- --ablate`: benchmark rows of its settings over the
   * defaults, the paper's method first (issue 23 item 8: each addition measurable).
   */
  ablation?: readonly AblationRow[];
  /** What a benchmark run left in its stores worth reporting (e.g. what an evolver changed). */
  runReport?: RunReportSource;
  /** Its evidence as plain text, for the terminal demo (`npm start`), as its panel view shows it. */
  evidenceText?: EvidenceText;
}

export interface EvidenceText {
  /** One phrase for the step (`step.evidence[id]`, undefined when the step has none). */
  step?(evidence: unknown): string;
  /** Cells for one candidate (`candidate.evidence[id]`), by column header, always the same headers in the same order. */
  candidate?(evidence: unknown): Record<string, string>;
}

export interface AblationRow {
  name: string;
  /** Its settings over the defaults (`settings.learners[id]`). */
  settings: Readonly<Record<string, unknown>>;
}

/** Collected from each learner set's stores, then summarised once per benchmark configuration. */
export interface RunReportSource {
  collect(stores: LearnerStores): Promise<unknown[]>;
  summarize(items: readonly unknown[]): RunReport | null;
}

/** A paragraph and an optional table (first row: header) for the benchmark report: "title (configuration): text". */
export interface RunReport {
  title: string;
  text: string;
  table?: string[][];
}

/** A task template a learner distilled, with the steps it names (replay's procedure template). */
export interface LearnedTemplate {
  id: string;
  origin: string;
  /** The task with {variables}: `Add {item} to the cart`. */
  name: string;
  steps: readonly { text: string; regUrl?: string | undefined; exampleActions: readonly string[] }[];
  /** The episodes it was learned from. */
  episodeIds: readonly string[];
}

/** One action that ran in an episode, as a learner stored it. */
export interface RanStep {
  id: string;
  regUrl: string;
  /** Semantic form. */
  action: string;
  stepIndex: number;
}

/** What replay reads from the learners: templates from one, the steps that really ran from another. */
export interface ProcedureKnowledge {
  templates?(origin: string): Promise<LearnedTemplate[]>;
  /** The actions that ran in an episode on these page types (rejected proposals left out), in any order. */
  ranSteps?(episode: { id: string; origin: string; regUrls: readonly string[] }): Promise<RanStep[]>;
}

/** A registry entry with its factory: what the background and the benchmark build from. */
export type RegisteredLearner<S = unknown> = LearnerDefinition<S> & LearnerFactory;

/**
 * Reads a registry learner's settings from `settings.learners[id]`, over its
 * defaults; invalid stored values fall back to the defaults.
 */
export function learnerSettings<S>(definition: Pick<LearnerDefinition<S>, 'id' | 'settings'>, settings: Settings): S {
  const stored = settings.learners?.[definition.id];
  const merged = typeof stored === 'object' && stored !== null && typeof definition.settings.defaults === 'object'
    ? { ...definition.settings.defaults, ...stored }
    : (stored ?? definition.settings.defaults);
  const parsed = definition.settings.schema.safeParse(merged);
  return parsed.success ? parsed.data : definition.settings.defaults;
}

/** One built learner with its definition (registry-factories.ts builds them; learner-actions.ts reads them). */
export type { LearnerStores } from './learner-stores.ts';

export interface BuiltLearner {
  definition: RegisteredLearner;
  learner: Learner;
}

/** The ports one learner is handed: its stores scoped to what its definition declares. */
export function portsFor(definition: Pick<LearnerDefinition, 'id' | 'stores'>, ports: LearnerPorts): LearnerPorts {
  return { ...ports, stores: scopedStores(ports.stores, definition.id, definition.stores ?? []) };
}

/** The built learners whose definition has actions and whose factory answers them. */
export function actionableLearners(built: readonly BuiltLearner[], ports: LearnerPorts): ActionableLearner[] {
  return built.flatMap(({ definition, learner }) =>
    definition.actions && definition.actionHandlers
      ? [{ id: definition.id, label: definition.label, actions: definition.actions, handlers: definition.actionHandlers(portsFor(definition, ports), learner) }]
      : []);
}
