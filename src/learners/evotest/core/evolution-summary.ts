/**
 * What EvoTest's evolver changed, over the lineages a benchmark run left
 * behind: for each configuration field, how many children changed it, and how
 * many of those children were then selected and ran.
 */
import type { RunReport } from '../../../core/learning/learner-definition.ts';
import type { Lineage } from './lineage.ts';

export interface EvolutionSummary {
  lineages: number;
  /** Children proposed and kept (after schema and de-duplication). */
  children: number;
  /** Children that ran at least once. */
  childrenRan: number;
  invalidChildren: number;
  /** Episodes run by a child rather than the starting configuration. */
  episodesOnChildren: number;
  episodes: number;
  /** Field path → [children that changed it, of which ran], most changed first. */
  fields: { path: string; proposed: number; ran: number }[];
}

export function summarizeEvolution(lineages: readonly Lineage[]): EvolutionSummary {
  const fields = new Map<string, { proposed: number; ran: number }>();
  let children = 0;
  let childrenRan = 0;
  let episodes = 0;
  let episodesOnChildren = 0;
  for (const lineage of lineages) {
    for (const [path, n] of Object.entries(lineage.changeCounts)) {
      const f = fields.get(path) ?? { proposed: 0, ran: 0 };
      f.proposed += n;
      fields.set(path, f);
    }
    children += lineage.keptChildren;
    for (const node of lineage.nodes) {
      episodes += node.runs.length;
      if (node.parentId === null || node.runs.length === 0) continue;
      childrenRan++;
      episodesOnChildren += node.runs.length;
      for (const change of node.changes) {
        const f = fields.get(change.path) ?? { proposed: 0, ran: 0 };
        f.ran++;
        fields.set(change.path, f);
      }
    }
  }
  return {
    lineages: lineages.length,
    children,
    childrenRan,
    invalidChildren: lineages.reduce((n, l) => n + l.invalidChildren, 0),
    episodesOnChildren,
    episodes,
    fields: [...fields.entries()].map(([path, f]) => ({ path, ...f })).sort((a, b) => b.proposed - a.proposed || b.ran - a.ran || a.path.localeCompare(b.path)),
  };
}

/** The summary as the benchmark report prints it. */
export function evolutionReport(e: EvolutionSummary): RunReport {
  return {
    title: 'What the EvoTest evolver changed',
    text: `${e.children} children kept over ${e.lineages} lineages (${e.invalidChildren} invalid dropped); ${e.childrenRan} of them ran, for ${e.episodesOnChildren} of ${e.episodes} episodes.`,
    ...(e.fields.length > 0 ? { table: [['Field', 'Children that changed it', 'Of which ran'], ...e.fields.map((f) => [f.path, String(f.proposed), String(f.ran)])] } : {}),
  };
}
