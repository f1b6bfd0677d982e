// The pod proxy's routing helpers: which subresources it serves, and upgrade requests reaching the ordinary handler.
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  ensureUpgradeListener,
  isPodProxySubresource,
  listenForUpgrades,
} from '../../../../src/apiserver/proxy/pod-proxy.ts';

describe('isPodProxySubresource', () => {
  it.each([
    ['', 'pods', 'log', true],
    ['', 'pods', 'exec', true],
    ['', 'pods', 'portforward', true],
    ['', 'pods', 'status', false],
    ['', 'pods', undefined, false],
    ['', 'nodes', 'log', false],
    ['apps', 'pods', 'exec', false],
  ])('group %j resource %s subresource %s: %s', (group, resource, subresource, expected) => {
    expect(isPodProxySubresource(group, resource, subresource)).toBe(expected);
  });
});

describe('listenForUpgrades', () => {
  it('hands an upgrade request to the handler with a response that answers on the raw socket', async () => {
    const seen: string[] = [];
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.url} upgrade=${req.headers.upgrade ?? ''}`);
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end('{"reason":"Forbidden"}');
    };
    const server = createServer(handler);
    listenForUpgrades(server, handler);
    listenForUpgrades(server, handler);
    expect(server.listenerCount('upgrade')).toBe(1);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      const answer = await new Promise<{ code: number; body: string }>((resolve, reject) => {
        const req = request({
          port,
          host: '127.0.0.1',
          path: '/api/v1/namespaces/default/pods/p/exec',
          headers: { Connection: 'Upgrade', Upgrade: 'websocket' },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => {
            body += d.toString();
          });
          res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
        });
        req.on('upgrade', () => reject(new Error('unexpected upgrade')));
        req.on('error', reject);
        req.end();
      });
      expect(answer).toEqual({ code: 403, body: '{"reason":"Forbidden"}' });
      expect(seen).toEqual(['GET /api/v1/namespaces/default/pods/p/exec upgrade=websocket']);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it('ensureUpgradeListener installs it on the server that accepted an ordinary request', async () => {
    let served = 0;
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      ensureUpgradeListener(req, handler);
      served += 1;
      res.end('ok');
    };
    const server = createServer(handler);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      expect(server.listenerCount('upgrade')).toBe(0);
      for (let i = 0; i < 2; i++) {
        await new Promise<void>((resolve, reject) => {
          request({ port, host: '127.0.0.1', path: '/version' }, (res) => {
            res.resume();
            res.on('end', () => resolve());
          })
            .on('error', reject)
            .end();
        });
      }
      expect(served).toBe(2);
      expect(server.listenerCount('upgrade')).toBe(1);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
