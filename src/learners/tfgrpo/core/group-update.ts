/**
 * Closed groups into library updates: each mixed group proposes operations
 * (through the model's semantic advantage, or page-type contrasts without a
 * model), the batch is consolidated, and each site's library is updated once
 * with an undoable revision.
 */
import type { ChatModel } from '../../../core/ports.ts';
import { consolidate } from './consolidate.ts';
import type { GroupRef, TfgrpoExperience } from './experience.ts';
import { groupRefOf, splitGroup, unchangedReason, type GroupAttempt, type GroupSplit, type GroupVerdict } from './group.ts';
import { applyOperations } from './library.ts';
import { deriveRules } from './offline-rules.ts';
import type { LibraryOperation } from './operations.ts';
import { proposeUpdate, semanticAdvantage } from './semantic-advantage.ts';
import type { TfgrpoSettings } from './tfgrpo-settings.ts';
import type { TfgrpoStore } from './tfgrpo-store.ts';
import { emptyReport, type TfgrpoLearnReport } from './learn-report.ts';
import { NEEDS_MODEL } from './tfgrpo-settings.ts';

export interface GroupUpdateDeps {
  store: TfgrpoStore;
  settings: TfgrpoSettings;
  /** Read once per group, as the provider can change at run time. */
  model: () => ChatModel | null;
  now: number;
}

/** What one site's library receives from the batch. */
interface SiteBatch {
  ops: LibraryOperation[];
  group: GroupRef;
  library: TfgrpoExperience[];
}

export async function learnFromGroups(groups: readonly (readonly GroupAttempt[])[], deps: GroupUpdateDeps, signal?: AbortSignal): Promise<TfgrpoLearnReport> {
  const { settings, now } = deps;
  const report = emptyReport('skipped', groups.reduce((n, g) => n + g.length, 0));
  const bySite = new Map<string, SiteBatch>();
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
    const site = bySite.get(origin) ?? { ops: [], group, library: await deps.store.library(origin) };
    bySite.set(origin, site);
    const proposed = await groupOperations(split, site.library, group, deps.model(), settings.ruleHints, report, signal);
    if (proposed.reason !== null) reasons.push(proposed.reason);
    site.ops.push(...proposed.operations);
  }
  report.verdict = verdicts.includes('mixed') ? 'mixed' : verdicts[0] ?? 'skipped';

  for (const [origin, site] of bySite) await updateSiteLibrary(origin, site, deps, report);
  const changed = report.added.length + report.updated.length + report.deleted.length + report.evicted.length > 0;
  if (!changed) report.reason = reasons[0] ?? 'the update proposed no change';
  return report;
}

/**
 * The operations one mixed group proposes, and why it proposes none when it
 * does not. Notes, principles, refusals and the path taken go on `report`.
 */
async function groupOperations(
  split: GroupSplit,
  library: TfgrpoExperience[],
  group: GroupRef,
  model: ChatModel | null,
  ruleHints: boolean,
  report: TfgrpoLearnReport,
  signal?: AbortSignal,
): Promise<{ operations: LibraryOperation[]; reason: string | null }> {
  if (model) {
    report.path = 'model';
    const advantage = await semanticAdvantage(model, split, library, signal);
    report.notes.push(...advantage.notes);
    if (!advantage.ok) return { operations: [], reason: advantage.reason };
    report.principles.push(...advantage.principles);
    const proposed = await proposeUpdate(model, advantage.principles, library, group, signal);
    if (!proposed.ok) return { operations: [], reason: proposed.reason };
    if (proposed.repaired) report.notes.push('update: malformed JSON was repaired');
    report.refused.push(...proposed.refused);
    return { operations: proposed.operations, reason: null };
  }
  if (ruleHints) {
    report.path = 'rules';
    const rules = deriveRules(split, group);
    return { operations: rules.operations, reason: rules.reason ? rules.reason : null };
  }
  return { operations: [], reason: NEEDS_MODEL };
}

/** Consolidates a site's batch, applies it under the caps, and saves the library with its revision. */
async function updateSiteLibrary(origin: string, site: SiteBatch, deps: GroupUpdateDeps, report: TfgrpoLearnReport): Promise<void> {
  const { settings, now } = deps;
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
  if (update.revision) await deps.store.saveLibrary(origin, update.library, update.revision);
}
