/**
 * Server-sent events, as far as chat streams use them: `data:` fields, joined per event, dispatched on a
 * blank line. Network chunks may split a line or a UTF-8 character anywhere: the decoder runs in stream mode
 * and an unfinished line waits for the next chunk (a trailing '\r' too, since '\n' may follow).
 */
export interface SseParser {
  /** Feed bytes; returns the data of every event completed by them. */
  push(bytes: Uint8Array): string[];
  /** The stream ended: flush what is left (a last event without its blank line counts). */
  end(): string[];
}

export function createSseParser(): SseParser {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data: string[] = [];
  let hasData = false;

  const line = (text: string, out: string[]) => {
    if (text === '') {
      if (hasData) out.push(data.join('\n'));
      data = [];
      hasData = false;
      return;
    }
    if (text.startsWith(':')) return; // comment / keep-alive
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    if (field !== 'data') return; // event:, id:, retry: carry nothing we use
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
    hasData = true;
  };

  const drain = (final: boolean): string[] => {
    const out: string[] = [];
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      if (ch === 13 && i === buffer.length - 1 && !final) break; // '\r' at the end: '\n' may follow
      line(buffer.slice(start, i), out);
      if (ch === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
    if (final) {
      if (buffer !== '') line(buffer, out);
      buffer = '';
      line('', out);
    }
    return out;
  };

  return {
    push(bytes) {
      buffer += decoder.decode(bytes, { stream: true });
      return drain(false);
    },
    end() {
      buffer += decoder.decode();
      return drain(true);
    },
  };
}
