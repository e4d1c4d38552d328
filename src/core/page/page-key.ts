/**
 * A short key for "what the page shows": the URL without its fragment and,
 * for every node, its role, name, value and the states a person sees change
 * (checked, selected, expanded, disabled, pressed-like). Focus, refs, the
 * viewport and scrolling are left out: a click on a dead button moves focus
 * but changes nothing. Two observations with one key show the same page, so
 * a step between them changed nothing, and coming back to a key is a loop.
 */
import type { PageObservation } from './observation.ts';

/** FNV-1a, 32 bits, as hex: enough to tell a page's states apart within one episode. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function pageKeyOf(observation: Pick<PageObservation, 'url' | 'nodes'>): string {
  const parts = [observation.url.split('#')[0] ?? ''];
  for (const n of observation.nodes) {
    const s = n.states;
    parts.push([n.kind, n.role, n.name, n.value ?? '', String(s.checked ?? ''), String(s.selected ?? ''), String(s.expanded ?? ''), String(s.disabled ?? '')].join('\u0001'));
  }
  return fnv1a(parts.join('\u0002'));
}
