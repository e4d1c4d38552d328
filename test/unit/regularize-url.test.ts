import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regularizeUrl, urlTokens } from '../../src/core/page/regularize-url.ts';

// [what, url, origin, regUrl]
const cases: [string, string, string, string][] = [
  // shops
  ['Amazon product with name prefix and tracking', 'https://www.amazon.com/Apple-iPhone-15-Pro/dp/B0CHX1W1XY/ref=sr_1_1', 'https://www.amazon.com', '/dp/{id}'],
  ['Amazon bare product', 'https://www.amazon.com/dp/B0CHX1W1XY/', 'https://www.amazon.com', '/dp/{id}'],
  ['Amazon gp/product', 'https://www.amazon.com/gp/product/0143127799', 'https://www.amazon.com', '/gp/product/{id}'],
  ['Amazon search', 'https://www.amazon.com/s?k=usb+cable&page=3&crid=2X8Q', 'https://www.amazon.com', '/s?crid={value}&k={value}&page=3'],
  ['Shopify product', 'https://shop.example/products/blue-cotton-shirt?variant=40123', 'https://shop.example', '/products/{slug}?variant={value}'],
  ['Shopify product in a collection', 'https://shop.example/collections/summer/products/linen-shorts', 'https://shop.example', '/collections/{slug}/products/{slug}'],
  ['Shopify collection sorted', 'https://shop.example/collections/summer?sort_by=price-ascending&utm_source=ig', 'https://shop.example', '/collections/{slug}?sort_by=price-ascending'],
  ['Magento product by id', 'https://magento.example/catalog/product/view/id/123/', 'https://magento.example', '/catalog/product/view/id/{id}'],
  ['Magento product slug page', 'https://magento.example/radiant-tee.html', 'https://magento.example', '/{slug}.html'],
  ['Magento product slug with sku', 'https://magento.example/breathe-easy-tank-wt09.html', 'https://magento.example', '/{slug}.html'],
  ['Magento one-word category page', 'https://magento.example/gear.html', 'https://magento.example', '/gear.html'],
  ['numeric page with extension', 'https://shop.example/item/123.html', 'https://shop.example', '/item/{id}.html'],
  ['slug with id in front', 'https://shop.example/123-blue-shirt', 'https://shop.example', '/{slug}'],
  ['slug with id at the end', 'https://shop.example/catalog/blue-shirt-123', 'https://shop.example', '/catalog/{slug}'],
  ['cart stays a page type', 'https://shop.example/checkout/cart/?form_key=a8Xk2LmQ9pRz', 'https://shop.example', '/checkout/cart'],
  ['wizard step kept', 'https://shop.example/checkout/step-2', 'https://shop.example', '/checkout/step-2'],
  ['OpenCart route kept, product id abstracted', 'http://opencart.example:8080/index.php?route=product/product&product_id=42', 'http://opencart.example:8080', '/index.php?product_id={value}&route=product/product'],
  // forums and Q&A
  ['Reddit post with title', 'https://www.reddit.com/r/programming/comments/1abc2de/my_first_rust_program/', 'https://www.reddit.com', '/r/{slug}/comments/{id}'],
  ['Reddit post without title', 'https://www.reddit.com/r/rust/comments/18xyz9k/', 'https://www.reddit.com', '/r/{slug}/comments/{id}'],
  ['Reddit subreddit listing', 'https://www.reddit.com/r/rust/top/?t=week', 'https://www.reddit.com', '/r/{slug}/top?t={value}'],
  ['Discourse topic at a post', 'https://meta.discourse.org/t/how-to-install-plugins/12345/4', 'https://meta.discourse.org', '/t/{slug}/{id}/{id}'],
  ['phpBB topic', 'https://forum.example/viewtopic.php?f=2&t=123&sid=0123456789abcdef', 'https://forum.example', '/viewtopic.php?f={value}&t={value}'],
  ['phpBB control panel mode kept', 'https://forum.example/ucp.php?mode=register', 'https://forum.example', '/ucp.php?mode=register'],
  ['Stack Overflow question with title', 'https://stackoverflow.com/questions/12345/how-do-i-parse-json-in-python-3', 'https://stackoverflow.com', '/questions/{id}'],
  ['Stack Overflow tagged list', 'https://stackoverflow.com/questions/tagged/python?tab=newest&pagesize=50', 'https://stackoverflow.com', '/questions/tagged/{slug}?pagesize=50&tab=newest'],
  // forges
  ['GitLab merge request', 'https://gitlab.com/gitlab-org/gitlab/-/merge_requests/42', 'https://gitlab.com', '/{slug}/-/merge_requests/{id}'],
  ['GitLab MR diffs in a subgroup', 'https://gitlab.com/a/b/c/-/merge_requests/7/diffs', 'https://gitlab.com', '/{slug}/-/merge_requests/{id}/diffs'],
  ['GitLab blob at a commit', 'https://gitlab.com/group/project/-/blob/0123456789abcdef0123456789abcdef01234567/src/core/x.ts', 'https://gitlab.com', '/{slug}/-/blob/{hash}/{path}'],
  ['GitLab tree on a branch', 'https://gitlab.example/group/project/-/tree/main/docs', 'https://gitlab.example', '/{slug}/-/tree/main/{path}'],
  ['GitLab issue list filtered', 'https://gitlab.com/gitlab-org/gitlab/-/issues?state=opened&label_name[]=bug', 'https://gitlab.com', '/{slug}/-/issues?label_name[]={value}&state=opened'],
  ['GitHub pull request files', 'https://github.com/microsoft/vscode/pull/12/files', 'https://github.com', '/{slug}/{slug}/pull/{id}/files'],
  ['GitHub issues filtered', 'https://github.com/owner/repo/issues?q=is%3Aopen+label%3Abug', 'https://github.com', '/{slug}/{slug}/issues?q={value}'],
  ['GitHub settings page kept', 'https://github.com/settings/profile', 'https://github.com', '/settings/profile'],
  // maps
  ['Google Maps position', 'https://www.google.com/maps/@40.7128,-74.006,12z', 'https://www.google.com', '/maps/{coords}'],
  ['Google Maps place', 'https://www.google.com/maps/place/Statue+of+Liberty/@40.68,-74.04,17z/data=!3m1!4b1', 'https://www.google.com', '/maps/place/{slug}/{coords}/{hash}'],
  ['Google Maps directions', 'https://www.google.com/maps/dir/New+York/Boston/@41.5,-72.3,8z', 'https://www.google.com', '/maps/dir/{slug}/{slug}/{coords}'],
  ['OpenStreetMap directions', 'https://www.openstreetmap.org/directions?engine=fossgis_osrm_car&route=40.7%2C-74.0%3B42.3%2C-71.0', 'https://www.openstreetmap.org', '/directions?engine={value}&route=40.7,-74.0%3B42.3,-71.0'],
  // search pages
  ['site search', 'https://shop.example/search?q=shoes&page=2', 'https://shop.example', '/search?page=2&q={value}'],
  ['empty search term stays empty', 'https://shop.example/search?q=', 'https://shop.example', '/search?q='],
  ['search path term', 'https://shop.example/search/blue-shoes', 'https://shop.example', '/search/{slug}'],
  ['facet filters kept, term abstracted', 'https://shop.example/list?filter[color]=red&facet_size=M&q=tee', 'https://shop.example', '/list?facet_size=M&filter[color]=red&q={value}'],
  // SPAs
  ['hash route', 'https://app.example/#/users/42/edit', 'https://app.example', '/#/users/{id}/edit'],
  ['hash-bang route with query', 'https://app.example/index.html#!/users/42?tab=posts&x=1', 'https://app.example', '/index.html#!/users/{id}?tab=posts&x={value}'],
  ['anchor fragment dropped', 'https://docs.example/guide/install#step-3', 'https://docs.example', '/guide/install'],
  // admin grids
  ['Magento admin grid with filter and key', 'https://admin.example/admin/sales/order/index/filter/cmVhbF9pZD0xMjM=/key/0123456789abcdef0123456789abcdef/', 'https://admin.example', '/admin/sales/order/index/filter/{hash}/key/{hash}'],
  ['Magento admin order view', 'https://admin.example/admin/sales/order/view/order_id/77/key/fedcba9876543210fedcba9876543210/', 'https://admin.example', '/admin/sales/order/view/order_id/{id}/key/{hash}'],
  ['WordPress admin edit', 'https://blog.example/wp-admin/post.php?post=99&action=edit', 'https://blog.example', '/wp-admin/post.php?action=edit&post={value}'],
  ['order grid sorted and paged', 'https://crm.example/orders?sort=created_at&dir=desc&page=3&per_page=50&status=open', 'https://crm.example', '/orders?dir=desc&page=3&per_page=50&sort=created_at&status=open'],
  // dates
  ['blog post under a date', 'https://blog.example/2024/01/31/my-new-year-post/', 'https://blog.example', '/{date}/{slug}'],
  ['blog month archive', 'https://blog.example/2024/01/', 'https://blog.example', '/{date}'],
  ['ISO date segment', 'https://events.example/events/2024-05-01', 'https://events.example', '/events/{date}'],
  ['compact date segment', 'https://news.example/archive/20240131', 'https://news.example', '/archive/{date}'],
  // ids, uuids, tokens
  ['UUID', 'https://api.example/v2/items/a1b2c3d4-e5f6-7890-abcd-ef1234567890', 'https://api.example', '/v2/items/{uuid}'],
  ['reset token', 'https://app.example/reset-password/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA', 'https://app.example', '/reset-password/{hash}'],
  ['base64 with padding', 'https://app.example/invite/aGVsbG8gd29ybGQ=', 'https://app.example', '/invite/{hash}'],
  ['short numeric user id and tab', 'https://social.example/users/42/followers', 'https://social.example', '/users/{id}/followers'],
  ['user name after parent', 'https://social.example/users/alice', 'https://social.example', '/users/{slug}'],
  ['structural word after a parent kept', 'https://shop.example/products/new', 'https://shop.example', '/products/new'],
  ['two-word action after an id kept', 'https://shop.example/orders/123/cancel-order', 'https://shop.example', '/orders/{id}/cancel-order'],
  // media
  ['YouTube watch', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share', 'https://www.youtube.com', '/watch?v={value}'],
  ['YouTube short', 'https://www.youtube.com/shorts/aB3dE5fG7hI', 'https://www.youtube.com', '/shorts/{id}'],
  ['Wikipedia article', 'https://en.wikipedia.org/wiki/Alan_Turing', 'https://en.wikipedia.org', '/wiki/{slug}'],
  // page types that must stay literal
  ['root', 'https://example.com', 'https://example.com', '/'],
  ['sign in', 'https://example.com/sign-in?next=%2Faccount', 'https://example.com', '/sign-in?next={value}'],
  ['three-word static page', 'https://example.com/help/terms-of-service', 'https://example.com', '/help/terms-of-service'],
  ['versioned API and oauth2', 'https://example.com/en-us/oauth2/authorize', 'https://example.com', '/en-us/oauth2/authorize'],
  ['long title without parent', 'https://blog.example/how-to-train-your-dragon', 'https://blog.example', '/{slug}'],
  // odd inputs
  ['relative path', '/relative/42', '', '/relative/{id}'],
  ['not a URL', 'not a url', '', 'not a url'],
  ['data URL', 'data:text/html,<h1>hi</h1>', 'data:', '{opaque}'],
  ['mail address never stored', 'mailto:alice@example.com', 'mailto:', '{opaque}'],
  ['malformed escape kept as text', 'https://example.com/%E0%A4%A/x', 'https://example.com', '/%25E0%25A4%25A/x'],
  ['MediaWiki special page kept', 'https://en.wikipedia.org/wiki/Special:Search?search=turing', 'https://en.wikipedia.org', '/wiki/Special:Search?search={value}'],
  ['Etsy listing with title', 'https://www.etsy.com/listing/1234567/handmade-ceramic-mug-blue', 'https://www.etsy.com', '/listing/{id}'],
  ['Hacker News item', 'https://news.ycombinator.com/item?id=38912345', 'https://news.ycombinator.com', '/item?id={value}'],
  ['default port dropped, host lowercased', 'HTTPS://Shop.Example:443/Cart', 'https://shop.example', '/Cart'],
  ['encoded slash in a segment stays one segment', 'https://files.example/docs/a%2Fb', 'https://files.example', '/docs/a%2Fb'],
];

describe('regularizeUrl', () => {
  it('has at least 40 real-world shapes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', (_what, url, origin, regUrl) => {
    expect(regularizeUrl(url)).toEqual({ origin, regUrl });
  });

  // Each group: URLs of one page type that must share one key.
  const equivalent: string[][] = [
    ['https://shop.example/products/blue-shirt', 'https://shop.example/products/red-wool-scarf/', 'https://shop.example/products/tee-42?utm_source=x&utm_medium=y'],
    ['https://www.amazon.com/dp/B0CHX1W1XY', 'https://www.amazon.com/Sony-Headphones/dp/B09XS7JWHH/ref=sr_1_3', 'https://www.amazon.com/Kindle-Paperwhite-16-GB/dp/B08KTZ8249'],
    ['https://stackoverflow.com/questions/1/what-is-a-monad', 'https://stackoverflow.com/questions/987654', 'https://stackoverflow.com/questions/55/why-does-my-loop-never-end#answer-3'],
    ['https://shop.example/search?q=shoes', 'https://shop.example/search?q=red%20hat&gclid=abc', 'https://shop.example/search/?q=x&fbclid=1'],
    ['https://app.example/#/users/1/edit', 'https://app.example/#/users/99999/edit'],
    ['https://gitlab.com/a/-/merge_requests/1', 'https://gitlab.com/a/b/-/merge_requests/2', 'https://gitlab.com/a/b/c/-/merge_requests/3'],
    ['https://blog.example/2023/12/01/hello', 'https://blog.example/2024/01/31/another-post-title'],
    ['https://x.example/tickets/a1b2c3d4-e5f6-7890-abcd-ef1234567890', 'https://x.example/tickets/00000000-0000-4000-8000-000000000000'],
  ];
  it.each(equivalent.map((group) => [group[0] ?? '', group] as const))('maps the page type of %s to one key', (_first, group) => {
    const keys = new Set(group.map((u) => JSON.stringify(regularizeUrl(u))));
    expect([...keys]).toHaveLength(1);
  });

  it('keeps different page types apart', () => {
    const distinct = [
      'https://shop.example/products/blue-shirt',
      'https://shop.example/cart',
      'https://shop.example/checkout/step-1',
      'https://shop.example/checkout/step-2',
      'https://shop.example/search?q=shoes',
      'https://shop.example/search?q=shoes&sort=price',
      'https://shop.example/search?q=shoes&page=2',
      'https://shop.example/orders/1',
      'https://shop.example/orders/1/cancel-order',
      'https://shop.example/orders/1/invoice',
      'https://shop.example/sign-in',
      'https://shop.example/sign-up',
      'https://shop.example/#/settings',
      'https://shop.example/#/profile',
      'https://gitlab.com/a/b/-/merge_requests/1',
      'https://gitlab.com/a/b/-/merge_requests/1/diffs',
      'https://gitlab.com/a/b/-/issues?state=opened',
      'https://gitlab.com/a/b/-/issues?state=closed',
    ];
    const keys = distinct.map((u) => regularizeUrl(u).regUrl);
    expect(new Set(keys).size).toBe(distinct.length);
    // Same path on two origins: same regUrl, different origin.
    expect(regularizeUrl('https://a.example/cart')).toEqual({ origin: 'https://a.example', regUrl: '/cart' });
    expect(regularizeUrl('http://a.example:8080/cart')).toEqual({ origin: 'http://a.example:8080', regUrl: '/cart' });
  });

  it('can stop at a segment, as the authors did for Magento grid filters', () => {
    const url = 'https://admin.example/admin/sales/order/index/filter/cmVhbF9pZD0xMjM=/key/0123456789abcdef0123456789abcdef/';
    expect(regularizeUrl(url, { stopAtSegments: ['filter'] })).toEqual({ origin: 'https://admin.example', regUrl: '/admin/sales/order/index' });
  });

  it('never throws and always returns strings', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.webUrl({ withFragments: true, withQueryParameters: true })), (input) => {
      const r = regularizeUrl(input);
      expect(typeof r.origin).toBe('string');
      expect(typeof r.regUrl).toBe('string');
    }), { numRuns: 200, seed: 7 });
  });

  it('is idempotent: a regUrl fed back in comes out unchanged', () => {
    for (const [, url] of cases) {
      const once = regularizeUrl(url);
      if (once.origin === '' || once.origin === 'data:') continue;
      expect(regularizeUrl(`${once.origin}${once.regUrl}`)).toEqual(once);
    }
    fc.assert(fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
      const once = regularizeUrl(url);
      expect(regularizeUrl(`${once.origin}${once.regUrl}`)).toEqual(once);
    }), { numRuns: 300, seed: 11 });
  });
});

describe('urlTokens', () => {
  it('splits a regUrl into display tokens', () => {
    expect(urlTokens('/products/{slug}?sort=price&q={value}')).toEqual(['products', '{slug}', 'sort=price', 'q={value}']);
    expect(urlTokens('/#/users/{id}/edit')).toEqual(['users', '{id}', 'edit']);
    expect(urlTokens('/')).toEqual([]);
  });
});
