// kube-apiserver's --token-auth-file: a CSV of token,user,uid,"group1,group2", one user a line.
import { InvalidConfigError } from '../../../operators/errors.ts';
import { type Authenticator, bearerToken, type UserInfo } from './user-info.ts';

/** Splits one CSV line, honouring double quotes (a doubled quote inside is one quote). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/**
 * Parses a static token file. Each record needs at least token, user name and uid; a fourth field
 * lists groups separated by commas. Blank lines are skipped; a token given twice keeps the last
 * line, as upstream does.
 * @param text the file's content
 * @param source the file name, for error messages
 * @returns token → user
 * @throws InvalidConfigError naming `--token-auth-file` and the line for a short or empty-token record
 */
export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const fields = csvFields(line);
    if (fields.length < 3) {
      throw new InvalidConfigError(
        '--token-auth-file',
        `${source}, line ${index + 1}: needs at least 3 fields (token,user,uid), got ${fields.length}`,
      );
    }
    const [token = '', username = '', uid = '', groupField] = fields;
    if (token === '') {
      throw new InvalidConfigError('--token-auth-file', `${source}, line ${index + 1}: the token is empty`);
    }
    const groups = groupField ? groupField.split(',').filter((g) => g !== '') : [];
    users.set(token, { username, uid, groups });
  });
  return users;
}

/**
 * Authenticates bearer tokens found in a table of tokens.
 * @param tokens token → user (from {@link parseTokenFile} or the server's own admin token)
 */
export function tokenAuthenticator(tokens: ReadonlyMap<string, UserInfo>): Authenticator {
  return (req) => {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    return tokens.get(token);
  };
}
