// ConfigMaps and Secrets, with cases from upstream's TestValidateConfigMap, TestValidateSecret and their update tests.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateConfigData } from '../../../../../src/apiserver/builtin/validation/config-data-validation.ts';
import { causeLines } from './cause-lines.ts';

const configMap = validateConfigData('ConfigMap');
const secret = validateConfigData('Secret');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key_name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('ConfigMap validation', () => {
  it.each([
    ['plain keys', { data: { 'app.properties': 'a=b', KEY_1: 'x', '.hidden': 'y' } }, []],
    ['binary data', { binaryData: { 'logo.png': b64('png') } }, []],
    ['a key with a slash', { data: { 'a/b': 'x' } }, [`data[a/b]: Invalid value: "a/b": ${KEY_MESSAGE}`]],
    ['a key of ..', { data: { '..': 'x' } }, [`data[..]: Invalid value: "..": must not be '..'`]],
    [
      'a key starting ..',
      { data: { '..x': 'x' } },
      [`data[..x]: Invalid value: "..x": must not start with '..'`],
    ],
    [
      'a key in both maps',
      { data: { k: 'x' }, binaryData: { k: b64('y') } },
      [
        'data[k]: Invalid value: "k": duplicate of key present in binaryData',
        'binaryData[k]: Invalid value: "k": duplicate of key present in data',
      ],
    ],
    [
      'more than 1 MiB',
      { data: { a: 'x'.repeat(1024 * 1024), b: 'y' } },
      [': Too long: may not be more than 1048576 bytes'],
    ],
  ])('%s', (_name, body, expected) => {
    expect(causeLines(configMap({ metadata: { name: 'cm' }, ...body } as KubeObject))).toEqual(expected);
  });

  it('an immutable ConfigMap keeps its data and its flag', () => {
    const old = { metadata: { name: 'cm' }, immutable: true, data: { a: '1' } } as KubeObject;
    expect(configMap({ ...old }, old)).toEqual([]);
    expect(causeLines(configMap({ ...old, immutable: false, data: { a: '2' } } as KubeObject, old))).toEqual([
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
});

describe('Secret validation', () => {
  it.each([
    ['an opaque secret', { data: { password: b64('pw') } }, []],
    ['stringData', { stringData: { 'user.name': 'me' } }, []],
    ['a TLS secret', { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } }, []],
    [
      'a service-account token secret',
      {
        type: 'kubernetes.io/service-account-token',
        metadata: { name: 's', annotations: { 'kubernetes.io/service-account.name': 'default' } },
      },
      [],
    ],
    [
      'a docker config',
      { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } },
      [],
    ],
    [
      'basic auth with a username only',
      { type: 'kubernetes.io/basic-auth', data: { username: b64('me') } },
      [],
    ],
    ['a bad key', { data: { 'a b': b64('x') } }, [`data[a b]: Invalid value: "a b": ${KEY_MESSAGE}`]],
    [
      'a bad stringData key',
      { stringData: { 'a:b': 'x' } },
      [`data[a:b]: Invalid value: "a:b": ${KEY_MESSAGE}`],
    ],
    [
      'a TLS secret without a key',
      { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } },
      ['data[tls.key]: Required value'],
    ],
    [
      'a token secret without its account',
      { type: 'kubernetes.io/service-account-token' },
      ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
    ],
    [
      'a docker config that is not JSON',
      { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('nope') } },
      [expect.stringMatching(/^data\[\.dockerconfigjson\]: Invalid value: "<secret contents redacted>": /)],
    ],
    [
      'basic auth with neither field',
      { type: 'kubernetes.io/basic-auth', data: {} },
      ['data[username]: Required value', 'data[password]: Required value'],
    ],
    ['ssh auth without a key', { type: 'kubernetes.io/ssh-auth' }, ['data[ssh-privatekey]: Required value']],
    [
      'more than 1 MiB',
      { data: { a: b64('x'.repeat(1024 * 1024 + 1)) } },
      ['data: Too long: may not be more than 1048576 bytes'],
    ],
  ])('%s', (_name, body, expected) => {
    expect(causeLines(secret({ metadata: { name: 's' }, ...body } as KubeObject))).toEqual(expected);
  });

  it('a Secret keeps its type, and an immutable one its data', () => {
    const old = {
      metadata: { name: 's' },
      type: 'Opaque',
      immutable: true,
      data: { a: b64('1') },
    } as KubeObject;
    expect(secret({ ...old }, old)).toEqual([]);
    expect(
      causeLines(
        secret({ ...old, type: 'kubernetes.io/basic-auth', data: { username: b64('u') } } as KubeObject, old),
      ),
    ).toEqual([
      'data: Forbidden: field is immutable when `immutable` is set',
      'type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
    ]);
  });
});
