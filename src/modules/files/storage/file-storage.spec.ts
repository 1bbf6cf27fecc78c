import { inParts } from './file-storage.js';

async function* chunks(...sizes: number[]): AsyncGenerator<Buffer> {
  let next = 0;
  for (const size of sizes) yield Buffer.from(Array.from({ length: size }, () => next++ % 256));
}

async function collect(parts: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const part of parts) out.push(Buffer.from(part)); // a part is valid until the next is asked for
  return out;
}

describe('inParts', () => {
  it('regroups uneven chunks into parts of exactly the part size, the last one shorter, bytes in order', async () => {
    const parts = await collect(inParts(chunks(3, 10, 1, 7, 4), 8));
    expect(parts.map((p) => p.length)).toEqual([8, 8, 8, 1]);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(Array.from({ length: 25 }, (_, i) => i)));
  });

  it('yields nothing for an empty stream and no empty last part on an exact multiple', async () => {
    expect(await collect(inParts(chunks(), 4))).toEqual([]);
    expect((await collect(inParts(chunks(0, 8), 4))).map((p) => p.length)).toEqual([4, 4]);
  });
});
