/**
 * The action contract. An action targets an element either by the ref of the
 * current snapshot (`click([12])`) or by its semantic form
 * (`click(<button "Sign in">)`), which is what memory stores because refs are
 * ephemeral across sessions ("Action Handling", docs/learning.md, "Papers").
 */
import * as z from 'zod';
import { TextChangeSchema } from './text-change.ts';

export const RefTargetSchema = z.strictObject({ kind: z.literal('ref'), ref: z.string().min(1) });
/**
 * One container an element sits in, named by what tells it apart from its
 * look-alikes: `row "Alan Turing"`, `dialog "Invite member"`.
 */
export const TargetContextSchema = z.strictObject({ role: z.string().min(1), name: z.string() });
export type TargetContext = z.infer<typeof TargetContextSchema>;

export const SemanticTargetSchema = z.strictObject({
  kind: z.literal('semantic'),
  role: z.string().min(1),
  name: z.string(),
  /** The containers that tell this element apart from others of its role and name, innermost first. */
  context: z.array(TargetContextSchema).min(1).optional(),
  /** Last resort: its 1-based place among elements identical in role, name and context. */
  nth: z.number().int().positive().optional(),
});
export const TargetSchema = z.discriminatedUnion('kind', [RefTargetSchema, SemanticTargetSchema]);
export type RefTarget = z.infer<typeof RefTargetSchema>;
export type SemanticTarget = z.infer<typeof SemanticTargetSchema>;
export type Target = z.infer<typeof TargetSchema>;

const targeted = <T extends string>(type: T) => z.strictObject({ type: z.literal(type), target: TargetSchema });

export const ActionSchema = z.discriminatedUnion('type', [
  targeted('click'),
  targeted('dblclick'),
  targeted('hover'),
  targeted('focus'),
  targeted('clear'),
  targeted('check'),
  targeted('uncheck'),
  /**
   * Types `text` over the field's text; with a `change`, edits what the field
   * holds instead: `text` is appended, prepended, inserted or put in place of
   * an old text (text-change.ts).
   */
  z.strictObject({ type: z.literal('fill'), target: TargetSchema, text: z.string(), change: TextChangeSchema.optional() }),
  z.strictObject({ type: z.literal('select_option'), target: TargetSchema, option: z.string() }),
  /** Keys such as "Enter", "Control+a"; without a target it goes to the focused element. */
  z.strictObject({ type: z.literal('press'), target: TargetSchema.optional(), keys: z.string().min(1) }),
  /** Scroll the page, or an element when a target is given, by (dx, dy) pixels. */
  z.strictObject({ type: z.literal('scroll'), target: TargetSchema.optional(), dx: z.number(), dy: z.number() }),
  z.strictObject({ type: z.literal('goto'), url: z.string().min(1) }),
  z.strictObject({ type: z.literal('go_back') }),
  z.strictObject({ type: z.literal('go_forward') }),
  z.strictObject({ type: z.literal('send_msg_to_user'), text: z.string() }),
  z.strictObject({ type: z.literal('report_infeasible'), reason: z.string() }),
]);
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];

/**
 * The answer that says only "the task is done": what the person's Done and a
 * teacher's stop teach, and what the policy offers as its finish candidate.
 * It names nothing of any task, so it carries from one instance to the next.
 */
export const FINISH_TEXT = 'Done.';
export const FINISH_ACTION: Action = { type: 'send_msg_to_user', text: FINISH_TEXT };

/** Actions that leave a value or a state in an element (the vocabulary's `sets` trait says which). */
export type SettingAction = Extract<Action, { type: 'fill' | 'select_option' | 'check' | 'uncheck' }>;

export const ActionErrorCodeSchema = z.enum([
  'element_gone', // the ref or semantic target is not on the page any more
  'not_visible',
  'disabled',
  'not_editable',
  'not_selectable', // select_option on something that has no such option
  'navigated', // the page navigated away while the action ran
  'unresolved', // a semantic target matched nothing on the current page
  'invalid_action', // the action does not fit the element (check on a button, …)
  'timeout',
  'no_page', // the tab is gone or cannot be scripted
  'not_run', // the action was refused before it started (the page changed since it was shown)
  'outcome_unknown', // the worker stopped while the action ran: it may or may not have run
  'obscured', // something else is on top of the element at every point a mouse could click
]);
export type ActionErrorCode = z.infer<typeof ActionErrorCodeSchema>;

export const ActionResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    navigated: z.boolean(),
    note: z.string().optional(),
    /** The action opened a new tab (target=_blank, window.open) and the agent followed it there. */
    openedTab: z.strictObject({ tabId: z.number().int(), url: z.string() }).optional(),
    /** A whole text typed over a multi-line one: the change it made there, which is what is learned. */
    edit: z.strictObject({ text: z.string(), change: TextChangeSchema }).optional(),
  }),
  z.strictObject({ ok: z.literal(false), code: ActionErrorCodeSchema, message: z.string() }),
]);
export type ActionResult = z.infer<typeof ActionResultSchema>;
