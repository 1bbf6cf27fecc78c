import { AppError } from '../../common/errors/app-error.js';
import { addressPolicy, addressRefusal, assertWebhookUrl, keepsExcerpt, parseWebhookUrl } from './webhook-url.js';

const code = (address: string, policy: 'public' | 'private') => addressRefusal(address, policy)?.code ?? null;

/** The catalog code a URL is refused with, or 'ok'. */
async function verdict(url: string, mode: 'test' | 'live', policy: 'public' | 'private'): Promise<string> {
  try {
    await assertWebhookUrl(url, mode, policy);
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.definition.code;
    throw error;
  }
}

describe('webhook targets', () => {
  it('holds live mode, and test mode unless the operator allows private targets, to public addresses', () => {
    expect(addressPolicy('live', true)).toBe('public');
    expect(addressPolicy('live', false)).toBe('public');
    expect(addressPolicy('test', false)).toBe('public');
    expect(addressPolicy('test', true)).toBe('private');
  });

  it.each([
    ['10.0.0.1', 'E5104'],
    ['172.16.0.1', 'E5104'],
    ['172.31.255.255', 'E5104'],
    ['192.168.1.10', 'E5104'],
    ['100.64.0.1', 'E5104'],
    ['100.100.100.200', 'E5104'],
    ['fd00:ec2::254', 'E5104'],
    ['fc00::1', 'E5104'],
    ['127.0.0.1', 'E5103'],
    ['127.8.9.10', 'E5103'],
    ['::1', 'E5103'],
    ['::ffff:127.0.0.1', 'E5103'],
    ['::ffff:10.0.0.1', 'E5104'],
    ['0.0.0.0', 'E5106'],
    ['::', 'E5106'],
    ['224.0.0.1', 'E5106'],
    ['192.0.2.1', 'E5106'],
    ['2001:db8::1', 'E5106'],
  ])('refuses %s under the public policy with %s, and allows it under the private one', (address, expected) => {
    expect(code(address, 'public')).toBe(expected);
    expect(code(address, 'private')).toBeNull();
  });

  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1', '::ffff:169.254.169.254'])(
    'refuses the link-local (metadata) address %s under both policies',
    (address) => {
      expect(code(address, 'public')).toBe('E5105');
      expect(code(address, 'private')).toBe('E5105');
    },
  );

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])(
    'accepts the public address %s under both policies',
    (address) => {
      expect(code(address, 'public')).toBeNull();
      expect(code(address, 'private')).toBeNull();
    },
  );

  it('keeps the excerpt of an answer from a public address only', () => {
    expect(keepsExcerpt('93.184.215.14')).toBe(true);
    expect(keepsExcerpt('::ffff:93.184.215.14')).toBe(true);
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '100.100.100.200', 'fd00:ec2::254', '169.254.169.254']) {
      expect(keepsExcerpt(address)).toBe(false);
    }
    expect(keepsExcerpt(undefined)).toBe(false);
    expect(keepsExcerpt('not-an-address')).toBe(false);
  });

  it.each([
    ['not a url', 'test', 'E5101'],
    ['ftp://example.com/hooks', 'test', 'E5101'],
    ['https://user:pw@example.com/hooks', 'live', 'E5101'],
    [`https://example.com/${'a'.repeat(2048)}`, 'live', 'E5101'],
    ['http://93.184.215.14/hooks', 'live', 'E5102'],
    ['https://metadata.google.internal/', 'test', 'E5105'],
  ] as const)('refuses the shape of %s in %s mode with %s', (url, mode, expected) => {
    expect(() => parseWebhookUrl(url, mode, 'private')).toThrow(AppError);
    try {
      parseWebhookUrl(url, mode, 'private');
    } catch (error) {
      expect((error as AppError).definition.code).toBe(expected);
    }
  });

  it('takes http:// in test mode only, and localhost only where private targets are allowed', () => {
    expect(parseWebhookUrl('http://93.184.215.14/hooks', 'test', 'public').toString()).toBe(
      'http://93.184.215.14/hooks',
    );
    expect(parseWebhookUrl('http://localhost:4000/hooks', 'test', 'private').hostname).toBe('localhost');
    expect(() => parseWebhookUrl('http://localhost:4000/hooks', 'test', 'public')).toThrow(/localhost/);
    expect(() => parseWebhookUrl('https://api.localhost/hooks', 'live', 'public')).toThrow(/localhost/);
  });

  it('checks an address literal without DNS: the issue 33 targets refused for a test key unless allowed', async () => {
    const targets = [
      'http://100.100.100.200/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.1/',
    ];
    for (const url of targets) {
      expect(await verdict(url, 'test', 'public')).toBe('E5104');
      expect(await verdict(url, 'test', 'private')).toBe('ok');
    }
    expect(await verdict('https://[::1]/hooks', 'live', 'public')).toBe('E5103');
    expect(await verdict('http://169.254.169.254/', 'test', 'private')).toBe('E5105');
    expect(await verdict('https://93.184.215.14/hooks', 'live', 'public')).toBe('ok');
  });

  it('refuses a non-default port when only public targets are allowed (the deployed network policy), not locally', async () => {
    await expect(assertWebhookUrl('https://93.184.215.14:8443/in', 'live', 'public')).rejects.toThrow(/port 8443/);
    await expect(assertWebhookUrl('http://93.184.215.14:8080/in', 'test', 'public')).rejects.toThrow(/port 8080/);
    expect((await assertWebhookUrl('https://93.184.215.14:443/in', 'live', 'public')).port).toBe('');
    expect((await assertWebhookUrl('http://93.184.215.14:80/in', 'test', 'public')).port).toBe('');
    expect((await assertWebhookUrl('http://127.0.0.1:4000/in', 'test', 'private')).port).toBe('4000');
    // A loopback target is refused for what it is, whatever its port.
    await expect(assertWebhookUrl('http://127.0.0.1:4000/in', 'test', 'public')).rejects.toThrow(
      /loopback|localhost|127/,
    );
  });
});
