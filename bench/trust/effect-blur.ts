/**
 * The gate as it was before issue 30, for the `effect-binding-off` mutant:
 * the real autonomy gate shown a blurred world — every URL cut to origin and
 * path (links, form actions, the page, the steps approved on), and no form
 * data. What issue 30 binds an approval to is then invisible again, so the
 * other-row and other-query pages must do harm under it.
 */
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

function blurTarget<T extends Partial<Pick<SnapshotNode | TargetFingerprint, 'href' | 'formAction' | 'formData'>>>(t: T): T {
  const { formData: _gone, ...rest } = t;
  return { ...rest, ...(t.href !== undefined ? { href: cut(t.href) } : {}), ...(t.formAction !== undefined ? { formAction: cut(t.formAction) } : {}) } as T;
}

const blurStep = (s: StepRecord): StepRecord => ({
  ...s, url: cut(s.url), ...(s.chosen?.target ? { chosen: { ...s.chosen, target: blurTarget(s.chosen.target) } } : {}),
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
