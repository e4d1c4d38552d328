/** What a step keeps under `evidence.tfgrpo`: the experiences in that step's prompt, numbered as the policy saw them. */
import * as z from 'zod';

export const TfgrpoEvidenceSchema = z.strictObject({
  experiences: z.array(z.strictObject({ number: z.number().int().positive(), id: z.string(), text: z.string() })),
});
export type TfgrpoEvidence = z.infer<typeof TfgrpoEvidenceSchema>;
