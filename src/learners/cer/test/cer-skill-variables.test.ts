import { describe, expect, it } from 'vitest';
import { formatAction, parseAction } from '../../../core/page/action-grammar.ts';
import type { Action } from '../../../core/page/action.ts';
import {
  abstractActions, bindVariables, explicitValues, instantiateAction, matchNamePattern, substitute,
} from '../../../core/learning/shared/skill-variables.ts';

const actions = (...texts: string[]): Action[] => texts.map((t) => {
  const p = parseAction(t);
  if (!p.ok) throw p.error;
  return p.action;
});

describe('explicitValues', () => {
  it('finds quoted strings in any quote style, then numbers outside quotes', () => {
    expect(explicitValues('Order 3 of "Red teapot" and ‘Blue kettle’ for room 12b, total 4.50')).toEqual(['Red teapot', 'Blue kettle', '3', '4.50']);
  });
});

describe('abstractActions', () => {
  it('rebinds a row only where its whole name is the task\'s value, and instantiates it for another instance', () => {
    const out = abstractActions('Remove "Alan Turing" from the team', actions(
      'click(<button "Remove" in row "Alan Turing" in dialog "Members">)',
      'click(<button "Remove" in row "Alan Turing and Ada">)',
    ));
    expect(out.name).toBe('Remove {item} from the team');
    expect(out.actions.map(formatAction)).toEqual([
      'click(<button "Remove" in row "{item}" in dialog "Members">)',
      // A row named by more than the value is not the value's row: it stays literal.
      'click(<button "Remove" in row "Alan Turing and Ada">)',
    ]);
    expect(instantiateAction(formatAction(out.actions[0]!), { item: 'Grace Hopper' })).toBe('click(<button "Remove" in row "Grace Hopper" in dialog "Members">)');
  });

  it('abstracts a quoted value typed into a field, and the same value inside a button name', () => {
    const out = abstractActions('Find the "Red teapot" and add it to the cart', actions(
      'fill(<searchbox "Filter products">, "Red teapot")',
      'click(<button "Add Red teapot to cart">)',
      'send_msg_to_user("Added Red teapot to the cart")',
    ));
    expect(out.name).toBe('Find the {filter_products} and add it to the cart');
    expect(out.variables).toEqual(['filter_products', 'answer']);
    expect(out.actions.map(formatAction)).toEqual([
      'fill(<searchbox "Filter products">, "{filter_products}")',
      'click(<button "Add {filter_products} to cart">)',
      'send_msg_to_user("{answer}")',
    ]);
  });

  it('abstracts unquoted task words and numbers, keeps fixed UI labels literal', () => {
    const out = abstractActions('Set the quantity to 3 and ship to Japan', actions(
      'fill(<spinbutton "Quantity">, "3")',
      'select_option(<combobox "Ship to">, "Japan")',
      'click(<button "Update">)',
    ));
    expect(out.name).toBe('Set the quantity to {quantity} and ship to {ship_to}');
    expect(out.actions.map(formatAction)).toEqual([
      'fill(<spinbutton "Quantity">, "{quantity}")',
      'select_option(<combobox "Ship to">, "{ship_to}")',
      'click(<button "Update">)',
    ]);
  });

  it('never keeps text typed into a secret field', () => {
    const out = abstractActions('Sign in as "ada"', actions('fill(<textbox "Username">, "ada")', 'fill(<textbox "Password">, "hunter22")'));
    expect(out.actions.map(formatAction)).toEqual(['fill(<textbox "Username">, "{username}")', 'fill(<textbox "Password">, "{password}")']);
    expect(JSON.stringify(out.actions)).not.toContain('hunter22');
    expect(out.variables).toEqual(['username', 'password']);
  });

  it('gives two different values for fields with the same label distinct variables', () => {
    const out = abstractActions('Compare "mug" with "kettle"', actions('fill(<searchbox "Search">, "mug")', 'fill(<searchbox "Search">, "kettle")'));
    expect(out.name).toBe('Compare {search} with {search_2}');
  });
});

describe('binding a skill to a new task', () => {
  it('reads the new task through the skill name as a pattern, with or without quotes', () => {
    expect(matchNamePattern('Find the {item} and add it to the cart', 'find the "Blue kettle" and add it to the cart.')).toEqual({ item: 'Blue kettle' });
    expect(matchNamePattern('Find the {item} and add it to the cart', 'Find the Blue kettle and add it to the cart')).toEqual({ item: 'Blue kettle' });
    expect(matchNamePattern('Find the {item} and add it to the cart', 'Sort the products by price')).toBeNull();
    expect(matchNamePattern('Sign in', 'Sign in')).toBeNull();
  });

  it('binds by the neighbouring word when the phrasing differs, and refuses a value in another role', () => {
    expect(bindVariables('Search for {product} and add it to the cart', ['product'], 'Find the "Blue kettle" and add it to the cart'))
      .toEqual({ product: 'Blue kettle' });
    expect(bindVariables('Find the {filter_products} and add it to the cart', ['filter_products', 'answer'], 'Sort the products by "Rating"'))
      .toEqual({});
  });

  it('instantiates example actions safely, and leaves unbound ones out', () => {
    expect(instantiateAction('fill(<searchbox "Filter products">, "{item}")', { item: 'The "Best" mug' }))
      .toBe('fill(<searchbox "Filter products">, "The \\"Best\\" mug")');
    expect(instantiateAction('click(<button "Add {item} to cart">)', { item: 'Blue kettle' })).toBe('click(<button "Add Blue kettle to cart">)');
    expect(instantiateAction('fill(<textbox "Password">, "{password}")', { item: 'x' })).toBeNull();
    expect(substitute('Type {item} then {other}', { item: 'mug' })).toBe('Type mug then {other}');
  });
});
