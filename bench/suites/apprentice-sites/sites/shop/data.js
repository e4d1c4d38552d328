// The shop's catalog. Pure data + functions: the site and the benchmark's
// reward functions both import it.
import { seeded, shuffled } from '../common/seeded.js';

export const CATEGORIES = ['Kitchen', 'Sports', 'Home office', 'Garden'];

export const PRODUCTS = [
  { id: 101, name: 'Blue kettle', category: 'Kitchen', price: 34.5, rating: 4.1 },
  { id: 102, name: 'Electric kettle', category: 'Kitchen', price: 49.0, rating: 4.5 },
  { id: 103, name: 'Travel kettle', category: 'Kitchen', price: 22.0, rating: 3.8 },
  { id: 104, name: 'Red teapot', category: 'Kitchen', price: 21.0, rating: 4.7 },
  { id: 105, name: 'Teapot warmer', category: 'Kitchen', price: 16.0, rating: 4.0 },
  { id: 106, name: 'Green mug', category: 'Kitchen', price: 8.25, rating: 3.9 },
  { id: 107, name: 'Steel toaster', category: 'Kitchen', price: 59.99, rating: 4.4 },
  { id: 108, name: 'Toaster cover', category: 'Kitchen', price: 12.0, rating: 4.0 },
  { id: 109, name: 'Oak cutting board', category: 'Kitchen', price: 27.0, rating: 4.8 },
  { id: 201, name: 'Running shoes', category: 'Sports', price: 89.0, rating: 4.6 },
  { id: 202, name: 'Yoga mat', category: 'Sports', price: 25.0, rating: 4.3 },
  { id: 203, name: 'Yoga mat bag', category: 'Sports', price: 15.0, rating: 4.1 },
  { id: 204, name: 'Water bottle', category: 'Sports', price: 12.5, rating: 4.2 },
  { id: 205, name: 'Tennis racket', category: 'Sports', price: 120.0, rating: 4.5 },
  { id: 206, name: 'Tennis balls', category: 'Sports', price: 14.0, rating: 4.4 },
  { id: 301, name: 'Desk lamp', category: 'Home office', price: 39.0, rating: 4.4 },
  { id: 302, name: 'Desk lamp bulb', category: 'Home office', price: 6.0, rating: 4.0 },
  { id: 303, name: 'Office chair', category: 'Home office', price: 199.0, rating: 4.2 },
  { id: 304, name: 'Notebook set', category: 'Home office', price: 9.5, rating: 4.7 },
  { id: 305, name: 'Wireless mouse', category: 'Home office', price: 24.0, rating: 4.3 },
  { id: 401, name: 'Garden hose', category: 'Garden', price: 35.0, rating: 4.0 },
  { id: 402, name: 'Garden gloves', category: 'Garden', price: 11.0, rating: 4.6 },
  { id: 403, name: 'Watering can', category: 'Garden', price: 18.0, rating: 4.5 },
  { id: 404, name: 'Garden hose reel', category: 'Garden', price: 45.0, rating: 4.1 },
];

export const COUNTRIES = ['United States', 'Canada', 'Mexico', 'United Kingdom', 'Germany', 'France', 'Japan', 'Australia'];
export const PAYMENT_METHODS = ['Credit card', 'PayPal', 'Bank transfer'];
export const SHIPPING_METHODS = [
  { id: 'standard', label: 'Standard (free, 5–7 days)', price: 0 },
  { id: 'express', label: 'Express ($15.00, 1–2 days)', price: 15 },
];
export const PROMO_CODES = { SPRING10: 0.1, WELCOME5: 0.05 };
export const ACCOUNT = { name: 'Alex Morgan', street: '12 Harbour Road', city: 'Portland', country: 'United States' };

export function productById(id) {
  return PRODUCTS.find((p) => p.id === id) ?? null;
}

/** Products on the home page's "Today's deals" shelf: a seeded pick of eight. */
export function deals(seed) {
  return shuffled(PRODUCTS, seeded(seed)).slice(0, 8);
}

/** Search: every query word must occur in the name or the category. */
export function search(query, category, sort) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  let list = PRODUCTS.filter((p) => {
    const hay = `${p.name} ${p.category}`.toLowerCase();
    return words.every((w) => hay.includes(w)) && (!category || p.category === category);
  });
  if (sort === 'price-asc') list = [...list].sort((a, b) => a.price - b.price);
  else if (sort === 'price-desc') list = [...list].sort((a, b) => b.price - a.price);
  else if (sort === 'rating') list = [...list].sort((a, b) => b.rating - a.rating);
  return list;
}

export function cheapestIn(category) {
  return search('', category, 'price-asc')[0] ?? null;
}
