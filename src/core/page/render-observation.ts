/**
 * The prompt form of a page observation, and the deterministic size budget
 * applied to it. Pure: no DOM, so it runs in Node and in the page alike.
 *
 *   Page: Create account (http://127.0.0.1:8080/form.html)
 *   main
 *     heading "Create account" level=1
 *     [5] textbox "Email" value="a@b.c" type=email required focused
 *     [7] combobox "Sort by" value="Price" options=["Price","Name"]
 *     [9] button "Search" · covered by <button.icon "Search the wiki">
 *   Off-screen: 3 lines above, 12 below (scroll y=0 of 2400)
 */
import type { PageObservation, SnapshotNode } from './observation.ts';
import { taskTie } from './task-named.ts';

/** Roles that hold user input: truncation never drops them. */
export const FORM_FIELD_ROLES: ReadonlySet<string> = new Set([
  'textbox', 'combobox', 'checkbox', 'radio', 'listbox', 'searchbox', 'spinbutton', 'switch', 'slider',
]);

/** Input types the role already says (or that say nothing to the model). */
const SILENT_INPUT_TYPES = new Set(['text', 'checkbox', 'radio', 'search', 'number', 'range', 'submit', 'button', 'reset']);

/** A long <select> shows its first options only; the rest stay in the observation. */
const MAX_RENDERED_OPTIONS = 25;

const quote = (s: string): string => JSON.stringify(s);

export function renderHeader(obs: Pick<PageObservation, 'title' | 'url'>): string {
  return `Page: ${obs.title.trim() || '(untitled)'} (${obs.url})`;
}

/** One node as one line, indented two spaces per depth. */
export function renderNodeLine(node: SnapshotNode): string {
  const parts: string[] = [];
  if (node.ref !== null) parts.push(`[${node.ref}]`);
  parts.push(node.kind === 'text' ? 'text' : node.role);
  if (node.name !== '') parts.push(quote(node.name));
  if (node.nameGuessed === true) parts.push('(name guessed)');
  if (node.shownText !== undefined) parts.push(node.shownText === '' ? '(name not visible on the page)' : `(visible text ${quote(node.shownText)})`);
  if (node.level !== undefined) parts.push(`level=${node.level}`);
  if (node.value !== undefined && node.value !== '') parts.push(`value=${quote(node.value)}`);
  if (node.inputType !== undefined && !SILENT_INPUT_TYPES.has(node.inputType)) parts.push(`type=${node.inputType}`);
  // A line break typed there is a new line, not a submit (SnapshotNode.multiline).
  if (node.multiline === true) parts.push('multiline');
  if (node.options !== undefined) {
    const shown = node.options.slice(0, MAX_RENDERED_OPTIONS);
    const more = node.options.length - shown.length;
    parts.push(`options=${JSON.stringify(shown)}${more > 0 ? `+${more} more` : ''}`);
  }
  const s = node.states;
  if (s.checked === true) parts.push('checked');
  else if (s.checked === 'mixed') parts.push('checked=mixed');
  if (s.selected === true) parts.push('selected');
  if (s.expanded === true) parts.push('expanded');
  else if (s.expanded === false) parts.push('expanded=false');
  if (s.disabled === true) parts.push('disabled');
  if (s.required === true) parts.push('required');
  if (s.readonly === true) parts.push('readonly');
  if (s.invalid === true) parts.push('invalid');
  if (s.focused === true) parts.push('focused');
  // What tells it apart from look-alikes: `[12] button "Remove" · row "Alan Turing"`.
  if (node.context !== undefined) parts.push(`·${node.context.map((c) => ` ${c.role} ${quote(c.name)}`).join(' ·')}`);
  if (node.nth !== undefined) parts.push(`· #${node.nth}`);
  if (node.coveredBy !== undefined) parts.push(`· covered by <${node.coveredBy}>`);
  return '  '.repeat(node.depth) + parts.join(' ');
}

export function renderOffscreenLine(obs: Pick<PageObservation, 'offscreen' | 'scroll'>): string | null {
  const { above, below } = obs.offscreen;
  const scrollable = obs.scroll.maxY > 0;
  if (above === 0 && below === 0 && !scrollable) return null;
  const where = `scroll y=${Math.round(obs.scroll.y)} of ${Math.round(obs.scroll.maxY)}`;
  if (above === 0 && below === 0) return `Off-screen: nothing hidden (${where})`;
  return `Off-screen: ${above} lines above, ${below} below not shown (${where})`;
}

