/**
 * The observation contract: what the content script produces from a page and
 * what the core reasons over. The zod schema is the single source of truth —
 * a snapshot crosses the content → background boundary and is validated there.
 */
import * as z from 'zod';
import { TargetContextSchema, type SemanticTarget } from './action.ts';

/** States a person can see on an element (ARIA semantics). Absent = not applicable. */
export const ElementStatesSchema = z.strictObject({
  checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
  selected: z.boolean().optional(),
  expanded: z.boolean().optional(),
  disabled: z.boolean().optional(),
  required: z.boolean().optional(),
  focused: z.boolean().optional(),
  invalid: z.boolean().optional(),
  readonly: z.boolean().optional(),
});
export type ElementStates = z.infer<typeof ElementStatesSchema>;

/** One field a form submission sends: its name and value (a secret's value is digested: secrets/form-data.ts). */
export const FormFieldSchema = z.strictObject({ name: z.string().max(200), value: z.string().max(400) });
export type FormField = z.infer<typeof FormFieldSchema>;

/** The longest row text a snapshot keeps (row-identifier.ts): a row of a ticket report or a user table fits. */
export const ROW_TEXT_MAX = 300;
/** A task as the page layer receives it for the snapshot budget (a task is typed; 2000 is the panel's limit). */
export const TASK_TEXT_MAX = 2000;

/**
 * One line of the snapshot. Interactive elements carry a `ref` that is stable
 * across re-snapshots of an unchanged page ("12", or "f1:12" inside frame f1).
 * Structural lines (headings, landmarks, text) carry `ref: null`.
 */
export const SnapshotNodeSchema = z.strictObject({
  ref: z.string().nullable(),
  kind: z.enum(['interactive', 'heading', 'landmark', 'text']),
  role: z.string(),
  name: z.string(),
  /** The name was guessed from class or data hints (an icon without text), not read from the page. */
  nameGuessed: z.literal(true).optional(),
  /**
   * Present when the name holds text a person cannot see (hidden by CSS, or an
   * aria-label that shares no word with the element's visible text): the text
   * they do see there ('' when none). Absent when the name is what they see.
   */
  shownText: z.string().optional(),
  value: z.string().optional(),
  states: ElementStatesSchema,
  /** Nesting depth for indentation in the prompt rendering. */
  depth: z.number().int().nonnegative(),
  /** Heading level 1–6. */
  level: z.number().int().min(1).max(6).optional(),
  /** Native <select>/listbox options, by label. */
  options: z.array(z.string()).optional(),
  /** The input's type attribute (password, email, …): drives sensitivity rules. */
  inputType: z.string().optional(),
  /** The autocomplete token (cc-number, one-time-code, current-password…): marks secret fields. */
  autocomplete: z.string().optional(),
  /** true when the element is inside a <form>: Enter or Space there may submit it. */
  inForm: z.boolean().optional(),
  /**
   * true when activating it submits a form: a submit button (a <button> without
   * a type counts), or a check/select whose change handler submits its form.
   */
  submits: z.boolean().optional(),
  /** href for links (absolute), used for cross-origin checks. */
  href: z.string().optional(),
  /** The link downloads rather than navigates (a `download` attribute). */
  download: z.literal(true).optional(),
  /**
   * Where the element's form goes when it is submitted (absolute URL; the
   * submitter's formaction wins) and how (get, post, dialog). Present on
   * elements of a form; the gate and the act-time check compare them.
   */
  formAction: z.string().optional(),
  formMethod: z.string().optional(),
  /**
   * What activating it submits: the form's fields in order, hidden ones
   * included (issue 30: an approval of "Delete" on row 7 is not one on row 9).
   * Present on elements that submit; never rendered for the model.
   */
  formData: z.array(FormFieldSchema).max(100).optional(),
  /** false when the element is rendered but outside the viewport. */
  inViewport: z.boolean(),
  /** The frame path when inside a same-origin iframe ("f1"); absent in the top document. */
  frame: z.string().optional(),
  /**
   * The containers that tell this element apart from look-alikes, innermost
   * first: the repeated row, list item or card it sits in, named by its
   * identifying text, and the dialog around it. Computed once, in the page.
   */
  context: z.array(TargetContextSchema).min(1).optional(),
  /**
   * The whole text of the repeated row, list item or card, on the element that
   * names it (a ticket's id link: its own name is the row's name, so it has no
   * row context). What tells which item a task means: carried to another
   * instance, the row whose text shows that instance's value (row-identifier.ts).
   * Never rendered for the model.
   */
  rowText: z.string().max(ROW_TEXT_MAX).optional(),
  /** Its 1-based place among elements identical in role, name and context, when there are several. */
  nth: z.number().int().positive().optional(),
  /**
   * A text field that holds lines (a <textarea>, `aria-multiline="true"`): a line break typed there is
   * text, typed without an Enter key event (act/typing.ts), so it submits nothing.
   */
  multiline: z.literal(true).optional(),
  /** Something else is on top of it at every point a pointer could land: what (`button.icon "Search"`). */
  coveredBy: z.string().optional(),
});
export type SnapshotNode = z.infer<typeof SnapshotNodeSchema>;

export const PageObservationSchema = z.strictObject({
  url: z.string(),
  title: z.string(),
  nodes: z.array(SnapshotNodeSchema),
  focusedRef: z.string().nullable(),
  /** Counts of content summarized because it is off-screen. */
  offscreen: z.strictObject({ above: z.number().int().nonnegative(), below: z.number().int().nonnegative() }),
  /** Documented omissions: closed shadow roots, cross-origin frames, truncation. */
  omissions: z.array(z.string()),
  scroll: z.strictObject({ y: z.number(), maxY: z.number(), viewportHeight: z.number() }),
  /** Milliseconds the snapshot took in the page. */
  tookMs: z.number().nonnegative(),
});
export type PageObservation = z.infer<typeof PageObservationSchema>;

export interface ObserveOptions {
  /** Character budget for the prompt rendering (truncation is deterministic). */
  maxChars?: number;
  /** The ref the last action touched: never dropped by truncation. */
  lastActedRef?: string | null;
  /** The task as typed: the lines it names are dropped last by truncation (page/task-named.ts). */
  task?: string;
  /**
   * The element the next step of a plan acts on: when the previous step opened
   * a list, a dialog or a page, it may take a moment to appear, and the page
   * layer waits for it (bounded) as a person would, before reading the page.
   */
  waitFor?: SemanticTarget | null;
}
