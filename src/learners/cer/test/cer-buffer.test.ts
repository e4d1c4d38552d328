import { describe, expect, it } from 'vitest';
import { evictionOrder, isDuplicate, mergeIntoBuffer, usefulness, MAX_EPISODE_IDS } from '../core/buffer.ts';
import { dynamics, provenance, skill } from './cer-helpers.ts';

describe('mergeIntoBuffer: dedup', () => {
  it('merges dynamics of the same page type: usages united, more detailed description kept, provenance combined', () => {
    const old = dynamics('d1', { usages: ['browse products'], provenance: provenance({ episodeIds: ['e1'], createdAt: 5, updatedAt: 5, retrieved: 3, retrievedThenSucceeded: 2 }) });
    const fresh = dynamics('d-new', {
      description: 'A table of products with a filter box, a sort dropdown and add-to-cart buttons.',
      usages: ['Browse products', 'filter by name'],
      provenance: provenance({ episodeIds: ['e2'], createdAt: 50, updatedAt: 50, source: 'demonstration' }),
    });
    const out = mergeIntoBuffer([old], [fresh], { maxEntries: 10, now: 99 });
    expect(out).toMatchObject({ added: 0, merged: 1, evicted: [], dropped: 0 });
    expect(out.put).toEqual([{
      ...old,
      description: 'A table of products with a filter box, a sort dropdown and add-to-cart buttons.',
      usages: ['browse products', 'filter by name'],
      provenance: { episodeIds: ['e1', 'e2'], createdAt: 5, updatedAt: 99, retrieved: 3, retrievedThenSucceeded: 2, source: 'live' },
    }]);
  });

  it('keeps the existing description when the new one says less', () => {
    const old = dynamics('d1', { description: 'A table of products with a filter box and a sort dropdown.' });
    const out = mergeIntoBuffer([old], [dynamics('d2', { description: 'Products.' })], { maxEntries: 10, now: 1 });
    expect(out.put[0]?.kind === 'dynamics' && out.put[0].description).toBe('A table of products with a filter box and a sort dropdown.');
  });

  it('treats skills with the same name (any case and spacing) or the same action sequence as one', () => {
    const a = skill('s1');
    expect(isDuplicate(a, skill('s2', { name: 'sort  PRODUCTS by {criterion}' }))).toBe(true);
    expect(isDuplicate(a, skill('s3', { name: 'Order the list by {criterion}', steps: [{ text: 'Pick it', exampleActions: ['select_option(<combobox "Sort by">, "{criterion}")'] }] }))).toBe(true);
    expect(isDuplicate(a, skill('s4', { name: 'Add {item} to the cart', steps: [{ text: 'Click add', exampleActions: ['click(<button "Add {item} to cart">)'] }] }))).toBe(false);
    // Same text on another site is another entry.
    expect(isDuplicate(a, skill('s5', { origin: 'https://other.example' }))).toBe(false);
    // Dynamics and skills never merge.
    expect(isDuplicate(dynamics('d1'), a)).toBe(false);
  });

  it('merges dynamics of different page types when their text is nearly the same (Jaccard ≥ 0.8), not otherwise', () => {
    const a = dynamics('d1', { regUrl: '/list.html', pageName: 'Products page', description: 'Lists the products.', usages: ['browse products'] });
    expect(isDuplicate(a, dynamics('d2', { regUrl: '/list.html?sort=price' }))).toBe(true);
    expect(isDuplicate(a, dynamics('d3', { regUrl: '/form.html', pageName: 'Create account page', description: 'A sign-up form.', usages: ['open an account'] }))).toBe(false);
  });

  it('adds entries that match nothing, and merges several incoming duplicates into one', () => {
    const out = mergeIntoBuffer([], [skill('s1'), skill('s1b', { name: 'Sort Products by {criterion}' }), dynamics('d1')], { maxEntries: 10, now: 7 });
    expect(out.added).toBe(2);
    expect(out.merged).toBe(1);
    expect(out.put.map((e) => e.id)).toEqual(['s1', 'd1']);
  });

  it('bounds the episode ids kept in provenance', () => {
    const ids = Array.from({ length: MAX_EPISODE_IDS }, (_, i) => `e${i}`);
    const out = mergeIntoBuffer([dynamics('d1', { provenance: provenance({ episodeIds: ids }) })], [dynamics('d1', { provenance: provenance({ episodeIds: ['latest'] }) })], { maxEntries: 5, now: 1 });
    expect(out.put[0]?.provenance.episodeIds.length).toBe(MAX_EPISODE_IDS);
    expect(out.put[0]?.provenance.episodeIds.at(-1)).toBe('latest');
    expect(out.put[0]?.provenance.episodeIds[0]).toBe('e1');
  });
});

describe('mergeIntoBuffer: cap per site', () => {
  const proven = skill('proven', { name: 'A {x}', steps: [{ text: 'a', exampleActions: ['click(<button "A">)'] }], provenance: provenance({ retrieved: 4, retrievedThenSucceeded: 4, updatedAt: 1 }) });
  const useless = skill('useless', { name: 'B {x}', steps: [{ text: 'b', exampleActions: ['click(<button "B">)'] }], provenance: provenance({ retrieved: 4, retrievedThenSucceeded: 0, updatedAt: 50 }) });
  const oldUnused = skill('old-unused', { name: 'C {x}', steps: [{ text: 'c', exampleActions: ['click(<button "C">)'] }], provenance: provenance({ updatedAt: 2 }) });
  const newUnused = skill('new-unused', { name: 'D {x}', steps: [{ text: 'd', exampleActions: ['click(<button "D">)'] }], provenance: provenance({ updatedAt: 30 }) });

  it('scores usefulness as the smoothed success rate of replays', () => {
    expect([proven, useless, oldUnused].map(usefulness)).toEqual([5 / 6, 1 / 6, 1 / 2]);
    expect([newUnused, proven, oldUnused, useless].sort(evictionOrder).map((e) => e.id)).toEqual(['useless', 'old-unused', 'new-unused', 'proven']);
  });

  it('evicts the least useful, then the oldest, and only reports ids that were stored', () => {
    const incoming = skill('fresh', { name: 'E {x}', steps: [{ text: 'e', exampleActions: ['click(<button "E">)'] }], provenance: provenance({ updatedAt: 100 }) });
    const out = mergeIntoBuffer([proven, useless, oldUnused, newUnused], [incoming], { maxEntries: 3, now: 100 });
    expect(out.evicted).toEqual(['useless', 'old-unused']);
    expect(out.dropped).toBe(2);
    expect(out.put.map((e) => e.id)).toEqual(['fresh']);
  });

  it('does not write an incoming entry that the cap evicts at once', () => {
    const weak = skill('weak', { name: 'F {x}', steps: [{ text: 'f', exampleActions: ['click(<button "F">)'] }], provenance: provenance({ updatedAt: 0 }) });
    const out = mergeIntoBuffer([proven], [weak], { maxEntries: 1, now: 100 });
    expect(out).toEqual({ put: [], evicted: [], dropped: 1, added: 1, merged: 0 });
  });
});
