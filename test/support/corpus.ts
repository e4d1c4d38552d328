/**
 * The control-pattern corpus (test/fixtures/sites/corpus): each page carries
 * its ground truth — `data-gt` on every element a person can use in the
 * page's first state — and a scripted solution in semantic form
 * (`<script type="application/json" id="corpus-solution">`). Shared by the
 * CI ceiling test and `npm run bench:observe`.
 *
 * The solution runs through the agent's own path: observe → parse the
 * semantic action → resolve it on the observation (core/page) → act on the
 * ref. Nothing here looks at the page except through `__apprentice`, and the
 * goal is read from the page's own record (`data-corpus-done`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import type { Page } from 'playwright-core';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';

export const SITES_DIR = resolve(import.meta.dirname, '../fixtures/sites');
export const CORPUS_DIR = join(SITES_DIR, 'corpus');

const SolutionSchema = z.strictObject({
  pattern: z.string(),
  steps: z.array(z.string()).min(1),
  goal: z.string(),
  unsupported: z.string().optional(),
});
export type CorpusSolution = z.infer<typeof SolutionSchema>;
export interface CorpusPage { file: string; solution: CorpusSolution }

export function listCorpus(): CorpusPage[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.html') && f !== 'frame-pay.html')
    .sort()
    .map((file) => {
      const html = readFileSync(join(CORPUS_DIR, file), 'utf8');
      const m = /<script type="application\/json" id="corpus-solution">([\s\S]*?)<\/script>/.exec(html);
      if (m === null) throw new Error(`${file}: no corpus-solution script`);
      return { file, solution: SolutionSchema.parse(JSON.parse(m[1]!)) };
    });
}

/** Which way a page's agent is reached: the injected bundle or anything else that observes and acts. */
export interface AgentHandle {
  observe(): Promise<PageObservation>;
  act(action: Action): Promise<ActionResult>;
  /** The page's recorded goal, or null. */
  goal(): Promise<string | null>;
}

export function injectedAgent(page: Page): AgentHandle {
  return {
    observe: () => page.evaluate(() => globalThis.__apprentice!.observe({})),
    // The document unloading before act() returned means the action navigated, as the benchmark's
    // page driver reads it (bench/playwright-page-driver.ts): a click that submits can win that race.
    act: async (action) => {
      try {
        return await page.evaluate((a) => globalThis.__apprentice!.act(a), action);
      } catch (err) {
        if (!/Execution context was destroyed|navigat/i.test(String(err)) || page.isClosed()) throw err;
        await page.waitForLoadState('load').catch(() => undefined);
        return { ok: true, navigated: true, note: 'the page navigated' };
      }
    },
    goal: () => page.evaluate(() => document.documentElement.dataset['corpusDone'] ?? null),
  };
}

export interface StepTrace { step: string; ok: boolean; detail: string }

/** Runs a semantic solution through observe → resolve → act; the first failing step ends it. */
export async function runSolution(agent: AgentHandle, steps: readonly string[], settle: () => Promise<void>): Promise<StepTrace[]> {
  const trace: StepTrace[] = [];
  for (const step of steps) {
    const parsed = parseAction(step);
    if (!parsed.ok) {
      trace.push({ step, ok: false, detail: `does not parse: ${parsed.error.message}` });
      return trace;
    }
    const observation = await agent.observe();
    const resolved = resolveSemanticAction(parsed.action, observation);
    if (!resolved.ok) {
      const lines = observation.nodes.filter((n) => n.ref !== null).map((n) => `${n.role} "${n.name}"`).join('; ');
      trace.push({ step, ok: false, detail: `${resolved.code}: ${resolved.message} (refs: ${lines})` });
      return trace;
    }
    const result = await agent.act(resolved.action);
    trace.push({ step, ok: result.ok, detail: result.ok ? (result.note ?? `${resolved.match} match`) : `${result.code}: ${result.message}` });
    if (!result.ok) return trace;
    await settle();
  }
  return trace;
}

export interface MarkCoverage {
  /** Visible ground-truth elements, and those a ref reaches. */
  marks: number;
  covered: number;
  /** Refs emitted, and those that stand for a ground-truth element. */
  refs: number;
  useful: number;
  missed: string[];
  extra: string[];
}

/** Marks Chromium's own clickable elements (see markChromiumClickables) carry. */
export const CHROMIUM_CLICKABLE_MARK = 'data-cdp-clickable';

/**
 * Recall and precision of our refs against the page's `data-gt` marks (or
 * another mark attribute, such as Chromium's clickables), in the
 * page, through open shadow roots and same-origin frames. A mark is covered
 * when a ref is on it, inside it, or on the one control holding it (nested
 * duplicates collapse by design); a ref is useful when it is on, inside or
 * around a mark.
 */
