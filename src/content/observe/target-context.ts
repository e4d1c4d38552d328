/**
 * What tells a control apart from its look-alikes: the repeated row, list
 * item or card it sits in, named by that container's identifying text (a
 * header cell, the first cell, a heading, a label), the named group around
 * it, and the dialog it is in. A "Remove" on every row becomes
 * `button "Remove" · row "Alan Turing"`. Computed once per snapshot, with one
 * cache per container, so a table of a thousand rows costs one pass.
 */
import { computeAccessibleName } from 'dom-accessibility-api';
import type { TargetContext } from '../../core/page/action.ts';
import { ROW_TEXT_MAX } from '../../core/page/observation.ts';

const MAX_CONTEXT_NAME = 60;
const HEADING_SELECTOR = 'h1, h2, h3, h4, h5, h6, [role=heading]';
const CELL_SELECTOR = 'th, td, [role=cell], [role=gridcell], [role=rowheader], [role=columnheader]';

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cap = (s: string): string => (s.length > MAX_CONTEXT_NAME ? `${s.slice(0, MAX_CONTEXT_NAME - 1)}…` : s);
/** The control's own name already says the container's ("Add Green mug to cart" in row "Green mug"). */
const saysIt = (ownName: string, containerName: string): boolean => ownName.toLowerCase().includes(containerName.toLowerCase());

/** The parent in the composed tree: through a shadow root to its host. */
function parentOf(el: Element): Element | null {
  if (el.parentElement !== null) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

const textOf = (el: Element): string => collapse((el as HTMLElement).innerText ?? el.textContent ?? '');
/** A cell's first line: its title ("Omar Haddad"), not the details under it (an email, an address). */
const firstLineOf = (el: Element): string => {
  const lines = ((el as HTMLElement).innerText ?? el.textContent ?? '').split('\n').map(collapse);
  return lines.find((l) => l !== '') ?? '';
};

/** A container that repeats: a table row, a list item, an article, or one of several same-shaped siblings (cards). */
function itemRole(el: Element): 'row' | 'item' | null {
  const role = el.getAttribute('role');
  if (el.localName === 'tr' || role === 'row') return 'row';
  if (el.localName === 'li' || role === 'listitem' || el.localName === 'article' || role === 'article') return 'item';
  const parent = el.parentElement;
  if (parent === null || el.localName === 'body' || el.localName === 'form') return null;
  const cls = el.getAttribute('class') ?? '';
  let alike = 0;
  for (let c = parent.firstElementChild; c !== null && alike < 1; c = c.nextElementSibling) {
    if (c !== el && c.localName === el.localName && (c.getAttribute('class') ?? '') === cls && cls !== '') alike++;
  }
  return alike > 0 ? 'item' : null;
}

const cellsOf = (row: Element): Element[] =>
  Array.from(row.querySelectorAll(CELL_SELECTOR)).filter((c) => c.closest('tr, [role=row]') === row);

/** The row next to it (the one before, else the one after): what its cells are compared with. */
function besideRow(row: Element): Element | null {
  const isRow = (e: Element | null): e is Element => e !== null && (e.localName === 'tr' || e.getAttribute('role') === 'row');
  const before = row.previousElementSibling;
  if (isRow(before)) return before;
  const after = row.nextElementSibling;
  return isRow(after) ? after : null;
}

const SELECT_CONTROL = 'input[type=checkbox], input[type=radio], [role=checkbox], [role=radio]';

/**
 * A check column: the cell's only text is the label of the box in it
 * ("Select lee"). It names the box, not the row: a person names the row by
 * what it shows (the user "lee"), and the box's label says it after a verb
 * ("Select …") that no task value equals, so a row named by it is never
 * found again for another instance's value.
 */
function isSelectionCell(cell: Element, text: string): boolean {
  const box = cell.querySelector(SELECT_CONTROL);
  return box !== null && collapse(computeAccessibleName(box)) === text;
}

/**
 * A row's identifying text: the first line of its header cell, else of its
 * first cell with text, skipping a check column (isSelectionCell) and a cell
 * that reads the same in the row beside it. A check column labelled "Select
 * comment" on every row (WordPress's comments), a status every row shows:
 * such a cell names no row, and the next one (the author) does. When every
 * cell reads as its neighbour's, the first with text.
 */
function rowName(row: Element): string {
  const cells = cellsOf(row);
  const header = cells.find((c) => c.localName === 'th' || c.getAttribute('role') === 'rowheader');
  const beside = besideRow(row);
  const besideCells = beside === null ? [] : cellsOf(beside);
  let first = '';
  for (const cell of header ? [header, ...cells] : cells) {
    const text = firstLineOf(cell);
    if (text === '' || isSelectionCell(cell, text)) continue;
    if (first === '') first = text;
    const other = besideCells[cells.indexOf(cell)];
    if (other === undefined || firstLineOf(other) !== text) return text;
  }
  return first;
}

/** Text inside these is a control's own label, not what names the card. */
const CONTROL_TEXT = 'button, select, textarea, input, [role=button], script, style, template, [aria-hidden=true]';

/** A card's identifying text: its heading, its label, else its first line of text outside its buttons. */
function itemName(item: Element): string {
  const heading = item.querySelector(HEADING_SELECTOR);
  if (heading !== null && textOf(heading) !== '') return textOf(heading);
  const label = item.getAttribute('aria-label');
  if (label !== null && collapse(label) !== '') return collapse(label);
  const walker = item.ownerDocument.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t !== null; t = walker.nextNode()) {
    const text = collapse(t.textContent ?? '');
    if (text === '') continue;
    const host = t.parentElement;
    if (host !== null && host.closest(CONTROL_TEXT) !== null && item.contains(host.closest(CONTROL_TEXT))) continue;
    return text;
  }
  return '';
}

