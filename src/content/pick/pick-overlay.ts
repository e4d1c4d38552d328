/**
 * What the page shows while the person points (element-picker.ts): a banner
 * that says how to pick and how to cancel, and a labelled box round the
 * element under the pointer, named as the correction will name it.
 */
import type { SemanticTarget } from '../../core/page/action.ts';
import { targetWords } from '../../core/page/target-words.ts';
import { clearMarks, drawBanner, drawLabelledBox } from '../marks/labelled-box.ts';

export const PICK_BANNER = 'Apprentice: click the element to use · Esc cancels';

/** The banner, and a box round `el` when the pointer is over something Apprentice can act on; `note` replaces the banner's text. */
export function drawPickOverlay(doc: Document, el: Element | null, target: SemanticTarget | null, note?: string): void {
  drawBanner(doc, note ?? PICK_BANNER);
  if (el && target) drawLabelledBox(doc, 'pick', el, `Pick: ${targetWords(target)}`);
  else clearMarks(doc, 'pick');
}

export function clearPickOverlay(doc: Document): void {
  clearMarks(doc, 'pick');
  clearMarks(doc, 'banner');
}
