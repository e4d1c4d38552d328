/**
 * The action vocabulary: every action kind, once. Its grammar forms (the
 * argument slots, in order), the line the model's prompt gives it, the words
 * a person reads, and what the kind does to a page. The schema in
 * `action.ts` holds each kind's field types; this table is keyed by that
 * schema's kinds, so adding a kind there fails to compile here until the kind
 * is described, and every exhaustive `switch` over kinds fails with it
 * (CONTRIBUTING, "Adding an action kind").
 */
import type { Action, ActionType, SettingAction, Target } from './action.ts';
import { describeChange, type TextChange } from './text-change.ts';

/** What one argument slot holds, which says how it is written and which values may be substituted in it. */
export type SlotKind =
  | 'target' // an element: [12] or <button "Sign in">
  | 'value' // a value the action leaves in the page: the typed text, the chosen option
  | 'keys' // key names: "Enter", "Control+a"
  | 'url'
  | 'answer' // what the agent tells the person at the end
  | 'number'
  | 'change'; // how a fill edits the field's text, written as one or two strings ("append"; "insert after", "anchor")

type ActionOf<K extends ActionType> = Extract<Action, { type: K }>;
type FieldOf<K extends ActionType> = Exclude<keyof ActionOf<K>, 'type'>;
export type Slot<K extends ActionType> = readonly [field: FieldOf<K>, kind: SlotKind];

/** How a kind changes the page, read by the learners and the gates. */
export interface KindTraits {
  /** It ends the episode. */
  readonly ends: boolean;
  /** It leaves a value or a checked state in one element, which an effective state keeps. */
  readonly sets: boolean;
  /** It changes the element it targets: its value, its state, or whatever activating it does. */
  readonly changesElement: boolean;
  /** It may open a new tab (a click on a target=_blank link, a key that activates one). */
  readonly mayOpenTab: boolean;
}

/** How a kind's words name its parts: the panel quotes values, a stored skill does not. */
export interface Speaker {
  readonly target: (t: Target | undefined) => string;
  readonly value: (s: string) => string;
}

export interface KindSpec<K extends ActionType> extends KindTraits {
  /** The argument lists the grammar accepts, each a list of slots; several are overloads. */
  readonly forms: readonly (readonly Slot<K>[])[];
  /** The line of the model's prompt that teaches this kind. */
  readonly doc: string;
  /** The action in a person's words. */
  readonly words: (a: ActionOf<K>, say: Speaker) => string;
}

export type Vocabulary = { readonly [K in ActionType]: KindSpec<K> };

const T = 'target' as const;
const targetOnly = <K extends ActionType>(verb: string, doc: string, traits: KindTraits): KindSpec<K> => ({
  ...traits,
  forms: [[['target' as FieldOf<K>, T]]],
  doc,
  words: (a, say) => `${verb} ${say.target((a as { target: Target }).target)}`,
});

const LOOKS = { ends: false, sets: false, changesElement: false, mayOpenTab: false } as const;
const ACTS = { ends: false, sets: false, changesElement: true, mayOpenTab: true } as const;
const SETS = { ends: false, sets: true, changesElement: true, mayOpenTab: true } as const;
const ENDS = { ends: true, sets: false, changesElement: false, mayOpenTab: false } as const;
/** Keys, addresses and history act on the page, not on one element. */
const MOVES = { ends: false, sets: false, changesElement: false, mayOpenTab: false } as const;

