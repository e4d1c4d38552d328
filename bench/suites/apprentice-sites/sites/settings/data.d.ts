export const TIME_ZONES: [string, string][];
export const LANGUAGES: [string, string][];
export const VISIBILITY: [string, string][];
export const NOTIFICATIONS: [string, string][];
export interface SettingsState {
  profile: { displayName: string; bio: string; timeZone: string; language: string };
  notifications: Record<string, boolean>;
  privacy: { visibility: string; online: boolean; searchable: boolean };
}
export const DEFAULTS: SettingsState;
