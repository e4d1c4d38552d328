import { describe, expect, it } from 'vitest';
import { jaccard, stateTokensOf, tokenize } from '../../src/core/memory/tokenize.ts';

describe('tokenize', () => {
  it('lowercases, splits on non-word characters, dedups and drops stop words, keeping numbers', () => {
    expect(tokenize('Add THE red shirt (size 42) to the cart, and the red hat')).toEqual(['add', 'red', 'shirt', 'size', '42', 'to', 'cart', 'hat']);
  });
  it('keeps prepositions that are often field labels', () => {
    expect(tokenize('fill(<textbox "From">, "2023")')).toEqual(['fill', 'textbox', 'from', '2023']);
  });
  it('handles non-Latin scripts and empty text', () => {
    expect(tokenize('Größe 3 über')).toEqual(['größe', '3', 'über']);
    expect(tokenize('  ,;  ')).toEqual([]);
  });
  it('tokenizes an effective state as one bag of tokens', () => {
    expect(stateTokensOf(['select_option(<combobox "Show by">, "Year")', 'fill(<textbox "From">, "2023")']))
      .toEqual(['select_option', 'combobox', 'show', 'by', 'year', 'fill', 'textbox', 'from', '2023']);
    expect(stateTokensOf([])).toEqual([]);
  });
});

describe('jaccard (Eq. 24)', () => {
  it('is |A∩B| / |A∪B| over sets', () => {
    expect(jaccard(['a', 'b', 'c'], ['b', 'c', 'd'])).toBe(2 / 4);
    expect(jaccard(['a', 'a', 'b'], ['a'])).toBe(1 / 2);
    expect(jaccard(['a'], ['b'])).toBe(0);
  });
  it('treats two empty states as the same state and empty vs non-empty as disjoint', () => {
    expect(jaccard([], [])).toBe(1);
    expect(jaccard([], ['a'])).toBe(0);
  });
});
