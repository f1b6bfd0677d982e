// NodePorts tests ported in our own words from node_ports_test.go.
import { describe, expect, it } from 'vitest';
import type { ContainerPort, Pod } from '../../../../../operators/api/core-v1.ts';
import {
  ERR_REASON_NODE_PORTS,
  isSchedulableAfterPodDeleted,
  NodePorts,
} from '../../../../../operators/scheduling/plugins/node-ports/node-ports.ts';
import { container, makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

/** "PROTO/IP/port" strings → a pod with one container using those host ports. */
function withPorts(name: string, specs: string[], nodeName?: string): Pod {
  const ports: ContainerPort[] = specs.map((s) => {
    const [protocol, hostIP, port] = s.split('/');
    return { containerPort: Number(port), hostPort: Number(port), hostIP, protocol };
  });
  return makePod(name, { containers: [container(undefined, { ports })], ...(nodeName ? { nodeName } : {}) });
}

describe('NodePorts', () => {
  it.each<[string, string[], string[], boolean]>([
    ['nothing running', [], [], true],
    ['other port', ['UDP/127.0.0.1/8080'], ['UDP/127.0.0.1/9090'], true],
    ['same udp port', ['UDP/127.0.0.1/8080'], ['UDP/127.0.0.1/8080'], false],
    ['same tcp port', ['TCP/127.0.0.1/8080'], ['TCP/127.0.0.1/8080'], false],
    ['different host ip', ['TCP/127.0.0.1/8080'], ['TCP/127.0.0.2/8080'], true],
    ['different protocol', ['UDP/127.0.0.1/8080'], ['TCP/127.0.0.1/8080'], true],
    [
      'second udp port conflict',
      ['UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'],
      ['UDP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'],
      false,
    ],
    [
      'first tcp port conflict',
      ['TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'],
      ['TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081'],
      false,
    ],
    ['first tcp port conflict due to a 0.0.0.0 hostIP', ['TCP/0.0.0.0/8001'], ['TCP/127.0.0.1/8001'], false],
    [
      'tcp conflict with a 0.0.0.0 hostIP among others',
      ['TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'],
      ['TCP/127.0.0.1/8001'],
      false,
    ],
    ['second tcp port conflict to a 0.0.0.0 hostIP', ['TCP/127.0.0.1/8001'], ['TCP/0.0.0.0/8001'], false],
    ['second different protocol', ['UDP/127.0.0.1/8001'], ['TCP/0.0.0.0/8001'], true],
    [
      'UDP hostPort conflict due to a 0.0.0.0 hostIP',
      ['UDP/0.0.0.0/8001', 'TCP/0.0.0.0/8001'],
      ['TCP/127.0.0.1/8001'],
      false,
    ],
    ['an empty hostIP means every IP', ['TCP//8001'], ['TCP/127.0.0.1/8001'], false],
  ])('%s', (_name, want, used, fits) => {
    const plugin = new NodePorts();
    const pod = withPorts('p', want);
    const state = newState();
    const pre = plugin.preFilter(state, pod);
    if (want.length === 0) {
      expect(pre?.status?.code).toBe('Skip');
      return;
    }
    const ni = nodeInfo(makeNode('n'), used.length ? [withPorts('existing', used, 'n')] : []);
    const s = plugin.filter(state, pod, ni);
    if (fits) expect(s).toBeUndefined();
    else expect(s).toEqual({ code: 'Unschedulable', reasons: [ERR_REASON_NODE_PORTS] });
  });

  it('Filter without PreFilter is an Error', () => {
    expect(
      new NodePorts().filter(newState(), withPorts('p', ['TCP/0.0.0.0/80']), nodeInfo(makeNode('n')))?.code,
    ).toBe('Error');
  });

  it.each<[string, Pod, string]>([
    ['a deleted unscheduled pod', withPorts('x', ['TCP/0.0.0.0/8080']), 'QueueSkip'],
    ['a deleted assigned pod without host ports', withPorts('x', [], 'n'), 'QueueSkip'],
    ['a deleted assigned pod on another port', withPorts('x', ['TCP/0.0.0.0/9090'], 'n'), 'QueueSkip'],
    ['a deleted assigned pod holding the port', withPorts('x', ['TCP/0.0.0.0/8080'], 'n'), 'Queue'],
  ])('hint: %s', (_name, deleted, want) => {
    expect(isSchedulableAfterPodDeleted(withPorts('p', ['TCP/0.0.0.0/8080']), deleted)).toBe(want);
  });
});
