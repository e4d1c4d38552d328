/** JitRL's registry entry. */
import * as z from 'zod';
import { DEFAULT_SETTINGS, JitrlSettingsSchema, type Settings } from '../../settings.ts';
import type { LearnerDefinition } from '../learner-definition.ts';
import { JitrlLearner } from './jitrl-learner.ts';

const JitrlEntrySettingsSchema = JitrlSettingsSchema.extend({ enabled: z.boolean() });

export const jitrlDefinition: LearnerDefinition<Settings['jitrl']> = {
  id: 'jitrl',
  label: 'JitRL',
  settings: { schema: JitrlEntrySettingsSchema, defaults: DEFAULT_SETTINGS.jitrl, read: (s) => s.jitrl },
  enabled: (s) => s.jitrl.enabled,
  needsModel: { level: 'no', description: 'Works with any policy, the offline one included: it only re-weights the candidates with remembered returns.' },
  create: (ports) =>
    new JitrlLearner({
      store: ports.stores.memory,
      settings: () => ports.settings().jitrl,
      random: ports.random,
      clock: ports.clock,
      // As before the registry: a rejection is stored with the default `reject` reward, not the settings' one.
    }),
  memory: (ports) => ({ forgetSite: (origin) => ports.stores.memory.forgetSite(origin) }),
};
