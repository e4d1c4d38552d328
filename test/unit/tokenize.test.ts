import { describe, expect, it } from 'vitest';
import { jaccard, stateTokensOf, TASK_VALUE_TOKEN, tokenize } from '../../src/core/page/tokenize.ts';

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
      .toEqual(['select_option', 'combobox', 'show', 'by', 'year', 'fill', 'textbox', 'from', '2023',
        '⟨select_option combobox "show by"⟩', '⟨fill textbox "from"⟩']);
    expect(stateTokensOf([])).toEqual([]);
  });
  it('with the task, folds a value the task gave into one token, so two instances of a template share the state', () => {
    const cityA = stateTokensOf(['select_option(<combobox "Home city">, "(GMT+10) Sydney")', 'fill(<textbox "Note">, "call later")'], tokenize('Make Sydney my home city'));
    const cityB = stateTokensOf(['select_option(<combobox "Home city">, "(GMT-03) Lima")', 'fill(<textbox "Note">, "call later")'], tokenize('Make Lima my home city'));
    expect(cityA).toEqual(['select_option', 'combobox', 'home', 'city', TASK_VALUE_TOKEN, 'fill', 'textbox', 'note', 'call', 'later',
      '⟨select_option combobox "home city"⟩', '⟨fill textbox "note"⟩']);
    expect(cityB).toEqual(cityA);
    // Without the task (and for a value the task did not give) the words stay: 6 shared of 10 (the mark is shared), Jaccard 6/10.
    const plainA = stateTokensOf(['select_option(<combobox "Home city">, "(GMT+10) Sydney")']);
    const plainB = stateTokensOf(['select_option(<combobox "Home city">, "(GMT-03) Lima")']);
    expect(plainA).toEqual(['select_option', 'combobox', 'home', 'city', 'gmt', '10', 'sydney', '⟨select_option combobox "home city"⟩']);
    expect(jaccard(plainA, plainB)).toBe(6 / 10);
    // The element's own name is never folded, even when the task names it.
    expect(stateTokensOf(['click(<tab "Sydney office">)'], tokenize('Open the Sydney office tab'))).toEqual(['click', 'tab', 'sydney', 'office', '⟨click tab "sydney office"⟩']);
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
