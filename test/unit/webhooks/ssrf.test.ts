import { forbiddenAddressKind, parseIp, resolveTarget, TargetRefusedError, type Resolver } from '../../../src/webhooks/ssrf';

describe('forbiddenAddressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.255', 'shared address space (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fc00::1', 'unique local (private)'],
    ['fd00:ec2::254', 'unique local (private)'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['fec0::1', 'site-local (deprecated)'],
    ['fbff::1', 'reserved'],
    ['4000::1', 'reserved'],
    // IPv4 inside IPv6: judged by the IPv4 address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata)'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::10.1.2.3', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local (cloud metadata)'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['localhost', 'not an IP address'],
    ['', 'not an IP address'],
  ])('%s is refused (%s)', (address, kind) => {
    expect(forbiddenAddressKind(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2c0f:f248::1',
  ])('%s is public', (address) => {
    expect(forbiddenAddressKind(address)).toBeUndefined();
  });

  it('parses IPv6 with compression and a dotted tail', () => {
    expect([...parseIp('1:2::7:8')!.bytes]).toEqual([0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8]);
    expect([...parseIp('::ffff:1.2.3.4')!.bytes].slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIp('1.2.3')).toBeUndefined();
    expect(parseIp('example.com')).toBeUndefined();
  });
});

describe('resolveTarget', () => {
  const fixed =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  const refusal = async (url: string, resolve?: Resolver) => {
    try {
      await resolveTarget(new URL(url), { allowPrivate: false, resolve });
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('refuses other schemes, private literals and names resolving to private addresses', async () => {
    expect(await refusal('ftp://example.com/x')).toBeInstanceOf(TargetRefusedError);
    expect(await refusal('http://127.0.0.1/x')).toBeInstanceOf(TargetRefusedError);
    expect(await refusal('http://[::1]:8080/x')).toBeInstanceOf(TargetRefusedError);
    expect(await refusal('http://2130706433/x')).toBeInstanceOf(TargetRefusedError); // URL normalises it to 127.0.0.1
    expect(await refusal('http://hooks.example/x', fixed('10.1.2.3'))).toBeInstanceOf(TargetRefusedError);
    // one private record among public ones refuses the host
    expect(await refusal('http://hooks.example/x', fixed('93.184.216.34', '169.254.169.254'))).toBeInstanceOf(TargetRefusedError);
    expect(await refusal('http://hooks.example/x', fixed())).toBeInstanceOf(TargetRefusedError);
    const failing: Resolver = async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    expect(String(await refusal('http://nowhere.example/x', failing))).toContain('ENOTFOUND');
  });

  it('resolves localhost with the system resolver and refuses it', async () => {
    const error = await refusal('http://localhost:9/x');
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(String(error)).toMatch(/loopback/);
  });

  it('returns the vetted addresses of a public host, and anything when private targets are allowed', async () => {
    expect(await resolveTarget(new URL('https://hooks.example/x'), { allowPrivate: false, resolve: fixed('93.184.216.34', '2606:4700:4700::1111') })).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    expect(await resolveTarget(new URL('http://[::1]:8080/'), { allowPrivate: true })).toEqual([{ address: '::1', family: 6 }]);
    await expect(resolveTarget(new URL('gopher://x/'), { allowPrivate: true })).rejects.toBeInstanceOf(TargetRefusedError);
  });
});
