import { describe, expect, it } from 'vitest';
import { buildCandidateMessages, candidateOutputSchema } from '../../src/core/policy/candidate-prompt.ts';
import { parseCandidateOutput } from '../../src/core/policy/parse-candidate-output.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';

const obs: PageObservation = {
  url: 'http://site.test/a',
  title: 'A',
  nodes: [
    { ref: '1', kind: 'interactive', role: 'button', name: 'Save', states: {}, depth: 0, inViewport: true },
    { ref: '2', kind: 'interactive', role: 'link', name: 'Next page', states: {}, depth: 0, inViewport: true },
  ],
  focusedRef: null,
  offscreen: { above: 0, below: 0 },
  omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 },
  tookMs: 1,
};

describe('candidate prompt', () => {
  it('shows the schema derived from zod, the grammar, history with outcomes and replayed sections by id', () => {
    const [system, user] = buildCandidateMessages({
      task: 'Save the form',
      observation: obs,
      renderedObservation: 'Page: A (http://site.test/a)\n[1] button "Save"',
      history: [{ action: 'click(<link "Next page">)', outcome: 'element_gone: gone', url: 'http://site.test/a' }],
      sections: [{ id: 'dyn:4', title: 'How this form behaves', text: 'Saving shows a banner.' }],
      numCandidates: 4,
      temperature: 0.8,
    });
    const schemaText = /following this JSON Schema: (\{.*\})\n/.exec(system!.content)?.[1];
    const schema = JSON.parse(schemaText!) as { required: string[]; properties: { candidates: { minItems: number; maxItems: number } } };
    expect(schema.required).toEqual(['candidates']);
    expect(schema.properties.candidates.maxItems).toBe(4);
    for (const form of ['click([ref])', 'fill([ref], "text")', 'select_option([ref], "label")', 'press("Enter")', 'scroll(dx, dy)', 'goto("https://…")', 'go_back()', 'send_msg_to_user("text")', 'report_infeasible("reason")', 'check([ref])', 'hover([ref])']) {
      expect(system!.content).toContain(form);
    }
    expect(user!.content).toContain('Task: Save the form');
    expect(user!.content).toContain('1. click(<link "Next page">) → element_gone: gone (on http://site.test/a)');
    expect(user!.content).toContain('| ### [dyn:4] How this form behaves\n| Saving shows a banner.');
    expect(user!.content).toContain('Propose exactly 4 different next actions');
    // The marks the observation puts on names made of hidden text are explained once.
    expect(system!.content).toContain('"(name not visible on the page)" or "(visible text …)" holds text the person cannot see');
  });

  it('keeps the first n options, resolves semantic targets, drops unknown refs and duplicates', () => {
    const raw = JSON.stringify({
      candidates: [
        { option: 1, action: 'click(<button "Save">)', confidence: 50, why: 'a' },
        { option: 2, action: 'click([1])', confidence: 30, why: 'same' },
        { option: 3, action: 'click([7])', confidence: 20, why: 'gone' },
        { option: 4, action: 'click([2])', confidence: 10, why: 'cut' },
      ],
      best: 1,
    });
    const out = parseCandidateOutput(raw, obs, 3);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.candidates.map((c) => [c.option, c.action])).toEqual([[1, { type: 'click', target: { kind: 'ref', ref: '1' } }]]);
    expect(out.notes).toEqual([
      'The model gave 4 options; the first 3 were kept.',
      'Option 2 dropped: it repeats click([1]).',
      'Option 3 dropped: ref [7] is not on the current page.',
    ]);
    expect(candidateOutputSchema(3).safeParse({ candidates: [] }).success).toBe(false);
  });
});
