/**
 * A deterministic, shop-like page of any size for the observation benchmark:
 * navigation, product cards (heading link, image, description, price, quantity
 * select, compare checkbox, add button), a data table, and blocks that are
 * hidden in each of the ways the observer must drop.
 */
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const ADJ = ['Blue', 'Red', 'Green', 'Steel', 'Oak', 'Linen', 'Copper', 'Glass', 'Stone', 'Bamboo'];
const NOUN = ['kettle', 'teapot', 'mug', 'toaster', 'board', 'lamp', 'chair', 'vase', 'bowl', 'clock', 'shelf'];

function card(i: number): string {
  const name = `${ADJ[i % ADJ.length]} ${NOUN[(i * 7) % NOUN.length]} ${i}`;
  const price = (5 + ((i * 37) % 200) + (i % 100) / 100).toFixed(2);
  return `
<article class="card" data-id="${i}">
  <h3><a href="/product/${i}">${esc(name)}</a></h3>
  <img src="data:," alt="Photo of ${esc(name)}" width="40" height="40">
  <p class="desc">A ${esc(name.toLowerCase())} made with <em>care</em>, ready to ship in <strong>${1 + (i % 5)} days</strong>.</p>
  <div class="meta"><span class="price">$${price}</span> <span class="stock">${i % 3 === 0 ? 'Low stock' : 'In stock'}</span></div>
  <div class="specs"><span>Size ${10 + (i % 20)} cm</span><span>Weight ${100 + i % 900} g</span><span>SKU ${1000 + i}</span></div>
  <label for="qty-${i}">Quantity</label>
  <select id="qty-${i}"><option>1</option><option>2</option><option>3</option></select>
  <label><input type="checkbox" class="compare"> Compare</label>
  <button type="button" aria-label="Add ${esc(name)} to cart">Add</button>
  <div class="menu" style="display:none"><a href="/wish/${i}">Add to wishlist</a><a href="/share/${i}">Share</a></div>
  <div aria-hidden="true"><span>decorative ${i}</span></div>
</article>`;
}

function table(rows: number): string {
  const body = Array.from({ length: rows }, (_, r) =>
    `<tr><td>${r + 1}</td><td><a href="/order/${5000 + r}">Order #${5000 + r}</a></td><td>${r % 4 === 0 ? 'Shipped' : 'Pending'}</td>` +
    `<td>$${(r * 13.37).toFixed(2)}</td><td><button type="button">Details for order ${5000 + r}</button></td></tr>`).join('\n');
  return `<table><caption>Recent orders</caption><thead><tr><th>#</th><th>Order</th><th>Status</th><th>Total</th><th>Action</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** About `cards * 20` elements plus the table and navigation. */
export function generateLargePage(cards: number): string {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/category/${i}">Category ${i}</a></li>`).join('');
  const body = Array.from({ length: cards }, (_, i) => card(i)).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Large catalogue (${cards} products)</title>
<style>body{font-family:sans-serif;margin:0}.card{display:inline-block;width:300px;vertical-align:top;margin:4px;border:1px solid #ddd;padding:4px}
.specs span{margin-right:4px}</style></head>
<body>
<header><nav aria-label="Categories"><ul>${nav}</ul></nav>
<form role="search" aria-label="Site"><input type="search" aria-label="Search products" placeholder="Search"><button>Search</button></form></header>
<main><h1>Catalogue</h1>
<section aria-label="Orders"><h2>Orders</h2>${table(Math.max(10, Math.round(cards / 5)))}</section>
<section aria-label="Products"><h2>Products</h2>${body}</section>
</main>
<footer><p>Fixture shop footer</p><a href="/about">About</a></footer>
</body></html>`;
}
