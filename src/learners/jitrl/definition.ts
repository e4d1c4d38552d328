/** JitRL's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { TRANSITIONS } from './core/stores.ts';
import { JITRL_ACTIONS } from './core/actions.ts';
import { DEFAULT_JITRL, JitrlSettingsSchema, type JitrlSettings } from './core/settings.ts';
import { jitrlTunables } from './core/tunables.ts';
import { FORMER_FIELDS, JITRL_ID, JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema } from './core/evidence.ts';

export const jitrlDefinition: LearnerDefinition<JitrlSettings> = {
  id: JITRL_ID,
  label: 'JitRL',
  order: 20,
  // Stored as a top-level `jitrl` group (with the policy's temperature and candidate count) before they moved under `learners`.
  settings: { schema: JitrlSettingsSchema, defaults: DEFAULT_JITRL, read: (s) => learnerSettings(jitrlDefinition, s), legacyKey: 'jitrl' },
  enabled: (s) => learnerSettings(jitrlDefinition, s).enabled,
  needsModel: { level: 'no', description: 'Works with any policy, the offline one included: it only re-weights the candidates with remembered returns.' },
  evidenceSchema: JitrlStepEvidenceSchema,
  candidateEvidenceSchema: JitrlCandidateEvidenceSchema,
  formerFields: FORMER_FIELDS,
  keepsMemory: true,
  stores: [TRANSITIONS],
  actions: JITRL_ACTIONS,
  // What tuners may move per step (read back from `request.tuned`).
  tunables: jitrlTunables((s) => learnerSettings(jitrlDefinition, s)),
  // Taught corrections are our addition: the teaching figures' mutant runs without them.
  mutants: { 'no-corrections': { learnCorrections: false } },
};

/** What the registry reads (src/core/learning/registry/registry.ts globs every learner's definition.ts). */
export { jitrlDefinition as definition };
