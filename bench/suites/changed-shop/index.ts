/**
 * The changed-site check where the change is content, not controls (issue 35,
 * part 5): the suite's shop, its "Add X to my cart" tasks, changed at serve
 * time — each task's product page (same address, same "Add to cart") shows a
 * substitute: another product of the same category whose name does not hold
 * the task's product's name, at its own price. The first attempt of each task
 * and the first instance of the template run on the shop as shipped (where a
 * procedure is learned); every later one on the changed shop, where the task
 * cannot succeed. Replay must stop before "Add to cart" (the page does not
 * show the item the plan opened) and put nothing in the cart by itself:
 *
 *   npm run bench -- --suite bench/suites/changed-shop/index.ts --learners <ids>,<ids>+replay --attempts 3
 *
 * Not covered: a substitute whose name holds the item's name as whole words
 * ("Yoga mat bag" for "Yoga mat") shows the item to the check (docs/replay.md).
 */
import { changedSiteSuite } from '../changed-site.ts';
import { PRODUCTS, productById } from '../apprentice-sites/sites/shop/data.js';
import { shopTasks } from '../apprentice-sites/tasks/shop-tasks.ts';
import { showsValue } from '../../../src/core/page/row-identifier.ts';

const LOOKUP = '  const p = productById(id);\n';

/** For each product, the substitute its page shows: the next product of its category whose name does not show its name. */
export function substitutes(ids: readonly number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const id of ids) {
    const p = productById(id);
    if (!p) throw new Error(`changed-shop: no product ${id}`);
    const same = PRODUCTS.filter((q) => q.category === p.category);
    const from = same.findIndex((q) => q.id === id);
    const other = [...same.slice(from + 1), ...same.slice(0, from)].find((q) => !showsValue(q.name, p.name));
    if (!other) throw new Error(`changed-shop: no substitute for ${p.name}`);
    out[id] = other.id;
  }
  return out;
}

/** The changed product page; throws when the shipped shop no longer has what it changes (the check would measure nothing). */
export function changeShopApp(source: string, swap: Readonly<Record<number, number>>): string {
  if (source.split(LOOKUP).length !== 2) throw new Error('changed-shop: the shipped shop app changed; update the change this check makes');
  return source.replace(LOOKUP, `  const p = productById(${JSON.stringify(swap)}[id] ?? id);\n`);
}

const addToCart = (origin: string) => shopTasks(origin).filter((t) => t.template === 'shop.add-to-cart');
/** The products of the add-to-cart tasks (their ids end the task ids), each with its substitute. */
const swap = substitutes(addToCart('http://shop.invalid').map((t) => Number(t.id.split('.').at(-1))));

export default changedSiteSuite({
  name: 'changed-shop',
  site: 'shop',
  change: (source) => changeShopApp(source, swap),
  tasks: addToCart,
});
