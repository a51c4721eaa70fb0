import { mergeEntries, parsePaste } from './ip-paste.ts';

describe('parsePaste', () => {
  test('reads addresses and ranges with comments, names each bad line, skips blank and # lines', () => {
    const result = parsePaste(
      '10.0.0.1 office\n\n# partners\n2001:db8::/32\nnot-an-ip\n192.168.1.0/24 # lab\n300.1.1.1',
    );
    expect(result.entries).toEqual([
      { cidr: '10.0.0.1/32', comment: 'office' },
      { cidr: '2001:db8:0:0:0:0:0:0/32' },
      { cidr: '192.168.1.0/24', comment: 'lab' },
    ]);
    expect(result.bad).toEqual([
      { line: 5, text: 'not-an-ip', message: '"not-an-ip" is not an IP address or CIDR range.' },
      { line: 7, text: '300.1.1.1', message: '"300.1.1.1" is not an IP address or CIDR range.' },
    ]);
  });

  test('an expiry applies to every entry; an address listed again is replaced, not doubled', () => {
    const { entries } = parsePaste('10.0.0.1', '2030-01-01T00:00:00.000Z');
    expect(mergeEntries([{ cidr: '10.0.0.1/32', comment: 'old' }, { cidr: '10.0.0.2/32' }], entries)).toEqual([
      { cidr: '10.0.0.1/32', expiresAt: '2030-01-01T00:00:00.000Z' },
      { cidr: '10.0.0.2/32' },
    ]);
  });
});
