export interface ForumComment { id: string; author: string; text: string }
export interface ForumPost { id: number; title: string; author: string; category: string; body: string; votes: number; ageHours: number; comments: ForumComment[] }
export const CATEGORIES: string[];
export function makeForum(seed: number): ForumPost[];
export function postById(forum: ForumPost[], id: number): ForumPost | null;
export function sortPosts(posts: ForumPost[], sort: string): ForumPost[];
