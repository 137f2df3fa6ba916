import { createParser, type EventSourceParser } from 'eventsource-parser';

/** Splits a Server-Sent Events byte stream into the `data` payloads of its events (eventsource-parser does the parsing). */
export class SseDecoder {
  private readonly decoder = new TextDecoder();
  private completed: string[] = [];
  private readonly parser: EventSourceParser = createParser({ onEvent: (event) => this.completed.push(event.data) });

  /** Feeds bytes; returns the data of every event completed by them. */
  push(chunk: Uint8Array): string[] {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
    return this.take();
  }

  /** Ends the stream; an event cut before its closing blank line is returned too, for the chat parser to judge. */
  end(): string[] {
    // Two line ends close a last line without its newline and then the event it belongs to.
    this.parser.feed(`${this.decoder.decode()}\n\n`);
    return this.take();
  }

  private take(): string[] {
    const events = this.completed;
    this.completed = [];
    return events;
  }
}
