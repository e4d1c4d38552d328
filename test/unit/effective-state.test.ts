import { describe, expect, it } from 'vitest';
import { computeEffectiveState } from '../../src/core/learning/effective-state.ts';

const on = (regUrl: string, semantic: string, ok = true) => ({ regUrl, semantic, ok });

describe('computeEffectiveState', () => {
  it('is empty ("No action") with no history or right after arriving from another page', () => {
    expect(computeEffectiveState([], '/search')).toEqual([]);
    expect(computeEffectiveState([on('/search', 'fill(<searchbox "Search">, "red shirt")'), on('/search', 'click(<button "Go">)')], '/products/ID')).toEqual([]);
  });

  it('keeps lasting widget state, latest per element, dropping buttons, presses, scrolls and failures', () => {
    const steps = [
      on('/reports', 'click(<button "Refresh">)'),
      on('/reports', 'select_option(<combobox "Show by">, "Year")'),
      on('/reports', 'fill(<textbox "From">, "2020")'),
      on('/reports', 'click(<tab "Monthly">)'),
      on('/reports', 'fill(<textbox "From">, "2023")'),
      on('/reports', 'press("Enter")'),
      on('/reports', 'scroll(0, 300)'),
      on('/reports', 'fill(<textbox "To">, "2024")', false),
      on('/reports', 'check(<checkbox "Paid only">)'),
      on('/reports', 'uncheck(<checkbox "Paid only">)'),
    ];
    expect(computeEffectiveState(steps, '/reports')).toEqual([
      'select_option(<combobox "Show by">, "Year")',
      'click(<tab "Monthly">)',
      'fill(<textbox "From">, "2023")',
      'uncheck(<checkbox "Paid only">)',
    ]);
  });

  it('counts only actions since the last arrival on the page', () => {
    const steps = [
      on('/a', 'fill(<textbox "Name">, "Ann")'),
      on('/a', 'click(<link "Details">)'),
      on('/b', 'click(<link "Back to list">)'),
    ];
    expect(computeEffectiveState(steps, '/a')).toEqual([]);
    expect(computeEffectiveState([...steps, on('/a', 'fill(<textbox "City">, "Oslo")')], '/a')).toEqual(['fill(<textbox "City">, "Oslo")']);
  });

  it('clear removes a filled value; unparseable actions are ignored', () => {
    const steps = [
      on('/f', 'fill(<textbox "Q">, "x")'),
      on('/f', 'fill(<textbox "R">, "y")'),
      on('/f', 'clear(<textbox "Q">)'),
      on('/f', 'fill(<textbox "S", "broken'),
    ];
    expect(computeEffectiveState(steps, '/f')).toEqual(['fill(<textbox "R">, "y")']);
  });
});
