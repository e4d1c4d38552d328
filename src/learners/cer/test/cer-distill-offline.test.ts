import { describe, expect, it } from 'vitest';
import { mergeIntoBuffer } from '../core/buffer.ts';
import { distillOffline } from '../core/distill.ts';
import { pageNameFromUrl } from '../../../core/learning/shared/page-name.ts';
import type { ExperienceEntry } from '../core/experience.ts';
import { rankLexical, renderSelection } from '../core/retrieve.ts';
import { importTrajectories } from '../../../core/episode/trajectory-file.ts';
import { fixture, liveEpisode, ORIGIN, step } from './cer-helpers.ts';

const NOW = 1000;

/** Distils the fixtures in order into one buffer, as the learner would. */
function bufferFrom(...names: Parameters<typeof fixture>[0][]): ExperienceEntry[] {
  let buffer: ExperienceEntry[] = [];
  for (const name of names) {
    const d = distillOffline(fixture(name), buffer, NOW);
    const m = mergeIntoBuffer(buffer, d.entries, { maxEntries: 200, now: NOW });
    const byId = new Map(buffer.map((e) => [e.id, e]));
    for (const e of m.put) byId.set(e.id, e);
    buffer = [...byId.values()];
  }
  return buffer;
}

describe('trajectory import', () => {
  it('turns a recorded trajectory into an episode with page types, results and per-step titles', () => {
    const input = fixture('shop-sort-open-cheapest');
    const { episode } = input;
    expect(episode).toMatchObject({ id: 'traj-shop-sort-1', origin: ORIGIN, status: 'success', kind: 'imported', tabId: null, startedAt: 1767225700000 });
    expect(episode.steps.map((s) => s.regUrl)).toEqual(['/list.html', '/list.html?sort=price', '/product/{id}']);
    expect(episode.steps.map((s) => s.result)).toEqual([
      { ok: true, navigated: true }, { ok: true, navigated: true }, { ok: true, navigated: false },
    ]);
    expect(episode.steps.map((s) => s.chosen?.semantic)).toEqual([
      'select_option(<combobox "Sort by">, "Price")', 'click(<link "Green mug">)', 'send_msg_to_user("Green mug, $8.25")',
    ]);
    expect(input.pageTitles).toEqual(['Products — Fixture Shop', 'Products — Fixture Shop', 'Green mug — Fixture Shop']);
  });

  it('keeps an abandoned demonstration as partial, never as a success, and reports bad trajectories without dropping good ones', () => {
    const good = { task: 'Open the cart', startUrl: `${ORIGIN}/list.html`, outcome: 'success', abandoned: true, steps: [{ url: `${ORIGIN}/list.html`, action: 'click(<link "Cart">)' }] };
    const refForm = { task: 'Open the cart', startUrl: `${ORIGIN}/list.html`, outcome: 'success', steps: [{ url: `${ORIGIN}/list.html`, action: 'click([12])' }] };
    const badShape = { task: 'Open the cart', startUrl: `${ORIGIN}/list.html`, outcome: 'done', steps: [] };
    const out = importTrajectories({ trajectories: [good, refForm, badShape] }, { now: 5, kind: 'demonstration' });
    expect(out.inputs.map((i) => [i.episode.status, i.episode.kind, i.episode.id.startsWith('demo-')])).toEqual([['partial', 'demonstration', true]]);
    expect(out.errors).toEqual([
      'trajectory 2: step 1: "click([12])" targets a ref; write the element as <role "name">',
      'trajectory 3: outcome: Invalid option: expected one of "success"|"failure"|"partial"',
    ]);
    // Re-importing the same trajectory gives the same episode id, so provenance does not double count it.
    expect(importTrajectories(good, { now: 9, kind: 'demonstration' }).inputs[0]?.episode.id).toBe(out.inputs[0]?.episode.id);
  });
});

