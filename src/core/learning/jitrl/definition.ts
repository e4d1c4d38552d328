/** JitRL's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import * as z from 'zod';
import { DEFAULT_SETTINGS, JitrlSettingsSchema, type Settings } from '../../settings.ts';
import type { LearnerDefinition } from '../learner-definition.ts';
import { FORMER_FIELDS, JITRL_ID, JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema } from './evidence.ts';

const JitrlEntrySettingsSchema = JitrlSettingsSchema.extend({ enabled: z.boolean() });

export const jitrlDefinition: LearnerDefinition<Settings['jitrl']> = {
  id: JITRL_ID,
  label: 'JitRL',
  settings: { schema: JitrlEntrySettingsSchema, defaults: DEFAULT_SETTINGS.jitrl, read: (s) => s.jitrl },
  enabled: (s) => s.jitrl.enabled,
  needsModel: { level: 'no', description: 'Works with any policy, the offline one included: it only re-weights the candidates with remembered returns.' },
  evidenceSchema: JitrlStepEvidenceSchema,
  candidateEvidenceSchema: JitrlCandidateEvidenceSchema,
  formerFields: FORMER_FIELDS,
  keepsMemory: true,
};
