import { describe, expect, it } from 'vitest';
import { teamTestTarget } from '../../src/core/sync/team-test-target.ts';

const saved = { serverUrl: 'https://couch.example.com', database: 'team', username: 'ben' };

describe('teamTestTarget: Test connection tests what is typed', () => {
  it('a typed password is used with the typed values', () => {
    expect(teamTestTarget(saved, { ...saved, serverUrl: 'https://typo.example.com' }, 'pw', 'stored'))
      .toEqual({ ok: true, connection: { serverUrl: 'https://typo.example.com', database: 'team', username: 'ben', password: 'pw' } });
  });
  it('the stored password goes to the saved server and user only (another path or database is fine)', () => {
    expect(teamTestTarget(saved, { ...saved, serverUrl: 'https://couch.example.com/', database: 'tea' }, null, 'stored'))
      .toEqual({ ok: true, connection: { serverUrl: 'https://couch.example.com/', database: 'tea', username: 'ben', password: 'stored' } });
  });
  it('another server or user with the field left empty: asks for the password, sends nothing', () => {
    const refused = { ok: false, message: 'Type the password to test this server or user: the stored password is only sent to the server and user it was saved for.' };
    expect(teamTestTarget(saved, { ...saved, serverUrl: 'https://unreachable.invalid' }, null, 'stored')).toEqual(refused);
    expect(teamTestTarget(saved, { ...saved, username: 'eve' }, null, 'stored')).toEqual(refused);
    expect(teamTestTarget(saved, { ...saved, serverUrl: 'not a url' }, null, 'stored')).toEqual(refused);
  });
  it('no stored password, or no user: tested without one', () => {
    expect(teamTestTarget(saved, { ...saved, serverUrl: 'http://127.0.0.1:5984' }, null, '')).toEqual({ ok: true, connection: { serverUrl: 'http://127.0.0.1:5984', database: 'team', username: 'ben', password: '' } });
    expect(teamTestTarget(saved, { ...saved, username: '' }, null, 'stored')).toEqual({ ok: true, connection: { serverUrl: 'https://couch.example.com', database: 'team', username: '', password: '' } });
  });
});