/** A group a person would name: a fieldset's legend, a named region, group or form. */
function groupName(el: Element): string | null {
  if (el.localName === 'fieldset') {
    const legend = el.querySelector(':scope > legend');
    return legend !== null ? textOf(legend) : null;
  }
  const role = el.getAttribute('role');
  const named = el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby');
  if (named && (role === 'group' || role === 'region' || role === 'form' || el.localName === 'form' || el.localName === 'section')) {
    return collapse(computeAccessibleName(el));
  }
  return null;
}

const isDialog = (el: Element): boolean => {
  const role = el.getAttribute('role');
  return el.localName === 'dialog' || role === 'dialog' || role === 'alertdialog';
};

function dialogName(el: Element): string {
  const name = collapse(computeAccessibleName(el));
  if (name !== '') return name;
  const heading = el.querySelector(HEADING_SELECTOR);
  return heading !== null ? textOf(heading) : '';
}

/** One snapshot's context reader: containers are named once, whatever number of controls sit in them. */
export class TargetContexts {
  private readonly named = new Map<Element, TargetContext | null>();

  /** The containers that tell `el` apart, innermost first: its item, its named group, its dialog. Undefined when none. */
  of(el: Element, ownName: string): TargetContext[] | undefined {
    const out: TargetContext[] = [];
    let item = false;
    let group = false;
    for (let a = parentOf(el); a !== null && a.localName !== 'body' && a.localName !== 'html'; a = parentOf(a)) {
      if (isDialog(a)) {
        const c = this.cached(a, () => ({ role: 'dialog', name: dialogName(a) }));
        if (c !== null) out.push(c);
        break;
      }
      if (!item) {
        const role = itemRole(a);
        if (role !== null) {
          const c = this.cached(a, () => {
            const name = role === 'row' ? rowName(a) : itemName(a);
            return name === '' ? null : { role, name };
          });
          // A container the control's own name already names says nothing more: look further out.
          if (c !== null && !saysIt(ownName, c.name)) {
            out.push(c);
            item = true;
          }
          continue;
        }
      }
      if (!group) {
        const name = groupName(a);
        if (name !== null && name !== '' && !saysIt(ownName, name)) {
          out.push({ role: 'group', name: cap(name) });
          group = true;
        }
      }
    }
    return out.length > 0 ? out : undefined;
  }

  /**
   * The whole text of the repeated container whose name the element's own name
   * already says (a ticket's id link in its row): the row context is left out
   * for it, so this is what tells which item it opens. Undefined elsewhere.
   */
  rowTextOf(el: Element, ownName: string): string | undefined {
    for (let a = parentOf(el); a !== null && a.localName !== 'body' && a.localName !== 'html' && !isDialog(a); a = parentOf(a)) {
      const role = itemRole(a);
      if (role === null) continue;
      const c = this.cached(a, () => {
        const name = role === 'row' ? rowName(a) : itemName(a);
        return name === '' ? null : { role, name };
      });
      if (c === null || !saysIt(ownName, c.name)) return undefined;
      const text = textOf(a);
      return text.length > ROW_TEXT_MAX ? `${text.slice(0, ROW_TEXT_MAX - 1)}…` : text;
    }
    return undefined;
  }

  private cached(el: Element, compute: () => TargetContext | null): TargetContext | null {
    if (!this.named.has(el)) {
      const c = compute();
      this.named.set(el, c === null ? null : { role: c.role, name: cap(c.name) });
    }
    return this.named.get(el) ?? null;
  }
}
