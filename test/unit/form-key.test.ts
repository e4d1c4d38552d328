/** The install key of secret form digests: made once, kept, and read back (adapters/chrome/form-key.ts). */
import { describe, expect, it } from 'vitest';
import { formKeyLoader } from '../../src/adapters/chrome/form-key.ts';

function area(initial: Record<string, unknown> = {}) {
  const data: Record<string, unknown> = { ...initial };
  let sets = 0;
  return {
    data, sets: () => sets,
    async get(key: string) { return key in data ? { [key]: data[key] } : {}; },
    async set(items: Record<string, unknown>) { sets++; Object.assign(data, items); },
  };
}

describe('formKeyLoader', () => {
  it('makes a 32-byte key once and stores it; a second worker reads the same key', async () => {
    const a = area();
    const load = formKeyLoader(a, () => new Uint8Array(32).fill(0xab));
    expect(await load()).toBe('ab'.repeat(32));
    expect(await load()).toBe('ab'.repeat(32));
    expect(a.sets()).toBe(1);
    expect(await formKeyLoader(a, () => new Uint8Array(32))()).toBe('ab'.repeat(32));
  });

  it('replaces a stored value that is not a key', async () => {
    const a = area({ 'apprentice.formKey': 'short' });
    expect(await formKeyLoader(a, () => new Uint8Array(32).fill(1))()).toBe('01'.repeat(32));
  });
});
