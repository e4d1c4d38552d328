/**
 * The registry meta-check: every learner entry has what a learner needs to be
 * an ordinary part of Apprentice — valid settings (schema, defaults, read),
 * a factory that builds a learner with its id, an evidence schema and an
 * evidence view in the panel, and a memory that exports and imports back.
 * Used by test/unit/registry-meta.test.ts on the real registry and by the
 * `npm run new-learner` test on a scaffolded copy of the source tree.
 */
import * as z from 'zod';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { CandidateRecordSchema, StepRecordSchema } from '../../src/core/episode/episode.ts';
import type { LearnerDefinition, LearnerFactory, LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { seededRandom } from '../../src/core/random.ts';
import { testLearnerStores } from './learner-stores.ts';

export type MetaRequirement = 'evidence' | 'export';

/**
 * Entries that do not meet a requirement yet, and why. Issue 23 part 4 makes
 * JitRL and CER ordinary learners; when an entry meets a requirement, the
 * meta-check says its exception is no longer needed.
 */
export const KNOWN_GAPS: Readonly<Record<string, Partial<Record<MetaRequirement, string>>>> = {
  cer: {
    evidence: 'what it replayed is still step.replayed, not step.evidence.cer',
  },
  metattl: { evidence: 'it changes the guide, not the candidates: the guide in force is shown by the Run tab\'s guide panel' },
};

export interface RegistryParts {
  learners: readonly LearnerDefinition[];
  factories: Readonly<Record<string, LearnerFactory>>;
  evidenceViews: Readonly<Record<string, unknown>>;
  /** CANDIDATE_EVIDENCE_VIEWS: a learner with a candidate evidence schema needs one. */
  candidateEvidenceViews?: Readonly<Record<string, unknown>>;
  gaps?: Readonly<Record<string, Partial<Record<MetaRequirement, string>>>>;
}

export function metaPorts(): LearnerPorts {
  let t = 0;
  return {
    stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }),
    settings: () => DEFAULT_SETTINGS,
    model: () => null,
    clock: { now: () => (t += 10) },
    random: seededRandom(0),
  };
}

/** One line per problem; [] when every entry passes. */
export async function registryProblems({ learners, factories, evidenceViews, candidateEvidenceViews = {}, gaps = KNOWN_GAPS }: RegistryParts): Promise<string[]> {
  const problems: string[] = [];
  const ids = learners.map((d) => d.id);
  if (new Set(ids).size !== ids.length) problems.push(`duplicate ids: ${ids.join(', ')}`);
  for (const d of learners) {
    const say = (what: string) => problems.push(`${d.id}: ${what}`);
    const gap = gaps[d.id] ?? {};
    if (d.label.trim() === '') say('no label');
    if (!d.settings.schema.safeParse(d.settings.defaults).success) say('its settings defaults do not parse with its settings schema');
    if (!d.settings.schema.safeParse(d.settings.read(DEFAULT_SETTINGS)).success) say('settings.read(DEFAULT_SETTINGS) does not parse with its schema');
    if (typeof d.enabled(DEFAULT_SETTINGS) !== 'boolean') say('enabled() is not a boolean');
    if (d.needsModel.description.trim() === '') say('needsModel has no description');

    if (d.candidateEvidenceSchema !== undefined && candidateEvidenceViews[d.id] === undefined) say('has a candidate evidence schema but no view in CANDIDATE_EVIDENCE_VIEWS (src/ui/app/learner-evidence.tsx)');
    // The stored-format upgrade moves former fields under evidence[id]: none of them may be a field of today's records.
    const live = [...Object.keys(StepRecordSchema.shape), ...Object.keys(CandidateRecordSchema.shape)];
    for (const f of [...(d.formerFields?.step ?? []), ...(d.formerFields?.candidate ?? [])]) if (live.includes(f)) say(`former field "${f}" is a field of today's stored records`);
    // A former per-candidate list of its step evidence is moved out of it: today's step evidence may not have it, and the entries need a candidate schema.
    const stepEvidenceFields = d.evidenceSchema instanceof z.ZodObject ? Object.keys(d.evidenceSchema.shape) : [];
    for (const f of d.formerFields?.perCandidate ?? []) {
      if (stepEvidenceFields.includes(f)) say(`former per-candidate list "${f}" is still a field of its step evidence schema`);
      if (d.candidateEvidenceSchema === undefined) say(`former per-candidate list "${f}" has no candidate evidence schema to move to`);
    }
    const hasEvidence = d.evidenceSchema !== undefined && evidenceViews[d.id] !== undefined;
    if (!hasEvidence && gap.evidence === undefined) say('no evidence schema, or no view in EVIDENCE_VIEWS (src/ui/app/learner-evidence.tsx)');
    if (hasEvidence && gap.evidence !== undefined) say('has an evidence schema and view now: remove its evidence gap from KNOWN_GAPS');

    const factory = factories[d.id];
    if (factory === undefined) {
      say('no factory in registry-factories.ts');
      continue;
    }
    const ports = metaPorts();
    const learner = factory.create(ports);
    if (learner.id !== d.id) say(`its factory builds a learner with id "${learner.id}"`);
    if (d.keepsMemory !== (factory.memory !== undefined)) say('keepsMemory does not match whether its factory has memory');
    const memory = factory.memory?.(ports);
    const exports = memory?.export !== undefined && memory.prepareImport !== undefined;
    if (!exports && gap.export === undefined) say('its memory has no export and prepareImport');
    if (exports && gap.export !== undefined) say('exports and imports now: remove its export gap from KNOWN_GAPS');
    if (exports) {
      const exported = await memory.export!();
      const prepared = memory.prepareImport!(JSON.parse(JSON.stringify(exported)));
      if (prepared.rejected.length > 0) say(`its own export does not import back: ${prepared.rejected.join('; ')}`);
      if (typeof (await memory.forgetSite('https://meta.test')) !== 'number') say('forgetSite does not return a count');
    }
  }
  return problems;
}
