// kubeletRefusal: the Status an API server returns when the kubelet answers an upgrade request with a plain HTTP response.
import type { IncomingMessage } from 'node:http';
import { ApiStatusError, badRequest } from '../api-status.ts';

/**
 * Reads the kubelet's whole answer and turns it into the error the client sees: a 404 stays NotFound
 * with the kubelet's text, anything else is a BadRequest with its text (or its status code).
 */
export function kubeletRefusal(kres: IncomingMessage): Promise<ApiStatusError> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    kres.on('data', (c: Buffer) => chunks.push(c));
    kres.on('error', (error) => resolve(badRequest(error.message)));
    kres.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      resolve(
        kres.statusCode === 404
          ? new ApiStatusError(404, 'NotFound', text)
          : badRequest(text || `the kubelet answered ${kres.statusCode}`),
      );
    });
  });
}
