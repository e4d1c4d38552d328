// Tiny DOM helpers shared by the suite's sites (vanilla JS, no framework).

/** h('a', { href: '/x' }, 'text', child…) — props starting with "on" become listeners. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'class') el.className = value;
    else if (key === 'value') el.value = value;
    else if (key === 'checked') el.checked = Boolean(value);
    else if (key === 'selected') el.selected = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** JSON values in localStorage under one site prefix. */
export function store(prefix) {
  return {
    get(key, fallback) {
      const raw = localStorage.getItem(`${prefix}.${key}`);
      if (raw === null) return fallback;
      try { return JSON.parse(raw); } catch { return fallback; }
    },
    set(key, value) { localStorage.setItem(`${prefix}.${key}`, JSON.stringify(value)); },
  };
}

/** Replaces the body with a header, a main region and a footer. */
export function mount({ title, brand, nav, main, aside }) {
  document.title = `${title} — ${brand}`;
  const header = h('header', { class: 'top' },
    h('a', { href: '/', class: 'brand' }, brand),
    h('nav', { 'aria-label': 'Main' }, nav));
  const body = h('div', { class: 'layout' },
    aside ? h('aside', { 'aria-label': 'Sections' }, aside) : null,
    h('main', {}, main));
  const footer = h('footer', {}, h('a', { href: '/help' }, 'Help centre'), ' · ', h('a', { href: '/privacy-policy' }, 'Privacy policy'));
  document.body.replaceChildren(header, body, footer);
}

export function money(n) { return `$${n.toFixed(2)}`; }

export function slug(s) { return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''); }

export function go(path) { location.assign(path); }

/** A status line that screen readers announce. */
export function status(text, kind = 'status') {
  return h('p', { role: kind, class: kind === 'alert' ? 'alert' : 'note' }, text);
}

export function notFound(brand, nav) {
  mount({ title: 'Page not found', brand, nav, main: [h('h1', {}, 'Page not found'), h('p', {}, h('a', { href: '/' }, 'Go to the home page'))] });
}
