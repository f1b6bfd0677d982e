// SPDY/3 header blocks: the pair layout, the shared zlib stream with the SPDY dictionary in both directions, and bad blocks named.
import { createHash } from 'node:crypto';
import { constants, createDeflate, createInflate } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../../operators/errors.ts';
import {
  decodeHeaderBlock,
  encodeHeaderBlock,
  HeaderDeflater,
  HeaderInflater,
  type SpdyHeaders,
} from '../../../../src/kubelet/server/spdy-header-block.ts';
import { SPDY3_HEADER_DICTIONARY } from '../../../../src/kubelet/server/spdy-header-dictionary.ts';

/** What a Go SPDY peer sends: one zlib stream with the dictionary, sync-flushed after each block. */
async function goLikeBlocks(blocks: SpdyHeaders[]): Promise<Buffer[]> {
  const deflate = createDeflate({ dictionary: SPDY3_HEADER_DICTIONARY });
  const out: Buffer[] = [];
  for (const headers of blocks) {
    deflate.write(encodeHeaderBlock(headers));
    await new Promise<void>((resolve) => deflate.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    const chunks: Buffer[] = [];
    for (let c = deflate.read() as Buffer | null; c; c = deflate.read()) chunks.push(c);
    out.push(Buffer.concat(chunks));
  }
  deflate.destroy();
  return out;
}

/** Reads blocks the way any SPDY peer does: one inflater, one sync flush per frame. */
async function inflateAll(blocks: Buffer[]): Promise<Buffer[]> {
  const inflate = createInflate({ dictionary: SPDY3_HEADER_DICTIONARY });
  let chunks: Buffer[] = [];
  inflate.on('data', (c: Buffer) => chunks.push(c));
  const out: Buffer[] = [];
  for (const block of blocks) {
    inflate.write(block);
    await new Promise<void>((resolve) => inflate.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    out.push(Buffer.concat(chunks));
    chunks = [];
  }
  inflate.destroy();
  return out;
}

const portForwardHeaders = (requestId: number, type: string): SpdyHeaders => ({
  streamtype: type,
  port: '8080',
  requestid: String(requestId),
});

describe('the SPDY/3 dictionary', () => {
  it('is the 1,423 bytes of the protocol draft (as spdy-transport and Go ship it)', () => {
    expect(SPDY3_HEADER_DICTIONARY.length).toBe(1423);
    expect(createHash('sha256').update(SPDY3_HEADER_DICTIONARY).digest('hex')).toBe(
      '51d27341373f923f3cd88e1eb7162aeaa3723d7585ff2399201dc06498407f02',
    );
  });
});

describe('encodeHeaderBlock / decodeHeaderBlock', () => {
  it('lays out a count, then each name and value after a 4-byte length', () => {
    expect(encodeHeaderBlock({ port: '80' }).toString('hex')).toBe(
      `00000001` +
        `00000004${Buffer.from('port').toString('hex')}` +
        `00000002${Buffer.from('80').toString('hex')}`,
    );
  });

  it('decodes what it encodes (names lower-cased)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/), fc.string({ maxLength: 40 }), {
          maxKeys: 6,
        }),
        (headers) => {
          expect(decodeHeaderBlock(encodeHeaderBlock(headers))).toEqual(headers);
        },
      ),
    );
  });

  it.each([
    ['no pair count', Buffer.alloc(2), 'needs a 4-byte pair count'],
    ['a pair cut short', encodeHeaderBlock({ port: '8080' }).subarray(0, 12), 'ends inside pair 1 of 1'],
    [
      'a repeated name',
      Buffer.concat([
        Buffer.from('00000002', 'hex'),
        encodeHeaderBlock({ a: '1' }).subarray(4),
        encodeHeaderBlock({ A: '2' }).subarray(4),
      ]),
      'repeats the name "a"',
    ],
  ])('%s is an error naming the block', (_name, block, reason) => {
    const out = decodeHeaderBlock(block);
    expect(out).toBeInstanceOf(InvalidInputError);
    expect((out as InvalidInputError).message).toContain(reason);
  });
});

describe('HeaderInflater', () => {
  it('reads consecutive blocks of one compressed stream, as kubectl sends them', async () => {
    const sent = [
      portForwardHeaders(0, 'error'),
      portForwardHeaders(0, 'data'),
      portForwardHeaders(1, 'error'),
    ];
    const inflater = new HeaderInflater();
    const got: unknown[] = [];
    for (const block of await goLikeBlocks(sent)) got.push(await inflater.inflate(block));
    inflater.close();
    expect(got).toEqual(sent);
  });

  it('a block that inflates past the stream buffer (70 KB of headers) still comes out whole', async () => {
    const big = { cookie: 'c'.repeat(70_000), port: '1' };
    const inflater = new HeaderInflater();
    const [block] = await goLikeBlocks([big]);
    expect(await inflater.inflate(block!)).toEqual(big);
    inflater.close();
  });

  it('garbage is an error naming the compression, and the stream stays broken', async () => {
    const inflater = new HeaderInflater();
    const first = await inflater.inflate(Buffer.from('not zlib at all'));
    expect(first).toBeInstanceOf(InvalidInputError);
    expect((first as InvalidInputError).message).toContain('compression');
    const [good] = await goLikeBlocks([{ a: 'b' }]);
    expect(await inflater.inflate(good!)).toBeInstanceOf(InvalidInputError);
    inflater.close();
  });
});

describe('HeaderDeflater', () => {
  it('writes blocks that a standard inflater with the dictionary reads one frame at a time', async () => {
    const deflater = new HeaderDeflater();
    const sent: SpdyHeaders[] = [{}, { status: '200' }, {}, { big: 'x'.repeat(70_000) }];
    const raw = await inflateAll(sent.map((h) => deflater.deflate(h)));
    expect(raw.map((r) => decodeHeaderBlock(r))).toEqual(sent);
  });

  it('ends every block on a sync-flush marker, so a reader never needs the next frame to finish this one', () => {
    const deflater = new HeaderDeflater();
    const first = deflater.deflate({});
    const second = deflater.deflate({});
    expect(first.subarray(0, 2).toString('hex')).toBe('7801'); // the zlib header, once
    expect(second.subarray(0, 2).toString('hex')).not.toBe('7801');
    for (const block of [first, second]) expect(block.subarray(-5).toString('hex')).toBe('000000ffff');
  });

  it('round-trips through its own inflater', async () => {
    const deflater = new HeaderDeflater();
    const inflater = new HeaderInflater();
    for (const headers of [portForwardHeaders(3, 'data'), {}, { 'x-a': 'é' }]) {
      expect(await inflater.inflate(deflater.deflate(headers))).toEqual(headers);
    }
    inflater.close();
  });
});
