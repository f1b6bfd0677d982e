// The gRPC probe (pkg/probe/grpc): grpc.health.v1.Health/Check over plaintext HTTP/2; SERVING is success.
import http2 from 'node:http2';

const STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];
const GRPC_UNIMPLEMENTED = 12;

/** A HealthCheckRequest{service} as protobuf, in a gRPC frame (uncompressed flag, 4-byte length). */
function requestFrame(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  const message = name.length
    ? Buffer.concat([Buffer.from([0x0a]), varint(name.length), name])
    : Buffer.alloc(0);
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** The `status` field (1, varint) of a HealthCheckResponse frame; 0 (UNKNOWN) when absent. */
function responseStatus(data: Buffer): number {
  if (data.length < 5) return 0;
  const length = data.readUInt32BE(1);
  const message = data.subarray(5, 5 + length);
  let i = 0;
  while (i < message.length) {
    const tag = message[i++]!;
    if (tag === 0x08) {
      let value = 0;
      let shift = 0;
      while (i < message.length) {
        const b = message[i++]!;
        value |= (b & 0x7f) << shift;
        if (!(b & 0x80)) break;
        shift += 7;
      }
      return value;
    }
    // skip a length-delimited field we do not know
    if ((tag & 0x07) === 2) i += 1 + (message[i] ?? 0);
    else i += 1;
  }
  return 0;
}

/**
 * Calls grpc.health.v1.Health/Check for `service` on host:port (plaintext), as the kubelet's gRPC
 * probe: SERVING is success; NOT_SERVING and the others, an error status, a refused connection or the
 * timeout are failures with upstream's texts.
 *
 * @param host the address
 * @param port the port
 * @param service the service name to check ('' for the server as a whole)
 * @param timeoutMs how long the whole call may take
 * @param userAgent the User-Agent to send
 */
export function grpcProbe(
  host: string,
  port: number,
  service: string,
  timeoutMs: number,
  userAgent: string,
): Promise<{ result: 'Success' | 'Failure'; output: string }> {
  return new Promise((resolve) => {
    const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const session = http2.connect(`http://${address}`);
    let settled = false;
    const done = (result: 'Success' | 'Failure', output: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      resolve({ result, output });
    };
    const timer = setTimeout(
      () => done('Failure', `timeout: health rpc did not complete within ${timeoutMs / 1000}s`),
      timeoutMs,
    );
    let connected = false;
    session.on('connect', () => {
      connected = true;
    });
    const failed = (error: Error) =>
      connected
        ? done('Failure', `error: health rpc probe failed: ${error.message}`)
        : done('Failure', `error: failed to connect service at "${address}": ${error.message}`);
    session.on('error', failed);
    const request = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
      'user-agent': userAgent,
    });
    const chunks: Buffer[] = [];
    let grpcStatus: number | undefined;
    let grpcMessage = '';
    const readStatus = (headers: http2.IncomingHttpHeaders) => {
      if (headers['grpc-status'] !== undefined) grpcStatus = Number(headers['grpc-status']);
      if (typeof headers['grpc-message'] === 'string')
        grpcMessage = decodeURIComponent(headers['grpc-message']);
    };
    request.on('response', readStatus);
    request.on('trailers', readStatus);
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', failed);
    request.on('end', () => {
      if (grpcStatus === GRPC_UNIMPLEMENTED) {
        done(
          'Failure',
          `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${grpcMessage}`,
        );
        return;
      }
      if (grpcStatus !== undefined && grpcStatus !== 0) {
        done('Failure', `error: health rpc probe failed: code = ${grpcStatus} desc = ${grpcMessage}`);
        return;
      }
      const status = responseStatus(Buffer.concat(chunks));
      if (status === 1) done('Success', 'service healthy');
      else done('Failure', `service unhealthy (responded with "${STATUS_NAMES[status] ?? String(status)}")`);
    });
    request.end(requestFrame(service));
  });
}
