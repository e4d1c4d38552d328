/** Shared builders for the CER tests: fixture trajectories, live episodes and entries. */
import { readFileSync } from 'node:fs';
import type { Episode, StepRecord } from '../../../core/episode/episode.ts';
import type { DistillInput } from '../core/distill.ts';
import type { DynamicsEntry, Provenance, SkillEntry } from '../core/experience.ts';
import { importTrajectories } from '../../../core/episode/trajectory-file.ts';
import type { CerSettings } from '../core/settings.ts';
import { blankStep } from '../../../../test/support/step-record.ts';

export const ORIGIN = 'http://shop.fixture.test';

export function fixture(name: 'shop-filter-add-to-cart' | 'shop-sort-open-cheapest' | 'signup-form'): DistillInput {
  const json: unknown = JSON.parse(readFileSync(new URL(`../../../../test/fixtures/trajectories/${name}.json`, import.meta.url), 'utf8'));
  const { inputs, errors } = importTrajectories(json, { now: 0 });
  if (errors.length > 0 || inputs.length !== 1) throw new Error(`fixture ${name}: ${errors.join('; ')}`);
  return inputs[0]!;
}

export function step(index: number, url: string, regUrl: string, semantic: string | null, over: Partial<StepRecord> = {}): StepRecord {
  return blankStep({
    index,
    url,
    regUrl,
    chosen: semantic === null ? null : { action: 'click([1])', semantic, decision: 'approved' },
    result: semantic === null ? null : { ok: true, navigated: false },
    ...over,
  });
}

export function liveEpisode(id: string, task: string, steps: StepRecord[], status: Episode['status'] = 'success'): Episode {
  return {
    id,
    origin: ORIGIN,
    task,
    startUrl: steps[0]?.url ?? `${ORIGIN}/`,
    tabId: 1,
    status,
    steps,
    answer: null,
    error: null,
    learners: ['cer'],
    attempt: 1,
    kind: 'live',
    startedAt: 0,
    endedAt: 1,
  };
}

export const provenance = (over: Partial<Provenance> = {}): Provenance => ({
  episodeIds: ['e0'],
  createdAt: 10,
  updatedAt: 10,
  retrieved: 0,
  retrievedThenSucceeded: 0,
  source: 'live',
  ...over,
});

export const dynamics = (id: string, over: Partial<DynamicsEntry> = {}): DynamicsEntry => ({
  id,
  origin: ORIGIN,
  kind: 'dynamics',
  pageName: 'Products page',
  description: 'Lists the products.',
  usages: ['browse products'],
  regUrl: '/list.html',
  exampleUrl: `${ORIGIN}/list.html`,
  provenance: provenance(),
  ...over,
});

export const skill = (id: string, over: Partial<SkillEntry> = {}): SkillEntry => ({
  id,
  origin: ORIGIN,
  kind: 'skill',
  name: 'Sort products by {criterion}',
  variables: ['criterion'],
  steps: [{ text: 'Choose {criterion} in the Sort by dropdown', exampleActions: ['select_option(<combobox "Sort by">, "{criterion}")'] }],
  provenance: provenance(),
  ...over,
});

export const CER_ON: CerSettings = { enabled: true, successOnly: false, topDynamics: 5, topSkills: 5, maxEntriesPerSite: 200 };
