// Decodes a watch body: text pieces split at any point become one WatchEvent per JSON line, or an InvalidInputError.
import { Observable, type OperatorFunction } from 'rxjs';
import { InvalidInputError } from '../../operators/errors.ts';
import type { WatchEvent } from '../../operators/types.ts';

const TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);
const PREVIEW = 200;

function preview(text: string): string {
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}… (${text.length} chars)` : text;
}

/**
 * Parses one line of a watch body.
 * @param line the line without its newline
 * @param resource what is watched, named in errors (e.g. `v1/pods`)
 * @returns the event
 * @throws InvalidInputError naming the resource and quoting the line (truncated) when the line is not JSON
 *   or not a watch event (`type` unknown, `object` not an object)
 */
export function parseWatchLine(line: string, resource: string): WatchEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new InvalidInputError(`watch ${resource}`, 'line', `not JSON: ${JSON.stringify(preview(line))}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidInputError(
      `watch ${resource}`,
      'line',
      `not a watch event: ${JSON.stringify(preview(line))}`,
    );
  }
  const { type, object } = parsed as { type?: unknown; object?: unknown };
  if (typeof type !== 'string' || !TYPES.has(type)) {
    throw new InvalidInputError(
      `watch ${resource}`,
      'type',
      `unknown watch event type ${JSON.stringify(type)}: ${JSON.stringify(preview(line))}`,
    );
  }
  if (!object || typeof object !== 'object' || Array.isArray(object)) {
    throw new InvalidInputError(
      `watch ${resource}`,
      'object',
      `event has no object: ${JSON.stringify(preview(line))}`,
    );
  }
  return parsed as WatchEvent;
}

/**
 * Splits text into lines and parses each as a watch event; a final line without a newline is parsed when
 * the source completes. Blank lines are skipped.
 *
 * ```
 * source:  -'{"type":"ADD'-'ED","object":{}}\n{"ty'-'pe":"DELETED","object":{}}\n'-|
 * output:  ----------------a----------------------------------------------------d---|
 * ```
 *
 * @example
 * transport.stream(spec).pipe(filter(isText), map((p) => p.text), decodeWatchLines('v1/pods'))
 * @param resource what is watched, named in errors
 * @returns an operator from text pieces to watch events; errors with InvalidInputError on a bad line
 */
export function decodeWatchLines(resource: string): OperatorFunction<string, WatchEvent> {
  return (source) =>
    new Observable<WatchEvent>((subscriber) => {
      let pending = '';
      const emit = (line: string): boolean => {
        const trimmed = line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
        // blank lines are skipped; only a line that starts with whitespace can be blank
        if (trimmed.length === 0 || (trimmed.charCodeAt(0) <= 32 && trimmed.trim() === '')) return true;
        let event: WatchEvent;
        try {
          event = parseWatchLine(trimmed, resource);
        } catch (error) {
          subscriber.error(error);
          return false;
        }
        subscriber.next(event);
        return true;
      };
      return source.subscribe({
        next: (text) => {
          // Lines are sliced out of `text` itself: joining it to the carried-over tail first would copy
          // the whole piece into a flat string before the first search; only the line that straddles two
          // pieces is joined.
          let newline = text.indexOf('\n');
          if (newline < 0) {
            pending += text;
            return;
          }
          let start = 0;
          if (pending !== '') {
            const line = pending + text.slice(0, newline);
            pending = '';
            if (!emit(line) || subscriber.closed) return;
            start = newline + 1;
            newline = text.indexOf('\n', start);
          }
          while (newline >= 0) {
            if (!emit(text.slice(start, newline)) || subscriber.closed) return;
            start = newline + 1;
            newline = text.indexOf('\n', start);
          }
          pending = start === text.length ? '' : text.slice(start);
        },
        error: (error) => subscriber.error(error),
        complete: () => {
          if (pending !== '' && !emit(pending)) return;
          pending = '';
          subscriber.complete();
        },
      });
    });
}
