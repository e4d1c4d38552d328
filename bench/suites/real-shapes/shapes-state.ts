/**
 * The server-side state of the real-shapes site: what a reward reads. Reset
 * to the seeded state before each attempt, so K attempts start identical.
 */
export interface Member { id: number; name: string; email: string; role: string }
export interface Message { id: number; from: string; subject: string; starred: boolean }
export interface Product { sku: string; title: string; price: string }
export interface Invite { name: string; email: string; team: string }
export interface Signup { plan: string; company: string }
/** A tracker's ticket: its report row is opened by the id link, and nothing else in the row is a link. */
export interface Ticket { id: string; title: string; type: string; status: string }

export const MEMBERS: readonly Member[] = [
  { id: 3, name: 'Ada Lovelace', email: 'ada@example.com', role: 'Admin' },
  { id: 7, name: 'Alan Turing', email: 'alan@example.com', role: 'Editor' },
  { id: 9, name: 'Grace Hopper', email: 'grace@example.com', role: 'Editor' },
  { id: 12, name: 'Linus Pauling', email: 'linus@example.com', role: 'Viewer' },
];
export const MESSAGES: readonly Message[] = [
  { id: 1, from: 'Ada Lovelace', subject: 'Notes on the engine', starred: false },
  { id: 2, from: 'Linus Pauling', subject: 'Vitamin C, again', starred: false },
  { id: 3, from: 'Grace Hopper', subject: 'A bug in the relay', starred: false },
  { id: 4, from: 'Alan Turing', subject: 'Lunch on Friday?', starred: true },
];
export const PRODUCTS: readonly Product[] = [
  { sku: 'kettle', title: 'Kettle', price: '$34.00' },
  { sku: 'teapot', title: 'Teapot', price: '$22.00' },
  { sku: 'mug', title: 'Mug', price: '$9.00' },
  { sku: 'toaster', title: 'Toaster', price: '$48.00' },
  { sku: 'grinder', title: 'Grinder', price: '$61.00' },
  { sku: 'scale', title: 'Scale', price: '$27.00' },
];
export const TEAMS = ['Design', 'Research', 'Support'] as const;
export const TICKETS: readonly Ticket[] = [
  { id: '0ba033313b', title: 'Crash when saving an empty note', type: 'Code_Defect', status: 'Open' },
  { id: '5e21c0d7aa', title: 'Toolbar icons are blurry', type: 'Cosmetic', status: 'Open' },
  { id: '91f4b2e6c3', title: 'Search ignores accented letters', type: 'Code_Defect', status: 'Open' },
  { id: 'c47d10e9f2', title: 'Export notes to PDF', type: 'Feature_Request', status: 'Open' },
];
/** A note edited on one URL: tags are added one by one to a list, then the note is saved. */
export interface Note { id: number; title: string; tags: string[]; saves: number }
export const NOTES: readonly Note[] = [
  { id: 21, title: 'Weekend plans', tags: ['home'], saves: 0 },
  { id: 22, title: 'Reading list', tags: [], saves: 0 },
  { id: 23, title: 'Garden ideas', tags: ['outdoors'], saves: 0 },
  { id: 24, title: 'Trip to Lisbon', tags: ['travel'], saves: 0 },
];
export const TICKET_STATUSES = ['Open', 'Review', 'Fixed', 'Verified', 'Closed'] as const;

export interface ShapesState {
  members: Member[];
  messages: Message[];
  cart: string[];
  invites: Invite[];
  settings: { weeklyDigest: boolean; commentEmails: boolean; saves: number };
  signups: Signup[];
  tickets: Ticket[];
  notes: Note[];
  /** Every state-changing request, in order: a reward checks that nothing else changed. */
  effects: string[];
}

export function seededState(): ShapesState {
  return {
    members: MEMBERS.map((m) => ({ ...m })),
    messages: MESSAGES.map((m) => ({ ...m })),
    cart: [],
    invites: [],
    settings: { weeklyDigest: false, commentEmails: true, saves: 0 },
    signups: [],
    tickets: TICKETS.map((t) => ({ ...t })),
    notes: NOTES.map((n) => ({ ...n, tags: [...n.tags] })),
    effects: [],
  };
}
