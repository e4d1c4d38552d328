/**
 * Whether a text field holds lines: a <textarea>, or an element that says so
 * (`aria-multiline="true"`). There a line break is text, so the snapshot marks
 * the field (`SnapshotNode.multiline`), the gate does not read a line break
 * typed there as a submit, and typing inserts it without an Enter key event
 * (act/typing.ts): a page's own Enter handler (a chat box that sends on Enter)
 * never sees one.
 */
export function isMultilineField(el: Element): boolean {
  return el.localName === 'textarea' || el.getAttribute('aria-multiline') === 'true';
}
