import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { Checksum } from '../../src/node/cacheFile';

describe('Checksum (the large snapshots\' data check)', () => {
  const bytes = Buffer.from('some snapshot data, ünïcode included');

  it('digests chunk by chunk as in one piece, and checks what it digested', () => {
    const whole = new Checksum().update(bytes).digest();
    const parts = new Checksum().update(bytes.subarray(0, 7)).update(bytes.subarray(7)).digest();
    assert.deepEqual(parts, whole);
    Checksum.check(whole, bytes);
  });

  it('reads a SHA-1 header too (written where zlib has no CRC-32)', () => {
    Checksum.check({ sha1: createHash('sha1').update(bytes).digest('hex') }, bytes);
  });

  it('throws on damage or a missing checksum', () => {
    const sum = new Checksum().update(bytes).digest();
    const damaged = Buffer.from(bytes);
    damaged[3] ^= 1;
    assert.throws(() => Checksum.check(sum, damaged), /checksum mismatch/);
    assert.throws(() => Checksum.check({ sha1: '00' }, bytes), /checksum mismatch/);
    assert.throws(() => Checksum.check({}, bytes), /no checksum/);
  });
});
