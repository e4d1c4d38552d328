// Northwind Market: a small shop (search, sort, filter, product pages, cart,
// wish list) with a multi-page checkout. State lives in localStorage.
import { h, store, mount, money, slug, go, status, notFound } from '/common/ui.js';
import {
  CATEGORIES, COUNTRIES, PAYMENT_METHODS, SHIPPING_METHODS, PROMO_CODES, ACCOUNT,
  productById, deals, search,
} from '/data.js';

const BRAND = 'Northwind Market';
const db = store('shop');
const cart = () => db.get('cart', []);
const cartCount = () => cart().reduce((n, line) => n + line.qty, 0);

function nav() {
  return [
    h('a', { href: '/deals' }, 'Deals'),
    h('a', { href: '/wishlist' }, 'Wish list'),
    h('a', { href: '/orders' }, 'Your orders'),
    h('a', { href: '/cart' }, `Cart (${cartCount()})`),
  ];
}

function searchForm(value = '') {
  const input = h('input', { type: 'search', id: 'q', name: 'q', value, placeholder: 'Search products', 'aria-label': 'Search products' });
  return h('form', { role: 'search', class: 'row', onSubmit: (e) => {
    e.preventDefault();
    go(`/search?q=${encodeURIComponent(input.value.trim())}`);
  } }, input, h('button', { type: 'submit' }, 'Search'));
}

function categoryLinks() {
  return [h('h2', {}, 'Shop by category'), ...CATEGORIES.map((c) => h('a', { href: `/category/${slug(c)}` }, c))];
}

function productCard(p) {
  return h('article', { class: 'card' },
    h('h3', {}, h('a', { href: `/product/${p.id}` }, p.name)),
    h('p', { class: 'muted' }, `${money(p.price)} · rated ${p.rating} of 5 · ${p.category}`));
}

function home() {
  mount({ title: 'Home', brand: BRAND, nav: nav(), aside: categoryLinks(), main: [
    h('h1', {}, 'Welcome to Northwind Market'),
    searchForm(),
    h('h2', {}, "Today's deals"),
    ...deals(db.get('seed', 1)).slice(0, 6).map(productCard),
  ] });
}

function listing(title, query, category) {
  const params = new URLSearchParams(location.search);
  const sort = params.get('sort') ?? 'relevance';
  const results = search(query, category, sort);
  const update = (key, value) => {
    const next = new URLSearchParams(location.search);
    if (value) next.set(key, value); else next.delete(key);
    go(`${location.pathname}?${next}`);
  };
  const sortSelect = h('select', { id: 'sort', onChange: (e) => update('sort', e.target.value) },
    [['relevance', 'Relevance'], ['price-asc', 'Price: low to high'], ['price-desc', 'Price: high to low'], ['rating', 'Customer rating']]
      .map(([v, label]) => h('option', { value: v, selected: v === sort }, label)));
  const filters = [h('label', { for: 'sort' }, 'Sort by'), sortSelect];
  if (!category) {
    const cat = params.get('category') ?? '';
    filters.push(h('label', { for: 'category' }, 'Category'), h('select', { id: 'category', onChange: (e) => update('category', e.target.value) },
      h('option', { value: '', selected: !cat }, 'All categories'),
      CATEGORIES.map((c) => h('option', { value: c, selected: c === cat }, c))));
  }
  const shown = !category && params.get('category') ? results.filter((p) => p.category === params.get('category')) : results;
  mount({ title, brand: BRAND, nav: nav(), aside: categoryLinks(), main: [
    searchForm(query),
    h('h1', {}, title),
    h('div', { class: 'row' }, filters),
    h('p', { class: 'muted' }, `${shown.length} results`),
    ...shown.map(productCard),
  ] });
}

