import { describe, expect, it } from 'vitest';
import { consolidate } from '../core/consolidate.ts';
import { newExperienceId } from '../core/experience.ts';
import { applyOperations, deleteAllowance } from '../core/library.ts';
import type { LibraryOperation } from '../core/operations.ts';
import { experience, G1, G2, ORIGIN } from './tfgrpo-helpers.ts';

const LIMITS = { maxSize: 10, maxDeleteFraction: 0.5 };
const CTX = { group: G2, now: 500, source: 'model' as const };

const SORT = 'Sort first: on the product list, sort by price before opening a product.';
const QTY = 'Quantity: set the quantity field before pressing Add to cart.';
const SEARCH = 'Search box: type the product name into the search box and press Enter.';

const library = () => [experience('x-a', SORT), experience('x-b', QTY), experience('x-c', SEARCH)];

describe('applyOperations: exact library states', () => {
  it('ADD appends an entry with a stable id and the group as provenance', () => {
    const text = 'Checkout: the country dropdown is on the second checkout page.';
    const out = applyOperations(ORIGIN, library(), [{ op: 'ADD', text, hint: null, group: G2 }], LIMITS, CTX);
    const id = newExperienceId(ORIGIN, text, new Set(['x-a', 'x-b', 'x-c']));
    expect(id).toMatch(/^x-[0-9a-z]+$/);
    expect(out.library).toEqual([
      ...library(),
      {
        id, origin: ORIGIN, text, hint: null, source: 'model',
        provenance: { createdBy: G2, updatedBy: [], createdAt: 500, updatedAt: 500, inPrompt: 0, inPromptThenSucceeded: 0 },
      },
    ]);
    expect(out).toMatchObject({ added: [id], updated: [], deleted: [], evicted: [], refused: [] });
    expect(out.revision).toMatchObject({ origin: ORIGIN, group: G2, at: 500, before: library(), added: [id] });
  });

  it('the same text added again on another day keeps the same id; a clash gets a suffix', () => {
    const a = newExperienceId(ORIGIN, '  Same   words ', new Set());
    expect(newExperienceId(ORIGIN, 'Same words', new Set())).toBe(a);
    expect(newExperienceId(ORIGIN, 'Same words', new Set([a]))).toBe(`${a}-2`);
  });

  it('UPDATE rewrites the text in place, keeps id, counters and creation, and records the group', () => {
    const before = library();
    before[1]!.provenance.inPrompt = 4;
    const out = applyOperations(ORIGIN, before, [{ op: 'UPDATE', id: 'x-b', text: 'Quantity: type the quantity, then Add to cart.', group: G2 }], LIMITS, CTX);
    expect(out.library).toEqual([
      experience('x-a', SORT),
      experience('x-b', 'Quantity: type the quantity, then Add to cart.', { inPrompt: 4, updatedBy: [G2], updatedAt: 500 }),
      experience('x-c', SEARCH),
    ]);
    expect(out.updated).toEqual(['x-b']);
  });

  it('UPDATE with the same text changes nothing and records no revision', () => {
    const out = applyOperations(ORIGIN, library(), [{ op: 'UPDATE', id: 'x-b', text: QTY, group: G2 }], LIMITS, CTX);
    expect(out.library).toEqual(library());
    expect(out.revision).toBeNull();
  });

  it('DELETE removes the entry', () => {
    const out = applyOperations(ORIGIN, library(), [{ op: 'DELETE', id: 'x-a', group: G2 }], LIMITS, CTX);
    expect(out.library).toEqual([experience('x-b', QTY), experience('x-c', SEARCH)]);
    expect(out.deleted).toEqual(['x-a']);
  });

  it('NONE changes nothing', () => {
    const out = applyOperations(ORIGIN, library(), [{ op: 'NONE', group: G2 }], LIMITS, CTX);
    expect(out.library).toEqual(library());
    expect(out.revision).toBeNull();
    expect(out.refused).toEqual([]);
  });

  it('refuses UPDATE and DELETE of an entry that does not exist', () => {
    const out = applyOperations(ORIGIN, library(), [
      { op: 'UPDATE', id: 'x-zz', text: 'Anything: at all.', group: G2 },
      { op: 'DELETE', id: 'x-yy', group: G2 },
    ], LIMITS, CTX);
    expect(out.library).toEqual(library());
    expect(out.refused).toEqual(['DELETE of x-yy refused: no such entry', 'UPDATE of x-zz refused: no such entry']);
  });

  it('caps deletions per update: the least useful go, the rest are refused', () => {
    const before = [
      experience('x-a', SORT, { inPrompt: 4, inPromptThenSucceeded: 4 }), // usefulness 5/6
      experience('x-b', QTY, { inPrompt: 4, inPromptThenSucceeded: 0 }), // 1/6
      experience('x-c', SEARCH), // 1/2
      experience('x-d', 'Cart: open the cart from the header link.'), // 1/2, same age: by id
    ];
    expect(deleteAllowance(4, 0.5)).toBe(2);
    const all: LibraryOperation[] = ['x-a', 'x-b', 'x-c', 'x-d'].map((id) => ({ op: 'DELETE', id, group: G2 }));
    const out = applyOperations(ORIGIN, before, all, LIMITS, CTX);
    expect(out.deleted).toEqual(['x-b', 'x-c']);
    expect(out.library).toEqual([before[0], before[3]]);
    expect(out.refused).toEqual([
      'DELETE of x-d refused: one update may delete at most 2 of 4 entries',
      'DELETE of x-a refused: one update may delete at most 2 of 4 entries',
    ]);
  });

  it('a library of one entry may still lose it (at least one deletion is always allowed)', () => {
    expect(deleteAllowance(1, 0.25)).toBe(1);
    expect(deleteAllowance(0, 0.25)).toBe(0);
    expect(deleteAllowance(7, 0.25)).toBe(1);
    expect(deleteAllowance(8, 0.25)).toBe(2);
  });

  it('enforces the size cap by evicting the least useful old entries, then dropping the newest additions', () => {
    const before = [
      experience('x-a', SORT, { inPrompt: 2, inPromptThenSucceeded: 2 }), // 3/4
      experience('x-b', QTY, { inPrompt: 2, inPromptThenSucceeded: 0 }), // 1/4
    ];
    const adds: LibraryOperation[] = [
      { op: 'ADD', text: 'One: first new lesson about filters.', hint: null, group: G2 },
      { op: 'ADD', text: 'Two: second new lesson about the header.', hint: null, group: G2 },
      { op: 'ADD', text: 'Three: third new lesson about checkout.', hint: null, group: G2 },
    ];
    const out = applyOperations(ORIGIN, before, adds, { maxSize: 2, maxDeleteFraction: 0.5 }, CTX);
    expect(out.evicted).toEqual(['x-b', 'x-a']);
    expect(out.library.map((e) => e.text)).toEqual(['One: first new lesson about filters.', 'Two: second new lesson about the header.']);
    expect(out.refused).toEqual(['ADD of "Three: third new lesson about checkout." dropped: the library is full (2)']);
    expect(out.added).toHaveLength(2);
  });
});

