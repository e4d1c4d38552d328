/**
 * The shipped suite's reward functions against scripted solutions in real
 * Chromium: the right path scores 1, the tempting wrong path scores 0. Proves
 * the tasks are solvable with the action set and that decoys are decoys.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_GLOBAL, resolveTasks, type BenchTask } from '../../bench/suite.ts';
import apprenticeSites from '../../bench/suites/apprentice-sites/index.ts';
import { launchPlain } from '../support/chromium.ts';

let browser: Browser;
let tasks: BenchTask[];

beforeAll(async () => {
  const started = await apprenticeSites.start!();
  tasks = resolveTasks(apprenticeSites, { baseUrl: started ? started.baseUrl : '' });
  browser = await launchPlain();
});
afterAll(async () => {
  await browser?.close();
  await apprenticeSites.stop!();
});

/** Runs `solve` on a fresh instance of the task and returns [instruction, reward, done]. */
async function attempt(id: string, solve: (page: Page, instruction: string) => Promise<string | void>): Promise<[string, number, boolean | undefined]> {
  const task = tasks.find((t) => t.id === id);
  if (!task) throw new Error(`no task ${id}`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(task.startUrl);
    const instruction = (await task.setup?.(page, { seed: 3, attempt: 1 })) || task.instruction || '';
    const answer = await solve(page, instruction);
    await page.evaluate(([name, value]) => { (globalThis as Record<string, unknown>)[name!] = value; }, [ANSWER_GLOBAL, answer ?? null] as const);
    return [instruction, await task.reward(page), await task.done?.(page)];
  } finally {
    await context.close();
  }
}

const click = (page: Page, role: 'link' | 'button', name: string) => page.getByRole(role, { name, exact: true }).click();

describe('apprentice-sites rewards', () => {
  it('shop: the decoy product scores 0, the named one 1', async () => {
    const decoy = await attempt('shop.add-to-cart.202', async (page) => {
      await page.goto(page.url().replace(/\/$/, '/product/203'));
      await click(page, 'button', 'Add to cart');
    });
    expect(decoy.slice(1)).toEqual([0, true]);
    const right = await attempt('shop.add-to-cart.202', async (page) => {
      await page.getByRole('searchbox', { name: 'Search products' }).fill('yoga mat');
      await click(page, 'button', 'Search');
      await click(page, 'link', 'Yoga mat');
      await click(page, 'button', 'Add to cart');
    });
    expect(right.slice(1)).toEqual([1, true]);
  });

  it('shop: sort before pick finds the cheapest in a category', async () => {
    const [, reward] = await attempt('shop.cheapest-in-category.sports', async (page) => {
      await click(page, 'link', 'Sports');
      await page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' });
      await page.waitForURL(/sort=price-asc/);
      await page.locator('main article a').first().click();
      await click(page, 'button', 'Add to cart');
    });
    expect(reward).toBe(1);
  });

  it('shop: a price question is scored from the answer', async () => {
    expect((await attempt('shop.ask-price.103', async () => 'The Travel kettle costs $22.00.'))[1]).toBe(1);
    expect((await attempt('shop.ask-price.103', async () => 'It costs $34.50.'))[1]).toBe(0);
  });

  it('checkout: the cart\'s estimate box is not the shipping country; the checkout step is', async () => {
    const decoy = await attempt('checkout.shipping-country.japan', async (page) => {
      await page.getByLabel('Country').selectOption('Japan');
      await click(page, 'button', 'Estimate');
    });
    expect(decoy.slice(1)).toEqual([0, false]);
    const right = await attempt('checkout.shipping-country.japan', async (page) => {
      await click(page, 'button', 'Proceed to checkout');
      await page.getByLabel('Country').selectOption('Japan');
      await click(page, 'button', 'Continue to payment');
    });
    expect(right.slice(1)).toEqual([1, true]);
  });

  it('checkout: placing an order needs the terms checkbox', async () => {
    const [, reward, done] = await attempt('checkout.pay-with.paypal', async (page) => {
      await click(page, 'button', 'Proceed to checkout');
      await click(page, 'button', 'Continue to payment');
      await page.getByLabel('PayPal').check();
      await click(page, 'button', 'Continue to review');
      await click(page, 'button', 'Place order');
      expect(await page.getByRole('alert').textContent()).toBe('Please accept the terms and conditions to place your order.');
      await page.getByLabel('I agree to the terms and conditions').check();
      await click(page, 'button', 'Place order');
      await page.waitForURL(/\/order\/5001$/);
    });
    expect([reward, done]).toEqual([1, true]);
  });

  it('forum: commenting on the named post', async () => {
    const [, reward] = await attempt('forum.comment.7', async (page) => {
      await click(page, 'link', 'How do I reset my router?');
      await page.getByLabel('Your comment').fill('Hold the reset button for 30 seconds.');
      await click(page, 'button', 'Post comment');
    });
    expect(reward).toBe(1);
  });

  it('forum: the top post depends on the seed', async () => {
    const [, reward] = await attempt('forum.upvote-top-post', async (page) => {
      await page.getByLabel('Sort by').selectOption('Top');
      await page.waitForURL(/sort=top/);
      await page.locator('main article button[aria-label^="Upvote"]').first().click();
    });
    expect(reward).toBe(1);
  });

  it('admin: group change behind a search; the seed picks the order to cancel', async () => {
    const [, reward] = await attempt('admin.customer-group.5', async (page) => {
      await click(page, 'link', 'Customers');
      await page.getByRole('searchbox', { name: 'Search customers' }).fill('Hannah Becker');
      await click(page, 'button', 'Search');
      await click(page, 'link', 'Edit');
      await page.getByLabel('Customer group').selectOption('Retailer');
      await click(page, 'button', 'Save customer');
    });
    expect(reward).toBe(1);
    const [instruction, cancelled] = await attempt('admin.cancel-order', async (page, text) => {
      const id = /#(\d+)/.exec(text)![1]!;
      await page.goto(`${new URL(page.url()).origin}/order/view/${id}`);
      await click(page, 'button', 'Cancel order');
      await click(page, 'button', 'Yes, cancel the order');
    });
    expect(instruction).toMatch(/^Cancel order #10\d\d\.$/);
    expect(cancelled).toBe(1);
  });

  it('settings: "Unsubscribe from all" is wrong; unticking the newsletter and saving is right', async () => {
    const decoy = await attempt('settings.newsletter-off', async (page) => {
      await click(page, 'link', 'Account settings');
      await click(page, 'link', 'Notifications');
      await click(page, 'button', 'Unsubscribe from all');
    });
    expect(decoy.slice(1)).toEqual([0, true]);
    const unsaved = await attempt('settings.newsletter-off', async (page) => {
      await page.goto(`${new URL(page.url()).origin}/settings/notifications`);
      await page.getByLabel('Weekly newsletter').uncheck();
    });
    expect(unsaved.slice(1)).toEqual([0, false]);
    const right = await attempt('settings.newsletter-off', async (page) => {
      await page.goto(`${new URL(page.url()).origin}/settings/notifications`);
      await page.getByLabel('Weekly newsletter').uncheck();
      await click(page, 'button', 'Save preferences');
      await page.waitForLoadState('load');
    });
    expect(right.slice(1)).toEqual([1, true]);
  });
});
