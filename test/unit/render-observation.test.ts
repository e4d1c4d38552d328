import { describe, expect, it } from 'vitest';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { PageObservationSchema } from '../../src/core/page/observation.ts';
import { renderNodeLine, renderObservation, truncateObservation } from '../../src/core/page/render-observation.ts';

const node = (over: Partial<SnapshotNode> & Pick<SnapshotNode, 'kind' | 'role' | 'name'>): SnapshotNode => ({
  ref: null, states: {}, depth: 0, inViewport: true, ...over,
});

const page = (nodes: SnapshotNode[], over: Partial<PageObservation> = {}): PageObservation => ({
  url: 'http://shop.test/orders',
  title: 'Orders',
  nodes,
  focusedRef: null,
  offscreen: { above: 0, below: 0 },
  omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 720 },
  tookMs: 1,
  ...over,
});

describe('renderNodeLine', () => {
  it('renders an interactive element with ref, role and quoted name', () => {
    expect(renderNodeLine(node({ ref: '12', kind: 'interactive', role: 'button', name: 'Sign in' }))).toBe('[12] button "Sign in"');
  });

  it('says what is visible when the name holds text a person cannot see', () => {
    expect(renderNodeLine(node({ ref: '3', kind: 'interactive', role: 'button', name: 'Close', shownText: '' }))).toBe('[3] button "Close" (name not visible on the page)');
    expect(renderNodeLine(node({ ref: '4', kind: 'interactive', role: 'button', name: 'Continue', shownText: 'Delete "all"' })))
      .toBe('[4] button "Continue" (visible text "Delete \\"all\\"")');
    expect(renderNodeLine(node({ kind: 'heading', role: 'heading', name: 'Filters', shownText: '', level: 2 }))).toBe('heading "Filters" (name not visible on the page) level=2');
  });

  it('renders value, input type and states in a fixed order', () => {
    const n = node({
      ref: '5', kind: 'interactive', role: 'textbox', name: 'Email', value: 'a@b.c', inputType: 'email',
      states: { focused: true, required: true }, depth: 1,
    });
    expect(renderNodeLine(n)).toBe('  [5] textbox "Email" value="a@b.c" type=email required focused');
  });

  it('does not repeat input types the role already says', () => {
    expect(renderNodeLine(node({ ref: '3', kind: 'interactive', role: 'textbox', name: 'Name', inputType: 'text' }))).toBe('[3] textbox "Name"');
  });

  it('renders a combobox with its options', () => {
    const n = node({ ref: '7', kind: 'interactive', role: 'combobox', name: 'Sort by', value: 'Price', options: ['Price', 'Name'] });
    expect(renderNodeLine(n)).toBe('[7] combobox "Sort by" value="Price" options=["Price","Name"]');
  });

  it('shows only the first 25 options of a long list', () => {
    const options = Array.from({ length: 27 }, (_, i) => `o${i}`);
    const line = renderNodeLine(node({ ref: '1', kind: 'interactive', role: 'combobox', name: 'Country', options }));
    expect(line).toBe(`[1] combobox "Country" options=${JSON.stringify(options.slice(0, 25))}+2 more`);
  });

  it('renders headings, landmarks and text without refs', () => {
    expect(renderNodeLine(node({ kind: 'heading', role: 'heading', name: 'Orders', level: 2 }))).toBe('heading "Orders" level=2');
    expect(renderNodeLine(node({ kind: 'landmark', role: 'navigation', name: 'Main', depth: 1 }))).toBe('  navigation "Main"');
    expect(renderNodeLine(node({ kind: 'landmark', role: 'main', name: '' }))).toBe('main');
    expect(renderNodeLine(node({ kind: 'text', role: 'text', name: 'Say "hi"' }))).toBe('text "Say \\"hi\\""');
  });

  it('renders checked, mixed, expanded and disabled states', () => {
    expect(renderNodeLine(node({ ref: '8', kind: 'interactive', role: 'checkbox', name: 'News', states: { checked: true } }))).toBe('[8] checkbox "News" checked');
    expect(renderNodeLine(node({ ref: '8', kind: 'interactive', role: 'checkbox', name: 'News', states: { checked: false } }))).toBe('[8] checkbox "News"');
    expect(renderNodeLine(node({ ref: '9', kind: 'interactive', role: 'checkbox', name: 'All', states: { checked: 'mixed' } }))).toBe('[9] checkbox "All" checked=mixed');
    expect(renderNodeLine(node({ ref: 'f1:4', kind: 'interactive', role: 'button', name: 'Menu', states: { expanded: false, disabled: true } })))
      .toBe('[f1:4] button "Menu" expanded=false disabled');
  });
});

