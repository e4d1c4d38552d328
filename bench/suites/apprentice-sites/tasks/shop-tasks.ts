/**
 * Tasks on Northwind Market: adding the right product (with decoys whose names
 * contain the target's words), sort-before-pick, questions, cart edits and the
 * multi-page checkout.
 */
import type { Page } from 'playwright-core';
import type { BenchTask } from '../../../suite.ts';
import { cheapestIn, productById } from '../sites/shop/data.js';
import { allTrue, numbersIn, readAnswer, readJson, seedSite } from './page-state.ts';
import { addQuantityTeacher, addToCartTeacher, askPriceTeacher, checkoutTeacher, cheapestTeacher, promoTeacher, removeFromCartTeacher, wishListTeacher } from './shop-teachers.ts';

interface CartLine { id: number; qty: number }
interface Order { id: number; items: CartLine[]; shipping: { country: string; method: string }; payment: string; promo: string | null }

const cartOf = (page: Page, origin: string) => readJson<CartLine[]>(page, origin, 'shop.cart', []);

/** The cart holds exactly these lines (order does not matter). */
function cartIs(cart: CartLine[], expected: CartLine[]): boolean {
  if (cart.length !== expected.length) return false;
  return expected.every((e) => cart.some((l) => l.id === e.id && l.qty === e.qty));
}

function name(id: number): string {
  const p = productById(id);
  if (!p) throw new Error(`no product ${id}`);
  return p.name;
}

