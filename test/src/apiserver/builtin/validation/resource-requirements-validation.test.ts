// Container resource requirements, with cases from upstream's TestValidateResourceRequirements and container tests.
import { describe, expect, it } from 'vitest';
import { validateResourceRequirements } from '../../../../../src/apiserver/builtin/validation/resource-requirements-validation.ts';
import { causeLines } from './cause-lines.ts';

const at = 'spec.containers[0].resources';

describe('validateResourceRequirements', () => {
  it.each([
    ['nothing set', {}, []],
    [
      'requests equal to limits',
      { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      [],
    ],
    ['requests below limits in other units', { requests: { cpu: '500m' }, limits: { cpu: '1' } }, []],
    ['requests only', { requests: { cpu: '10', memory: '10G' } }, []],
    ['limits only', { limits: { 'ephemeral-storage': '1Gi' } }, []],
    [
      'hugepages with memory',
      { limits: { 'hugepages-2Mi': '2Mi', memory: '1Gi' }, requests: { 'hugepages-2Mi': '2Mi' } },
      [],
    ],
    [
      'an extended resource requested at its limit',
      { requests: { 'example.com/gpu': '2' }, limits: { 'example.com/gpu': '2' } },
      [],
    ],
    [
      'a request over its limit',
      { requests: { cpu: '2' }, limits: { cpu: '1' } },
      [`${at}.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`],
    ],
    [
      'a memory request over its limit, printed canonically',
      { requests: { memory: '2048Mi' }, limits: { memory: '1Gi' } },
      [`${at}.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`],
    ],
    [
      'a decimal request over a milli limit',
      { requests: { cpu: '0.5' }, limits: { cpu: '200m' } },
      [`${at}.requests: Invalid value: "500m": must be less than or equal to cpu limit of 200m`],
    ],
    [
      'a negative limit',
      { limits: { cpu: '-1' } },
      [`${at}.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`],
    ],
    [
      'a quantity that does not parse',
      { requests: { memory: 'lots' } },
      [
        `${at}.requests[memory]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      ],
    ],
    [
      'a resource that is not a container resource',
      { limits: { pods: '1' } },
      [`${at}.limits[pods]: Invalid value: "pods": must be a standard resource for containers`],
    ],
    [
      'an extended resource request below its limit',
      { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } },
      [`${at}.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`],
    ],
    [
      'an extended resource without a limit',
      { requests: { 'example.com/gpu': '1' } },
      [`${at}.limits: Required value: Limit must be set for non overcommitable resources`],
    ],
    [
      'a fractional extended resource',
      { requests: { 'example.com/gpu': '500m' }, limits: { 'example.com/gpu': '500m' } },
      [
        `${at}.limits[example.com/gpu]: Invalid value: "500m": must be an integer`,
        `${at}.requests[example.com/gpu]: Invalid value: "500m": must be an integer`,
      ],
    ],
    [
      'hugepages alone',
      { limits: { 'hugepages-2Mi': '2Mi' }, requests: { 'hugepages-2Mi': '2Mi' } },
      [`${at}: Forbidden: HugePages require cpu or memory`],
    ],
  ])('%s', (_name, resources, expected) => {
    expect(causeLines(validateResourceRequirements(resources, at))).toEqual(expected);
  });
});
