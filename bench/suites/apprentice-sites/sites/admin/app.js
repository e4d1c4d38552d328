// Backoffice: an admin panel with filtered, paginated grids of orders and
// customers, order actions and a customer edit form. Changes are kept in
// localStorage.
import { h, store, mount, money, go, status, notFound } from '/common/ui.js';
import { GROUPS, STATUSES, CUSTOMERS, makeOrders, withOverrides } from '/data.js';

const BRAND = 'Backoffice';
const PAGE_SIZE = 10;
const db = store('admin');
const orders = () => withOverrides(makeOrders(db.get('seed', 1)), db.get('orderStatus', {}));
const customers = () => CUSTOMERS.filter((c) => !db.get('deleted', []).includes(c.id)).map((c) => ({ ...c, ...(db.get('customerEdits', {})[c.id] ?? {}) }));

function nav() {
  return [h('a', { href: '/' }, 'Dashboard'), h('a', { href: '/orders' }, 'Orders'), h('a', { href: '/customers' }, 'Customers'), h('a', { href: '/reports' }, 'Reports')];
}

function flash() {
  const text = sessionStorage.getItem('admin.flash');
  sessionStorage.removeItem('admin.flash');
  return text ? status(text) : null;
}

function pager(total, page, base) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const link = (p, label) => {
    const next = new URLSearchParams(base);
    next.set('page', String(p));
    return h('a', { href: `?${next}` }, label);
  };
  return h('nav', { 'aria-label': 'Pagination', class: 'row' },
    page > 1 ? link(page - 1, 'Previous page') : null,
    h('span', {}, `Page ${page} of ${pages}`),
    page < pages ? link(page + 1, 'Next page') : null);
}

function dashboard() {
  const all = orders();
  mount({ title: 'Dashboard', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Dashboard'),
    h('p', {}, `${all.length} orders this month · ${customers().length} customers`),
    h('ul', {}, h('li', {}, h('a', { href: '/orders' }, 'Manage orders')), h('li', {}, h('a', { href: '/customers' }, 'Manage customers'))),
  ] });
}

function ordersGrid() {
  const params = new URLSearchParams(location.search);
  const st = params.get('status') ?? '';
  const who = params.get('customer') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = orders().filter((o) => (!st || o.status === st) && (!who || o.customer.toLowerCase().includes(who.toLowerCase())));
  const statusSel = h('select', { id: 'f-status' }, h('option', { value: '' }, 'Any status'), STATUSES.map((s) => h('option', { value: s, selected: s === st }, s)));
  const customerInput = h('input', { id: 'f-customer', type: 'text', value: who });
  const start = (page - 1) * PAGE_SIZE;
  const shown = list.slice(start, start + PAGE_SIZE);
  mount({ title: 'Orders', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Orders'),
    flash(),
    h('form', { class: 'row', 'aria-label': 'Filters', onSubmit: (e) => {
      e.preventDefault();
      const next = new URLSearchParams();
      if (statusSel.value) next.set('status', statusSel.value);
      if (customerInput.value.trim()) next.set('customer', customerInput.value.trim());
      go(`/orders?${next}`);
    } },
      h('label', { for: 'f-status' }, 'Status'), statusSel,
      h('label', { for: 'f-customer' }, 'Customer name'), customerInput,
      h('button', { type: 'submit' }, 'Apply filters'),
      h('button', { type: 'button', onClick: () => go('/orders') }, 'Clear filters')),
    h('p', { class: 'muted' }, list.length === 0 ? 'No orders match these filters.' : `Showing ${start + 1}–${start + shown.length} of ${list.length} orders`),
    h('table', {},
      h('thead', {}, h('tr', {}, ['Order', 'Customer', 'Date', 'Status', 'Total'].map((c) => h('th', {}, c)))),
      h('tbody', {}, shown.map((o) => h('tr', {},
        h('td', {}, h('a', { href: `/order/view/${o.id}` }, `#${o.id}`)),
        h('td', {}, o.customer), h('td', {}, o.date), h('td', {}, o.status), h('td', {}, money(o.total)))))),
    pager(list.length, page, params),
  ] });
}

function orderView(id) {
  const render = (confirming) => {
    const o = orders().find((x) => x.id === id);
    if (!o) return notFound(BRAND, nav());
    const setStatus = (s, note) => {
      db.set('orderStatus', { ...db.get('orderStatus', {}), [id]: s });
      sessionStorage.setItem('admin.flash', note);
      render(false);
    };
    const open = o.status === 'Pending' || o.status === 'Processing';
    mount({ title: `Order #${id}`, brand: BRAND, nav: nav(), main: [
      h('p', {}, h('a', { href: '/orders' }, 'Back to orders')),
      h('h1', {}, `Order #${id}`),
      flash(),
      h('dl', {},
        h('dt', {}, 'Customer'), h('dd', {}, h('a', { href: `/customer/view/${o.customerId}` }, o.customer)),
        h('dt', {}, 'Placed on'), h('dd', {}, o.date),
        h('dt', {}, 'Status'), h('dd', {}, o.status),
        h('dt', {}, 'Grand total'), h('dd', {}, money(o.total))),
      h('div', { class: 'row' },
        open ? h('button', { type: 'button', onClick: () => setStatus('Shipped', `Order #${id} was marked as shipped.`) }, 'Mark as shipped') : null,
        open ? h('button', { type: 'button', onClick: () => render(true) }, 'Cancel order') : null,
        h('button', { type: 'button', onClick: () => { sessionStorage.setItem('admin.flash', 'Invoice sent to the printer.'); render(false); } }, 'Print invoice')),
      confirming ? h('div', { role: 'alertdialog', 'aria-label': 'Confirm cancellation', class: 'card' },
        h('p', {}, `Cancel order #${id}? The customer will be notified.`),
        h('button', { type: 'button', onClick: () => setStatus('Cancelled', `Order #${id} was cancelled.`) }, 'Yes, cancel the order'),
        h('button', { type: 'button', onClick: () => render(false) }, 'Keep the order')) : null,
    ] });
  };
  render(false);
}

