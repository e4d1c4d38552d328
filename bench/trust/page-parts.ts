/**
 * What every generated page of `bench:trust` is made of: escaping, a
 * deterministic pick from a list, and the products the orders are for.
 */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
export const PRODUCTS = ['blue kettle', 'oak desk', 'wool scarf', 'steel pan', 'desk lamp', 'tea set', 'road bike', 'yoga mat', 'rain coat', 'coffee grinder', 'garden hose'];
