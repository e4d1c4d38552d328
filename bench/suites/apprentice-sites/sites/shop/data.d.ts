export interface Product { id: number; name: string; category: string; price: number; rating: number }
export const CATEGORIES: string[];
export const PRODUCTS: Product[];
export const COUNTRIES: string[];
export const PAYMENT_METHODS: string[];
export const SHIPPING_METHODS: { id: string; label: string; price: number }[];
export const PROMO_CODES: Record<string, number>;
export const ACCOUNT: { name: string; street: string; city: string; country: string };
export function productById(id: number): Product | null;
export function deals(seed: number): Product[];
export function search(query: string, category: string | null, sort: string | null): Product[];
export function cheapestIn(category: string): Product | null;