describe('consolidate: one consistent batch', () => {
  it('DELETE wins over UPDATE of the same entry, in either order; NONE is dropped', () => {
    const batch: LibraryOperation[] = [
      { op: 'UPDATE', id: 'x-a', text: 'Sort: by price.', group: G1 },
      { op: 'DELETE', id: 'x-a', group: G2 },
      { op: 'DELETE', id: 'x-b', group: G1 },
      { op: 'UPDATE', id: 'x-b', text: 'Quantity: first.', group: G2 },
      { op: 'NONE', group: G2 },
    ];
    const out = consolidate(library(), batch);
    expect(out.operations).toEqual([
      { op: 'DELETE', id: 'x-a', group: G2 },
      { op: 'DELETE', id: 'x-b', group: G1 },
    ]);
    expect(out.notes).toEqual(['x-a: DELETE wins over UPDATE', 'x-b: DELETE wins over UPDATE']);
  });

  it('two UPDATEs of one entry keep the later one', () => {
    const out = consolidate(library(), [
      { op: 'UPDATE', id: 'x-c', text: 'Search: use the box.', group: G1 },
      { op: 'UPDATE', id: 'x-c', text: 'Search: use the box and press Enter.', group: G2 },
    ]);
    expect(out.operations).toEqual([{ op: 'UPDATE', id: 'x-c', text: 'Search: use the box and press Enter.', group: G2 }]);
  });

  it('merges near-duplicate ADDs into the more detailed one and unites their hints on the same page type', () => {
    const hintA = { pageType: '/product/ID', taskPattern: 'Add {item}', prefer: ['click(<button "Add to cart">)'], avoid: [] };
    const hintB = { pageType: '/product/ID', taskPattern: 'Add {item}', prefer: ['fill(<spinbutton "Quantity">, "{quantity}")'], avoid: ['click(<link "Home">)'] };
    const out = consolidate([], [
      { op: 'ADD', text: 'Product page: press Add to cart on the product page.', hint: hintA, group: G1 },
      { op: 'ADD', text: 'Product page: press Add to cart on the product page, now.', hint: hintB, group: G2 },
      { op: 'ADD', text: 'Checkout: pick the country on the shipping step.', hint: null, group: G2 },
    ]);
    expect(out.operations).toEqual([
      {
        op: 'ADD', text: 'Product page: press Add to cart on the product page, now.', group: G1,
        hint: { pageType: '/product/ID', taskPattern: 'Add {item}', prefer: ['click(<button "Add to cart">)', 'fill(<spinbutton "Quantity">, "{quantity}")'], avoid: ['click(<link "Home">)'] },
      },
      { op: 'ADD', text: 'Checkout: pick the country on the shipping step.', hint: null, group: G2 },
    ]);
    expect(out.notes).toEqual(['two ADDs merged: "Product page: press Add to cart on the product page, now."']);
  });

  it('an ADD that repeats a stored entry becomes an UPDATE of it, unless the batch rewrites or deletes that entry', () => {
    const repeat = 'Quantity: set the quantity field before pressing Add to cart now.';
    expect(consolidate(library(), [{ op: 'ADD', text: repeat, hint: null, group: G2 }]).operations)
      .toEqual([{ op: 'UPDATE', id: 'x-b', text: repeat, hint: null, group: G2 }]);
    expect(consolidate(library(), [{ op: 'DELETE', id: 'x-b', group: G1 }, { op: 'ADD', text: repeat, hint: null, group: G2 }]).operations)
      .toEqual([{ op: 'DELETE', id: 'x-b', group: G1 }, { op: 'ADD', text: repeat, hint: null, group: G2 }]);
  });

  it('consolidated then applied: the exact library after a mixed batch', () => {
    const batch: LibraryOperation[] = [
      { op: 'UPDATE', id: 'x-a', text: 'Sort first: sort by price, lowest first.', group: G1 },
      { op: 'DELETE', id: 'x-c', group: G1 },
      { op: 'UPDATE', id: 'x-c', text: 'Search: never used.', group: G2 },
      { op: 'ADD', text: 'Header: the cart link is in the header.', hint: null, group: G2 },
    ];
    const { operations } = consolidate(library(), batch);
    const out = applyOperations(ORIGIN, library(), operations, LIMITS, CTX);
    const header = 'Header: the cart link is in the header.';
    expect(out.library.map((e) => [e.id, e.text])).toEqual([
      ['x-a', 'Sort first: sort by price, lowest first.'],
      ['x-b', QTY],
      [newExperienceId(ORIGIN, header, new Set()), header],
    ]);
    expect(out.library[0]!.provenance.updatedBy).toEqual([G1]);
    expect(out.deleted).toEqual(['x-c']);
  });
});
