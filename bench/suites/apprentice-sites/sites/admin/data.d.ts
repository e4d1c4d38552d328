export interface Customer { id: number; name: string; email: string; city: string; group: string; phone: string; newsletter: boolean }
export interface Order { id: number; customerId: number; customer: string; status: string; total: number; date: string }
export const GROUPS: string[];
export const STATUSES: string[];
export const CUSTOMERS: Customer[];
export function makeOrders(seed: number): Order[];
export function withOverrides(orders: Order[], overrides: Record<string, string>): Order[];
