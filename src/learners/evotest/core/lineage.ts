/**
 * One lineage per site and task template: every configuration EvoTest tried or
 * proposed there (a tree: seed → children → grandchildren), their episode
 * scores, which one ran when, and the shared memory M (the last episodes, in
 * compact form). Pure data plus pure operations; the store keeps one record
 * per lineage.
 *
 * The selection pool after an episode run by χ is: χ's ancestors, χ itself,
 * and χ's children. The parent therefore always stays in the pool, and an
 * unlucky child can fall back to it (EvoTest §"UCB Selection … Safety Net").
 */
import * as z from 'zod';
import { EvoConfigurationSchema, type EvoConfiguration } from './configuration.ts';
import { diffConfigurations, type ConfigurationChange } from './configuration-diff.ts';

export const EpisodeDigestStepSchema = z.strictObject({
  regUrl: z.string(),
  title: z.string(),
  /** Semantic action that ran. */
  action: z.string(),
  ok: z.boolean(),
  reward: z.number(),
  /** Semantic actions the person rejected at this step. */
  rejected: z.array(z.string()),
  /** Actions EvoTest's memory hinted at this step. */
  hinted: z.array(z.string()),
  /** The page's origin when it is not the lineage's site (a payment page elsewhere); absent = the lineage's. */
  origin: z.string().optional(),
  /** What the page showed, reduced by the configuration's state-abstraction rules. */
  page: z.array(z.string()),
});
export type EpisodeDigestStep = z.infer<typeof EpisodeDigestStepSchema>;

export const OutcomeSchema = z.enum(['success', 'partial', 'failure', 'stopped']);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** One finished episode as EvoTest remembers it: the evolver's reading and the memory's source. */
export const EpisodeDigestSchema = z.strictObject({
  episodeId: z.string(),
  task: z.string(),
  /** The configuration that ran it; '' for a demonstration or an import (kept in memory, never scored). */
  configurationId: z.string(),
  outcome: OutcomeSchema,
  score: z.number().min(0).max(1),
  hitStepLimit: z.boolean(),
  steps: z.array(EpisodeDigestStepSchema),
  at: z.number(),
});
export type EpisodeDigest = z.infer<typeof EpisodeDigestSchema>;

export const ConfigurationChangeSchema = z.strictObject({ path: z.string(), before: z.string(), after: z.string() });

export const LineageNodeSchema = z.strictObject({
  id: z.string(),
  parentId: z.string().nullable(),
  configuration: EvoConfigurationSchema,
  /** 'seed': the starting configuration; 'offline': rule-based mutation; 'model': proposed by the evolver model. */
  source: z.enum(['seed', 'offline', 'model']),
  rationale: z.string(),
  changes: z.array(ConfigurationChangeSchema),
  createdAt: z.number(),
  runs: z.array(z.strictObject({ episodeId: z.string(), score: z.number().min(0).max(1), at: z.number() })),
});
export type LineageNode = z.infer<typeof LineageNodeSchema>;

export const LineageSchema = z.strictObject({
  /** `${origin} ${template}`. */
  key: z.string(),
  origin: z.string(),
  template: z.string(),
  nodes: z.array(LineageNodeSchema).min(1),
  /** The configuration that ran last; its ancestors and children form the next pool. */
  currentId: z.string(),
  /** A configuration the person pinned: selection always returns it. */
  pinnedId: z.string().nullable(),
  /** Shared memory: the latest episodes, newest last. */
  episodes: z.array(EpisodeDigestSchema),
  /** Children the evolver proposed that failed the schema, dropped. */
  invalidChildren: z.number().int().nonnegative(),
  /** Children identical to their parent or to a sibling, dropped. */
  duplicateChildren: z.number().int().nonnegative(),
  /** Children kept (valid and new), over the lineage's life. */
  keptChildren: z.number().int().nonnegative(),
  /** Field path → how many kept children changed it (children that never ran are pruned; this count stays). */
  changeCounts: z.record(z.string(), z.number().int().nonnegative()),
  updatedAt: z.number(),
  /** Where the lineage came from when it was imported (read from the stored record's envelope; never stored in the lineage). */
  importedFrom: z.string().max(300).optional(),
});
export type Lineage = z.infer<typeof LineageSchema>;

export const MAX_EPISODES_PER_LINEAGE = 20;
export const MAX_CHILDREN_IN_POOL = 4;

export const lineageKey = (origin: string, template: string): string => `${origin} ${template}`;

export function newLineage(input: { origin: string; template: string; seed: EvoConfiguration; now: number }): Lineage {
  return {
    key: lineageKey(input.origin, input.template),
    origin: input.origin,
    template: input.template,
    nodes: [{ id: 'c0', parentId: null, configuration: input.seed, source: 'seed', rationale: 'starting configuration', changes: [], createdAt: input.now, runs: [] }],
    currentId: 'c0',
    pinnedId: null,
    episodes: [],
    invalidChildren: 0,
    duplicateChildren: 0,
    keptChildren: 0,
    changeCounts: {},
    updatedAt: input.now,
  };
}

