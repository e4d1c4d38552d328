/**
 * Rules for the provider's API key, pure so the settings store and the model
 * client apply the same ones:
 * - it travels only over https, or plain http to this computer (loopback);
 * - it belongs to one provider at one origin: when the preset or the base
 *   URL's origin changes and no new key was typed, the old key is dropped,
 *   so a changed URL never receives a key meant for another server.
 */
import type { ProviderSettings } from './settings.ts';

export class KeyTransportError extends Error {
  override name = 'KeyTransportError';
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Why the key may not be sent to this base URL, or null when it may. */
export function keyTransportProblem(provider: Pick<ProviderSettings, 'baseUrl' | 'apiKey'>): string | null {
  if (provider.apiKey === '') return null;
  const url = parsed(provider.baseUrl);
  if (!url) return `the base URL "${provider.baseUrl}" is not a URL`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return null;
  return `an API key is sent only over https:// (or plain http:// to this computer); ${url.origin} would receive it unencrypted`;
}

const originOf = (url: string): string | null => parsed(url)?.origin ?? null;

/**
 * The provider settings to store when `next` replaces `previous`: the key is
 * cleared when the preset or the base-URL origin changed and the key itself
 * did not (the person did not type one for the new provider).
 */
export function reconcileProviderKey(previous: ProviderSettings, next: ProviderSettings): ProviderSettings {
  const moved = previous.preset !== next.preset || originOf(previous.baseUrl) !== originOf(next.baseUrl);
  if (moved && next.apiKey !== '' && next.apiKey === previous.apiKey) return { ...next, apiKey: '' };
  return next;
}
