// NT hashes (MD4 of the UTF-16LE password) for test fixtures: the API computes them for real;
// Node's OpenSSL 3 no longer offers MD4, so the tests carry this small implementation (RFC 1320).
export function ntHash(password: string): string {
  return md4(Buffer.from(password, 'utf16le')).toString('hex').toUpperCase();
}

export function md4(input: Buffer): Buffer {
  const length = input.length;
  const padded = Buffer.alloc((((length + 8) >> 6) + 1) << 6);
  input.copy(padded);
  padded[length] = 0x80;
  padded.writeUInt32LE((length * 8) >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor(length / 0x20000000), padded.length - 4);

  const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));
  const f = (x: number, y: number, z: number) => (x & y) | (~x & z);
  const g = (x: number, y: number, z: number) => (x & y) | (x & z) | (y & z);
  const h = (x: number, y: number, z: number) => x ^ y ^ z;
  const order3 = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15];
  let [a, b, c, d] = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476];
  for (let offset = 0; offset < padded.length; offset += 64) {
    const x = Array.from({ length: 16 }, (_, i) => padded.readUInt32LE(offset + i * 4));
    const [aa, bb, cc, dd] = [a, b, c, d];
    const step = (value: number, shift: number) => {
      const t = rotl(value | 0, shift);
      [a, d, c, b] = [d, c, b, t];
    };
    for (let i = 0; i < 16; i++) step(a + f(b, c, d) + x[i]!, [3, 7, 11, 19][i % 4]!);
    for (let i = 0; i < 16; i++)
      step(a + g(b, c, d) + x[(i % 4) * 4 + (i >> 2)]! + 0x5a827999, [3, 5, 9, 13][i % 4]!);
    for (let i = 0; i < 16; i++) step(a + h(b, c, d) + x[order3[i]!]! + 0x6ed9eba1, [3, 9, 11, 15][i % 4]!);
    a = (a + aa) | 0;
    b = (b + bb) | 0;
    c = (c + cc) | 0;
    d = (d + dd) | 0;
  }
  const out = Buffer.alloc(16);
  [a, b, c, d].forEach((word, i) => out.writeInt32LE(word, i * 4));
  return out;
}
