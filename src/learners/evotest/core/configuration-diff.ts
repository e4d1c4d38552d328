/**
 * What a child changed relative to its parent, field by field. The panel shows
 * it; the evolver records it on the child; the benchmark counts which fields
 * changed most often.
 */
import type { EvoConfiguration } from './configuration.ts';

export interface ConfigurationChange {
  /** Dotted path of the leaf: `hyperparameters.temperature`, `stateAbstraction.keep`. */
  path: string;
  before: string;
  after: string;
}

type Leaf = string | number | boolean | readonly string[];

function leaves(value: unknown, prefix: string, out: Map<string, Leaf>): void {
  if (Array.isArray(value) || typeof value !== 'object' || value === null) {
    out.set(prefix, value as Leaf);
    return;
  }
  for (const [key, child] of Object.entries(value)) leaves(child, prefix ? `${prefix}.${key}` : key, out);
}

const show = (v: Leaf | undefined): string => (v === undefined ? '—' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

/** The leaves that differ, in schema order. */
export function diffConfigurations(parent: EvoConfiguration, child: EvoConfiguration): ConfigurationChange[] {
  const a = new Map<string, Leaf>();
  const b = new Map<string, Leaf>();
  leaves(parent, '', a);
  leaves(child, '', b);
  const changes: ConfigurationChange[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const before = show(a.get(path));
    const after = show(b.get(path));
    if (before !== after) changes.push({ path, before, after });
  }
  return changes;
}

export const sameConfiguration = (a: EvoConfiguration, b: EvoConfiguration): boolean => diffConfigurations(a, b).length === 0;