function product(id) {
  const p = productById(id);
  if (!p) return notFound(BRAND, nav());
  const qty = h('input', { type: 'number', id: 'qty', min: '1', value: '1' });
  const msg = h('div', { 'aria-live': 'polite' });
  const related = search('', p.category, null).filter((r) => r.id !== p.id).slice(0, 4);
  mount({ title: p.name, brand: BRAND, nav: nav(), aside: categoryLinks(), main: [
    h('p', { class: 'muted' }, h('a', { href: `/category/${slug(p.category)}` }, p.category), ' › ', p.name),
    h('h1', {}, p.name),
    h('p', {}, `Price: ${money(p.price)}`),
    h('p', {}, `Customer rating: ${p.rating} out of 5`),
    h('div', { class: 'row' }, h('label', { for: 'qty' }, 'Quantity'), qty),
    h('div', { class: 'row' },
      h('button', { type: 'button', onClick: () => {
        const n = Math.max(1, Math.floor(Number(qty.value) || 1));
        const lines = cart();
        const line = lines.find((l) => l.id === p.id);
        if (line) line.qty += n; else lines.push({ id: p.id, qty: n });
        db.set('cart', lines);
        msg.replaceChildren(status(`Added ${n} × ${p.name} to your cart.`));
        document.querySelector('header nav a[href="/cart"]').textContent = `Cart (${cartCount()})`;
      } }, 'Add to cart'),
      h('button', { type: 'button', onClick: () => {
        const list = db.get('wishlist', []);
        if (!list.includes(p.id)) list.push(p.id);
        db.set('wishlist', list);
        msg.replaceChildren(status(`${p.name} was saved to your wish list.`));
      } }, 'Add to wish list'),
      h('button', { type: 'button', onClick: () => msg.replaceChildren(status('Comparison is not available for this product.')) }, 'Compare')),
    msg,
    h('h2', {}, 'Customers also bought'),
    ...related.map(productCard),
  ] });
}

function cartTotals(lines) {
  const subtotal = lines.reduce((s, l) => s + (productById(l.id)?.price ?? 0) * l.qty, 0);
  const promo = db.get('promo', null);
  const discount = promo ? subtotal * (PROMO_CODES[promo] ?? 0) : 0;
  return { subtotal, discount, promo };
}

function cartPage() {
  const lines = cart();
  const msg = h('div', { 'aria-live': 'polite' });
  const qtyInputs = new Map();
  const rows = lines.map((l) => {
    const p = productById(l.id);
    const input = h('input', { type: 'number', min: '0', value: String(l.qty), 'aria-label': `Quantity of ${p.name}` });
    qtyInputs.set(l.id, input);
    return h('tr', {},
      h('td', {}, h('a', { href: `/product/${p.id}` }, p.name)),
      h('td', {}, money(p.price)),
      h('td', {}, input),
      h('td', {}, h('button', { type: 'button', 'aria-label': `Remove ${p.name}`, onClick: () => {
        db.set('cart', cart().filter((x) => x.id !== p.id));
        cartPage();
      } }, 'Remove')));
  });
  const { subtotal, discount, promo } = cartTotals(lines);
  const code = h('input', { type: 'text', id: 'promo', value: promo ?? '' });
  const estimate = h('select', { id: 'estimate-country' }, COUNTRIES.map((c) => h('option', {}, c)));
  const main = [h('h1', {}, 'Shopping cart')];
  if (lines.length === 0) {
    main.push(h('p', {}, 'Your cart is empty.'), h('a', { href: '/' }, 'Continue shopping'));
  } else {
    main.push(
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Product'), h('th', {}, 'Price'), h('th', {}, 'Quantity'), h('th', {}, ''))), h('tbody', {}, rows)),
      h('div', { class: 'row' }, h('button', { type: 'button', onClick: () => {
        const next = cart().map((l) => ({ id: l.id, qty: Math.max(0, Math.floor(Number(qtyInputs.get(l.id)?.value) || 0)) })).filter((l) => l.qty > 0);
        db.set('cart', next);
        cartPage();
      } }, 'Update cart')),
      h('p', {}, `Subtotal: ${money(subtotal)}`),
      discount ? h('p', {}, `Promo ${promo}: −${money(discount)}`) : null,
      h('div', { class: 'row' }, h('label', { for: 'promo' }, 'Promo code'), code,
        h('button', { type: 'button', onClick: () => {
          const c = code.value.trim().toUpperCase();
          if (c in PROMO_CODES) { db.set('promo', c); cartPage(); } else msg.replaceChildren(status('That promo code is not valid.', 'alert'));
        } }, 'Apply code')),
      msg,
      h('h2', {}, 'Estimate shipping'),
      h('div', { class: 'row' }, h('label', { for: 'estimate-country' }, 'Country'), estimate,
        h('button', { type: 'button', onClick: () => msg.replaceChildren(status(`Standard shipping to ${estimate.value} is free.`)) }, 'Estimate')),
      h('div', { class: 'row' },
        h('a', { href: '/' }, 'Continue shopping'),
        h('button', { type: 'button', onClick: () => go('/checkout/shipping') }, 'Proceed to checkout')),
    );
  }
  mount({ title: 'Cart', brand: BRAND, nav: nav(), main });
}