function customersGrid() {
  const params = new URLSearchParams(location.search);
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = customers().filter((c) => !q || `${c.name} ${c.email}`.toLowerCase().includes(q.toLowerCase()));
  const input = h('input', { id: 'c-search', type: 'search', value: q, 'aria-label': 'Search customers' });
  const start = (page - 1) * PAGE_SIZE;
  mount({ title: 'Customers', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Customers'),
    flash(),
    h('form', { role: 'search', class: 'row', onSubmit: (e) => { e.preventDefault(); go(`/customers?q=${encodeURIComponent(input.value.trim())}`); } },
      input, h('button', { type: 'submit' }, 'Search')),
    h('p', { class: 'muted' }, `${list.length} customers`),
    h('table', {},
      h('thead', {}, h('tr', {}, ['Name', 'Email', 'Group', 'City', 'Action'].map((c) => h('th', {}, c)))),
      h('tbody', {}, list.slice(start, start + PAGE_SIZE).map((c) => h('tr', {},
        h('td', {}, h('a', { href: `/customer/view/${c.id}` }, c.name)), h('td', {}, c.email), h('td', {}, c.group), h('td', {}, c.city),
        h('td', {}, h('a', { href: `/customer/edit/${c.id}` }, 'Edit')))))),
    pager(list.length, page, params),
  ] });
}

function customerView(id) {
  const c = customers().find((x) => x.id === id);
  if (!c) return notFound(BRAND, nav());
  mount({ title: c.name, brand: BRAND, nav: nav(), main: [
    h('p', {}, h('a', { href: '/customers' }, 'Back to customers')),
    h('h1', {}, c.name),
    h('p', {}, `${c.email} · ${c.phone} · ${c.city} · ${c.group}`),
    h('p', {}, h('a', { href: `/customer/edit/${c.id}` }, 'Edit customer')),
    h('h2', {}, 'Orders'),
    h('ul', {}, orders().filter((o) => o.customerId === id).map((o) => h('li', {}, h('a', { href: `/order/view/${o.id}` }, `#${o.id}`), ` ${o.date} ${o.status}`))),
  ] });
}

function customerEdit(id) {
  const render = (confirming) => {
    const c = customers().find((x) => x.id === id);
    if (!c) return notFound(BRAND, nav());
    const field = (key, label, type = 'text') => h('div', { class: 'row' }, h('label', { for: key }, label), h('input', { id: key, type, value: c[key] }));
    const group = h('select', { id: 'group' }, GROUPS.map((g) => h('option', { selected: g === c.group }, g)));
    const newsletter = h('input', { id: 'newsletter', type: 'checkbox', checked: c.newsletter });
    mount({ title: `Edit ${c.name}`, brand: BRAND, nav: nav(), main: [
      h('p', {}, h('a', { href: '/customers' }, 'Back to customers')),
      h('h1', {}, `Edit customer: ${c.name}`),
      field('name', 'Full name'), field('email', 'Email', 'email'), field('phone', 'Phone', 'tel'),
      h('div', { class: 'row' }, h('label', { for: 'group' }, 'Customer group'), group),
      h('div', { class: 'row' }, newsletter, h('label', { for: 'newsletter' }, 'Subscribed to newsletter')),
      h('div', { class: 'row' },
        h('button', { type: 'button', onClick: () => {
          const value = (k) => document.getElementById(k).value.trim();
          const edits = db.get('customerEdits', {});
          edits[id] = { name: value('name'), email: value('email'), phone: value('phone'), group: group.value, newsletter: newsletter.checked };
          db.set('customerEdits', edits);
          sessionStorage.setItem('admin.flash', `You saved the customer ${value('name')}.`);
          go('/customers');
        } }, 'Save customer'),
        h('button', { type: 'button', onClick: () => render(true) }, 'Delete customer')),
      confirming ? h('div', { role: 'alertdialog', 'aria-label': 'Confirm deletion', class: 'card' },
        h('p', {}, `Delete ${c.name}? This cannot be undone.`),
        h('button', { type: 'button', onClick: () => {
          db.set('deleted', [...db.get('deleted', []), id]);
          sessionStorage.setItem('admin.flash', 'The customer was deleted.');
          go('/customers');
        } }, 'Delete permanently'),
        h('button', { type: 'button', onClick: () => render(false) }, 'Keep customer')) : null,
    ] });
  };
  render(false);
}

function reports() {
  mount({ title: 'Reports', brand: BRAND, nav: nav(), main: [h('h1', {}, 'Reports'), h('p', {}, 'Reports are generated overnight. Check back tomorrow.')] });
}

const path = location.pathname.replace(/\/+$/, '') || '/';
let m;
if (path === '/') dashboard();
else if (path === '/orders') ordersGrid();
else if ((m = path.match(/^\/order\/view\/(\d+)$/))) orderView(Number(m[1]));
else if (path === '/customers') customersGrid();
else if ((m = path.match(/^\/customer\/view\/(\d+)$/))) customerView(Number(m[1]));
else if ((m = path.match(/^\/customer\/edit\/(\d+)$/))) customerEdit(Number(m[1]));
else if (path === '/reports') reports();
else notFound(BRAND, nav());
