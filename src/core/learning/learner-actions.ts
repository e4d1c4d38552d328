/**
 * A learner's own panel requests (its library, its guides, its lineages), so
 * the protocol and the background carry them without naming the learner: the
 * definition declares each action's request and reply schemas (UI-safe), the
 * factory gives the handlers, and one message (`learner.action`) carries
 * `{ learnerId, action, payload }`. The payload is validated before a handler
 * sees it, and the reply before the panel does.
 */
import type * as z from 'zod';

export interface LearnerAction<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  req: Req;
  res: Res;
}
export type LearnerActions = Readonly<Record<string, LearnerAction>>;

/** Typed handlers for a learner's actions (what its factory writes). */
export type LearnerActionHandlers<A extends LearnerActions> = {
  [K in keyof A]: (payload: z.output<A[K]['req']>) => Promise<z.input<A[K]['res']>>;
};
/** The same handlers as the background calls them, after validating the payload. */
export type AnyActionHandlers = Readonly<Record<string, (payload: unknown) => Promise<unknown>>>;

/** Checks a factory's handlers against its actions' schemas, then erases their types. */
export const checkedHandlers = <A extends LearnerActions>(_actions: A, handlers: LearnerActionHandlers<A>): AnyActionHandlers =>
  handlers as unknown as AnyActionHandlers;

/** An action no learner has, or a payload its schema refuses. */
export class LearnerActionError extends Error {
  override name = 'LearnerActionError';
}

/** One learner with its actions, as the background holds it. */
export interface ActionableLearner {
  id: string;
  label: string;
  actions: LearnerActions;
  handlers: AnyActionHandlers;
}

/** Runs `action` of learner `learnerId` on a validated payload; the reply is validated too. */
export async function runLearnerAction(learners: readonly ActionableLearner[], learnerId: string, action: string, payload: unknown): Promise<unknown> {
  const learner = learners.find((l) => l.id === learnerId);
  if (!learner) throw new LearnerActionError(`no learner "${learnerId}" with panel actions`);
  const schema = Object.hasOwn(learner.actions, action) ? learner.actions[action] : undefined;
  const handler = Object.hasOwn(learner.handlers, action) ? learner.handlers[action] : undefined;
  if (!schema || !handler) throw new LearnerActionError(`${learner.label} has no action "${action}"`);
  const input = schema.req.safeParse(payload);
  if (!input.success) throw new LearnerActionError(`${learner.label} ${action}: ${input.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')}`);
  const reply = schema.res.safeParse(await handler(input.data));
  if (!reply.success) throw new LearnerActionError(`${learner.label} ${action} replied with an invalid value: ${reply.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ')}`);
  return reply.data;
}
