/**
 * The install key secret form values are digested under (core/secrets/
 * form-data.ts): 32 random bytes, made once and kept in chrome.storage.local
 * beside the provider key, an area closed to content scripts. It never
 * leaves this browser (exports and team memory do not carry it), so a stored
 * digest cannot be checked against guesses elsewhere.
 */
const FORM_KEY = 'apprentice.formKey';

export interface FormKeyArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  setAccessLevel?(options: { accessLevel: 'TRUSTED_CONTEXTS' }): Promise<void>;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** A loader that reads the key, or makes and stores one, once per worker. */
export function formKeyLoader(area: FormKeyArea, random: () => Uint8Array = () => crypto.getRandomValues(new Uint8Array(32))): () => Promise<string> {
  let loading: Promise<string> | null = null;
  const load = async (): Promise<string> => {
    await area.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(() => undefined);
    const stored = (await area.get(FORM_KEY))[FORM_KEY];
    if (typeof stored === 'string' && /^[0-9a-f]{64}$/.test(stored)) return stored;
    const key = hex(random());
    await area.set({ [FORM_KEY]: key });
    return key;
  };
  return () => {
    // A failed read is tried again next time rather than remembered.
    loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
}