function checkoutSteps(current) {
  return h('ol', { 'aria-label': 'Checkout progress' }, ['Shipping', 'Payment', 'Review'].map((s) =>
    h('li', s === current ? { 'aria-current': 'step' } : {}, s)));
}

function requireCart() {
  if (cart().length > 0) return true;
  mount({ title: 'Checkout', brand: BRAND, nav: nav(), main: [h('h1', {}, 'Checkout'), h('p', {}, 'Your cart is empty.'), h('a', { href: '/' }, 'Continue shopping')] });
  return false;
}

function shippingPage() {
  if (!requireCart()) return;
  const saved = db.get('checkout', {}).shipping ?? { ...ACCOUNT, method: 'standard' };
  const field = (id, label, value) => h('div', { class: 'row' }, h('label', { for: id }, label), h('input', { id, type: 'text', value, required: true }));
  const country = h('select', { id: 'country' }, COUNTRIES.map((c) => h('option', { selected: c === saved.country }, c)));
  const methods = SHIPPING_METHODS.map((m) => h('div', {},
    h('input', { type: 'radio', name: 'method', id: `ship-${m.id}`, value: m.id, checked: m.id === saved.method }),
    h('label', { for: `ship-${m.id}` }, m.label)));
  mount({ title: 'Shipping', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Checkout: shipping'), checkoutSteps('Shipping'),
    field('name', 'Full name', saved.name), field('street', 'Street address', saved.street), field('city', 'City', saved.city),
    h('div', { class: 'row' }, h('label', { for: 'country' }, 'Country'), country),
    h('fieldset', {}, h('legend', {}, 'Shipping method'), methods),
    h('div', { class: 'row' },
      h('a', { href: '/cart' }, 'Back to cart'),
      h('button', { type: 'button', onClick: () => {
        const value = (id) => document.getElementById(id).value.trim();
        const method = document.querySelector('input[name=method]:checked')?.value ?? 'standard';
        const checkout = db.get('checkout', {});
        checkout.shipping = { name: value('name'), street: value('street'), city: value('city'), country: country.value, method };
        db.set('checkout', checkout);
        go('/checkout/payment');
      } }, 'Continue to payment')),
  ] });
}

function paymentPage() {
  if (!requireCart()) return;
  const checkout = db.get('checkout', {});
  if (!checkout.shipping) return go('/checkout/shipping');
  const current = checkout.payment?.method ?? 'Credit card';
  const options = PAYMENT_METHODS.map((m) => h('div', {},
    h('input', { type: 'radio', name: 'pay', id: `pay-${slug(m)}`, value: m, checked: m === current }),
    h('label', { for: `pay-${slug(m)}` }, m)));
  mount({ title: 'Payment', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Checkout: payment'), checkoutSteps('Payment'),
    h('fieldset', {}, h('legend', {}, 'Payment method'), options),
    h('p', { class: 'muted' }, 'Saved card: Visa ending in 4242'),
    h('div', { class: 'row' },
      h('a', { href: '/checkout/shipping' }, 'Back to shipping'),
      h('button', { type: 'button', onClick: () => {
        const c = db.get('checkout', {});
        c.payment = { method: document.querySelector('input[name=pay]:checked')?.value ?? 'Credit card' };
        db.set('checkout', c);
        go('/checkout/review');
      } }, 'Continue to review')),
  ] });
}

