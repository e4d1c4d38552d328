// @vitest-environment happy-dom
/**
 * The Team memory panel: saves the settings with the password apart (an empty
 * field keeps the stored one), Test connection shows the exact problem, Sync
 * now shows what was held and why, and a teammate is forgotten by id.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { TeamMemoryPanel } from '../../src/ui/app/team-memory-panel.tsx';
import { DEFAULT_TEAM_SETTINGS } from '../../src/core/sync/team-settings.ts';
import type { TeamSyncStatus } from '../../src/protocol/team-messages.ts';
import { fakeConnector } from './ui-fake-connector.ts';

const SHOP = 'https://shop.example';
const status: TeamSyncStatus = {
  at: 1_700_000_000_000, ok: true, message: null, published: 3, withdrawn: 0, pushed: 3, pulled: 2, imported: 1, removed: 0, masked: 0,
  refused: [], held: [{ docId: 'd1', author: 'Ana', origin: SHOP, reason: 'it holds goto("https://evil.example/"), an action that always asks: it opens another origin (https://evil.example)', reviewable: true }], conflicts: [],
};

describe('Team memory panel', () => {
  it('saves, tests, syncs and forgets a teammate', async () => {
    const settings = { ...DEFAULT_TEAM_SETTINGS, memberId: 'member-0001', hasPassword: true };
    const fake = fakeConnector({
      'team.settings': async () => settings,
      'team.saveSettings': async ({ settings: s }) => ({ ...s, hasPassword: true }),
      'team.test': async () => ({ ok: false as const, problem: 'missing-database', message: 'The team database "team" does not exist on the server (create it, or check the database name).' }),
      'team.sync': async () => status,
      'team.status': async () => status,
      'team.teammates': async () => [{ id: 'ana-0000-0001', name: 'Ana', items: 2, sites: [SHOP], lastTaughtAt: 1_700_000_000_000, muted: false, recent: [{ origin: SHOP, part: 'transitions', key: 'e7:0', taughtAt: 1_700_000_000_000, episodeId: 'e7', appVersion: '0.1.0' }] }],
      'team.forgetTeammate': async () => ({ removed: 2 }),
      'team.acceptHeld': async () => ({ imported: 1, message: null }),
    });
    render(<TeamMemoryPanel client={fake.connector.client} sites={[SHOP]} />);
    await screen.findByText('Team memory');
    fireEvent.input(screen.getByLabelText('Server URL'), { target: { value: 'https://couch.example.com' } });
    fireEvent.input(screen.getByLabelText('Database'), { target: { value: 'team' } });
    fireEvent.input(screen.getByLabelText('Your name, as teammates see it'), { target: { value: 'Ben' } });
    fireEvent.click(screen.getByLabelText(SHOP));
    fireEvent.click(screen.getByText('Save team settings'));
    await screen.findByText('Team settings saved.');
    expect(fake.callsOf('team.saveSettings')).toEqual([{ settings: { ...DEFAULT_TEAM_SETTINGS, memberId: 'member-0001', serverUrl: 'https://couch.example.com', database: 'team', memberName: 'Ben', sharedSites: [SHOP] }, password: null }]);

    fireEvent.click(screen.getByText('Test team connection'));
    expect((await screen.findByRole('alert')).textContent).toContain('"team" does not exist');
    // Test connection tests what is typed, unsaved: a server typed over the saved one, and a typed password.
    fireEvent.input(screen.getByLabelText('Server URL'), { target: { value: 'https://other.example' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 's3cret' } });
    fireEvent.click(screen.getByText('Test team connection'));
    await waitFor(() => expect(fake.callsOf('team.test')).toEqual([
      { connection: { serverUrl: 'https://couch.example.com', database: 'team', username: '' }, password: null },
      { connection: { serverUrl: 'https://other.example', database: 'team', username: '' }, password: 's3cret' },
    ]));
    await waitFor(() => expect((screen.getByText('Sync now') as HTMLButtonElement).disabled).toBe(false));

    fireEvent.click(screen.getByText('Sync now'));
    await screen.findByText('Synced.');
    expect(screen.getByText('1 held for review')).toBeTruthy();
    expect(screen.getByText(/Ana on https:\/\/shop.example: it holds goto/)).toBeTruthy();

    expect(screen.getByText(/in episode e7, Apprentice 0.1.0/)).toBeTruthy();
    fireEvent.click(screen.getByText('Accept after review'));
    await screen.findByText(/Accepted: 1 item merged. It still asks every time it runs./);
    expect(fake.callsOf('team.acceptHeld')).toEqual([{ docId: 'd1' }]);

    fireEvent.click(screen.getByText("Forget Ana's memory"));
    await waitFor(() => expect(fake.callsOf('team.forgetTeammate')).toEqual([{ id: 'ana-0000-0001' }]));
    await screen.findByText(/Forgot Ana: 2 items removed/);
  });
});
