/**
 * The lines of a "key<TAB>value" text, indexed by key over the file's bytes without decoding
 * them: an open-addressing table of line offsets keyed by an FNV-1a hash of the key's UTF-8
 * bytes. A value is decoded when its key is first looked up. Reading CC-CEDICT's compact copy
 * (120k lines) into a Map of strings took ~0.05 s on every process that met one Chinese word;
 * indexing the bytes takes a fraction of that, and a route looks up a few dozen words.
 */

/** A built index, as `TabIndex.parts` gives it. */
export interface TabIndexParts {
  /** Per slot: 1 + a key's index, 0 when empty; a power of two long. */
  slots: Int32Array;
  /** Per key: its first line's start, its last line's start. */
  firsts: Int32Array;
  lasts: Int32Array;
  /** Longest key, in UTF-16 code units. */
  maxKeyLength: number;
}

/** Keys and values of one text, as `Map` gives them (the last line of a key wins, in the first one's place). */
export class TabIndex {
  /** Per slot: 1 + the index of the key held there, 0 when empty; under half full. */
  private slots: Int32Array;
  /** Per distinct key, in the order of their first lines: that line's start, its last line's (its value), its hash. */
  private firsts: Int32Array;
  private lasts: Int32Array;
  private hashes: Int32Array;
  private count = 0;
  /** Longest key, in UTF-16 code units. */
  readonly maxKeyLength: number;

  /**
   * Indexes the lines of `buf` from byte `from` on; lines without a key before a tab are skipped.
   * With `built` (what `parts` gave for the same bytes), takes that index instead of making it.
   */
  constructor(
    private readonly buf: Buffer,
    from = 0,
    built?: TabIndexParts,
  ) {
    if (built) {
      this.slots = built.slots;
      this.firsts = built.firsts;
      this.lasts = built.lasts;
      this.hashes = new Int32Array(0);
      this.count = built.firsts.length;
      this.maxKeyLength = built.maxKeyLength;
      this.checkParts();
      return;
    }
    // Sized for lines of 40 bytes (CC-CEDICT's average is 53), grown when that is too few.
    const keys = Math.max(512, Math.ceil((buf.length - from) / 40));
    let size = 1024;
    while (size < keys * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.firsts = new Int32Array(keys);
    this.lasts = new Int32Array(keys);
    this.hashes = new Int32Array(keys);
    let maxLen = 0;
    for (let at = from; at < buf.length; ) {
      let end = buf.indexOf(10, at);
      if (end < 0) end = buf.length;
      let tab = at;
      let h = 0x811c9dc5;
      let units = 0;
      for (; tab < end && buf[tab] !== 9; tab++) {
        const b = buf[tab];
        h = Math.imul(h ^ b, 0x01000193);
        if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
      }
      if (tab > at && tab < end) {
        this.insert(h >>> 0, at, tab - at);
        if (units > maxLen) maxLen = units;
      }
      at = end + 1;
    }
    this.maxKeyLength = maxLen;
  }

  get size(): number {
    return this.count;
  }

  /** The index as arrays, to be written beside the text and handed back to the constructor. */
  parts(): TabIndexParts {
    return { slots: this.slots, firsts: this.firsts.subarray(0, this.count), lasts: this.lasts.subarray(0, this.count), maxKeyLength: this.maxKeyLength };
  }

  /** Throws unless prebuilt parts point at lines of this text (a table of another text, or damaged). */
  private checkParts(): void {
    const { slots, firsts, lasts, buf } = this;
    if (slots.length < 2 || (slots.length & (slots.length - 1)) !== 0 || lasts.length !== firsts.length) throw new Error('the index does not hold together');
    let filled = 0;
    for (let i = 0; i < slots.length; i++) {
      const k = slots[i];
      if (k === 0) continue;
      if (k < 0 || k > firsts.length) throw new Error('the index does not hold together');
      filled++;
    }
    if (filled !== firsts.length) throw new Error('the index does not hold together');
    for (let k = 0; k < firsts.length; k++) {
      const a = firsts[k];
      const b = lasts[k];
      // Each a line start holding a key and a tab.
      if (a < 0 || b < 0 || a >= buf.length || b >= buf.length || (a > 0 && buf[a - 1] !== 10) || (b > 0 && buf[b - 1] !== 10) || buf[a] === 9) {
        throw new Error('the index does not match the text');
      }
    }
  }

  /** The value of `key` (the text after its line's first tab), or undefined. */
  get(key: string): string | undefined {
    const bytes = Buffer.from(key, 'utf8');
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    const k = this.find(h >>> 0, bytes, 0, bytes.length);
    if (k < 0) return undefined;
    const from = this.lasts[k] + bytes.length + 1;
    let end = this.buf.indexOf(10, from);
    if (end < 0) end = this.buf.length;
    return this.buf.toString('utf8', from, end);
  }

  /** The keys, in the order of their first lines. */
  *keys(): IterableIterator<string> {
    for (let k = 0; k < this.count; k++) yield this.buf.toString('utf8', this.firsts[k], this.buf.indexOf(9, this.firsts[k]));
  }

  private insert(h: number, at: number, length: number): void {
    const k = this.find(h, this.buf, at, length);
    if (k >= 0) {
      this.lasts[k] = at;
      return;
    }
    if (this.count === this.firsts.length) this.grow();
    this.place(h, this.count);
    this.firsts[this.count] = at;
    this.lasts[this.count] = at;
    this.hashes[this.count++] = h;
  }

  private place(h: number, k: number): void {
    const mask = this.slots.length - 1;
    let slot = h & mask;
    while (this.slots[slot]) slot = (slot + 1) & mask;
    this.slots[slot] = k + 1;
  }

  private grow(): void {
    const more = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.firsts = more(this.firsts);
    this.lasts = more(this.lasts);
    this.hashes = more(this.hashes);
    this.slots = new Int32Array(this.slots.length * 2);
    for (let k = 0; k < this.count; k++) this.place(this.hashes[k] >>> 0, k);
  }

  /** The index of the key `src[at, at + length)` hashed to `h`, or -1. */
  private find(h: number, src: Uint8Array, at: number, length: number): number {
    const mask = this.slots.length - 1;
    for (let slot = h & mask; this.slots[slot]; slot = (slot + 1) & mask) {
      const line = this.firsts[this.slots[slot] - 1];
      if (this.buf[line + length] !== 9) continue;
      let i = 0;
      while (i < length && this.buf[line + i] === src[at + i]) i++;
      if (i === length) return this.slots[slot] - 1;
    }
    return -1;
  }
}
