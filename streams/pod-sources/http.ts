// httpPodSource: the kubelet's manifest URL polled for a Pod or PodList, as full pod sets.
import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { TimeoutError } from '../../operators/errors.ts';
import { type Logger, silentLogger } from '../../operators/logger.ts';
import { decodeStaticPods } from '../../operators/pod-config/decode-static-pods.ts';
import type { Pod } from '../../operators/pod-config/types.ts';

export interface HttpPodSourceConfig {
  /** The manifest URL (`--manifest-url`). */
  url: string;
  /** Sent on every request (`--manifest-url-header`); a repeated key sends every value. */
  headers?: Iterable<readonly [string, string]>;
  /** The node name the pods are bound to and suffixed with. */
  nodeName: string;
  /** Poll period, ms (`--http-check-frequency`); default 20 000. */
  checkFrequencyMs?: number;
  /** Per-request timeout, ms; default 10 000 as the kubelet's HTTP client. */
  timeoutMs?: number;
  /** Largest body read, bytes; default 10 MiB. */
  maxBytes?: number;
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

class BodyTooLarge extends Error {}

/**
 * Polls a manifest URL at once and every `checkFrequencyMs`, and emits the pods of each new body
 * (a single Pod or a PodList, JSON or YAML) with the static-pod defaults. An empty body emits an
 * empty set. A transport error, a timeout, a non-200 answer, a body over the size cap or one that
 * does not parse or validate is logged and the last good set stays; a body identical to the
 * previous one emits nothing. One request at a time: a tick that finds one in flight is skipped.
 *
 * ```
 * polls:  g----g----x----g'     g = 200 [p]   x = 500   g' = 200 [q]
 * result: G---------------Q     G = [p]       Q = [q]  (the same body twice emits once)
 * ```
 *
 * @example
 * httpPodSource({ url: 'http://10.0.0.1/pods', nodeName: 'node-1' }).subscribe(console.log);
 *
 * Recovery/Teardown: failures never end the stream. Unsubscribing stops the timer and aborts the
 * request in flight.
 *
 * @param config URL, headers, node name, period, timeout, size cap, fetch, scheduler, logger
 * @returns a cold observable of full pod sets
 */
export function httpPodSource(config: HttpPodSourceConfig): Observable<Pod[]> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = (config.logger ?? silentLogger).child({ source: 'http', url: config.url });
  const period = config.checkFrequencyMs ?? 20_000;
  const timeoutMs = config.timeoutMs ?? 10_000;
  const maxBytes = config.maxBytes ?? MAX_BODY_BYTES;
  const doFetch = config.fetch ?? globalThis.fetch;
  const headers = new Headers();
  for (const [key, value] of config.headers ?? []) headers.append(key, value);

  return new Observable<Pod[]>((subscriber) => {
    let closed = false;
    let inFlight: AbortController | undefined;
    let timer: Subscription | undefined;
    let lastBody: string | undefined;
    let failures = 0;

    const fail = (reason: string, extra: Record<string, unknown> = {}) => {
      failures++;
      const fields = { ...extra, reason, failures };
      if (failures <= 3) logger.warn(fields, 'unable to read pods from the manifest URL');
      else if (failures === 4)
        logger.warn(fields, 'unable to read pods from the manifest URL; further failures at debug level');
      else logger.debug(fields, 'unable to read pods from the manifest URL');
    };

    const poll = async () => {
      const controller = new AbortController();
      inFlight = controller;
      timer = scheduler.schedule(() => {
        timer = undefined;
        controller.abort(new TimeoutError(`GET ${config.url}`, timeoutMs));
      }, timeoutMs);
      try {
        const response = await doFetch(config.url, {
          headers,
          signal: controller.signal,
          redirect: 'follow',
        });
        const text = await readCapped(response, maxBytes, controller);
        if (closed) return;
        if (response.status !== 200) {
          fail(`${config.url}: ${response.status} ${response.statusText}`.trim(), {
            status: response.status,
          });
          return;
        }
        if (text.length === 0) {
          subscriber.next([]);
          fail('zero-length data received');
          return;
        }
        if (text === lastBody) {
          if (failures > 0) logger.info('successfully read pods from the manifest URL');
          failures = 0;
          return;
        }
        lastBody = text;
        const decoded = decodeStaticPods(text, {
          source: config.url,
          kind: 'url',
          nodeName: config.nodeName,
          allowList: true,
        });
        if (!decoded.ok) {
          fail(decoded.error.message);
          return;
        }
        if (failures > 0) logger.info('successfully read pods from the manifest URL');
        failures = 0;
        subscriber.next(decoded.pods);
      } catch (error) {
        if (closed) return;
        fail(failureReason(error, controller));
      } finally {
        if (inFlight === controller) {
          timer?.unsubscribe();
          timer = undefined;
          inFlight = undefined;
        }
      }
    };

    const ticker = scheduler.schedule(function tick() {
      if (!inFlight) void poll();
      this.schedule(undefined, period);
    }, 0);

    return () => {
      closed = true;
      ticker.unsubscribe();
      timer?.unsubscribe();
      inFlight?.abort();
    };
  });
}

/** Reads a response body as text, aborting the request once it passes `maxBytes`. */
async function readCapped(
  response: Response,
  maxBytes: number,
  controller: AbortController,
): Promise<string> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    controller.abort();
    throw new BodyTooLarge(`body of ${declared} bytes is over the ${maxBytes}-byte limit`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      controller.abort();
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(`body is over the ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why a poll failed, in words: the size cap, the timeout, or the transport error and its cause. */
function failureReason(error: unknown, controller: AbortController): string {
  if (error instanceof BodyTooLarge) return error.message;
  const reason = controller.signal.reason;
  if (controller.signal.aborted && reason instanceof TimeoutError) return reason.message;
  const e = error as Error;
  const cause = e.cause as Error | undefined;
  return cause?.message ? `${e.message}: ${cause.message}` : String(e?.message ?? e);
}
