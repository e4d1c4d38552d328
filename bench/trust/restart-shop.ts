/**
 * The shop of the browser restart run: one page per run (`/shop?run=N`) with
 * three "Add …" buttons. A click is a server-side effect, counted per run and
 * item, so a duplicate is seen where it happens, not where Apprentice says.
 *
 * A click's handler makes two synchronous requests, in order:
 *   POST /mark/enter — the action has started (nothing changed yet);
 *   POST /act/add    — the effect (the item is in the cart).
 * Each answer says how many ms the page then stays busy. The run uses that
 * to hold the page (and the content script, on the same thread) at a step
 * boundary long enough to stop the service worker there: inside the action
 * before its effect, or after the effect before the result reaches the worker.
 */
import { createServer, type Server } from 'node:http';

export const SHOP_ITEMS = ['kettle', 'mug', 'teapot'] as const;
export type ShopItem = (typeof SHOP_ITEMS)[number];

export interface ShopHooks {
  /** The action on `item` started; answer how long the page stays busy before the effect. */
  onEnter(run: number, item: ShopItem): number;
  /** The effect on `item` happened; answer how long the page stays busy before the result returns. */
  onEffect(run: number, item: ShopItem): number;
}

export interface RestartShop {
  origin: string;
  /** Effects per run and item. */
  effects(run: number): Record<ShopItem, number>;
  hooks: ShopHooks;
  close(): Promise<void>;
}

/**
 * `stay`: the "Add …" buttons stay after a click (a shop that lets you add one
 * more), so a re-run of the click looks exactly like the approved one and only
 * the idempotency id stands between a restart and a second effect.
 */
function shopPage(run: number, stay: boolean): string {
  const items = SHOP_ITEMS.map((item) => `<li id="${item}"><span>${item}</span> <button type="button" data-item="${item}">Add ${item}</button></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kitchen shop</title></head><body>
<main><h1>Kitchen shop</h1><ul>${items}</ul><p id="cart">Cart: empty</p></main>
<script>
  const run = ${run};
  const added = [];
  const post = (path) => { const x = new XMLHttpRequest(); x.open('POST', path, false); x.send(); return Number(x.responseText) || 0; };
  const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
  for (const button of document.querySelectorAll('button[data-item]')) {
    button.addEventListener('click', () => {
      const item = button.dataset.item;
      busy(post('/mark/enter?run=' + run + '&item=' + item));
      busy(post('/act/add?run=' + run + '&item=' + item));
      added.push(item);
      if (!${stay}) button.replaceWith(document.createTextNode('in the cart'));
      document.getElementById('cart').textContent = 'Cart: ' + added.join(', ');
    });
  }
</script></body></html>`;
}

export async function startRestartShop(): Promise<RestartShop> {
  const counts = new Map<number, Record<ShopItem, number>>();
  const countsOf = (run: number) => {
    let c = counts.get(run);
    if (!c) counts.set(run, (c = { kettle: 0, mug: 0, teapot: 0 }));
    return c;
  };
  const shop: RestartShop = {
    origin: '',
    effects: (run) => ({ ...countsOf(run) }),
    hooks: { onEnter: () => 0, onEffect: () => 0 },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const run = Number(url.searchParams.get('run'));
    const item = url.searchParams.get('item') as ShopItem | null;
    res.setHeader('connection', 'close');
    if (req.method === 'POST' && item && (SHOP_ITEMS as readonly string[]).includes(item)) {
      if (url.pathname === '/act/add') {
        countsOf(run)[item]++;
        res.writeHead(200, { 'content-type': 'text/plain' }).end(String(shop.hooks.onEffect(run, item)));
        return;
      }
      if (url.pathname === '/mark/enter') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(String(shop.hooks.onEnter(run, item)));
        return;
      }
    }
    if (url.pathname === '/shop') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(run, url.searchParams.get('stay') === '1'));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  shop.origin = `http://127.0.0.1:${address.port}`;
  return shop;
}