export function nodeById(lineage: Lineage, id: string): LineageNode | undefined {
  return lineage.nodes.find((n) => n.id === id);
}

function ancestorsOf(lineage: Lineage, id: string): LineageNode[] {
  const out: LineageNode[] = [];
  let node = nodeById(lineage, id);
  const seen = new Set<string>();
  while (node?.parentId && !seen.has(node.parentId)) {
    seen.add(node.parentId);
    node = nodeById(lineage, node.parentId);
    if (node) out.unshift(node);
  }
  return out;
}

/** Ancestors (root first), the current configuration, then its newest children. */
export function selectionPool(lineage: Lineage): LineageNode[] {
  const current = nodeById(lineage, lineage.currentId) ?? lineage.nodes[0]!;
  const children = lineage.nodes.filter((n) => n.parentId === current.id).slice(-MAX_CHILDREN_IN_POOL);
  return [...ancestorsOf(lineage, current.id), current, ...children];
}

export const totalRuns = (lineage: Lineage): number => lineage.nodes.reduce((s, n) => s + n.runs.length, 0);

/** Records a finished episode: the score on the configuration that ran, the digest in memory. */
export function recordEpisode(lineage: Lineage, digest: EpisodeDigest, now: number): Lineage {
  const ran = nodeById(lineage, digest.configurationId);
  if (!ran) return lineage;
  if (ran.runs.some((r) => r.episodeId === digest.episodeId)) return lineage; // learned twice: once counts
  const nodes = lineage.nodes.map((n) => (n.id === ran.id ? { ...n, runs: [...n.runs, { episodeId: digest.episodeId, score: digest.score, at: digest.at }] } : n));
  const episodes = [...lineage.episodes.filter((e) => e.episodeId !== digest.episodeId), digest].slice(-MAX_EPISODES_PER_LINEAGE);
  return { ...lineage, nodes, episodes, currentId: ran.id, updatedAt: now };
}

export interface ProposedChild {
  configuration: EvoConfiguration;
  source: 'offline' | 'model';
  rationale: string;
}

/** Adds children of `parentId`; children equal to the parent or to a sibling are dropped and counted. */
export function addChildren(lineage: Lineage, parentId: string, children: readonly ProposedChild[], now: number, invalid = 0): { lineage: Lineage; added: LineageNode[] } {
  const parent = nodeById(lineage, parentId);
  if (!parent) return { lineage, added: [] };
  let next = lineage.nodes.reduce((m, n) => Math.max(m, Number(n.id.slice(1)) || 0), 0) + 1;
  const added: LineageNode[] = [];
  let duplicates = 0;
  const siblings = lineage.nodes.filter((n) => n.parentId === parentId);
  for (const child of children) {
    const changes: ConfigurationChange[] = diffConfigurations(parent.configuration, child.configuration);
    const same = (other: EvoConfiguration) => diffConfigurations(other, child.configuration).length === 0;
    if (changes.length === 0 || [...siblings, ...added].some((s) => same(s.configuration))) {
      duplicates++;
      continue;
    }
    added.push({ id: `c${next++}`, parentId, configuration: child.configuration, source: child.source, rationale: child.rationale, changes, createdAt: now, runs: [] });
  }
  const changeCounts = { ...lineage.changeCounts };
  for (const child of added) for (const c of child.changes) changeCounts[c.path] = (changeCounts[c.path] ?? 0) + 1;
  return {
    lineage: pruneUntried({
      ...lineage,
      changeCounts,
      keptChildren: lineage.keptChildren + added.length,
      nodes: [...lineage.nodes, ...added],
      invalidChildren: lineage.invalidChildren + invalid,
      duplicateChildren: lineage.duplicateChildren + duplicates,
      updatedAt: now,
    }),
    added,
  };
}

/**
 * Children that never ran and left the pool (their parent is no longer the
 * current configuration) can never be chosen again: dropped, so a long-lived
 * lineage stays small. Nodes that ran are kept (the panel's history).
 */
function pruneUntried(lineage: Lineage): Lineage {
  const pool = new Set(selectionPool(lineage).map((n) => n.id));
  const nodes = lineage.nodes.filter((n) => n.runs.length > 0 || pool.has(n.id) || n.id === lineage.pinnedId || n.parentId === null);
  return nodes.length === lineage.nodes.length ? lineage : { ...lineage, nodes };
}

const meanOf = (node: LineageNode | undefined): number | null =>
  node && node.runs.length ? node.runs.reduce((s, r) => s + r.score, 0) / node.runs.length : null;
export const meanScore = meanOf;

/** Pins a configuration (selection always returns it) or unpins (null). Unknown ids change nothing. */
export function pinConfiguration(lineage: Lineage, id: string | null, now: number): Lineage {
  if (id !== null && !nodeById(lineage, id)) return lineage;
  return { ...lineage, pinnedId: id, updatedAt: now };
}
