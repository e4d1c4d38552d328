/**
 * The project's own benchmark suite: four small, realistic sites written for
 * it (a shop with a multi-page checkout, a forum, an admin panel, account
 * settings), each served on its own 127.0.0.1 origin, and 48 tasks whose
 * rewards are computed from the sites' state. Neither the sites nor the agent
 * know about each other.
 */
import type { Suite } from '../../suite.ts';
import { startSites, type SiteServers } from './serve-sites.ts';
import { adminTasks } from './tasks/admin-tasks.ts';
import { forumTasks } from './tasks/forum-tasks.ts';
import { settingsTasks } from './tasks/settings-tasks.ts';
import { shopTasks } from './tasks/shop-tasks.ts';

let servers: SiteServers | null = null;

/**
 * The test set: about a third of the tasks (17 of 48), in every area. Named in
 * session 8, after every earlier pass had tuned on all 48, so until the
 * project's rules and weights have moved on the development set alone its
 * figures are not clean held-out figures (docs/benchmarks.md says so).
 */
const TEST_PREFIXES = ['checkout.', 'forum.count-comments.', 'forum.comment.', 'admin.order-status.', 'settings.time-zone.', 'shop.ask-price.'];

const suite: Suite = {
  name: 'apprentice-sites',
  async start() {
    servers ??= await startSites();
    return { baseUrl: servers.origins.shop };
  },
  async stop() {
    await servers?.close();
    servers = null;
  },
  tasks: () => {
    if (!servers) throw new Error('apprentice-sites: start() must run before tasks()');
    const { shop, forum, admin, settings } = servers.origins;
    const all = [...shopTasks(shop), ...forumTasks(forum), ...adminTasks(admin), ...settingsTasks(settings)];
    return all.map((t) => (TEST_PREFIXES.some((p) => t.id.startsWith(p)) ? { ...t, set: 'test' as const } : t));
  },
  profiles: {
    // CI-sized (about 5 minutes for four learners × 5 attempts): two tasks per
    // area (shop, checkout, forum, admin, settings), in each pair one the
    // offline policy solved at its first attempt when this list was drawn and
    // one it failed (over the full suite: 25 of 48 solved).
    quick: [
      'shop.add-to-cart.104', 'shop.add-to-cart.202',
      'checkout.shipping-country.canada', 'checkout.pay-with.paypal',
      'forum.upvote.2', 'forum.upvote-top-post',
      'admin.customer-group.3', 'admin.order-status.1',
      'settings.time-zone.tokyo', 'settings.newsletter-off',
    ],
  },
};

export default suite;
