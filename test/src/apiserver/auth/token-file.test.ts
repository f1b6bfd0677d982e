// The static token file: upstream's tokenfile authenticator cases, in a table.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../../operators/errors.ts';
import { parseTokenFile, tokenAuthenticator } from '../../../../src/apiserver/auth/token-file.ts';

const requestWith = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('parseTokenFile and tokenAuthenticator', () => {
  const file = [
    'token1,user1,uid1',
    'token2,user2,uid2',
    'token3,user3,uid3,"group1,group2"',
    'token4,user4,uid4,"group2"',
    'token5,user5,uid5,group5',
    'token6,user6,uid6,group5,otherdata',
    'token7,user7,uid7,"group1,group2",otherdata',
    '',
  ].join('\n');
  const authenticate = tokenAuthenticator(parseTokenFile(file));

  it.each([
    ['token1', { username: 'user1', uid: 'uid1', groups: [] }],
    ['token2', { username: 'user2', uid: 'uid2', groups: [] }],
    ['token3', { username: 'user3', uid: 'uid3', groups: ['group1', 'group2'] }],
    ['token4', { username: 'user4', uid: 'uid4', groups: ['group2'] }],
    ['token5', { username: 'user5', uid: 'uid5', groups: ['group5'] }],
    ['token6', { username: 'user6', uid: 'uid6', groups: ['group5'] }],
    ['token7', { username: 'user7', uid: 'uid7', groups: ['group1', 'group2'] }],
  ])('%s authenticates its user, uid and groups', (token, user) => {
    expect(authenticate(requestWith(`Bearer ${token}`))).toEqual(user);
  });

  it.each([
    ['an unknown token', 'Bearer token8'],
    ['a token not in the file', 'Bearer user1'],
  ])('%s authenticates nobody', (_name, header) => {
    expect(authenticate(requestWith(header))).toBeUndefined();
  });

  it.each([
    ['no header', undefined],
    ['basic auth', 'Basic dXNlcjpwYXNz'],
    ['a bearer header without a token', 'Bearer '],
  ])('%s is not a token request', (_name, header) => {
    expect(authenticate(requestWith(header))).toBeUndefined();
  });

  it('keeps the last line for a token given twice', () => {
    const users = parseTokenFile('t,first,1\nt,second,2\n');
    expect(users.get('t')).toEqual({ username: 'second', uid: '2', groups: [] });
  });

  it('reads CRLF line ends and skips blank lines', () => {
    expect([...parseTokenFile('\r\na,u,1\r\n\r\n').keys()]).toEqual(['a']);
  });

  it.each([
    ['a record with two fields', 'token1,user1', /line 1: needs at least 3 fields/],
    ['an empty token', 'good,u,1\n,user,uid', /line 2: the token is empty/],
  ])('refuses %s, naming the flag and the line', (_name, text, message) => {
    let thrown: unknown;
    try {
      parseTokenFile(text, 'tokens.csv');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidConfigError);
    expect((thrown as InvalidConfigError).field).toBe('--token-auth-file');
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).toMatch(/tokens\.csv/);
  });
});
