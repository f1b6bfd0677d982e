// computeDetachedSignature and detachedTokenIsValid: upstream's jws_test.go vectors (content, empty content, empty secret), as a table.
import { describe, expect, it } from 'vitest';
import {
  computeDetachedSignature,
  detachedTokenIsValid,
} from '../../../../operators/controller/bootstrap/detached-jws.ts';

const CONTENT = 'Hello from the other side. I must have called a thousand times.';
const SECRET = 'my voice is my passcode';
const ID = 'joshua';

describe('computeDetachedSignature', () => {
  it.each<[string, string, string, string]>([
    [
      'the content',
      CONTENT,
      SECRET,
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8',
    ],
    [
      'empty content',
      '',
      SECRET,
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk',
    ],
    [
      'an empty secret',
      CONTENT,
      '',
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8',
    ],
  ])('signs %s as upstream', (_name, content, secret, want) => {
    expect(computeDetachedSignature(content, ID, secret)).toBe(want);
  });

  it.each<[string, string, boolean]>([
    [
      'its own signature',
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8',
      true,
    ],
    [
      'a signature with more after it',
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8foo',
      false,
    ],
    [
      'another content signature',
      'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk',
      false,
    ],
  ])('detachedTokenIsValid: %s → %s', (_name, sig, valid) => {
    expect(detachedTokenIsValid(sig, CONTENT, ID, SECRET)).toBe(valid);
  });
});
