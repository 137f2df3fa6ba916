/** Splits a Server-Sent Events byte stream into the `data` payloads of its events. */
export class SseDecoder {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private data: string[] = [];

  /** Feeds bytes; returns the data of every event completed by them. */
  push(chunk: Uint8Array): string[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** Ends the stream; an event without its closing blank line is returned only when `complete` data was seen. */
  end(): string[] {
    this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(atEnd: boolean): string[] {
    const events: string[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r?\n|\r/)) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      this.line(line, events);
    }
    if (atEnd) {
      // A last line without its newline may be cut mid-payload; it is kept only as part of the final event.
      if (this.buffer) this.line(this.buffer, events);
      this.buffer = '';
      if (this.data.length) events.push(this.data.join('\n'));
      this.data = [];
    }
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length) events.push(this.data.join('\n'));
      this.data = [];
    } else if (line.startsWith('data:')) {
      this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    // Comments (`:`), `event:`, `id:` and `retry:` lines carry nothing a chat completion needs.
  }
}
