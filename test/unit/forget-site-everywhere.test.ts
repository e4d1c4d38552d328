/**
 * "Forget this site" forgets every decision, approval and step on the origin,
 * whichever task it belongs to (issue 30): an approval earned in a task that
 * started on another site no longer lets anything run unasked, and the
 * answer says how many of each went.
 */
import { describe, expect, it } from 'vitest';
import { personDecisionsOf } from '../../src/core/autonomy/approval-history.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { recordedStepRecord, type Decision, type Episode } from '../../src/core/episode/episode.ts';
import { forgetSite } from '../../src/core/learning/memory-transfer.ts';

const step = (index: number, url: string, semantic: string, decision: Decision) =>
  recordedStepRecord({ index, url, regUrl: new URL(url).pathname, semantic, decision, result: { ok: true, navigated: false }, startedAt: index });
const episode = (id: string, origin: string, steps: Episode['steps']): Episode => ({
  id, origin, task: 't', startUrl: `${origin}/`, tabId: null, status: 'success', steps, answer: null, error: null, learners: [], attempt: 1, kind: 'live', startedAt: 0, endedAt: 1,
});

describe('forgetSite', () => {
  it('removes the origin\'s steps from tasks that started elsewhere, the tasks that started there, and counts each', async () => {
    const episodes = new InMemoryEpisodeStore();
    await episodes.put(episode('started-there', 'https://a.test', [
      step(0, 'https://a.test/inbox', 'click(<button "Delete">)', 'approved'),
      step(1, 'https://b.test/home', 'click(<link "Home">)', 'approved'),
    ]));
    await episodes.put(episode('passed-through', 'https://b.test', [
      step(0, 'https://b.test/home', 'click(<link "Mail">)', 'approved'),
      step(1, 'https://a.test/inbox', 'click(<button "Delete">)', 'approved'),
      step(2, 'https://a.test/inbox', 'click(<button "Archive">)', 'rejected'),
      step(3, 'https://a.test/inbox', 'scroll(down)', 'auto'),
    ]));
    await episodes.put(episode('elsewhere', 'https://c.test', [step(0, 'https://c.test/', 'click(<link "Go">)', 'approved')]));

    const result = await forgetSite({ episodes, learnerMemories: [] }, 'https://a.test');

    expect(result).toEqual({ deleted: 0, episodes: 1, steps: 5, decisions: 4, approvals: 3 });
    const left = await episodes.all();
    expect(left.map((e) => [e.id, e.steps.map((s) => s.url)]).sort()).toEqual([
      ['elsewhere', ['https://c.test/']],
      ['passed-through', ['https://b.test/home']],
    ]);
    expect(personDecisionsOf(left).filter((d) => d.origin === 'https://a.test')).toEqual([]);
  });

  it('an origin given with a path or trailing slash is the same site', async () => {
    const episodes = new InMemoryEpisodeStore();
    await episodes.put(episode('passed-through', 'https://b.test', [step(0, 'https://a.test/x', 'click(<button "Delete">)', 'approved')]));
    expect(await forgetSite({ episodes, learnerMemories: [] }, 'https://a.test/')).toMatchObject({ steps: 1, approvals: 1 });
  });
});
