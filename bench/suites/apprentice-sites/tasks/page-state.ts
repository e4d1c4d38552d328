/**
 * Reading a site's state for rewards: localStorage of the site's origin (from
 * the browser context, so it works whatever page the agent ended on) and the
 * agent's final message, which the runner stores on the page.
 */
import type { Page } from 'playwright-core';
import { ANSWER_GLOBAL } from '../../../suite.ts';

/** All localStorage entries of one origin in the page's browser context. */
export async function originStorage(page: Page, origin: string): Promise<Map<string, string>> {
  const state = await page.context().storageState();
  const entry = state.origins.find((o) => o.origin === origin);
  return new Map((entry?.localStorage ?? []).map((item) => [item.name, item.value]));
}

/** A JSON value the site stored under `key` (e.g. "shop.cart"), or the fallback. */
export async function readJson<T>(page: Page, origin: string, key: string, fallback: T): Promise<T> {
  const raw = (await originStorage(page, origin)).get(key);
  if (raw === undefined) return fallback;
  return JSON.parse(raw) as T;
}

/** Writes JSON values into the site's localStorage (the page must be on that origin) and reloads. */
export async function seedSite(page: Page, origin: string, entries: Record<string, unknown>): Promise<void> {
  if (new URL(page.url()).origin !== origin) await page.goto(origin + '/');
  await page.evaluate((pairs) => {
    for (const [key, value] of pairs) localStorage.setItem(key, JSON.stringify(value));
  }, Object.entries(entries));
  await page.reload({ waitUntil: 'load' });
}

/** The agent's final message as the runner stored it, or null. */
export async function readAnswer(page: Page): Promise<string | null> {
  const value = await page.evaluate((name) => (globalThis as Record<string, unknown>)[name], ANSWER_GLOBAL);
  return typeof value === 'string' ? value : null;
}

/** Numbers written in a text ("$22.00" → 22, "3 comments" → 3), in order. */
export function numbersIn(text: string): number[] {
  return [...text.replaceAll(',', '').matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

/** Lower case, single spaces, no trailing punctuation: for comparing typed text. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!?]+$/, '');
}

export const allTrue = (...checks: boolean[]): number => (checks.every(Boolean) ? 1 : 0);