export async function markCoverage(page: Page, markAttribute = 'data-gt'): Promise<MarkCoverage> {
  // tsx (the benchmark's runner) wraps named inner functions in a `__name` helper that the page lacks.
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate((attr) => {
    const probe = globalThis.__apprenticeProbe!;
    const obs = probe.observe({});
    const refEls: Element[] = [];
    for (const n of obs.nodes) {
      if (n.kind !== 'interactive' || n.ref === null) continue;
      const el = probe.elementFor(n.ref);
      if (el !== null) refEls.push(el);
    }
    const all: Element[] = [];
    const collect = (root: Document | ShadowRoot): void => {
      for (const el of root.querySelectorAll('*')) {
        all.push(el);
        if (el.shadowRoot) collect(el.shadowRoot);
        if (el.localName === 'iframe') {
          try {
            const d = (el as HTMLIFrameElement).contentDocument;
            if (d) collect(d);
          } catch {
            // cross-origin: not readable, not counted
          }
        }
      }
    };
    collect(document);
    const visible = (el: Element): boolean => {
      let area = 0;
      for (const r of el.getClientRects()) area += r.width * r.height;
      return area > 0 && el.checkVisibility({ visibilityProperty: true });
    };
    const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as Partial<ShadowRoot>).host ?? null);
    const within = (outer: Element, inner: Element): boolean => {
      for (let c: Element | null = inner; c; c = parentOf(c)) if (c === outer) return true;
      return false;
    };
    const marks = all.filter((el) => el.hasAttribute(attr) && visible(el));
    const say = (el: Element): string => `${el.localName}${el.id ? `#${el.id}` : ''} "${(el.getAttribute('aria-label') ?? el.getAttribute('title') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
    const missed: string[] = [];
    let covered = 0;
    for (const m of marks) {
      const hit = refEls.some((r) => r === m || within(m, r) || (within(r, m) && !marks.some((o) => o !== m && within(r, o) && !within(o, m))));
      if (hit) covered++;
      else missed.push(say(m));
    }
    const extra: string[] = [];
    let useful = 0;
    for (const r of refEls) {
      // Around several marks, a ref is a region, not a control.
      if (marks.some((m) => m === r || within(m, r)) || marks.filter((m) => within(r, m)).length === 1) useful++;
      else extra.push(say(r));
    }
    return { marks: marks.length, covered, refs: refEls.length, useful, missed, extra };
  }, markAttribute);
}

interface SnapshotDocument {
  nodes: { parentIndex?: number[]; backendNodeId?: number[]; isClickable?: { index: number[] } };
  layout: { nodeIndex: number[]; bounds: number[][] };
}

/**
 * Chromium's own view of what is clickable (DOMSnapshot `isClickable`: click
 * listeners from script and elements that act on a click natively), kept
 * when visible with a non-zero box and outermost (no clickable ancestor), and
 * marked on the elements with CHROMIUM_CLICKABLE_MARK. Returns how many.
 */
export async function markChromiumClickables(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.getDocument', { depth: 0 });
    const snap = (await cdp.send('DOMSnapshot.captureSnapshot', { computedStyles: [], includeDOMRects: true })) as unknown as { documents: SnapshotDocument[] };
    let marked = 0;
    for (const doc of snap.documents) {
      const sized = new Set<number>();
      doc.layout.nodeIndex.forEach((nodeIndex, i) => {
        const b = doc.layout.bounds[i];
        if (b !== undefined && (b[2] ?? 0) > 0 && (b[3] ?? 0) > 0) sized.add(nodeIndex);
      });
      const clickable = new Set((doc.nodes.isClickable?.index ?? []).filter((i) => sized.has(i)));
      const parent = doc.nodes.parentIndex ?? [];
      for (const idx of clickable) {
        let outermost = true;
        for (let p = parent[idx] ?? -1; p >= 0; p = parent[p] ?? -1) if (clickable.has(p)) { outermost = false; break; }
        if (!outermost) continue;
        const backendNodeId = doc.nodes.backendNodeId?.[idx];
        if (backendNodeId === undefined) continue;
        try {
          const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
          if (object.objectId === undefined) continue;
          await cdp.send('Runtime.callFunctionOn', {
            objectId: object.objectId,
            functionDeclaration: `function (name) { if (this.nodeType === 1 && this.localName !== 'html' && this.localName !== 'body') this.setAttribute(name, ''); }`,
            arguments: [{ value: CHROMIUM_CLICKABLE_MARK }],
          });
          marked++;
        } catch {
          // a node in a frame this session cannot reach
        }
      }
    }
    return marked;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