describe('offline distillation', () => {
  it('distils the page and an abstract skill from the shop trajectory', () => {
    const out = distillOffline(fixture('shop-filter-add-to-cart'), [], NOW);
    expect(out.reason).toBeNull();
    expect(out.entries).toEqual([
      {
        id: expect.stringMatching(/^d-/),
        origin: ORIGIN,
        kind: 'dynamics',
        pageName: 'Products — Fixture Shop',
        description: 'A table of products (name, price, rating) with a Filter products search box, a Sort by dropdown and an Add to cart button on every row.',
        usages: ['Type {filter_products} into the searchbox "Filter products"', 'Click the button "Add {filter_products} to cart"'],
        regUrl: '/list.html',
        exampleUrl: `${ORIGIN}/list.html`,
        provenance: { episodeIds: ['traj-shop-cart-1'], createdAt: NOW, updatedAt: NOW, retrieved: 0, retrievedThenSucceeded: 0, source: 'imported' },
      },
      {
        id: expect.stringMatching(/^s-/),
        origin: ORIGIN,
        kind: 'skill',
        name: 'Find the {filter_products} and add it to the cart',
        variables: ['filter_products', 'answer'],
        steps: [
          { text: 'Type {filter_products} into the searchbox "Filter products"', exampleActions: ['fill(<searchbox "Filter products">, "{filter_products}")'], regUrl: '/list.html' },
          { text: 'Click the button "Add {filter_products} to cart"', exampleActions: ['click(<button "Add {filter_products} to cart">)'], regUrl: '/list.html' },
          { text: 'Give the person the answer', exampleActions: ['send_msg_to_user("{answer}")'], regUrl: '/list.html' },
        ],
        provenance: { episodeIds: ['traj-shop-cart-1'], createdAt: NOW, updatedAt: NOW, retrieved: 0, retrievedThenSucceeded: 0, source: 'imported' },
      },
    ]);
  });

  it('names pages from the URL when no title is known, and describes them by what was done there', () => {
    const episode = liveEpisode('e-live', 'Open order 42', [
      step(0, `${ORIGIN}/account/orders`, '/account/orders', 'click(<link "Order 42">)', { result: { ok: true, navigated: true } }),
      step(1, `${ORIGIN}/account/orders/42`, '/account/orders/{id}', 'send_msg_to_user("Order 42 shipped")'),
    ]);
    const out = distillOffline({ episode }, [], NOW);
    const pages = out.entries.filter((e) => e.kind === 'dynamics');
    expect(pages.map((p) => [p.pageName, p.description, p.usages])).toEqual([
      ['Account orders page', 'A page used on the way to: Open order {item}. Controls used here: Click the link "Order {item}".', ['Click the link "Order {item}"']],
      ['Account orders detail page', 'A page passed through on the way to: Open order {item}.', []],
    ]);
    expect(pageNameFromUrl('/')).toBe('Home page');
    expect(pageNameFromUrl('/{slug}.html')).toBe('Item page');
    expect(pageNameFromUrl('/settings/edit-profile?tab=security')).toBe('Settings edit profile page');
    expect(pageNameFromUrl('https://x.example/product/{id}')).toBe('Product detail page');
  });

  it('learns pages but no skill from a failed episode, skips failed actions, and says why nothing was learned', () => {
    const failed = liveEpisode('e-fail', 'Find the "Red teapot"', [
      step(0, `${ORIGIN}/list.html`, '/list.html', 'click(<button "Nope">)', { result: { ok: false, code: 'element_gone', message: 'gone' } }),
    ], 'failure');
    const out = distillOffline({ episode: failed }, [], NOW);
    expect(out.entries.map((e) => e.kind)).toEqual(['dynamics']);
    expect(out.entries[0]?.kind === 'dynamics' && out.entries[0].usages).toEqual([]);
    expect(out.notes).toEqual(['no skill distilled offline from a failure episode']);

    const empty = distillOffline({ episode: liveEpisode('e-empty', 'x', [step(0, `${ORIGIN}/`, '/', null)]) }, [], NOW);
    expect(empty).toEqual({ entries: [], reason: 'the episode has no executed actions to learn from', notes: [] });
  });

  it('leaves a success\'s detours out of its skill: steps that came back to a page as it was', () => {
    // Home → Basket → Help → Basket → Home (a wander back to the start), then the product and its button.
    const nav = { ok: true, navigated: true } as const;
    const at = (i: number, path: string, key: string, semantic: string) => step(i, `${ORIGIN}${path}`, path, semantic, { pageKey: key, result: nav });
    const episode = liveEpisode('e-detour', 'Put the Copper trowel in my basket', [
      at(0, '/', 'home', 'click(<link "Basket (0)">)'),
      at(1, '/basket', 'basket', 'click(<link "Help">)'),
      at(2, '/help', 'help', 'click(<link "Basket (0)">)'),
      at(3, '/basket', 'basket', 'click(<link "Keep shopping">)'),
      at(4, '/', 'home', 'click(<link "Copper trowel">)'),
      at(5, '/item/7', 'item', 'click(<button "Put in basket">)'),
    ]);
    const skill = distillOffline({ episode }, [], NOW).entries.find((e) => e.kind === 'skill');
    expect(skill?.kind === 'skill' && skill.steps.map((s) => s.exampleActions[0])).toEqual([
      'click(<link "Copper trowel">)', 'click(<button "Put in basket">)',
    ]);
    // Without page keys (imports, older records) nothing can be told apart: every step stays.
    const unkeyed = liveEpisode('e-unkeyed', episode.task, episode.steps.map((s) => ({ ...s, pageKey: undefined })));
    const all = distillOffline({ episode: unkeyed }, [], NOW).entries.find((e) => e.kind === 'skill');
    expect(all?.kind === 'skill' && all.steps.length).toBe(6);
  });

  it('reuses the id and name of a page already in the buffer', () => {
    const first = distillOffline(fixture('shop-filter-add-to-cart'), [], NOW).entries;
    const episode = liveEpisode('e2', 'Sort by "Rating"', [step(0, `${ORIGIN}/list.html`, '/list.html', 'select_option(<combobox "Sort by">, "Rating")')]);
    const again = distillOffline({ episode }, first, NOW).entries.filter((e) => e.kind === 'dynamics');
    expect(again.map((e) => [e.id, e.kind === 'dynamics' && e.pageName])).toEqual([[first[0]!.id, 'Products — Fixture Shop']]);
  });
});

