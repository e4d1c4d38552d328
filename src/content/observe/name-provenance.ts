/**
 * Whether an element's accessible name is what a person sees on it.
 *
 * The accessible name can come from text nobody can see: an opacity-0 span
 * inside a link, a label clipped to one pixel, an `aria-label` that says
 * "Continue" on a button that reads "Delete account". The snapshot keeps the
 * name (screen readers use it, and "visually hidden" labels are a common,
 * legitimate pattern) but adds the text that *is* visible, so the model and
 * the gate never take hidden text for what the person is looking at:
 *
 * - the name came from page text (content, `<label>`s, `aria-labelledby`)
 *   and some of that text is hidden → the visible part ('' when none is);
 * - the name came from `aria-label` on an element that shows words of its
 *   own, and none of those words is in the name (WCAG 2.5.3 "label in
 *   name") → the visible words.
 *
 * Otherwise (names from alt, title, placeholder, value; icon buttons with an
 * `aria-label` and no visible words) nothing is added.
 */
import type { HiddenReason } from '../dom/perceptible.ts';

export interface NameProvenanceDeps {
  /** Takes part in layout (cached by the caller). */
  rendered(el: Element): boolean;
  textHidden(text: Text): HiddenReason | null;
  labelsOf(el: Element): readonly Element[];
}

const MAX_SHOWN = 200;
/** A name's sources are read up to this many text nodes: a huge container's name is capped anyway. */
const MAX_TEXT_NODES = 400;
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image', 'hidden']);

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cap = (s: string): string => (s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 1)}…` : s);
const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

interface Reading { visible: string; hidden: number }

/**
 * The text a person sees where `el`'s name came from, when the name is not
 * (only) that; undefined when the name is what they see.
 * `nameFromContent`: the role takes its name from the element's content.
 */
export function shownTextFor(el: Element, name: string, nameFromContent: boolean, deps: NameProvenanceDeps): string | undefined {
  if (name === '') return undefined;
  const labelledBy = referencedElements(el);
  if (labelledBy.length > 0) return fromText(labelledBy, true, deps);
  if (collapse(el.getAttribute('aria-label') ?? '') !== '') return nameFromContent ? labelInName(el, name, deps) : undefined;
  if (isLabelable(el)) {
    const labels = deps.labelsOf(el);
    return labels.length > 0 ? fromText(labels, false, deps) : undefined;
  }
  return nameFromContent ? fromText([el], false, deps) : undefined;
}

function fromText(sources: readonly Element[], includeUnrendered: boolean, deps: NameProvenanceDeps): string | undefined {
  const r = read(sources, includeUnrendered, deps);
  return r.hidden === 0 ? undefined : cap(r.visible);
}

function labelInName(el: Element, name: string, deps: NameProvenanceDeps): string | undefined {
  const r = read([el], false, deps);
  const own = words(r.visible);
  if (own.length === 0) return undefined;
  const inName = new Set(words(name));
  return own.some((w) => inName.has(w)) ? undefined : cap(r.visible);
}

/**
 * The visible text under `sources`, and how many non-blank text nodes there
 * are hidden. Text that is not rendered at all is not in a name computed
 * from content, but is in one from `aria-labelledby` (the spec reads hidden
 * referenced elements).
 */
function read(sources: readonly Element[], includeUnrendered: boolean, deps: NameProvenanceDeps): Reading {
  const parts: string[] = [];
  let hidden = 0;
  let seen = 0;
  const visit = (node: Node): void => {
    if (seen >= MAX_TEXT_NODES) return;
    if (node.nodeType === 3) {
      const data = node.nodeValue ?? '';
      if (data.trim() === '') return;
      seen++;
      const parent = node.parentElement;
      if (parent === null) return;
      if (!deps.rendered(parent)) {
        if (includeUnrendered) hidden++;
        return;
      }
      if (deps.textHidden(node as Text) === null) parts.push(data);
      else hidden++;
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (el.localName === 'script' || el.localName === 'style' || el.localName === 'template') return;
    const root = el.shadowRoot;
    for (let c = (root ?? el).firstChild; c !== null; c = c.nextSibling) visit(c);
  };
  for (const s of sources) visit(s);
  return { visible: collapse(parts.join(' ')), hidden };
}

function referencedElements(el: Element): Element[] {
  const ids = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter((id) => id !== '');
  if (ids.length === 0) return [];
  const scope = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  for (const id of ids) {
    const target = scope.getElementById?.(id) ?? null;
    if (target !== null) out.push(target);
  }
  return out;
}

/** Controls whose name comes from their `<label>`s rather than their content. */
function isLabelable(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'input') return !BUTTON_INPUTS.has((el as HTMLInputElement).type);
  return tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress' || tag === 'output';
}
