export async function runRestarts(n: number): Promise<Record<string, number | string>> { return { todo: n }; }
