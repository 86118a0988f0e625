import { describe, expect, it } from '@jest/globals';
import { createServer, request } from 'node:http';
import { DoubleServer, FaultQueue } from '../../support/double-server';

type Fault = { kind: 'status'; status: number } | { kind: 'late' };

describe('FaultQueue', () => {
  it('hands out the first fault armed for the operation or for any, each `times` times', () => {
    const q = new FaultQueue<Fault, 'book' | 'track'>();
    q.push({ kind: 'status', status: 503 }, { operation: 'track', times: 2 });
    q.push({ kind: 'status', status: 500 });
    expect(q.take('book')).toEqual({ kind: 'status', status: 500 });
    expect(q.take('book')).toBeUndefined();
    expect(q.take('track')).toEqual({ kind: 'status', status: 503 });
    expect(q.take('track')).toEqual({ kind: 'status', status: 503 });
    expect(q.take('track')).toBeUndefined();
  });

  it('leaves a fault the `where` test refuses for a later point of the request, and clears', () => {
    const q = new FaultQueue<Fault, 'book'>();
    q.push({ kind: 'late' });
    q.push({ kind: 'status', status: 502 });
    expect(q.take('book', (f) => f.kind !== 'late')).toEqual({ kind: 'status', status: 502 });
    expect(q.take('book', (f) => f.kind !== 'late')).toBeUndefined();
    q.clear();
    expect(q.take('book')).toBeUndefined();
  });
});

describe('DoubleServer', () => {
  it('listens on 127.0.0.1 and cancels held work when closed', async () => {
    let ran = 0;
    const double = new DoubleServer(createServer((_req, res) => res.end('ok')));
    const port = await double.listen(undefined);
    expect(port).toBeGreaterThan(0);
    const body = await new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let s = '';
        res.on('data', (c: Buffer) => (s += c.toString()));
        res.on('end', () => resolve(s));
      })
        .on('error', reject)
        .end();
    });
    expect(body).toBe('ok');
    double.later(20, () => ran++);
    await double.close();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ran).toBe(0);
  });
});
