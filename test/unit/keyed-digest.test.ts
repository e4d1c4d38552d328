/**
 * The keyed digest secret form values are compared by (issue 30): SHA-256 and
 * HMAC-SHA-256 written in core (it runs in the worker, the page layer and
 * Node alike, synchronously), checked against the published test vectors and
 * Node's own HMAC.
 */
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex, sha256Hex } from '../../src/core/secrets/keyed-digest.ts';

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });
});

describe('hmacSha256Hex', () => {
  it('matches RFC 4231 test case 2', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('matches Node for a 64-byte key, a key longer than a block, and non-ASCII text', () => {
    expect(hmacSha256Hex('k'.repeat(64), 'id\u0000tok-7')).toBe('8846913e53032f7f03b183a9ddb37f48faf5fba10b68863b384b907efd2927d8');
    expect(hmacSha256Hex('x'.repeat(100), 'é€𝄞')).toBe('c99b07639959e2bc4ae9ce4039d52c77845ee14ae4fead660871d5912edcad51');
  });
});
