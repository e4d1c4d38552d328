/**
 * A scripted two-page shop for the restart and fault benchmarks: a search
 * page and a cart page. It counts side effects the way a server would (an
 * "Add to cart" click adds one item; an executed action is checked against
 * the page it ran on), so a duplicated or invalid action shows in numbers.
 */
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { PageDriver } from '../../src/core/ports.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

export class FakeShop implements PageDriver {
  page: 'search' | 'product' = 'search';
  query = '';
  /** Server-side effects: items added to the cart. */
  cartAdds = 0;
  executed: Action[] = [];
  /** Actions whose target was not on the page they ran on, or did not fit it. */
  invalid = 0;
  /** Called before an action runs; throwing simulates the worker dying there. */
  beforeAct: ((action: Action) => void) | null = null;
  afterAct: ((action: Action) => void) | null = null;

  nodes(): SnapshotNode[] {
    return this.page === 'search'
      ? [node('1', 'searchbox', 'Search products', { value: this.query }), node('2', 'link', 'Kettle', { href: 'https://shop.test/p/1' })]
      : [node('3', 'button', 'Add to cart'), node('4', 'link', 'Back to search', { href: 'https://shop.test/' })];
  }

  async observe(): Promise<PageObservation> {
    return {
      url: this.page === 'search' ? 'https://shop.test/' : 'https://shop.test/p/1',
      title: 'Shop', nodes: this.nodes(), focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }

  async act(action: Action): Promise<ActionResult> {
    this.beforeAct?.(action);
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    const el = ref === null ? null : this.nodes().find((n) => n.ref === ref);
    if (ref !== null && !el) {
      this.invalid++;
      return { ok: false, code: 'element_gone', message: `no [${ref}]` };
    }
    this.executed.push(action);
    let navigated = false;
    if (action.type === 'fill' && el?.role === 'searchbox') this.query = action.text;
    else if (action.type === 'click' && el?.name === 'Kettle') { this.page = 'product'; navigated = true; }
    else if (action.type === 'click' && el?.name === 'Back to search') { this.page = 'search'; navigated = true; }
    else if (action.type === 'click' && el?.name === 'Add to cart') this.cartAdds++;
    else if (action.type !== 'send_msg_to_user' && action.type !== 'report_infeasible' && action.type !== 'scroll') this.invalid++;
    this.afterAct?.(action);
    return { ok: true, navigated };
  }
}

/** The right next action on the shop, in ref form, given how far the episode got. */
export function nextShopAction(shop: FakeShop, addsWanted: number): string {
  if (shop.page === 'search') return shop.query === 'kettle' ? 'click([2])' : 'fill([1], "kettle")';
  return shop.cartAdds < addsWanted ? 'click([3])' : 'send_msg_to_user("added")';
}
