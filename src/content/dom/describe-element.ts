/** A short, human-readable name for an element in messages: `div#modal.backdrop "Accept cookies"`. */
const MAX_TEXT = 40;

export function describeElement(el: Element): string {
  let s = el.localName;
  if (el.id) s += `#${el.id}`;
  const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean).slice(0, 2) : [];
  for (const c of cls) s += `.${c}`;
  const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (label) s += ` "${label.length > MAX_TEXT ? `${label.slice(0, MAX_TEXT - 1)}…` : label}"`;
  return s;
}
