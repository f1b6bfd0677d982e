// NodeName tests ported in our own words from node_name_test.go.
import { describe, expect, it } from 'vitest';
import {
  ERR_REASON_NODE_NAME,
  isSchedulableAfterNodeAdd,
  NodeName,
} from '../../../../../operators/scheduling/plugins/node-name/node-name.ts';
import { makeNode, makePod, newState, nodeInfo } from '../../framework/fixtures.ts';

describe('NodeName', () => {
  it.each<[string, string | undefined, string, boolean]>([
    ['no host specified', undefined, 'foo', true],
    ['host matches', 'foo', 'foo', true],
    ["host doesn't match", 'bar', 'foo', false],
  ])('%s', (_name, wanted, node, fits) => {
    const pod = makePod('p', wanted ? { nodeName: wanted } : {});
    const s = new NodeName().filter(newState(), pod, nodeInfo(makeNode(node)));
    if (fits) expect(s).toBeUndefined();
    else expect(s).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_NODE_NAME] });
  });

  it('queues when the named node is added, skips other nodes', () => {
    const pod = makePod('p', { nodeName: 'foo' });
    expect(isSchedulableAfterNodeAdd(pod, undefined, makeNode('foo'))).toBe('Queue');
    expect(isSchedulableAfterNodeAdd(pod, undefined, makeNode('bar'))).toBe('QueueSkip');
    expect(isSchedulableAfterNodeAdd(makePod('q'), undefined, makeNode('bar'))).toBe('Queue');
  });
});
