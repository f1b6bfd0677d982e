// The HTTP GET probe (pkg/probe/http): 200–399 is success, anything else or no answer within the timeout is failure.
import http from 'node:http';
import https from 'node:https';

/** The outcome of one HTTP probe: `output` is what upstream would put in the Unhealthy event. */
export interface HttpProbeOutcome {
  result: 'Success' | 'Failure';
  output: string;
}

export interface HttpProbeRequest {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
}

const MAX_REDIRECTS = 10;
const MAX_BODY = 10 * 1024;

function once(request: HttpProbeRequest): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const transport = request.url.protocol === 'https:' ? https : http;
    const req = transport.request(
      request.url,
      {
        method: 'GET',
        headers: request.headers,
        timeout: request.timeoutMs,
        ...(request.url.protocol === 'https:' ? { rejectUnauthorized: false } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(res.headers.location ? { location: res.headers.location } : {}),
            body: Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)),
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Performs an HTTP probe: GET the URL with the headers; redirects to the same host are followed (up
 * to 10); a status from 200 to 399 is success (a redirect elsewhere is not followed and counts as
 * success, as upstream's "Probe terminated redirects" warning does); any other status, a connection
 * error or the timeout is failure. TLS certificates are not verified, as the kubelet does not.
 *
 * @param request the URL, headers and timeout
 * @returns the verdict and upstream's output text
 */
export async function httpProbe(request: HttpProbeRequest): Promise<HttpProbeOutcome> {
  let url = request.url;
  for (let hop = 0; ; hop++) {
    let res: Awaited<ReturnType<typeof once>>;
    try {
      res = await once({ ...request, url });
    } catch (error) {
      return {
        result: 'Failure',
        output: `Get "${url.href}": ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (res.status >= 300 && res.status < 400 && res.location && hop < MAX_REDIRECTS) {
      const next = new URL(res.location, url);
      if (next.hostname === url.hostname) {
        url = next;
        continue;
      }
      return { result: 'Success', output: `Probe terminated redirects, Response body: ${res.body}` };
    }
    if (res.status >= 200 && res.status < 400) return { result: 'Success', output: res.body };
    return { result: 'Failure', output: `HTTP probe failed with statuscode: ${res.status}` };
  }
}
