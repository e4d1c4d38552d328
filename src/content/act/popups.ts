/**
 * Popups that belong to a control, for the pointer check (pointer.ts). A
 * custom dropdown, menu button or date picker renders its popup wherever it
 * likes — often in an overlay at the end of <body>, sometimes right over the
 * control it opened from — so the topmost element at the click point after
 * the press may be that popup, which is the control at work, not a cover.
 *
 * A popup belongs to the control when the control (or an ancestor of it)
 * names it in `aria-controls` / `aria-owns`, or when the control says it
 * opens one (`aria-haspopup`, `aria-expanded`) and a listbox, menu, dialog,
 * tree or grid became visible during this press. Anything else on top is
 * still a cover.
 */
import { isVisible } from '../dom/visibility.ts';

const POPUP_SELECTOR = '[role=listbox], [role=menu], [role=dialog], [role=alertdialog], [role=tree], [role=grid], dialog';

export interface PopupWatch {
  /** `hit` is inside a popup of the control watched. */
  belongsToControl(hit: Element): boolean;
}

function flatParent(node: Element): Element | null {
  return node.parentElement ?? ((node.getRootNode() as Partial<ShadowRoot>).host ?? null);
}

function ancestors(el: Element): Element[] {
  const out: Element[] = [];
  for (let cur: Element | null = el; cur !== null; cur = flatParent(cur)) out.push(cur);
  return out;
}

/** Elements the control and its ancestors name as theirs (aria-controls, aria-owns), in its tree scope or the document. */
function linkedPopups(el: Element): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  for (const a of ancestors(el)) {
    const ids = `${a.getAttribute('aria-controls') ?? ''} ${a.getAttribute('aria-owns') ?? ''}`.split(/\s+/).filter(Boolean);
    for (const id of ids) {
      const found = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
      if (found !== null) out.push(found);
    }
  }
  return out;
}

/** The control says it opens a popup. */
function opensPopup(el: Element): boolean {
  return ancestors(el).slice(0, 4).some((a) => {
    const haspopup = a.getAttribute('aria-haspopup');
    return (haspopup !== null && haspopup !== 'false') || a.hasAttribute('aria-expanded');
  });
}

const visiblePopups = (doc: Document): Set<Element> => new Set(Array.from(doc.querySelectorAll(POPUP_SELECTOR)).filter(isVisible));

/** Call before the press: popups already open then did not come from it. */
export function watchPopups(el: Element): PopupWatch {
  const before = visiblePopups(el.ownerDocument);
  const opener = opensPopup(el);
  return {
    belongsToControl(hit) {
      const chain = ancestors(hit);
      if (linkedPopups(el).some((p) => chain.includes(p))) return true;
      return opener && chain.some((a) => !before.has(a) && a.matches(POPUP_SELECTOR) && isVisible(a));
    },
  };
}
