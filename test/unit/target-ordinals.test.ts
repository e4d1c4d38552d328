import { describe, expect, it } from 'vitest';
import type { SnapshotNode } from '../../src/core/page/observation.ts';
import { assignOrdinals } from '../../src/core/page/target-ordinals.ts';

const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: ref === null ? 'text' : 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

describe('assignOrdinals', () => {
  it('numbers identical controls in document order and leaves unique ones alone', () => {
    const nodes = [
      node('1', 'textbox', ''),
      node(null, 'text', ''),
      node('2', 'textbox', ''),
      node('3', 'textbox', 'Email'),
      node('4', 'TextBox', '  '),
      node('5', 'button', 'Remove', { context: [{ role: 'row', name: 'Ada' }] }),
      node('6', 'button', 'Remove', { context: [{ role: 'row', name: 'Alan' }] }),
      node('7', 'button', 'Remove', { context: [{ role: 'row', name: 'ada' }], nth: 9 }),
    ];
    assignOrdinals(nodes);
    expect(nodes.map((n) => n.nth ?? null)).toEqual([1, null, 2, null, 3, 1, null, 2]);
  });
});
