/**
 * What "Test connection" tests (issue 31): the values typed in the form, not
 * the saved ones, so a typo is caught before it is saved. The stored password
 * goes only to the server it was saved for: a different typed server needs
 * the password typed too (as a provider's key goes to a typed URL only under
 * the saved one's rule).
 */
export interface TeamConnectionFields {
  serverUrl: string;
  database: string;
  username: string;
}

export type TeamTestTarget =
  | { ok: true; connection: TeamConnectionFields & { password: string } }
  | { ok: false; message: string };

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * `typedPassword` null: the field was left empty (keep the stored one).
 * The stored password is used only for the saved server's origin and user.
 */
export function teamTestTarget(saved: TeamConnectionFields, typed: TeamConnectionFields, typedPassword: string | null, storedPassword: string): TeamTestTarget {
  if (typedPassword !== null) return { ok: true, connection: { ...typed, password: typedPassword } };
  if (storedPassword === '' || typed.username === '') return { ok: true, connection: { ...typed, password: '' } };
  const sameServer = originOf(typed.serverUrl) !== null && originOf(typed.serverUrl) === originOf(saved.serverUrl);
  if (sameServer && typed.username === saved.username) return { ok: true, connection: { ...typed, password: storedPassword } };
  return {
    ok: false,
    message: 'Type the password to test this server or user: the stored password is only sent to the server and user it was saved for.',
  };
}
