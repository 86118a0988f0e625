import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server that records every request and answers with `handler` (reset to "200 ok" before each test). */
export interface RecordingServer {
  server: Server;
  port: number;
  origin: string;
  received: ReceivedRequest[];
  /** TCP connections accepted since the last reset */
  connections: number;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

const answerOk = (_req: IncomingMessage, res: ServerResponse) => void res.end('ok');

/** One recording server on 127.0.0.1 per test file: registers its beforeAll/afterAll/beforeEach. */
export function useRecordingServer(): RecordingServer {
  const rec = { received: [], connections: 0, handler: answerOk } as unknown as RecordingServer;
  beforeAll(async () => {
    rec.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        rec.received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        rec.handler(req, res);
      });
    });
    rec.server.on('connection', () => rec.connections++);
    await new Promise<void>((resolve) => rec.server.listen(0, '127.0.0.1', resolve));
    rec.port = (rec.server.address() as AddressInfo).port;
    rec.origin = `http://127.0.0.1:${rec.port}`;
  });
  afterAll(async () => {
    rec.server.closeAllConnections();
    await new Promise((resolve) => rec.server.close(resolve));
  });
  beforeEach(() => {
    rec.received.length = 0;
    rec.handler = answerOk;
  });
  return rec;
}