describe('lexical retrieval and replay on recorded trajectories', () => {
  const buffer = bufferFrom('shop-filter-add-to-cart', 'shop-sort-open-cheapest', 'signup-form');

  it('builds one buffer from three trajectories, merging the shared products page', () => {
    expect(buffer.map((e) => (e.kind === 'dynamics' ? `page ${e.regUrl}` : `skill ${e.name}`))).toEqual([
      'page /list.html',
      'skill Find the {filter_products} and add it to the cart',
      'page /list.html?sort=price',
      'page /product/{id}',
      'skill Sort the products by {sort_by} and open the cheapest one',
      'page /form.html',
      'skill Create an account for {full_name} with email {email} in {country}',
    ]);
    const products = buffer[0]!;
    expect(products.provenance.episodeIds).toEqual(['traj-shop-cart-1', 'traj-shop-sort-1', 'traj-signup-1']);
    // The secret typed in the demonstration is nowhere in the buffer.
    expect(JSON.stringify(buffer)).not.toContain('correct-horse-9');
  });

  it('replays the cart skill for a second, different item, with its actions instantiated', () => {
    const task = 'Find the "Blue kettle" and add it to the cart';
    const selection = rankLexical(buffer, task, '/list.html', { dynamics: 5, skills: 5 });
    expect(selection.skills.map((s) => s.name)).toEqual(['Find the {filter_products} and add it to the cart']);
    expect(selection.dynamics.map((d) => d.regUrl)).toEqual(['/list.html', '/product/{id}']);
    const sections = renderSelection(selection, task, '/list.html');
    const skillSection = sections[2]!;
    expect(skillSection.title).toBe('Skill: Find the Blue kettle and add it to the cart');
    expect(skillSection.suggestedActions).toEqual(['fill(<searchbox "Filter products">, "Blue kettle")', 'click(<button "Add Blue kettle to cart">)']);
    expect(skillSection.text).toBe([
      'Steps:',
      '1. Type Blue kettle into the searchbox "Filter products"',
      '   e.g. fill(<searchbox "Filter products">, "Blue kettle")',
      '2. Click the button "Add Blue kettle to cart"',
      '   e.g. click(<button "Add Blue kettle to cart">)',
      '3. Give the person the answer',
      '   e.g. send_msg_to_user("{answer}")',
    ].join('\n'));
    expect(sections[0]).toEqual({
      id: buffer[0]!.id,
      title: 'Page: Products — Fixture Shop',
      text: [
        'What it shows: A table of products (name, price, rating) with a Filter products search box, a Sort by dropdown and an Add to cart button on every row.',
        'Useful for: Type {filter_products} into the searchbox "Filter products"; Click the button "Add {filter_products} to cart"; Choose {sort_by} in the combobox "Sort by"; Click the link "Create account"',
        `URL: ${ORIGIN}/list.html`,
        'You are on a page of this kind now.',
      ].join('\n'),
    });
  });

  it('replays the sign-up demonstration for another person, leaving the password for them to give', () => {
    const task = 'Create an account for "Grace Hopper" with email "grace@example.com" in Germany';
    const selection = rankLexical(buffer, task, '/form.html', { dynamics: 5, skills: 5 });
    expect(selection.skills.map((s) => s.name)).toEqual(['Create an account for {full_name} with email {email} in {country}']);
    expect(selection.dynamics.map((d) => d.regUrl)).toEqual(['/form.html', '/list.html']);
    const [, , skillSection] = renderSelection(selection, task, '/form.html');
    // The link was clicked on the product list: on the form it is an example, not a suggestion.
    expect(skillSection?.text).toContain('e.g. click(<link "Create account">)');
    expect(renderSelection(selection, task, '/list.html')[2]?.suggestedActions).toEqual(['click(<link "Create account">)']);
    expect(skillSection?.suggestedActions).toEqual([
      'fill(<textbox "Full name">, "Grace Hopper")',
      'fill(<textbox "Email">, "grace@example.com")',
      'select_option(<combobox "Country">, "Germany")',
      'click(<button "Sign up">)',
    ]);
    expect(skillSection?.text).toContain('4. Type {password} into the textbox "Password"');
  });

  it('suggests a skill\'s steps in order: nothing after a setting of this page the effective state does not hold yet', () => {
    const task = 'Create an account for "Grace Hopper" with email "grace@example.com" in Germany';
    const selection = rankLexical(buffer, task, '/form.html', { dynamics: 5, skills: 5 });
    const suggestedWith = (state: string[]) => renderSelection(selection, task, '/form.html', state)[2]?.suggestedActions;
    // On arrival only the first field; "Sign up" waits.
    expect(suggestedWith([])).toEqual(['fill(<textbox "Full name">, "Grace Hopper")']);
    // The name is typed (with any text): the e-mail is next.
    expect(suggestedWith(['fill(<textbox "Full name">, "G. Hopper")'])).toEqual([
      'fill(<textbox "Full name">, "Grace Hopper")',
      'fill(<textbox "Email">, "grace@example.com")',
    ]);
    // The password is left for the person; until the page holds one, "Sign up" is not suggested.
    const filled = ['fill(<textbox "Full name">, "Grace Hopper")', 'fill(<textbox "Email">, "grace@example.com")'];
    expect(suggestedWith(filled)).not.toContain('click(<button "Sign up">)');
    expect(suggestedWith([...filled, 'fill(<textbox "Password">, "{password}")', 'select_option(<combobox "Country">, "Germany")'])).toContain('click(<button "Sign up">)');
  });

  it('respects k and leaves out entries that share nothing with the task', () => {
    const selection = rankLexical(buffer, 'Sort the products by "Rating" and open the best one', null, { dynamics: 1, skills: 5 });
    expect(selection.dynamics.map((d) => d.regUrl)).toEqual(['/list.html?sort=price']);
    expect(selection.skills.map((s) => s.name)).toEqual(['Sort the products by {sort_by} and open the cheapest one']);
    expect(rankLexical(buffer, 'zzz qqq', '/nowhere', { dynamics: 5, skills: 5 })).toEqual({ dynamics: [], skills: [] });
  });
});
