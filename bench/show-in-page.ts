/**
 * Show me, done by a scripted person: the teacher's step is carried out in the
 * page with Playwright (a real click, real typing), and reported as the
 * recorder would report it — the action in semantic form (role and name from
 * the agent's own snapshot just before), the page's URL and title, and
 * whether the page then moved on.
 */
import type { Page } from 'playwright-core';
import { formatAction } from '../src/core/page/action-grammar.ts';
import type { Action } from '../src/core/page/action.ts';
import { samePage } from '../src/core/page/same-page.ts';
import { toSemanticAction } from '../src/core/page/semantic-action.ts';
import type { PageDriver } from '../src/core/ports.ts';
import type { ShowInPage } from './teach.ts';

export function showInPage(page: Page, driver: PageDriver, observationChars: number): ShowInPage {
  return async (step, action: Action) => {
    const before = await driver.observe({ maxChars: observationChars, lastActedRef: null });
    const semantic = formatAction(toSemanticAction(action, before));
    const url = page.url();
    const title = await page.title();
    const target = step.selector === undefined ? null : page.locator(step.selector).nth(step.nth ?? 0);
    switch (step.do) {
      case 'click': await target!.click(); break;
      case 'check': await target!.check(); break;
      case 'uncheck': await target!.uncheck(); break;
      case 'hover': await target!.hover(); break;
      case 'fill': await target!.fill(step.text); break;
      case 'select': await target!.selectOption({ label: step.option }); break;
      case 'press': await (target ? target.press(step.key) : page.keyboard.press(step.key)); break;
    }
    await page.waitForLoadState('load').catch(() => undefined);
    return { action: semantic, url, title, navigated: !samePage(page.url(), url) };
  };
}
