/**
 * Names for elements that have no accessible name: their visible text, an
 * image's alt, an SVG title, a tooltip attribute — and, for an icon with no
 * text at all, a name guessed from its class and data hints ("icon-star",
 * `data-icon="reply"`, `<use href="#trash">`), which the snapshot marks as
 * guessed.
 */

const MAX_NAME = 100;
const TOOLTIP_ATTRIBUTES = ['data-tooltip', 'data-tip', 'data-title', 'data-original-title', 'data-label', 'data-bs-original-title'];
const HINT_ATTRIBUTES = ['data-icon', 'data-action', 'data-testid', 'data-test', 'data-qa', 'data-cy', 'name', 'id'];
/** Words that name how an icon is drawn, not what it does. */
const STYLE_WORDS = new Set([
  'icon', 'icons', 'ico', 'fa', 'fas', 'far', 'fab', 'fal', 'bi', 'glyphicon', 'material', 'symbols', 'outlined', 'rounded',
  'sharp', 'mdi', 'svg', 'btn', 'button', 'link', 'clickable', 'click', 'action', 'actions', 'ic', 'js', 'is', 'has', 'active',
  'sm', 'md', 'lg', 'xl', 'xs', 'small', 'large', 'big', 'tiny', 'inline', 'block', 'flex', 'round', 'circle', 'primary',
  'secondary', 'default', 'light', 'dark', 'white', 'black', 'muted', 'toggle', 'wrapper', 'container', 'inner', 'outer',
  'item', 'el', 'elem', 'element', 'ui', 'control', 'trigger', 'hover', 'focus', 'on', 'off', 'solid', 'regular', 'line',
  'filled', 'fill', 'stroke', 'tool', 'tooltip', 'color', 'text', 'span', 'div', 'cursor', 'pointer', 'data', 'test', 'apprentice',
  'listens', 'mx', 'my', 'px', 'py', 'p', 'm', 'ml', 'mr', 'mt', 'mb', 'pl', 'pr', 'pt', 'pb', 'w', 'h',
]);

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cap = (s: string): string => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s);

/** A name a person could read off the element: text, alt, SVG title, tooltip. */
export function visibleName(el: Element): string {
  const text = collapse((el as HTMLElement).innerText ?? el.textContent ?? '');
  if (text !== '') return cap(text);
  for (const img of el.querySelectorAll('img[alt], [role=img][aria-label], svg[aria-label], svg title, [title]')) {
    const v = img.localName === 'title' ? img.textContent : (img.getAttribute('alt') ?? img.getAttribute('aria-label') ?? img.getAttribute('title'));
    if (v !== null && collapse(v) !== '') return cap(collapse(v));
  }
  for (const attr of TOOLTIP_ATTRIBUTES) {
    const v = el.getAttribute(attr);
    if (v !== null && collapse(v) !== '') return cap(collapse(v));
  }
  return '';
}

/** Splits "icon-star_outline", "StarIcon", "fa-reply" into lower-case words. */
function words(s: string): string[] {
  return s
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 2 && !STYLE_WORDS.has(w));
}

/** Hash-like class names from CSS-in-JS ("css-1x9f2k", "sc-bdVaJa") carry no meaning. */
const looksGenerated = (token: string): boolean => /\d/.test(token) && token.length > 4 || /^(sc|css|jsx|emotion|svelte)-/.test(token);

function hintsOf(el: Element): string[] {
  const out: string[] = [];
  const cls = el.getAttribute('class') ?? '';
  for (const token of cls.split(/\s+/)) if (token !== '' && !looksGenerated(token)) out.push(...words(token));
  for (const attr of HINT_ATTRIBUTES) {
    const v = el.getAttribute(attr);
    if (v !== null && !looksGenerated(v)) out.push(...words(v));
  }
  if (el.localName === 'use') {
    const href = el.getAttribute('href') ?? el.getAttribute('xlink:href') ?? '';
    const frag = href.slice(href.indexOf('#') + 1);
    if (frag !== '') out.push(...words(frag));
  }
  return out;
}

/** A guess at an icon's meaning from its own hints, then its descendants'; '' when nothing useful. */
export function guessedIconName(el: Element): string {
  const seen: string[] = [];
  const add = (ws: string[]) => {
    for (const w of ws) if (!seen.includes(w)) seen.push(w);
  };
  add(hintsOf(el));
  if (seen.length === 0) for (const d of Array.from(el.querySelectorAll('*')).slice(0, 12)) add(hintsOf(d));
  return seen.slice(0, 3).join(' ');
}
