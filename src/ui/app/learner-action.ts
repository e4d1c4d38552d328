/**
 * A learner's panel view asks its learner through the one `learner.action`
 * message: the payload typed by the action's request schema, the reply
 * validated with its reply schema (learner-actions.ts). The learner is named
 * by its definition, so a view never spells a learner id.
 */
import type * as z from 'zod';
import type { LearnerActions } from '../../core/learning/learner-actions.ts';
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { ProtocolError, type UiClient } from '../../protocol/validate.ts';

export async function callLearner<A extends LearnerActions, K extends keyof A & string>(
  client: UiClient,
  learner: Pick<LearnerDefinition, 'id'>,
  actions: A,
  action: K,
  payload: z.input<A[K]['req']>,
): Promise<z.output<A[K]['res']>> {
  const learnerId = learner.id;
  const reply = await client.request('learner.action', { learnerId, action, payload });
  const parsed = actions[action]!.res.safeParse(reply);
  if (!parsed.success) throw new ProtocolError(`invalid reply to ${learnerId} ${action}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data as z.output<A[K]['res']>;
}
