/**
 * Collects one output stream up to a byte limit. The child keeps running when the limit is reached
 * (its pipe is still drained so it never blocks); the text ends with a visible marker instead.
 */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const room = this.limit - this.kept;
    if (room >= buf.length) {
      this.chunks.push(buf);
      this.kept += buf.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(buf.subarray(0, room));
      this.kept += room;
    }
    this.dropped += buf.length - Math.max(room, 0);
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped > 0 ? `${body}\n${truncationMarker(this.dropped)}\n` : body;
  }
}

export function truncationMarker(droppedBytes: number): string {
  return `[output truncated by testkeeper: ${droppedBytes} more bytes not shown]`;
}
