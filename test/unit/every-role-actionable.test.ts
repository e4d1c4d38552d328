/**
 * Issue 22 item 1: every role the snapshot can give a ref to has a policy path.
 * For each emitted role, a page holding one element of that role (among
 * unrelated text) and a task that names it: the offline policy proposes an
 * action on that element, and the model path lists it with its ref in the
 * prompt and accepts an answer acting on it. A role added to the snapshot
 * without a policy path fails here.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { INTERACTIVE_ROLES } from '../../src/core/page/snapshot-roles.ts';
import { createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import { ACTION_GRAMMAR_DOC } from '../../src/core/policy/candidate-prompt.ts';
import { parseCandidateOutput } from '../../src/core/policy/parse-candidate-output.ts';

const TARGET_REF = '7';

/** How a person would ask for each kind of element; the name is the element's. */
function taskFor(role: string, name: string): string {
  if (['textbox', 'searchbox', 'spinbutton', 'slider'].includes(role)) return `Set ${name} to 42`;
  if (role === 'combobox' || role === 'listbox') return `Choose Medium for ${name}`;
  if (['checkbox', 'switch', 'menuitemcheckbox'].includes(role)) return `Turn on ${name}`;
  return `Open ${name}`;
}

function pageWith(role: string, name: string): PageObservation {
  const target: SnapshotNode = {
    ref: TARGET_REF, kind: 'interactive', role, name, states: {}, depth: 1, inViewport: true,
    ...(role === 'combobox' || role === 'listbox' ? { options: ['Small', 'Medium', 'Large'], value: 'Small' } : {}),
  };
  return {
    url: 'http://127.0.0.1:9/app',
    title: 'App',
    nodes: [
      { ref: null, kind: 'heading', role: 'heading', name: 'Workspace', states: {}, depth: 0, level: 1, inViewport: true },
      { ref: null, kind: 'text', role: 'text', name: 'Nothing else to see here.', states: {}, depth: 1, inViewport: true },
      target,
    ],
    focusedRef: null,
    offscreen: { above: 0, below: 0 },
    omissions: [],
    scroll: { y: 0, maxY: 0, viewportHeight: 800 },
    tookMs: 1,
  };
}

const targetsRef = (a: Action): boolean => 'target' in a && a.target?.kind === 'ref' && a.target.ref === TARGET_REF;

// Names a person could give a control: one to three capitalised words.
const word = fc.constantFrom('Billing', 'Quarterly', 'Report', 'Archive', 'Notes', 'Theme', 'Volume', 'Export', 'Team', 'Ledger', 'Profile', 'Alerts');
const names = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => [...new Set(ws)].join(' '));

describe('every role the snapshot emits can be acted on', () => {
  for (const role of INTERACTIVE_ROLES) {
    it(`offline policy: proposes an action on a ${role}`, async () => {
      const policy = createOfflinePolicy();
      await fc.assert(
        fc.asyncProperty(names, async (name) => {
          const obs = pageWith(role, name);
          const out = await policy.propose({ task: taskFor(role, name), observation: obs, renderedObservation: renderObservation(obs), temperature: 0, history: [], sections: [], numCandidates: 3 });
          expect(out.candidates.some((c) => targetsRef(c.action)), `${role} "${name}": ${out.candidates.map((c) => JSON.stringify(c.action)).join(', ')}`).toBe(true);
        }),
        { numRuns: 20, seed: 22 },
      );
    });

    it(`model path: lists a ${role} with its ref and accepts an action on it`, () => {
      const obs = pageWith(role, 'Quarterly Report');
      expect(renderObservation(obs)).toContain(`[${TARGET_REF}] ${role} "Quarterly Report"`);
      const verb = ['textbox', 'searchbox', 'spinbutton', 'slider'].includes(role) ? `fill([${TARGET_REF}], \\"42\\")`
        : role === 'combobox' || role === 'listbox' ? `select_option([${TARGET_REF}], \\"Medium\\")`
        : ['checkbox', 'switch', 'menuitemcheckbox'].includes(role) ? `check([${TARGET_REF}])`
        : `click([${TARGET_REF}])`;
      const raw = `{"candidates":[{"option":1,"action":"${verb}","confidence":0.9,"why":"named in the task"}],"best":1}`;
      const parsed = parseCandidateOutput(raw, obs, 3);
      expect(parsed.ok && parsed.candidates.some((c) => targetsRef(c.action))).toBe(true);
    });
  }

  it('the model is told what a clickable line is', () => {
    expect(ACTION_GRAMMAR_DOC).toMatch(/role `clickable`.*click it/);
  });

  it('the offline policy clicks a clickable the task names, over other clickables', async () => {
    const obs = pageWith('clickable', 'Billing');
    obs.nodes.push({ ref: '8', kind: 'interactive', role: 'clickable', name: 'Team', states: {}, depth: 1, inViewport: true });
    const out = await createOfflinePolicy().propose({ task: 'Open Billing', observation: obs, renderedObservation: renderObservation(obs), temperature: 0, history: [], sections: [], numCandidates: 2 });
    expect(out.candidates[0]?.action).toEqual({ type: 'click', target: { kind: 'ref', ref: TARGET_REF } });
  });
});
