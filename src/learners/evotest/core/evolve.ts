/**
 * One Evolve phase (EvoTest's U(χ, τ)): the finished episode is recorded on
 * the configuration that ran, then children of that configuration are
 * proposed — by the model when one is configured, and always by the offline
 * operators — validated, de-duplicated and added to the lineage.
 */
import type { ChatModel } from '../../../core/ports.ts';
import type { Tunables } from '../../../core/learning/tunables.ts';
import { addChildren, nodeById, recordEpisode, type EpisodeDigest, type Lineage, type LineageNode } from './lineage.ts';
import { evolveWithModel } from './model-evolver.ts';
import { diagnose, evolveOffline } from './offline-evolver.ts';

export type EvolverMode = 'model' | 'offline';

export interface EvolveReport {
  mode: EvolverMode;
  added: LineageNode[];
  /** Children dropped because the schema rejected them. */
  invalid: number;
  notes: string[];
}

export async function evolveAfterEpisode(
  lineage: Lineage,
  digest: EpisodeDigest,
  options: { model: ChatModel | null; children: number; now: number; tunables: Tunables; signal?: AbortSignal },
): Promise<{ lineage: Lineage; report: EvolveReport }> {
  const recorded = recordEpisode(lineage, digest, options.now);
  const parent = nodeById(recorded, digest.configurationId);
  const mode: EvolverMode = options.model ? 'model' : 'offline';
  if (!parent) {
    return { lineage: recorded, report: { mode, added: [], invalid: 0, notes: [`configuration ${digest.configurationId} is no longer in the lineage: nothing evolved`] } };
  }
  const notes: string[] = [];
  let invalid = 0;
  const proposals = [];
  if (options.model) {
    const diagnosis = diagnose(digest, parent.configuration);
    const out = await evolveWithModel(options.model, { parent: parent.configuration, digest, diagnosis, count: options.children, tunables: options.tunables }, options.signal);
    if (out.error) notes.push(`${out.error}; offline operators only`);
    for (const bad of out.invalid) notes.push(`a proposed child was invalid and dropped (${bad.error})`);
    invalid = out.invalid.length;
    proposals.push(...out.children);
    // The rule-based operators keep the hyperparameters moving even when the model only rewrites prose.
    proposals.push(...evolveOffline(parent.configuration, digest, out.error ? options.children : 1, options.tunables));
  } else {
    proposals.push(...evolveOffline(parent.configuration, digest, options.children, options.tunables));
  }
  const { lineage: next, added } = addChildren(recorded, parent.id, proposals, options.now, invalid);
  return { lineage: next, report: { mode, added, invalid, notes } };
}
