export function seeded(seed: number): () => number;
export function shuffled<T>(list: readonly T[], rand: () => number): T[];
