/**
 * CER's settings, stored under `settings.learners.cer` and read through its
 * definition. Each `.describe()` text is the label the options page shows.
 */
import * as z from 'zod';

export const CerSettingsSchema = z.strictObject({
  enabled: z.boolean().describe('Use CER'),
  successOnly: z.boolean().describe('Distil successful episodes only'),
  topDynamics: z.number().int().nonnegative().describe('Dynamics entries replayed'),
  topSkills: z.number().int().nonnegative().describe('Skills replayed'),
  maxEntriesPerSite: z.number().int().positive().describe('Max entries per site'),
});
export type CerSettings = z.infer<typeof CerSettingsSchema>;

export const DEFAULT_CER: CerSettings = { enabled: true, successOnly: false, topDynamics: 5, topSkills: 5, maxEntriesPerSite: 200 };
