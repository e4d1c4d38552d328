/**
 * A shown step keeps the page it was done on (issue 35 loose end): a
 * demonstration's or a take-over's step carries the page as it was just
 * before the person acted, and gets from it what a proposed step gets from
 * its observation — digest, page key, open marks, and the effective state
 * read against the page. Without it, a tag box emptied by Add left the steps
 * before and after Add one state, and a fill the page discarded stayed in the
 * state.
 */
import { describe, expect, it } from 'vitest';
import { appendStep } from '../../src/core/agent/recorded-step.ts';
import type { RecordedAction } from '../../src/core/agent/person-input.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { pageKeyOf } from '../../src/core/page/page-key.ts';
import { createBeforePage } from '../../src/content/record/before-page.ts';

const URL_ = 'http://notes.test/notes/1/edit';
const node = (ref: string | null, kind: SnapshotNode['kind'], role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind, role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
const page = (box: string, chips: string[], extra: SnapshotNode[] = []): PageObservation => ({
  url: URL_, title: 'Edit note', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [
    ...chips.map((c) => node(null, 'text', 'text', c)),
    node('1', 'interactive', 'textbox', 'Add a tag', { value: box }),
    node('2', 'interactive', 'button', 'Add'),
    node('3', 'interactive', 'button', 'Save'),
    ...extra,
  ],
});
const episode = (): Episode => ({
  id: 'd', origin: 'http://notes.test', task: 'Tag my note with crime', startUrl: URL_, tabId: 1, status: 'running', steps: [],
  answer: null, error: null, learners: [], attempt: 1, kind: 'demonstration', startedAt: 0, endedAt: null,
});
const shown = (action: string, before?: PageObservation): RecordedAction => ({ action, url: URL_, title: 'Edit note', ...(before ? { before } : {}) });

function record(steps: RecordedAction[]): Episode {
  let e = episode();
  steps.forEach((s, i) => { e = { ...e, steps: appendStep(e, s, i + 1) }; });
  return e;
}

const FILL = 'fill(<textbox "Add a tag">, "crime")';
const ADD = 'click(<button "Add">)';
const SAVE = 'click(<button "Save">)';

describe('a shown step read against the page it was done on', () => {
  it('a tag box emptied by Add, the tag now on the page: the step after Add is filed after Add, as an approved one is', () => {
    const e = record([shown(FILL, page('', [])), shown(ADD, page('crime', [])), shown(SAVE, page('', ['crime']))]);
    expect(e.steps.map((s) => s.effectiveState)).toEqual([[], [FILL], [FILL, ADD]]);
    // Without the page (the old record): before and after Add are one state.
    const blind = record([shown(FILL), shown(ADD), shown(SAVE)]);
    expect(blind.steps.map((s) => s.effectiveState)).toEqual([[], [FILL], [FILL]]);
  });

  it('a fill the page then discarded (emptied, shown nowhere) leaves the state', () => {
    const discard = node('4', 'interactive', 'button', 'Discard');
    const e = record([shown(FILL, page('', [], [discard])), shown('click(<button "Discard">)', page('crime', [], [discard])), shown(SAVE, page('', [], [discard]))]);
    expect(e.steps.map((s) => s.effectiveState)).toEqual([[], [FILL], []]);
  });

  it('keeps the digest, the page key and the open marks of the page before the action; without it, none', () => {
    const dialog = node(null, 'landmark', 'dialog', 'Tags');
    const before = page('crime', [], [dialog]);
    const [step] = record([shown(ADD, before)]).steps;
    expect(step!.pageKey).toBe(pageKeyOf(before));
    expect(step!.pageMarks).toEqual(['open <dialog "Tags">']);
    expect(step!.pageDigest).toContain('[1] textbox "Add a tag" value="crime"');
    expect(step!.pageDigest).toContain('[2] button "Add"');
    expect(record([shown(FILL, page('', []))]).steps[0]!.pageKey).not.toBe(step!.pageKey);
    const [bare] = record([shown(ADD)]).steps;
    expect([bare!.pageKey, bare!.pageDigest, bare!.pageMarks]).toEqual([undefined, undefined, undefined]);
  });
});

describe('the page layer reads the page before the action', () => {
  const field = { localName: 'input', getAttribute: (a: string) => (a === 'type' ? 'text' : null) } as unknown as Element;
  const button = { localName: 'button', getAttribute: () => null } as unknown as Element;

  it('on a pointer or key going down, not for each key typed into a field (Enter is an action); once per step', () => {
    let reads = 0;
    const before = createBeforePage(() => page(String(++reads), []));
    before.interaction(field, 'a');
    expect(reads).toBe(0);
    before.interaction(field, 'Enter');
    before.interaction(button);
    expect(reads).toBe(2);
    expect(before.take(button, false)?.nodes[0]?.value).toBe('2');
    expect(before.take(button, false)).toBeNull();
  });

  it('a fill takes the page read when its first edit began; another fill of the field reads afresh', () => {
    let reads = 0;
    const before = createBeforePage(() => page(String(++reads), []));
    before.edit(field);
    before.interaction(button);
    expect(before.take(field, true)?.nodes[0]?.value).toBe('1');
    expect(before.take(field, true)).toBeNull();
    before.edit(field);
    expect(before.take(field, true)?.nodes[0]?.value).toBe('3');
    // A click takes the interaction's read, not the field's.
    expect(before.take(button, false)?.nodes[0]?.value).toBe('2');
  });
});