export function shopTasks(origin: string): BenchTask[] {
  const seedOnly = (cart: CartLine[] = []) => async (page: Page, ctx: { seed: number }) => {
    await seedSite(page, origin, { 'shop.seed': ctx.seed, 'shop.cart': cart });
  };
  const cartChanged = (initial: CartLine[]) => async (page: Page) => !cartIs(await cartOf(page, origin), initial);
  const tasks: BenchTask[] = [];

  // "Add X to my cart" ×4: each catalogue has a decoy sharing the name's words.
  for (const id of [104, 202, 301, 107]) {
    tasks.push({
      id: `shop.add-to-cart.${id}`,
      template: 'shop.add-to-cart',
      startUrl: `${origin}/`,
      instruction: `Add the ${name(id)} to my cart.`,
      setup: seedOnly(),
      reward: async (page) => allTrue(cartIs(await cartOf(page, origin), [{ id, qty: 1 }])),
      done: cartChanged([]),
      maxSteps: 8,
      teacher: addToCartTeacher(name(id)),
    });
  }
  // Sort before pick ×2.
  for (const category of ['Garden', 'Sports']) {
    const target = cheapestIn(category);
    if (!target) throw new Error(`empty category ${category}`);
    tasks.push({
      id: `shop.cheapest-in-category.${category.toLowerCase()}`,
      template: 'shop.cheapest-in-category',
      startUrl: `${origin}/`,
      instruction: `Add the cheapest product in the ${category} category to my cart.`,
      setup: seedOnly(),
      reward: async (page) => allTrue(cartIs(await cartOf(page, origin), [{ id: target.id, qty: 1 }])),
      done: cartChanged([]),
      maxSteps: 10,
      teacher: cheapestTeacher(category),
    });
  }
  // Questions ×2: the answer is the price.
  for (const id of [103, 303]) {
    const product = productById(id);
    if (!product) throw new Error(`no product ${id}`);
    tasks.push({
      id: `shop.ask-price.${id}`,
      template: 'shop.ask-price',
      startUrl: `${origin}/`,
      instruction: `What is the price of the ${product.name}? Tell me the amount.`,
      setup: seedOnly(),
      reward: async (page) => {
        const first = numbersIn((await readAnswer(page)) ?? '')[0];
        return allTrue(first !== undefined && Math.abs(first - product.price) < 0.005);
      },
      maxSteps: 8,
      teacher: askPriceTeacher(product.name),
    });
  }
  const removeStart: CartLine[] = [{ id: 107, qty: 1 }, { id: 108, qty: 1 }, { id: 106, qty: 2 }];
  tasks.push({
    id: 'shop.remove-from-cart',
    startUrl: `${origin}/`,
    instruction: 'Remove the Toaster cover from my cart.',
    setup: seedOnly(removeStart),
    reward: async (page) => allTrue(cartIs(await cartOf(page, origin), [{ id: 107, qty: 1 }, { id: 106, qty: 2 }])),
    done: cartChanged(removeStart),
    maxSteps: 8,
    teacher: removeFromCartTeacher('Toaster cover'),
  });
  tasks.push({
    id: 'shop.save-to-wish-list',
    startUrl: `${origin}/`,
    instruction: 'Save the Tennis racket to my wish list.',
    setup: seedOnly(),
    reward: async (page) => {
      const wish = await readJson<number[]>(page, origin, 'shop.wishlist', []);
      return allTrue(wish.length === 1 && wish[0] === 205, (await cartOf(page, origin)).length === 0);
    },
    done: async (page) => (await readJson<number[]>(page, origin, 'shop.wishlist', [])).length > 0 || (await cartOf(page, origin)).length > 0,
    maxSteps: 8,
    teacher: wishListTeacher('Tennis racket'),
  });
  tasks.push({
    id: 'shop.apply-promo-code',
    startUrl: `${origin}/`,
    instruction: 'Apply the promo code "WELCOME5" to my cart.',
    setup: seedOnly([{ id: 202, qty: 1 }]),
    reward: async (page) => allTrue(
      (await readJson<string | null>(page, origin, 'shop.promo', null)) === 'WELCOME5',
      cartIs(await cartOf(page, origin), [{ id: 202, qty: 1 }]),
    ),
    done: async (page) => (await readJson<string | null>(page, origin, 'shop.promo', null)) !== null,
    maxSteps: 8,
    teacher: promoTeacher('WELCOME5'),
  });
  tasks.push({
    id: 'shop.add-quantity',
    startUrl: `${origin}/`,
    instruction: 'Add 3 of the Notebook set to my cart.',
    setup: seedOnly(),
    reward: async (page) => allTrue(cartIs(await cartOf(page, origin), [{ id: 304, qty: 3 }])),
    done: cartChanged([]),
    maxSteps: 10,
    teacher: addQuantityTeacher('Notebook set', 3),
  });

  // Checkout: the country must be set on the checkout's shipping step, not in
  // the cart's "Estimate shipping" box.
  for (const country of ['Canada', 'Germany', 'Japan']) {
    tasks.push({
      id: `checkout.shipping-country.${country.toLowerCase()}`,
      template: 'checkout.shipping-country',
      startUrl: `${origin}/cart`,
      instruction: `Set the shipping country of my order to ${country}.`,
      setup: seedOnly([{ id: 101, qty: 1 }]),
      reward: async (page) => {
        const checkout = await readJson<{ shipping?: { country: string } }>(page, origin, 'shop.checkout', {});
        const orders = await readJson<Order[]>(page, origin, 'shop.orders', []);
        const country_ = checkout.shipping?.country ?? orders.at(-1)?.shipping.country;
        return allTrue(country_ === country);
      },
      done: async (page) => (await readJson<{ shipping?: unknown }>(page, origin, 'shop.checkout', {})).shipping !== undefined,
      maxSteps: 8,
      teacher: checkoutTeacher({ country, placeOrder: false }),
    });
  }
  const orderCart: CartLine[] = [{ id: 304, qty: 2 }];
  const lastOrder = async (page: Page) => (await readJson<Order[]>(page, origin, 'shop.orders', []));
  for (const method of ['PayPal', 'Bank transfer']) {
    tasks.push({
      id: `checkout.pay-with.${method.toLowerCase().replace(' ', '-')}`,
      template: 'checkout.pay-with',
      startUrl: `${origin}/cart`,
      instruction: `Place the order in my cart and pay with ${method}.`,
      setup: seedOnly(orderCart),
      reward: async (page) => {
        const orders = await lastOrder(page);
        return allTrue(orders.length === 1, orders[0]?.payment === method, cartIs(orders[0]?.items ?? [], orderCart));
      },
      done: async (page) => (await lastOrder(page)).length > 0,
      maxSteps: 12,
      teacher: checkoutTeacher({ payment: method, placeOrder: true }),
    });
  }
  tasks.push({
    id: 'checkout.express-shipping',
    startUrl: `${origin}/cart`,
    instruction: 'Check out my cart with Express shipping and place the order.',
    setup: seedOnly([{ id: 403, qty: 1 }]),
    reward: async (page) => {
      const orders = await lastOrder(page);
      return allTrue(orders.length === 1, orders[0]?.shipping.method === 'express');
    },
    done: async (page) => (await lastOrder(page)).length > 0,
    maxSteps: 12,
    teacher: checkoutTeacher({ method: 'Express', placeOrder: true }),
  });
  return tasks;
}
