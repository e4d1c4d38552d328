/**
 * A short key for "what the page shows": the URL without its fragment and,
 * for every node, its role, name, value and the states a person sees change
 * (checked, selected, expanded, disabled, pressed-like). Focus, refs, the
 * viewport and scrolling are left out: a click on a dead button moves focus
 * but changes nothing. Two observations with one key show the same page, so
 * a step between them changed nothing, and coming back to a key is a loop.
 */
import { fnv1a } from '../fnv1a.ts';
import type { PageObservation } from './observation.ts';

export function pageKeyOf(observation: Pick<PageObservation, 'url' | 'nodes'>): string {
  const parts = [observation.url.split('#')[0] ?? ''];
  for (const n of observation.nodes) {
    const s = n.states;
    parts.push([n.kind, n.role, n.name, n.value ?? '', String(s.checked ?? ''), String(s.selected ?? ''), String(s.expanded ?? ''), String(s.disabled ?? '')].join('\u0001'));
  }
  // 32 bits are enough to tell a page's states apart within one episode.
  return fnv1a(parts.join('\u0002')).toString(16).padStart(8, '0');
}
