/**
 * Teachers for the shop's tasks: what a person would do on Northwind Market,
 * read from the screen (product names, buttons and fields by their labels).
 */
import type { Page } from 'playwright-core';
import type { TeacherStep } from '../../../suite.ts';
import { firstRule, isChecked, onPath, role, roleContaining, seeing, sees, textOf, valueIn, when, type Rule } from './person.ts';

const SEARCH = role('searchbox', 'Search products');
const title = (name: string): string => `role=heading[level=1][name=${JSON.stringify(name)} s]`;
const onProductPage = (name: string) => seeing(title(name));

/** Gets to the product's own page: its link when on screen, else a search for its name. */
function toProduct(name: string): Rule[] {
  return [
    when(seeing(role('link', name)), { do: 'click', selector: role('link', name) }),
    when(async (page) => (await sees(page, SEARCH)) && (await valueIn(page, SEARCH)) !== name, { do: 'fill', selector: SEARCH, text: name }),
    when(seeing(SEARCH), { do: 'click', selector: role('button', 'Search') }),
  ];
}

const onProduct = (name: string, step: TeacherStep): Rule => when(async (page) => (await onProductPage(name)(page)) && await sees(page, role('button', 'Add to cart')), step);

export const addToCartTeacher = (name: string) => firstRule(onProduct(name, { do: 'click', selector: role('button', 'Add to cart') }), ...toProduct(name));

export const wishListTeacher = (name: string) => firstRule(onProduct(name, { do: 'click', selector: role('button', 'Add to wish list') }), ...toProduct(name));

export const addQuantityTeacher = (name: string, quantity: number) => firstRule(
  when(async (page) => (await onProductPage(name)(page)) && (await valueIn(page, role('spinbutton', 'Quantity'))) !== String(quantity),
    { do: 'fill', selector: role('spinbutton', 'Quantity'), text: String(quantity) }),
  onProduct(name, { do: 'click', selector: role('button', 'Add to cart') }),
  ...toProduct(name),
);

/** On the product's page, reads its price and says it. */
export const askPriceTeacher = (name: string) => firstRule(
  when(onProductPage(name), async (page: Page) => ({ do: 'answer', text: /\$[\d,.]+/.exec(await textOf(page, 'text=/^Price:/'))?.[0] ?? '' })),
  ...toProduct(name),
);

/** Opens the category, reads the prices on the cards, opens the cheapest one, adds it. */
export const cheapestTeacher = (category: string) => firstRule(
  when(seeing(role('button', 'Add to cart')), { do: 'click', selector: role('button', 'Add to cart') }),
  when(seeing(title(category)), async (page: Page) => {
    const cards = await page.locator('article').evaluateAll((els) => els.map((el) => ({
      name: el.querySelector('h3')?.textContent?.trim() ?? '',
      price: Number(/\$([\d.]+)/.exec(el.textContent ?? '')?.[1] ?? Number.NaN),
    })));
    const cheapest = cards.filter((c) => Number.isFinite(c.price)).sort((a, b) => a.price - b.price)[0];
    return cheapest ? { do: 'click', selector: role('link', cheapest.name) } : { do: 'stop' };
  }),
  when(seeing(role('link', category)), { do: 'click', selector: role('link', category) }),
);

const toCart: Rule = when(async (page) => !(await onPath(/^\/cart$/)(page)), { do: 'click', selector: roleContaining('link', 'Cart (') });

export const removeFromCartTeacher = (name: string) => firstRule(
  when(seeing(role('button', `Remove ${name}`)), { do: 'click', selector: role('button', `Remove ${name}`) }),
  toCart,
);

export const promoTeacher = (code: string) => firstRule(
  when(async (page) => (await sees(page, role('textbox', 'Promo code'))) && (await valueIn(page, role('textbox', 'Promo code'))) !== code,
    { do: 'fill', selector: role('textbox', 'Promo code'), text: code }),
  when(seeing(role('button', 'Apply code')), { do: 'click', selector: role('button', 'Apply code') }),
  toCart,
);

/** The checkout, page by page: shipping (country, method), payment, review (terms, place order). */
export function checkoutTeacher(wanted: { country?: string; method?: string; payment?: string; placeOrder: boolean }) {
  const COUNTRY = role('combobox', 'Country');
  return firstRule(
    when(onPath(/^\/cart$/), { do: 'click', selector: role('button', 'Proceed to checkout') }),
    when(onPath(/^\/checkout\/shipping$/), async (page: Page): Promise<TeacherStep> => {
      if (wanted.country && (await page.locator(COUNTRY).inputValue()) !== wanted.country) return { do: 'select', selector: COUNTRY, option: wanted.country };
      if (wanted.method && !(await isChecked(page, roleContaining('radio', wanted.method)))) return { do: 'check', selector: roleContaining('radio', wanted.method) };
      return { do: 'click', selector: role('button', 'Continue to payment') };
    }),
    when(onPath(/^\/checkout\/payment$/), async (page: Page): Promise<TeacherStep> => {
      if (wanted.payment && !(await isChecked(page, role('radio', wanted.payment)))) return { do: 'check', selector: role('radio', wanted.payment) };
      return wanted.placeOrder ? { do: 'click', selector: role('button', 'Continue to review') } : { do: 'stop' };
    }),
    when(onPath(/^\/checkout\/review$/), async (page: Page): Promise<TeacherStep> => {
      const terms = roleContaining('checkbox', 'I agree to the terms');
      if (!(await isChecked(page, terms))) return { do: 'check', selector: terms };
      return { do: 'click', selector: role('button', 'Place order') };
    }),
  );
}