describe('renderObservation', () => {
  it('renders header, nodes, off-screen summary and omissions', () => {
    const obs = page(
      [
        node({ kind: 'landmark', role: 'main', name: '' }),
        node({ kind: 'heading', role: 'heading', name: 'Orders', level: 2, depth: 1 }),
        node({ ref: '12', kind: 'interactive', role: 'button', name: 'Sign in', depth: 1 }),
      ],
      { offscreen: { above: 2, below: 5 }, scroll: { y: 100, maxY: 2400, viewportHeight: 720 }, omissions: ['closed shadow root in <x-box>'] },
    );
    expect(renderObservation(obs)).toBe([
      'Page: Orders (http://shop.test/orders)',
      'main',
      '  heading "Orders" level=2',
      '  [12] button "Sign in"',
      'Off-screen: 2 lines above, 5 below not shown (scroll y=100 of 2400)',
      'Omitted: closed shadow root in <x-box>',
    ].join('\n'));
  });

  it('says the page scrolls even when nothing was collapsed', () => {
    const obs = page([], { title: '', scroll: { y: 0, maxY: 300, viewportHeight: 720 } });
    expect(renderObservation(obs)).toBe('Page: (untitled) (http://shop.test/orders)\nOff-screen: nothing hidden (scroll y=0 of 300)');
  });
});

describe('truncateObservation', () => {
  const far = 'Far away footer text. '.repeat(5).trim(); // 109 characters
  // 0 text, 1 link, 2 textbox (form field), 3 long text (off-screen), 4 button (last acted), 5 text, 6 link (off-screen), 7 focused button
  const nodes: SnapshotNode[] = [
    node({ kind: 'text', role: 'text', name: 'Welcome back to the shop' }),
    node({ ref: '1', kind: 'interactive', role: 'link', name: 'Home' }),
    node({ ref: '2', kind: 'interactive', role: 'textbox', name: 'Search' }),
    node({ kind: 'text', role: 'text', name: far, inViewport: false }),
    node({ ref: '3', kind: 'interactive', role: 'button', name: 'Add to cart' }),
    node({ kind: 'text', role: 'text', name: 'Price $10' }),
    node({ ref: '4', kind: 'interactive', role: 'link', name: 'Terms', inViewport: false }),
    node({ ref: '5', kind: 'interactive', role: 'button', name: 'Checkout', states: { focused: true } }),
  ];
  const obs = page(nodes, { focusedRef: '5' });
  const names = (o: PageObservation): string[] => o.nodes.map((n) => n.name);

  it('returns the observation unchanged when it fits', () => {
    expect(renderObservation(obs).length).toBe(313);
    expect(truncateObservation(obs, { maxChars: 313 })).toBe(obs);
  });

  it('drops off-screen text first, then on-screen text farthest from the last action, then other lines', () => {
    // Each cut must also leave room for the note line (66 characters with its newline).
    const cut1 = truncateObservation(obs, { maxChars: 265, lastActedRef: '3' });
    expect(names(cut1)).toEqual(['Welcome back to the shop', 'Home', 'Search', 'Add to cart', 'Price $10', 'Terms', 'Checkout']);
    expect(cut1.omissions).toEqual(['truncated to 265 chars: 1 text and 0 other lines dropped']);
    expect(renderObservation(cut1).length).toBe(262);

    // "Welcome…" (4 lines from [3]) goes before "Price $10" (1 line away); then the off-screen link.
    const cut2 = truncateObservation(obs, { maxChars: 200, lastActedRef: '3' });
    expect(names(cut2)).toEqual(['Home', 'Search', 'Add to cart', 'Checkout']);
    expect(cut2.omissions).toEqual(['truncated to 200 chars: 3 text and 1 other lines dropped']);
    expect(renderObservation(cut2).length).toBe(196);
  });

  it('never drops the focused element, form fields or the last acted element, and says when still over budget', () => {
    const cut = truncateObservation(obs, { maxChars: 50, lastActedRef: '3' });
    expect(cut.nodes.map((n) => n.ref)).toEqual(['2', '3', '5']);
    expect(cut.omissions).toEqual(['truncated to 50 chars: 3 text and 2 other lines dropped (what is left is protected and still over budget)']);
  });

  it('anchors on the focused element without a last action, and is deterministic', () => {
    const a = truncateObservation(obs, { maxChars: 180 });
    expect(a).toEqual(truncateObservation(obs, { maxChars: 180 }));
    expect(PageObservationSchema.safeParse(a).success).toBe(true);
    // Anchor = index 7: "Home" (distance 6) goes before "Add to cart" (distance 3).
    expect(names(a)).toEqual(['Search', 'Add to cart', 'Checkout']);
    expect(names(truncateObservation(obs, { maxChars: 170 }))).toEqual(['Search', 'Checkout']);
  });
});

