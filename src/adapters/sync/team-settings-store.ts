/**
 * Team settings in chrome.storage.local, the password apart under its own
 * entry, in an area restricted to trusted contexts (no content script can
 * read it), as the provider's API key is kept. The password is refused for a
 * plain-http server other than this computer, and dropped when the server's
 * origin changes without a new one being typed.
 */
import { credentialTransportProblem } from '../../core/sync/sync-errors.ts';
import { DEFAULT_TEAM_SETTINGS, TeamSettingsSchema, type TeamSettings } from '../../core/sync/team-settings.ts';
import type { StorageAreaSlice } from '../chrome/settings-store.ts';

const KEY = 'apprentice.team';
const PASSWORD = 'apprentice.teamPassword';

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export class TeamSettingsStore {
  private restricted: Promise<void> | null = null;
  constructor(private readonly area: StorageAreaSlice, private readonly newId: () => string) {}

  private restrict(): Promise<void> {
    this.restricted ??= (this.area.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }) ?? Promise.resolve()).catch(() => undefined);
    return this.restricted;
  }

  async load(): Promise<TeamSettings> {
    await this.restrict();
    const raw = (await this.area.get(KEY))[KEY];
    const parsed = TeamSettingsSchema.safeParse(typeof raw === 'object' && raw !== null ? { ...DEFAULT_TEAM_SETTINGS, ...raw } : DEFAULT_TEAM_SETTINGS);
    const settings = parsed.success ? parsed.data : structuredClone(DEFAULT_TEAM_SETTINGS);
    if (settings.memberId === '') {
      settings.memberId = this.newId();
      await this.area.set({ [KEY]: settings });
    }
    return settings;
  }

  async password(): Promise<string> {
    await this.restrict();
    const value = (await this.area.get(PASSWORD))[PASSWORD];
    return typeof value === 'string' ? value : '';
  }

  /** Saves the settings; `password` null keeps the stored one (unless the server moved). */
  async save(next: TeamSettings, password: string | null): Promise<TeamSettings> {
    await this.restrict();
    const previous = await this.load();
    const valid = TeamSettingsSchema.parse({ ...next, memberId: previous.memberId });
    const moved = originOf(previous.serverUrl) !== originOf(valid.serverUrl);
    const kept = password ?? (moved ? '' : await this.password());
    const problem = credentialTransportProblem(valid.serverUrl === '' ? 'https://unset.invalid' : valid.serverUrl, kept !== '' || valid.username !== '');
    if (problem) throw problem;
    await this.area.set({ [KEY]: valid, [PASSWORD]: kept });
    return valid;
  }
}
