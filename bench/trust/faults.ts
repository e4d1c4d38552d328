export async function runFaults(n: number): Promise<Record<string, number | string>> { return { todo: n }; }
