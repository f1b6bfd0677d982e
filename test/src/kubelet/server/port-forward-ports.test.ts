// parsePortForwardPorts: the `ports` query of /portForward, repeated or comma-separated, each 1-65535.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../../operators/errors.ts';
import { parsePortForwardPorts } from '../../../../src/kubelet/server/port-forward.ts';

const parse = (query: string) => parsePortForwardPorts(new URLSearchParams(query));

describe('parsePortForwardPorts', () => {
  it.each([
    ['ports=80', [80]],
    ['ports=80&ports=443', [80, 443]],
    ['ports=80,443', [80, 443]],
    ['ports=1&ports=65535', [1, 65535]],
    ['ports=8080,%208081', [8080, 8081]],
  ])('%j is %j', (query, ports) => {
    expect(parse(query)).toEqual(ports);
  });

  it.each([
    ['', 'at least one port must be specified'],
    ['ports=', 'at least one port must be specified'],
    ['ports=0', 'unable to parse "0" as a port'],
    ['ports=65536', 'unable to parse "65536" as a port'],
    ['ports=http', 'unable to parse "http" as a port'],
    ['ports=80,-1', 'unable to parse "-1" as a port'],
  ])('%j is refused naming ports: %s', (query, message) => {
    const result = parse(query);
    expect(result).toBeInstanceOf(InvalidInputError);
    expect((result as InvalidInputError).field).toBe('ports');
    expect((result as InvalidInputError).message).toContain(message);
  });
});
