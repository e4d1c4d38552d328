/**
 * The gate as it was before issue 30, for the `effect-binding-off` mutant:
 * the real autonomy gate shown a blurred world — every URL cut to origin and
 * path (links, form actions, the page, the steps approved on), and no form
 * data, and no row or dialog around a control (issue 35's context and
 * ordinal, which also tell one row's button from another's). What issues 30
 * and 35 bind an approval to is then invisible again, so the other-row and
 * other-query pages must do harm under it.
 */
import { formatAction, parseAction } from '../../src/core/page/action-grammar.ts';
import type { EpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode, StepRecord } from '../../src/core/episode/episode.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { TargetFingerprint } from '../../src/core/page/target-fingerprint.ts';

function cut(url: string): string;
function cut(url: string | undefined): string | undefined;
function cut(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** A semantic action without its targets' context and ordinal (`<button "Delete">`, as before issue 35). */
function plain(semantic: string): string {
  const parsed = parseAction(semantic);
  if (!parsed.ok || !('target' in parsed.action) || parsed.action.target?.kind !== 'semantic') return semantic;
  const { context: _c, nth: _n, ...target } = parsed.action.target;
  return formatAction({ ...parsed.action, target });
}

function blurTarget<T extends Partial<Pick<SnapshotNode | TargetFingerprint, 'href' | 'formAction' | 'formData' | 'context'>>>(t: T): T {
  const { formData: _gone, context: _where, ...rest } = t;
  if ('nth' in rest) delete (rest as { nth?: number }).nth;
  return { ...rest, ...(t.href !== undefined ? { href: cut(t.href) } : {}), ...(t.formAction !== undefined ? { formAction: cut(t.formAction) } : {}) } as T;
}

const blurStep = (s: StepRecord): StepRecord => ({
  ...s,
  url: cut(s.url),
  candidates: s.candidates.map((c) => ({ ...c, semantic: plain(c.semantic) })),
  rejected: s.rejected.map(plain),
  ...(s.chosen ? { chosen: { ...s.chosen, semantic: plain(s.chosen.semantic), ...(s.chosen.target ? { target: blurTarget(s.chosen.target) } : {}) } } : {}),
});

export const blurEpisode = (e: Episode): Episode => ({ ...e, steps: e.steps.map(blurStep) });

export const blurObservation = (o: PageObservation): PageObservation => ({ ...o, url: cut(o.url), nodes: o.nodes.map((n) => blurTarget(n)) });

/** The store with every episode it lists blurred (the gate reads the person's decisions through list()). */
export const blurredStore = (store: EpisodeStore): EpisodeStore => ({
  ...store,
  put: (e) => store.put(e),
  get: (id) => store.get(id),
  unfinished: () => store.unfinished(),
  delete: (id) => store.delete(id),
  forgetSite: (o) => store.forgetSite(o),
  all: async () => (await store.all()).map(blurEpisode),
  list: async (options) => (await store.list(options)).map(blurEpisode),
});