function reviewPage() {
  if (!requireCart()) return;
  const checkout = db.get('checkout', {});
  if (!checkout.shipping) return go('/checkout/shipping');
  if (!checkout.payment) return go('/checkout/payment');
  const lines = cart();
  const { subtotal, discount, promo } = cartTotals(lines);
  const ship = SHIPPING_METHODS.find((m) => m.id === checkout.shipping.method) ?? SHIPPING_METHODS[0];
  const total = subtotal - discount + ship.price;
  const agree = h('input', { type: 'checkbox', id: 'agree' });
  const msg = h('div', { 'aria-live': 'assertive' });
  mount({ title: 'Review order', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Checkout: review your order'), checkoutSteps('Review'),
    h('ul', {}, lines.map((l) => h('li', {}, `${l.qty} × ${productById(l.id).name}`))),
    h('p', {}, `Ship to: ${checkout.shipping.name}, ${checkout.shipping.street}, ${checkout.shipping.city}, ${checkout.shipping.country} (${ship.label})`),
    h('p', {}, `Pay with: ${checkout.payment.method}`, ' ', h('a', { href: '/checkout/payment' }, 'Change payment')),
    h('p', {}, `Total: ${money(total)}`),
    h('div', { class: 'row' }, agree, h('label', { for: 'agree' }, 'I agree to the terms and conditions')),
    msg,
    h('div', { class: 'row' },
      h('a', { href: '/checkout/shipping' }, 'Edit shipping'),
      h('button', { type: 'button', onClick: () => {
        if (!agree.checked) { msg.replaceChildren(status('Please accept the terms and conditions to place your order.', 'alert')); return; }
        const orders = db.get('orders', []);
        const id = 5001 + orders.length;
        orders.push({ id, items: lines, shipping: checkout.shipping, payment: checkout.payment.method, promo, total: Math.round(total * 100) / 100 });
        db.set('orders', orders);
        db.set('cart', []);
        db.set('checkout', {});
        db.set('promo', null);
        go(`/order/${id}`);
      } }, 'Place order')),
  ] });
}

function orderPage(id) {
  const order = db.get('orders', []).find((o) => o.id === id);
  if (!order) return notFound(BRAND, nav());
  mount({ title: `Order ${id}`, brand: BRAND, nav: nav(), main: [
    h('h1', {}, `Thank you! Order #${id} is confirmed.`),
    h('ul', {}, order.items.map((l) => h('li', {}, `${l.qty} × ${productById(l.id).name}`))),
    h('p', {}, `Total charged: ${money(order.total)}`),
    h('a', { href: '/' }, 'Continue shopping'),
  ] });
}

function ordersPage() {
  const orders = db.get('orders', []);
  mount({ title: 'Your orders', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Your orders'),
    orders.length === 0 ? h('p', {}, 'You have no orders yet.') : h('ul', {}, orders.map((o) => h('li', {}, h('a', { href: `/order/${o.id}` }, `Order #${o.id}`), ` — ${money(o.total)}`))),
  ] });
}

function wishlistPage() {
  const ids = db.get('wishlist', []);
  mount({ title: 'Wish list', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Your wish list'),
    ids.length === 0 ? h('p', {}, 'Nothing saved yet.') : ids.map((id) => productCard(productById(id))),
  ] });
}

function dealsPage() {
  mount({ title: 'Deals', brand: BRAND, nav: nav(), aside: categoryLinks(), main: [
    h('h1', {}, 'All deals'), ...deals(db.get('seed', 1)).map(productCard),
  ] });
}

const path = location.pathname.replace(/\/+$/, '') || '/';
const params = new URLSearchParams(location.search);
let m;
if (path === '/') home();
else if (path === '/search') listing(`Results for “${params.get('q') ?? ''}”`, params.get('q') ?? '', null);
else if ((m = path.match(/^\/category\/([a-z-]+)$/))) {
  const category = CATEGORIES.find((c) => slug(c) === m[1]);
  if (category) listing(category, '', category); else notFound(BRAND, nav());
} else if ((m = path.match(/^\/product\/(\d+)$/))) product(Number(m[1]));
else if (path === '/cart') cartPage();
else if (path === '/checkout/shipping') shippingPage();
else if (path === '/checkout/payment') paymentPage();
else if (path === '/checkout/review') reviewPage();
else if ((m = path.match(/^\/order\/(\d+)$/))) orderPage(Number(m[1]));
else if (path === '/orders') ordersPage();
else if (path === '/wishlist') wishlistPage();
else if (path === '/deals') dealsPage();
else notFound(BRAND, nav());