export function renderOmissionLine(omission: string): string {
  return `Omitted: ${omission}`;
}

export function renderObservation(obs: PageObservation): string {
  const lines = [renderHeader(obs), ...obs.nodes.map(renderNodeLine)];
  const off = renderOffscreenLine(obs);
  if (off !== null) lines.push(off);
  for (const o of obs.omissions) lines.push(renderOmissionLine(o));
  return lines.join('\n');
}

export interface TruncateOptions {
  maxChars: number;
  lastActedRef?: string | null;
  /** The task as typed: lines it names (a row "Omar Haddad" for "…the comment by Omar Haddad") are dropped last. */
  task?: string;
}

interface Dropped { text: number; other: number; containers: number }

const truncationNote = (maxChars: number, d: Dropped, over: boolean): string =>
  `truncated to ${maxChars} chars: ${d.text} text and ${d.other} other lines dropped` +
  (d.containers > 0 ? `, lines of ${d.containers === 1 ? '1 row or item' : `${d.containers} rows or items`} among them` : '') +
  (over ? ' (what is left is protected and still over budget)' : '');

/** The row or item a line sits in (role and name), if any: the note counts the rows cut into. */
const containerOf = (n: SnapshotNode): string | null => {
  const c = n.context?.find((x) => x.role === 'row' || x.role === 'item');
  return c === undefined ? null : JSON.stringify([c.role, c.name]);
};

/**
 * Drops lines until the rendering fits `maxChars`, in a fixed order: text
 * before anything else, off-screen before on-screen, and within each group
 * the lines farthest (in document order) from where the agent is working —
 * the last acted element, else the focused one, else the top of the viewport.
 * Lines the task names (task-named.ts) go only after all others: a row far
 * down a long list is kept when it is the task's item. The focused element,
 * form fields and the last acted element are never dropped; if they alone
 * exceed the budget the result stays over it.
 */
export function truncateObservation(obs: PageObservation, options: TruncateOptions): PageObservation {
  const full = renderObservation(obs);
  if (full.length <= options.maxChars) return obs;

  const lastActed = options.lastActedRef ?? null;
  const nodes = obs.nodes;
  const protectedAt = (n: SnapshotNode): boolean =>
    n.states.focused === true ||
    (n.ref !== null && (n.ref === obs.focusedRef || n.ref === lastActed)) ||
    (n.kind === 'interactive' && FORM_FIELD_ROLES.has(n.role));

  const indexOfRef = (ref: string | null): number => (ref === null ? -1 : nodes.findIndex((n) => n.ref === ref));
  let anchor = indexOfRef(lastActed);
  if (anchor < 0) anchor = indexOfRef(obs.focusedRef);
  if (anchor < 0) anchor = nodes.findIndex((n) => n.inViewport);
  if (anchor < 0) anchor = 0;

  const task = options.task ?? '';
  const phase = (n: SnapshotNode): number => taskTie(n, task) * 4 + (n.kind === 'text' ? 0 : 2) + (n.inViewport ? 1 : 0);
  const candidates = nodes
    .map((n, i) => ({ i, phase: phase(n), distance: Math.abs(i - anchor), len: renderNodeLine(n).length + 1 }))
    .filter(({ i }) => !protectedAt(nodes[i]!))
    .sort((a, b) => a.phase - b.phase || b.distance - a.distance || b.i - a.i);

  // Greedy in the fixed order; the note's own line is counted as it grows.
  // Rows and items with a line dropped: the policy is told that part of the list is not shown.
  const cutInto = new Set<string>();
  let size = full.length;
  const d: Dropped = { text: 0, other: 0, containers: 0 };
  const fits = (): boolean => size + 1 + renderOmissionLine(truncationNote(options.maxChars, d, false)).length <= options.maxChars;
  const dropped = new Set<number>();
  for (const c of candidates) {
    if (fits()) break;
    const node = nodes[c.i]!;
    dropped.add(c.i);
    size -= c.len;
    if (node.kind === 'text') d.text++;
    else d.other++;
    const k = containerOf(node);
    if (k !== null && !cutInto.has(k)) {
      cutInto.add(k);
      d.containers++;
    }
  }
  const kept = nodes.filter((_, i) => !dropped.has(i));
  const result = { ...obs, nodes: kept, omissions: [...obs.omissions, truncationNote(options.maxChars, d, false)] };
  if (renderObservation(result).length <= options.maxChars) return result;
  return { ...result, omissions: [...obs.omissions, truncationNote(options.maxChars, d, true)] };
}
