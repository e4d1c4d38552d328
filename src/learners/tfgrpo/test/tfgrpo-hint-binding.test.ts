/**
 * Issue 23, learning finding 1: a Training-Free GRPO rule hint is bound to
 * the task template it was learned on. A contrast learned on "add X to my
 * cart" must not push "Add to cart" (+2.5 nats, OFFLINE_WEIGHTS.suggested) on
 * "save X to my wish list" on the same page type.
 */
import { describe, expect, it } from 'vitest';
import { splitGroup } from '../core/group.ts';
import { consolidate } from '../core/consolidate.ts';
import { applyOperations } from '../core/library.ts';
import { deriveRules } from '../core/offline-rules.ts';
import { experienceSections, hintAppliesTo } from '../core/prompt-experiences.ts';
import type { GroupRef } from '../core/experience.ts';
import { attempt, experience, step } from './tfgrpo-helpers.ts';

// A garden-supplies shop written for this test: two buttons on a plant's page.
const CART_TASK = 'Put the "fern" in my basket';
const win = attempt('w', 'success', [step('/plant/ID', 'click(<button "Put in basket">)', { title: 'Fern' })], CART_TASK);
const lose = attempt('l', 'failure', [step('/plant/ID', 'click(<button "Remember for later">)', { title: 'Fern' })], CART_TASK);
const GROUP: GroupRef = { id: 'g-fern', task: CART_TASK, episodeIds: ['w', 'l'], at: 5 };

function learnedLibrary() {
  const ops = deriveRules(splitGroup([win, lose]), GROUP).operations;
  expect(ops).toHaveLength(1);
  const op = ops[0]!;
  if (op.op !== 'ADD') throw new Error('expected an ADD');
  return [experience('x-1', op.text, { createdBy: GROUP }, { hint: op.hint ?? null, source: 'rule' })];
}

describe('rule hints are bound to their template (finding 1)', () => {
  it('the learned hint carries its template', () => {
    expect(learnedLibrary()[0]!.hint).toEqual({
      pageType: '/plant/ID', taskPattern: 'Put the "fern" in my basket',
      prefer: ['click(<button "Put in basket">)'], avoid: ['click(<button "Remember for later">)'],
    });
  });

  it('suggests its actions on another instance of the template', () => {
    const [section] = experienceSections(learnedLibrary(), 'Put the "cactus" in my basket', '/plant/ID');
    expect(section!.suggestedActions).toEqual(['click(<button "Put in basket">)']);
    expect(section!.discouragedActions).toEqual(['click(<button "Remember for later">)']);
  });

  it('suggests and discourages nothing on another task on the same page type (the prose stays for a model)', () => {
    const [section] = experienceSections(learnedLibrary(), 'Keep the "cactus" for later', '/plant/ID');
    expect(section).toEqual({ id: 'x-1', title: 'Experience 1', text: learnedLibrary()[0]!.text });
  });

  it('an abstract pattern binds too: a task that reads as it, learned under another wording', () => {
    const hint = { pageType: '/p', taskPattern: 'Water the {plant} today', prefer: ['click(<button "Water">)'], avoid: [] };
    const e = experience('x-2', 'Water.', { createdBy: { ...GROUP, task: 'Please water the "fern" today' } }, { hint });
    expect(hintAppliesTo(e, 'Water the cactus today')).toBe(true);
    expect(hintAppliesTo(e, 'please water the "orchid" today')).toBe(true);
    expect(hintAppliesTo(e, 'Repot the cactus today')).toBe(false);
  });

  it("another template's opposite contrast, learned later, does not merge its actions into this template's hint", () => {
    // "Keep the X for later" wins with the button the basket task avoids: the same words in the
    // other order, so its rule text is a near-duplicate of the stored one.
    const KEEP_TASK = 'Keep the "fern" for later';
    const keepWin = attempt('w2', 'success', [step('/plant/ID', 'click(<button "Remember for later">)', { title: 'Fern' })], KEEP_TASK);
    const keepLose = attempt('l2', 'failure', [step('/plant/ID', 'click(<button "Put in basket">)', { title: 'Fern' })], KEEP_TASK);
    const KEEP_GROUP: GroupRef = { id: 'g-keep', task: KEEP_TASK, episodeIds: ['w2', 'l2'], at: 6 };
    const library = learnedLibrary();
    const batch = consolidate(library, deriveRules(splitGroup([keepWin, keepLose]), KEEP_GROUP).operations);
    const next = applyOperations('https://garden.test', library, batch.operations, { maxSize: 50, maxDeleteFraction: 0.5 }, { group: KEEP_GROUP, now: 6, source: 'rule' }).library;
    const actions = (task: string) => {
      const sections = experienceSections(next, task, '/plant/ID');
      return { prefer: sections.flatMap((x) => x.suggestedActions ?? []), avoid: sections.flatMap((x) => x.discouragedActions ?? []) };
    };
    expect(actions('Put the "cactus" in my basket')).toEqual({ prefer: ['click(<button "Put in basket">)'], avoid: ['click(<button "Remember for later">)'] });
    expect(actions('Keep the "cactus" for later')).toEqual({ prefer: ['click(<button "Remember for later">)'], avoid: ['click(<button "Put in basket">)'] });
    // Both groups in one batch: two ADDs, each with its own group and hint, not one merged ADD.
    const cartOps = deriveRules(splitGroup([win, lose]), GROUP).operations;
    const keepOps = deriveRules(splitGroup([keepWin, keepLose]), KEEP_GROUP).operations;
    expect(consolidate([], [...cartOps, ...keepOps]).operations).toEqual([...cartOps, ...keepOps]);
  });
});

