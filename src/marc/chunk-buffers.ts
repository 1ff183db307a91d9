/**
 * The buffers the chunks of a file are filled in, a chunk being a view of one. When the chunks
 * are reused, the buffer of the chunk before the last one handed out is filled again: for a
 * caller done with each chunk before it asks for the next (a writer thread's job writes each at
 * once), a file of any size then takes two buffers instead of a new one a chunk (outside the
 * heap, each held until a collection finds it unused).
 */
export class ChunkBuffers {
  private spare: Buffer | null = null;

  constructor(private readonly reuse: boolean) {}

  /** A buffer of at least `size` bytes for the next chunk; `handedOut`: the buffer just handed out. */
  next(handedOut: Buffer, size: number): Buffer {
    const spare = this.spare;
    this.spare = this.reuse ? handedOut : null;
    return spare !== null && spare.length >= size ? spare : Buffer.allocUnsafe(size);
  }
}
