/**
 * The frames a pick reaches (issue 31). A same-origin frame's events never
 * reach the top window, so the picker listens in each such frame's window
 * too, found at the start and again when the pointer enters a frame (one
 * added or reloaded since). A cross-origin frame cannot be read (its content
 * is left out of the snapshot: observe/frames.ts), so nothing in it can be
 * picked; while the pick is on it is made transparent to the pointer, so a
 * click there lands in the page round it, where the picker swallows it and
 * says why, instead of acting inside the frame.
 */

const FRAME_TAGS = 'iframe, frame';

export interface PickFrames {
  /** Listens in the frames of `doc` (and theirs) that are not listened in yet; blocks the cross-origin ones. */
  adopt(doc: Document): void;
  /** The cross-origin frame under the pointer of `e`, or null. */
  crossOriginAt(e: MouseEvent): Element | null;
  /** Stops listening everywhere and gives the cross-origin frames their pointer back. */
  release(): void;
}

function readableDocument(frame: Element): Document | null {
  try {
    const doc = (frame as HTMLIFrameElement).contentDocument;
    return doc !== null && doc.defaultView !== null ? doc : null;
  } catch {
    return null;
  }
}

export function pickFrames(listen: (win: Window) => () => void): PickFrames {
  const listening = new Map<Window, () => void>();
  /** Each blocked frame's own inline pointer-events, restored on release. */
  const blocked = new Map<HTMLElement, string>();

  function adoptFrame(frame: Element): void {
    const inner = readableDocument(frame);
    if (inner === null) {
      const el = frame as HTMLElement;
      if (!blocked.has(el)) {
        blocked.set(el, el.style.getPropertyValue('pointer-events'));
        el.style.setProperty('pointer-events', 'none', 'important');
      }
      return;
    }
    const win = inner.defaultView!;
    if (!listening.has(win)) listening.set(win, listen(win));
    adopt(inner);
  }

  function adopt(doc: Document): void {
    for (const frame of Array.from(doc.querySelectorAll(FRAME_TAGS))) adoptFrame(frame);
  }

  return {
    adopt,
    crossOriginAt(e) {
      const doc = e.view?.document;
      for (const frame of blocked.keys()) {
        if (frame.ownerDocument !== doc || !frame.isConnected) continue;
        const r = frame.getBoundingClientRect();
        if (e.clientX >= r.left && e.clientX < r.right && e.clientY >= r.top && e.clientY < r.bottom) return frame;
      }
      return null;
    },
    release() {
      for (const stop of listening.values()) stop();
      listening.clear();
      for (const [el, before] of blocked) {
        if (before === '') el.style.removeProperty('pointer-events');
        else el.style.setProperty('pointer-events', before);
      }
      blocked.clear();
    },
  };
}
