/**
 * The page as it was just before the person acted: what a proposal at that
 * moment would have observed. A recorded step is sent after the fact — a
 * checkbox's change after it toggled, an option's after it changed, a fill
 * when the field settles with the text in it — so the page is read earlier:
 * when a pointer goes down or a key is pressed (before any click, toggle or
 * keyboard choice), and for a fill when its first edit begins (beforeinput).
 * Keys typed into a field are not read: a snapshot per keystroke would cost
 * more than the fill it precedes.
 */
import type { PageObservation } from '../../core/page/observation.ts';
import { isTextField } from './recorded-elements.ts';

export interface BeforePage {
  /** A trusted pointerdown or keydown on `el`: the page now is the before of what it does. */
  interaction(el: Element, key?: string): void;
  /** The person is about to change this field's text, not typed in since its last fill: the page now is the before of its next fill. */
  edit(field: Element): void;
  /** The before of a step on `el`, once: a fill's from its edit, any other from the last interaction; null when none was read. */
  take(el: Element, fill: boolean): PageObservation | null;
  clear(): void;
}

export function createBeforePage(observe: () => PageObservation): BeforePage {
  let interaction: PageObservation | null = null;
  const edits = new WeakMap<Element, PageObservation>();
  const read = (): PageObservation | null => {
    try {
      return observe();
    } catch {
      return null; // the step is still recorded, with the page read when it is sent
    }
  };
  return {
    interaction(el, key) {
      if (key !== undefined && key !== 'Enter' && isTextField(el)) return;
      interaction = read();
    },
    edit(field) {
      const page = read();
      if (page) edits.set(field, page);
      else edits.delete(field);
    },
    take(el, fill) {
      if (fill) {
        const page = edits.get(el) ?? null;
        edits.delete(el);
        return page;
      }
      const page = interaction;
      interaction = null;
      return page;
    },
    clear() {
      interaction = null;
    },
  };
}
