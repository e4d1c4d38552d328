/**
 * Main-world content script, run at document_start in every frame before the
 * page's own scripts. It only marks: an element that gets a click-like
 * listener (addEventListener or an `on…` property) receives the attribute
 * `data-apprentice-listens` naming the event types. Keyboard-navigation
 * extensions (Vimium) record listeners the same way; Chromium's
 * DOMSnapshot `isClickable` reads the same fact from the engine.
 *
 * Trust: the page can set or forge this attribute too. The isolated content
 * script therefore reads a mark as nothing more than "this element may be
 * clickable" (one signal among several, validated with zod there); a mark
 * never names an element, gives it a role, or runs anything.
 *
 * Robustness: originals are captured before the page runs; every wrapper
 * calls the original first and swallows its own errors, so a page that
 * replaces these methods later, or throws in its handlers, is unaffected.
 *
 * It also says when the page's own requests start and end (fetch and XHR to
 * its origin): the events `apprentice-request-start` / `-end` on the
 * document, which the settle wait counts (dom/page-settle.ts) — a script
 * still loading what it will render is a page still changing. The page can
 * send them too; the wait is bounded, so that costs at most its 1.5 s.
 */
(() => {
  const MARK = 'data-apprentice-listens';
  const CLICK_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick', 'auxclick']);
  const flag = '__apprenticeListenerMarks';
  const scope = globalThis as typeof globalThis & { [flag]?: true };
  if (scope[flag]) return;
  scope[flag] = true;

  const ElementClass = globalThis.Element;
  const proto = globalThis.EventTarget?.prototype;
  if (ElementClass === undefined || proto === undefined) return;
  const getAttribute = ElementClass.prototype.getAttribute;
  const setAttribute = ElementClass.prototype.setAttribute;
  const nativeToString = Function.prototype.toString;

  const mark = (target: unknown, type: unknown): void => {
    try {
      if (!(target instanceof ElementClass) || typeof type !== 'string') return;
      const t = type.toLowerCase();
      if (!CLICK_TYPES.has(t)) return;
      const had = getAttribute.call(target, MARK) ?? '';
      const list = had === '' ? [] : had.split(' ');
      if (list.includes(t)) return;
      list.push(t);
      setAttribute.call(target, MARK, list.join(' '));
    } catch {
      // Marking is best-effort; the page's own call already went through.
    }
  };

  /** Makes a wrapper look like the function it replaces (name, length, toString). */
  const disguise = <F extends (...args: never[]) => unknown>(wrapper: F, original: F): F => {
    try {
      Object.defineProperty(wrapper, 'name', { value: original.name });
      Object.defineProperty(wrapper, 'length', { value: original.length });
      Object.defineProperty(wrapper, 'toString', { value: () => nativeToString.call(original), writable: true, configurable: true });
    } catch {
      // cosmetic only
    }
    return wrapper;
  };

  const add = proto.addEventListener;
  if (typeof add === 'function') {
    const wrapped = function addEventListener(this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
      const result = add.call(this, type, listener, options);
      if (listener !== null && listener !== undefined) mark(this, type);
      return result;
    };
    try {
      Object.defineProperty(proto, 'addEventListener', { value: disguise(wrapped, add), writable: true, configurable: true, enumerable: true });
    } catch {
      // a frozen prototype: only attribute and cursor signals remain
    }
  }

  watchOwnRequests(proto, add, disguise);

  // `el.onclick = fn` never calls addEventListener.
  for (const ctor of [globalThis.HTMLElement, globalThis.SVGElement]) {
    const p = ctor?.prototype;
    if (p === undefined) continue;
    for (const type of ['click', 'mousedown', 'pointerdown', 'mouseup']) {
      const key = `on${type}`;
      const desc = Object.getOwnPropertyDescriptor(p, key) ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(p) as object, key);
      if (desc?.set === undefined || desc.get === undefined || desc.configurable !== true) continue;
      const { get, set } = desc;
      try {
        Object.defineProperty(p, key, {
          configurable: true,
          enumerable: desc.enumerable ?? true,
          get: disguise(function (this: Element) { return get.call(this); }, get),
          set: disguise(function (this: Element, value: unknown) {
            set.call(this, value);
            if (typeof value === 'function') mark(this, type);
          }, set),
        });
      } catch {
        // leave this property alone
      }
    }
  }
})();
type Disguise = <F extends (...args: never[]) => unknown>(wrapper: F, original: F) => F;

/**
 * Requests of the page to its own origin: start and end, for the settle wait.
 * Set up from the script above with the originals it captured before the
 * page ran (`add`, `disguise`).
 */
function watchOwnRequests(proto: EventTarget, add: EventTarget['addEventListener'] | undefined, disguise: Disguise): void {
  // Requests of the page to its own origin: start and end, for the settle wait.
  const dispatch = proto.dispatchEvent;
  const EventClass = globalThis.Event;
  const doc = globalThis.document;
  const signal = (type: 'apprentice-request-start' | 'apprentice-request-end'): void => {
    try {
      dispatch.call(doc, new EventClass(type));
    } catch {
      // best-effort
    }
  };
  const ownOrigin = (url: unknown): boolean => {
    try {
      return new URL(String(url), globalThis.location.href).origin === globalThis.location.origin;
    } catch {
      return false;
    }
  };
  const nativeFetch = globalThis.fetch;
  if (typeof nativeFetch === 'function' && doc !== undefined) {
    const wrapped = function fetch(this: unknown, ...args: Parameters<typeof globalThis.fetch>): Promise<Response> {
      const result = nativeFetch.apply(this, args);
      try {
        const input = args[0];
        const url = typeof input === 'string' || input instanceof URL ? String(input) : (input as Request | undefined)?.url;
        if (ownOrigin(url)) {
          signal('apprentice-request-start');
          const end = () => signal('apprentice-request-end');
          result.then(end, end);
        }
      } catch {
        // the page's request went through
      }
      return result;
    };
    try {
      globalThis.fetch = disguise(wrapped, nativeFetch);
    } catch {
      // a read-only fetch: resource timing still sees requests end
    }
  }
  const xhr = globalThis.XMLHttpRequest?.prototype;
  if (xhr !== undefined && typeof add === 'function' && doc !== undefined) {
    const urls = new WeakMap<XMLHttpRequest, unknown>();
    const open = xhr.open;
    const send = xhr.send;
    const wrappedOpen = function open_(this: XMLHttpRequest, ...args: unknown[]) {
      try {
        urls.set(this, args[1]);
      } catch {
        // best-effort
      }
      return (open as (...a: unknown[]) => void).apply(this, args);
    };
    const wrappedSend = function send_(this: XMLHttpRequest, ...args: unknown[]) {
      try {
        if (ownOrigin(urls.get(this))) {
          signal('apprentice-request-start');
          add.call(this, 'loadend', () => signal('apprentice-request-end'), { once: true });
        }
      } catch {
        // best-effort
      }
      return (send as (...a: unknown[]) => void).apply(this, args);
    };
    try {
      Object.defineProperty(xhr, 'open', { value: disguise(wrappedOpen, open as never), writable: true, configurable: true, enumerable: true });
      Object.defineProperty(xhr, 'send', { value: disguise(wrappedSend, send as never), writable: true, configurable: true, enumerable: true });
    } catch {
      // leave XHR alone
    }
  }
}

export {};
