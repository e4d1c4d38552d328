/**
 * One element → one snapshot node: its role (from a tag/attribute
 * pre-filter, so `getRole` and the costly accessible-name computation run
 * only on elements that can be emitted), its name, and for a control its
 * states, value, options and form facts.
 */
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import type { SnapshotNode } from '../../core/page/observation.ts';
import { shownTextFor } from './name-provenance.ts';
import { LABELABLE_TAGS } from './label-index.ts';
import type { FrameContext, SnapshotSession } from './snapshot-session.ts';
import { cap, collapse, MAX_TEXT } from './snapshot-text.ts';
import { formFacts, headingLevel, statesOf, valueOf } from './element-states.ts';
import { guessedFieldName, NAMELESS_FIELD_ROLES } from './field-name-guess.ts';
import { maskFieldValue } from '../../core/secrets/mask-secrets.ts';
import { isMultilineField } from '../dom/multiline-field.ts';

/** Roles whose name is their content: text inside them is not repeated as text lines. */
export const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'tab', 'treeitem', 'heading', 'clickable',
]);
/** Tags that may carry an implicit role we emit; everything else needs a role attribute. */
const ROLE_TAGS = new Set([
  'a', 'area', 'button', 'input', 'select', 'textarea', 'summary', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'footer', 'nav', 'main', 'aside', 'form', 'section', 'dialog', 'search', 'option',
]);
const INPUT_ROLE_FALLBACK: Record<string, string> = {
  password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox', week: 'textbox', time: 'textbox',
  color: 'button', file: 'button',
};
const SECTIONING = 'article, aside, main, nav, section';

export function roleOf(el: Element, tag: string): string | null {
  const hasRoleAttr = el.hasAttribute('role');
  if (!hasRoleAttr && !ROLE_TAGS.has(tag)) {
    if ((el as HTMLElement).isContentEditable && !(el.parentElement?.isContentEditable ?? false)) return 'textbox';
    return null;
  }
  let role = getRole(el);
  if (tag === 'input' && role === null) role = INPUT_ROLE_FALLBACK[(el as HTMLInputElement).type] ?? null;
  if (!hasRoleAttr) {
    // A header/footer inside a sectioning element is not page-level.
    if ((tag === 'header' || tag === 'footer') && el.parentElement?.closest(SECTIONING)) return null;
    if (tag === 'section' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) return null;
    if (tag === 'search') role = 'search';
  }
  if (role === null && (el as HTMLElement).isContentEditable && !(el.parentElement?.isContentEditable ?? false)) return 'textbox';
  return role;
}

export function nameOf(s: SnapshotSession, el: Element): string {
  if (LABELABLE_TAGS.has(el.localName)) s.labels.patch(el.ownerDocument.defaultView ?? s.top);
  let name = computeAccessibleName(el, s.nameOptions);
  name = collapse(name);
  if (name === '') {
    const ph = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
    if (ph !== null) name = collapse(ph);
  }
  return cap(name, MAX_TEXT);
}

/** Adds what a person sees when the name holds text they cannot see (name-provenance.ts). */
export function markShownText(s: SnapshotSession, n: SnapshotNode, el: Element, nameFromContent: boolean, frame: FrameContext): void {
  // Like text, names are checked within a viewport of what is on screen (the cost grows with the page otherwise).
  if (s.placement(el, frame, 1) !== 0) return;
  const seen = shownTextFor(el, n.name, nameFromContent, s.provenance);
  if (seen === undefined) delete n.shownText;
  else n.shownText = seen;
}

/**
 * What tells an interactive node apart from look-alikes: a guessed name for an
 * unnamed field, and the row, card, group or dialog it sits in.
 */
export function describeIdentity(s: SnapshotSession, n: SnapshotNode, el: Element): void {
  if (n.name === '' && NAMELESS_FIELD_ROLES.has(n.role)) {
    const guess = guessedFieldName(el);
    if (guess !== '') {
      n.name = guess;
      n.nameGuessed = true;
    }
  }
  const context = s.contexts.of(el, n.name);
  if (context !== undefined) n.context = context;
  const rowText = s.contexts.rowTextOf(el, n.name);
  if (rowText !== undefined && rowText !== '') n.rowText = rowText;
}

export function describe(
  s: SnapshotSession, el: Element, tag: string, role: string, kind: SnapshotNode['kind'], depth: number, frame: FrameContext,
): SnapshotNode {
  const n: SnapshotNode = {
    ref: kind === 'interactive' ? s.registry.refFor(el, frame.prefix) : null,
    kind,
    role,
    name: nameOf(s, el),
    states: kind === 'interactive' ? statesOf(el, tag, role, el === s.focusedEl) : {},
    depth,
    inViewport: s.placement(el, frame, 0) === 0,
  };
  if (kind !== 'landmark') markShownText(s, n, el, NAME_FROM_CONTENT.has(role), frame);
  if (kind === 'heading') n.level = headingLevel(el, tag);
  if (kind === 'interactive') {
    const value = valueOf(el, tag, role);
    if (value !== undefined) n.value = value;
    if (tag === 'select') n.options = Array.from((el as HTMLSelectElement).options, (o) => collapse(o.label));
    if (tag === 'input') n.inputType = (el as HTMLInputElement).type;
    if ((role === 'textbox' || role === 'searchbox') && isMultilineField(el)) n.multiline = true;
    Object.assign(n, formFacts(el, tag, s.formHasSubmit));
    if (tag === 'a' || tag === 'area') {
      const href = (el as HTMLAnchorElement).href;
      if (href) n.href = href;
      if (el.hasAttribute('download')) n.download = true;
    }
  }
  if (kind === 'interactive') describeIdentity(s, n, el);
  if (frame.prefix !== undefined) n.frame = frame.prefix;
  // Secrets never leave the page: the model sees only which kind of secret a field holds.
  return maskFieldValue(n);
}
