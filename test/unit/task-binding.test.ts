// Issue 10, cross-instance carry: another task's particulars are not evidence
// for this one (src/core/memory/task-binding.ts). Tasks and names below are
// made up for the test, not taken from the benchmark sites.
import { describe, expect, it } from 'vitest';
import { actionArgumentTokens, boundToOtherTask } from '../../src/core/page/task-binding.ts';
import { tokenize } from '../../src/core/page/tokenize.ts';
import { rankNeighbours } from '../../src/learners/jitrl/core/retrieve-neighbours.ts';
import { skillSection } from '../../src/learners/cer/core/retrieve.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { transition } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

const bound = (action: string, source: string, current: string) => boundToOtherTask(action, tokenize(source), tokenize(current));

describe('task binding', () => {
  it('reads the quoted arguments of an action, escapes included', () => {
    expect(actionArgumentTokens('fill(<textbox "Note">, "say \\"hi\\" twice")')).toEqual(['note', 'say', 'hi', 'twice']);
    expect(actionArgumentTokens('go_back()')).toEqual([]);
  });

  it('an action naming the other task\'s particulars is bound to it', () => {
    // 2 words only the old task has (lena, park), 0 of the new one.
    expect(bound('click(<link "Lena Park">)', 'Move Lena Park to the gold tier', 'Move Tom Ito to the silver tier')).toBe(true);
    // The old task's goal word (archive) vs the new one's (pin): 1 old, 0 new.
    expect(bound('click(<button "Archive">)', 'Archive the note "Groceries"', 'Pin the note "Groceries"')).toBe(true);
  });

  it('an action in the other task\'s row or card is bound to it, whatever words its button shares', () => {
    // "Add to cart" shares add/cart with the new task (2 current words against 1 old), but the card is the teapot's.
    expect(bound('click(<button "Add to cart" in item "Teapot">)', 'Add a teapot to the cart', 'Add a mug to the cart')).toBe(true);
    expect(bound('click(<button "Add to cart" in item "Mug">)', 'Add a teapot to the cart', 'Add a mug to the cart')).toBe(false);
    expect(bound('click(<button "Remove" in row "Alan Turing" in dialog "Members">)', 'Remove Alan Turing', 'Remove Grace Hopper')).toBe(true);
  });

  it('words both tasks share keep an action transferable, and so does a reworded task', () => {
    expect(bound('click(<button "Add to basket">)', 'Add the green kettle to the basket', 'Add the steel pan to the basket')).toBe(false);
    // 1 old word (add), 2 current ones (red, shirt).
    expect(bound('click(<button "Add red shirt">)', 'add the red shirt to the cart', 'put a red shirt in the cart')).toBe(false);
    // The same task: nothing is only the old task's.
    expect(bound('click(<link "Lena Park">)', 'Move Lena Park to the gold tier', 'Move Lena Park to the gold tier')).toBe(false);
  });

  it('an answer is bound to the task it answered, even when it repeats none of its words', () => {
    expect(bound('send_msg_to_user("$14.50")', 'What does the green kettle cost?', 'What does the steel pan cost?')).toBe(true);
    expect(bound('report_infeasible("No such order")', 'Show order 12', 'Show order 15')).toBe(true);
    // The same task's answer stays (nothing is only the old task's).
    expect(bound('send_msg_to_user("$14.50")', 'What does the green kettle cost?', 'What does the green kettle cost?')).toBe(false);
  });

  it('JitRL does not retrieve another task\'s bound actions, and keeps its shared ones', () => {
    const old = 'Move Lena Park to the gold tier';
    const rows = [
      transition({ id: 'a:0', task: old, regUrl: '/members', action: 'click(<link "Lena Park">)' }),
      transition({ id: 'a:1', task: old, regUrl: '/members', action: 'click(<button "Change tier">)' }),
    ];
    const query = { origin: 'https://shop.test', regUrl: '/members', stateTokens: [], taskTokens: tokenize('Move Tom Ito to the gold tier'), stepIndex: 0 };
    expect(rankNeighbours(rows, query, { ...DEFAULT_JITRL, threshold: 0.5, thresholdFloor: 0.5 }).map((n) => n.transition.id)).toEqual(['a:1']);
  });

  it('CER suggests a skill\'s example actions only where they are not bound to the skill\'s own task', () => {
    const section = skillSection({
      id: 's1', origin: 'https://shop.test', kind: 'skill', name: 'Move Lena Park to the gold tier', variables: [],
      steps: [{ text: 'Open the member', exampleActions: ['click(<link "Lena Park">)'] }, { text: 'Change the tier', exampleActions: ['click(<button "Change tier">)'] }],
      provenance: { episodeIds: ['e'], createdAt: 0, updatedAt: 0, uses: 0, successes: 0 },
    } as never, 'Move Tom Ito to the gold tier');
    expect(section.suggestedActions).toEqual(['click(<button "Change tier">)']);
    expect(section.text).toContain('click(<link "Lena Park">)');
  });
});
