/**
 * Show me and Take over in the benchmark and the demo: the same core
 * TeachingSession as the extension, and the same recorder as the content
 * script (installed with the page agent in its isolated world). Playwright
 * plays the person: its clicks and typing are trusted input events, which the
 * recorder writes in semantic form and hands over through a CDP binding; the
 * steps are validated here (page data crossing a boundary) and recorded by
 * the session, through the controller's decision path.
 *
 *   const teach = await attachShowMe(page, () => session, TAB);
 *   const session = new TeachingSession({ ..., page: teach.page });
 *   await session.begin(episodeId, 'show');
 *   await page.click('text=Book a desk');
 *   await teach.idle();   // the step is the episode's now
 */
import type { Page } from 'playwright-core';
import * as z from 'zod';
import type { TeachingPage, TeachingSession } from '../src/core/agent/teaching-session.ts';
import { ContentRequests } from '../src/protocol/messages.ts';
import { attachIsolatedPageAgent } from './isolated-page-agent.ts';

const BINDING = '__apprenticeRecorded';
const ReportSchema = z.union([
  z.strictObject({ step: ContentRequests['demo.step'].req }),
  z.strictObject({ unrecordable: ContentRequests['demo.unrecordable'].req.shape.what }),
]);

export interface PlaywrightShowMe {
  /** The TeachingPage to build the session with. */
  page: TeachingPage;
  /** Resolves when every step reported so far has been recorded (or refused) by the session. */
  idle(): Promise<void>;
  /** Reports that did not validate, for the caller to show. */
  readonly malformed: string[];
  detach(): Promise<void>;
}

/**
 * Attaches the recorder to a Playwright page standing for tab `tabId`.
 * `session` is read late, so the session can be built with `page` first.
 */
export async function attachShowMe(page: Page, session: () => Pick<TeachingSession, 'record' | 'unrecordable' | 'tabLoaded'>, tabId: number): Promise<PlaywrightShowMe> {
  const agent = await attachIsolatedPageAgent(page);
  const malformed: string[] = [];
  let work: Promise<unknown> = Promise.resolve();
  const enqueue = (fn: () => Promise<unknown>) => {
    work = work.then(fn).catch((err: unknown) => malformed.push(String(err)));
  };
  await agent.bind(BINDING, (payload) => {
    let parsed: z.infer<typeof ReportSchema>;
    try {
      parsed = ReportSchema.parse(JSON.parse(payload));
    } catch (err) {
      malformed.push(String(err));
      return;
    }
    if ('step' in parsed) enqueue(() => session().record(tabId, parsed.step));
    else enqueue(() => session().unrecordable(tabId, parsed.unrecordable));
  });
  // A page load: Show me ends unless its own step caused it; Take over re-arms the recorder.
  // Read on the bindings' own CDP session, so a step and the load it caused arrive in order.
  let attached = true;
  agent.onLoad(() => {
    if (attached) enqueue(() => session().tabLoaded(tabId, page.url()));
  });

  const teachingPage: TeachingPage = {
    async setRecording(_tabId, on) {
      await agent.evaluate((recording: boolean) => {
        const recorder = globalThis.__apprenticeRecorder;
        if (!recorder) throw new Error('the page agent has no recorder');
        if (recording) recorder.start();
        else return recorder.stop();
        return undefined;
      }, on);
    },
    async settle() {
      await new Promise((r) => setTimeout(r, 300));
      await page.waitForLoadState('load', { timeout: 10_000 }).catch(() => undefined);
      return page.isClosed() ? null : page.url();
    },
  };
  return {
    page: teachingPage,
    malformed,
    async idle() {
      // A step sent just now may still be on its way from the page.
      await new Promise((r) => setTimeout(r, 100));
      for (let seen: Promise<unknown> | null = null; seen !== work;) {
        seen = work;
        await work;
      }
    },
    async detach() {
      attached = false;
      await agent.detach();
    },
  };
}