describe('truncateObservation with the task', () => {
  // A moderation list: each row's "Approve" tells rows apart by its row context, and the task names one row.
  const people = ['Ada Byron', 'Grace Kim', 'Lucia Romano', 'Omar Haddad'];
  const rows: SnapshotNode[] = [node({ kind: 'heading', role: 'heading', name: 'Comments' }), ...people.flatMap((p, i) => [
    node({ kind: 'text', role: 'text', name: p }),
    node({ ref: String(i + 1), kind: 'interactive', role: 'button', name: 'Approve', context: [{ role: 'row', name: p }] }),
  ])];
  const list = page(rows, { title: 'Comments', url: 'http://blog.test/comments' });
  const refs = (o: PageObservation): (string | null)[] => o.nodes.map((n) => n.ref);

  it('without it, cuts the rows farthest from the top of the view, and says how many rows it cut into', () => {
    expect(renderObservation(list).length).toBe(295);
    const cut = truncateObservation(list, { maxChars: 250 });
    // The 4 text lines first (text before controls), then [4] and [3], the farthest from the anchor (index 0, the top of the view).
    expect(refs(cut)).toEqual([null, '1', '2']);
    expect(cut.omissions).toEqual(['truncated to 250 chars: 4 text and 2 other lines dropped, lines of 2 rows or items among them']);
    expect(renderObservation(cut).length).toBe(242);
  });

  it('keeps the row the task names, however far down, and cuts the others first', () => {
    const cut = truncateObservation(list, { maxChars: 250, task: 'Approve the comment by Omar Haddad' });
    // Order: the 3 untied texts, the heading, the text "Omar Haddad" (its own name is in the task), then the
    // "Approve" buttons tied by their name only, farthest first ([3], [2]); [4] (its row is in the task) last.
    expect(refs(cut)).toEqual(['1', '4']);
    expect(cut.nodes.at(-1)!.context).toEqual([{ role: 'row', name: 'Omar Haddad' }]);
    expect(cut.omissions).toEqual(['truncated to 250 chars: 4 text and 3 other lines dropped, lines of 2 rows or items among them']);
    expect(renderObservation(cut).length).toBe(225);
  });

  it('matches the task by whole words only: "Omar Hadda" names no row', () => {
    expect(refs(truncateObservation(list, { maxChars: 250, task: 'Approve the comment by Omar Hadda' }))).toEqual(['1', '2']);
  });
});