export const ACTION_VOCABULARY: Vocabulary = {
  click: targetOnly('Click', 'click([ref]) — click a button, link, tab, checkbox or other control. A line of role `clickable` is an element the page made clickable without a standard role (a styled span or div): click it like a button.', ACTS),
  dblclick: targetOnly('Double-click', 'dblclick([ref]) — double-click an element.', ACTS),
  hover: targetOnly('Point at', 'hover([ref]) — move the pointer over an element (opens menus, tooltips).', LOOKS),
  focus: targetOnly('Focus', 'focus([ref]) — put the keyboard focus on an element.', LOOKS),
  fill: {
    ...SETS,
    mayOpenTab: false,
    forms: [[['target', T], ['text', 'value']], [['target', T], ['text', 'value'], ['change', 'change']]],
    doc: 'fill([ref], "text") — replace the content of a text field with "text". To edit a long text instead, add how: fill([ref], "text", "append") or "prepend" adds "text" at the end or the start; fill([ref], "text", "insert after", "anchor") and fill([ref], "text", "replace", "old text") need an anchor or old text the field holds exactly once. A line break ("\\n") in a field marked multiline is a new line; elsewhere it presses Enter.',
    words: (a, say) => (a.change
      ? `Edit ${say.target(a.target)}: ${describeChange(a.text, a.change)}`
      : `Type ${say.value(a.text)} into ${say.target(a.target)}`),
  },
  clear: targetOnly('Clear', 'clear([ref]) — empty a text field.', { ...ACTS, mayOpenTab: false }),
  select_option: {
    ...SETS,
    forms: [[['target', T], ['option', 'value']]],
    doc: 'select_option([ref], "label") — choose the option with this visible label in a dropdown.',
    words: (a, say) => `Choose ${say.value(a.option)} in ${say.target(a.target)}`,
  },
  check: targetOnly('Tick', 'check([ref]) / uncheck([ref]) — tick or untick a checkbox or switch.', SETS),
  uncheck: targetOnly('Untick', '', SETS),
  press: {
    ...MOVES,
    mayOpenTab: true,
    forms: [[['target', T], ['keys', 'keys']], [['keys', 'keys']]],
    doc: 'press([ref], "Enter") — press keys in an element; press("Enter") sends them to the focused element. Keys such as "Enter", "Tab", "Escape", "Control+a".',
    words: (a, say) => `Press ${a.keys}${a.target ? ` in ${say.target(a.target)}` : ''}`,
  },
  scroll: {
    ...LOOKS,
    forms: [[['dx', 'number'], ['dy', 'number']], [['target', T], ['dx', 'number'], ['dy', 'number']]],
    doc: 'scroll(dx, dy) — scroll the page by pixels (dy > 0 scrolls down); scroll([ref], dx, dy) scrolls inside an element.',
    words: (a, say) => `Scroll ${a.dy >= 0 ? 'down' : 'up'}${a.target ? ` inside ${say.target(a.target)}` : ''}`,
  },
  goto: {
    ...MOVES,
    forms: [[['url', 'url']]],
    doc: 'goto("https://…") — open a URL.',
    words: (a) => `Go to ${a.url}`,
  },
  go_back: { ...MOVES, forms: [[]], doc: 'go_back() / go_forward() — browser history.', words: () => 'Go back' },
  go_forward: { ...MOVES, forms: [[]], doc: '', words: () => 'Go forward' },
  send_msg_to_user: {
    ...ENDS,
    forms: [[['text', 'answer']]],
    doc: 'send_msg_to_user("text") — give the person the answer or report that the task is done. This ENDS the task: use it only when the task is complete, and put the exact answer in the text when the task asks a question.',
    words: (a, say) => (a.text.trim() === '' ? 'Finish the task' : `Finish with the answer ${say.value(a.text)}`),
  },
  report_infeasible: {
    ...ENDS,
    forms: [[['reason', 'answer']]],
    doc: 'report_infeasible("reason") — say the task cannot be done here. This also ends the task.',
    words: () => 'Say the task cannot be done here',
  },
};

export const ACTION_KINDS = Object.keys(ACTION_VOCABULARY) as ActionType[];

export const isActionKind = (name: string): name is ActionType => Object.hasOwn(ACTION_VOCABULARY, name);

export function specOf<K extends ActionType>(type: K): KindSpec<K> {
  return ACTION_VOCABULARY[type] as KindSpec<K>;
}

/** Kinds whose trait holds: the sets the gates and learners keep. */
export const kindsWhere = (trait: keyof KindTraits): ReadonlySet<ActionType> =>
  new Set(ACTION_KINDS.filter((k) => ACTION_VOCABULARY[k][trait]));

export const TERMINAL_ACTIONS = kindsWhere('ends');
export const isTerminalAction = (a: Action): boolean => TERMINAL_ACTIONS.has(a.type);

const SETTING_ACTIONS = kindsWhere('sets');
/** Actions that leave a value or a state in an element: what an effective state keeps. */
export const isSettingAction = (a: Action): a is SettingAction => SETTING_ACTIONS.has(a.type);

/** The form an action is written in: the one whose every field it has, longest first. */
export function formOf<K extends ActionType>(action: ActionOf<K>): readonly Slot<K>[] {
  const forms = [...specOf(action.type as K).forms].sort((x, y) => y.length - x.length);
  const held = action as Record<string, unknown>;
  return forms.find((f) => f.every(([field]) => held[field as string] !== undefined)) ?? forms[forms.length - 1]!;
}

/** Rewrites of each kind of slot; a slot without one keeps its value. */
export interface SlotRewrites {
  readonly target?: (t: Target) => Target;
  readonly value?: (s: string) => string;
  readonly keys?: (s: string) => string;
  readonly url?: (s: string) => string;
  readonly answer?: (s: string) => string;
  readonly change?: (c: TextChange) => TextChange;
}

/** The action with its slots rewritten by kind: substitute a task's values, abstract a target. */
export function mapSlots<A extends Action>(action: A, rewrite: SlotRewrites): A {
  const out: Record<string, unknown> = { ...action };
  for (const [field, kind] of formOf(action)) {
    const key = field as string;
    const current = out[key];
    if (current === undefined || kind === 'number') continue;
    const fn = rewrite[kind];
    if (fn !== undefined) out[key] = (fn as (x: unknown) => unknown)(current);
  }
  return out as A;
}

/** The value an action leaves in the page (the typed text, the chosen option), or null. */
export function valueOf(action: Action): string | null {
  const slot = formOf(action).find(([, kind]) => kind === 'value');
  return slot === undefined ? null : ((action as Record<string, unknown>)[slot[0] as string] as string);
}

/** The action in a person's words. */
export function actionSentence(action: Action, say: Speaker): string {
  return (specOf(action.type).words as (a: Action, s: Speaker) => string)(action, say);
}

/** For a `switch` over kinds that must handle each: a new kind fails to compile at its `default`. */
export function unhandledKind(action: never): never {
  throw new Error(`unhandled action kind: ${JSON.stringify(action)}`);
}

/** The prompt's list of action forms, one line per kind that documents itself. */
export const ACTION_DOC_LINES: readonly string[] = ACTION_KINDS.map((k) => ACTION_VOCABULARY[k].doc).filter((d) => d !== '');
