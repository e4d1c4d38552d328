// The back office's customers and orders. Order statuses, dates and totals
// come from the seed; customers are fixed.
import { seeded } from '../common/seeded.js';

export const GROUPS = ['General', 'Wholesale', 'Retailer', 'VIP'];
export const STATUSES = ['Pending', 'Processing', 'Shipped', 'Cancelled'];

export const CUSTOMERS = [
  [1, 'Ava Thompson', 'ava.thompson@example.com', 'Leeds', 'General'],
  [2, 'Liam O\'Connor', 'liam.oc@example.com', 'Dublin', 'Retailer'],
  [3, 'Priya Natarajan', 'priya.n@example.com', 'Chennai', 'General'],
  [4, 'Tomás Ortega', 'tomas.ortega@example.com', 'Valencia', 'Wholesale'],
  [5, 'Hannah Becker', 'h.becker@example.com', 'Hamburg', 'General'],
  [6, 'Noah Williams', 'noah.w@example.com', 'Austin', 'VIP'],
  [7, 'Mei Chen', 'mei.chen@example.com', 'Taipei', 'Retailer'],
  [8, 'Hannah Brooks', 'hannah.brooks@example.com', 'Denver', 'General'],
  [9, 'Omar Haddad', 'omar.h@example.com', 'Amman', 'Wholesale'],
  [10, 'Sofia Rossi', 'sofia.rossi@example.com', 'Turin', 'General'],
  [11, 'Ethan Clarke', 'ethan.clarke@example.com', 'Bristol', 'Retailer'],
  [12, 'Priya Shah', 'priya.shah@example.com', 'Leicester', 'VIP'],
  [13, 'Lucas Martin', 'lucas.martin@example.com', 'Lyon', 'General'],
  [14, 'Grace Kim', 'grace.kim@example.com', 'Busan', 'Wholesale'],
].map(([id, name, email, city, group]) => ({ id, name, email, city, group, phone: `555-01${String(id).padStart(2, '0')}`, newsletter: id % 3 === 0 }));

export function makeOrders(seed) {
  const rand = seeded(seed + 7);
  return Array.from({ length: 30 }, (_, i) => {
    const customer = CUSTOMERS[Math.floor(rand() * CUSTOMERS.length)];
    const r = rand();
    const status = r < 0.3 ? 'Pending' : r < 0.5 ? 'Processing' : r < 0.85 ? 'Shipped' : 'Cancelled';
    const day = 1 + Math.floor(rand() * 28);
    return { id: 1001 + i, customerId: customer.id, customer: customer.name, status, total: Math.round((15 + rand() * 400) * 100) / 100, date: `2026-10-${String(day).padStart(2, '0')}` };
  });
}

/** Orders with the back office's own changes (status overrides) applied. */
export function withOverrides(orders, overrides) {
  return orders.map((o) => (overrides[o.id] ? { ...o, status: overrides[o.id] } : o));
}
