import { classifyAddress, describeAddressClass, isPublicAddress } from '../../../src/tools';
import type { AddressClass } from '../../../src/tools';

function expectClass(cases: Record<string, AddressClass>): void {
  for (const [address, cls] of Object.entries(cases)) {
    expect({ address, cls: classifyAddress(address) }).toEqual({ address, cls });
  }
}

describe('classifyAddress', () => {
  it('classifies IPv4 loopback, private, link-local, unspecified and CGNAT ranges at their edges', () => {
    expectClass({
      '127.0.0.1': 'loopback',
      '127.255.255.254': 'loopback',
      '10.0.0.1': 'private',
      '10.255.255.255': 'private',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.0.1': 'private',
      '192.168.255.255': 'private',
      '169.254.0.1': 'link-local',
      '169.254.169.254': 'link-local',
      '0.0.0.0': 'unspecified',
      '0.1.2.3': 'unspecified',
      '100.64.0.1': 'shared',
      '100.127.255.255': 'shared',
    });
  });

  it('classifies IPv4 multicast, broadcast and reserved ranges', () => {
    expectClass({
      '224.0.0.1': 'multicast',
      '239.255.255.250': 'multicast',
      '255.255.255.255': 'broadcast',
      '240.0.0.1': 'reserved',
      '192.0.2.10': 'reserved',
      '198.51.100.7': 'reserved',
      '203.0.113.9': 'reserved',
      '198.18.0.1': 'reserved',
    });
  });

  it('keeps neighbours of the blocked IPv4 ranges public', () => {
    expectClass({
      '8.8.8.8': 'public',
      '1.1.1.1': 'public',
      '93.184.216.34': 'public',
      '11.0.0.1': 'public',
      '126.255.255.255': 'public',
      '128.0.0.1': 'public',
      '172.15.255.255': 'public',
      '172.32.0.0': 'public',
      '192.167.255.255': 'public',
      '192.169.0.0': 'public',
      '169.253.255.255': 'public',
      '169.255.0.0': 'public',
      '100.63.255.255': 'public',
      '100.128.0.0': 'public',
      '223.255.255.255': 'public',
    });
  });

  it('classifies IPv6 loopback, unspecified, unique-local, link-local and multicast', () => {
    expectClass({
      '::1': 'loopback',
      '0:0:0:0:0:0:0:1': 'loopback',
      '::': 'unspecified',
      'fc00::1': 'private',
      'fd12:3456:789a::1': 'private',
      'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff': 'private',
      'fe80::1': 'link-local',
      'FE80::ABCD': 'link-local',
      'febf::1': 'link-local',
      'fe80::1%eth0': 'link-local',
      'fec0::1': 'private',
      'ff02::1': 'multicast',
      '2001:db8::1': 'reserved',
      '::2': 'reserved',
    });
  });

  it('keeps global IPv6 addresses public', () => {
    expectClass({
      '2606:4700:4700::1111': 'public',
      '2a00:1450:4001:82a::200e': 'public',
      'fbff::1': 'public',
      'fe00::1': 'public',
    });
  });

  it('classifies IPv4-mapped, NAT64 and 6to4 IPv6 addresses by the IPv4 address they embed', () => {
    expectClass({
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:7f00:1': 'loopback',
      '0:0:0:0:0:ffff:7f00:0001': 'loopback',
      '::ffff:10.0.0.1': 'private',
      '::ffff:a00:1': 'private',
      '::ffff:169.254.169.254': 'link-local',
      '::ffff:a9fe:a9fe': 'link-local',
      '::ffff:0.0.0.0': 'unspecified',
      '::ffff:100.64.0.1': 'shared',
      '::ffff:224.0.0.1': 'multicast',
      '::ffff:255.255.255.255': 'broadcast',
      '::ffff:8.8.8.8': 'public',
      '64:ff9b::127.0.0.1': 'loopback',
      '64:ff9b::a9fe:a9fe': 'link-local',
      '64:ff9b::8.8.8.8': 'public',
      '2002:7f00:1::': 'loopback',
      '2002:c0a8:101::1': 'private',
      '2002:808:808::1': 'public',
    });
  });

  it('calls anything that is not an IP address invalid, never public', () => {
    for (const text of ['', 'localhost', 'example.com', '127.0.0.1.', '1.2.3', '256.0.0.1', '[::1]', '::g', ' 8.8.8.8']) {
      expect(classifyAddress(text)).toBe('invalid');
      expect(isPublicAddress(text)).toBe(false);
    }
  });

  it('isPublicAddress is true only for public addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254', '::ffff:127.0.0.1', '0.0.0.0', '::', '100.64.0.1']) {
      expect(isPublicAddress(ip)).toBe(false);
    }
  });

  it('describes every class for error messages', () => {
    expect(describeAddressClass('loopback')).toBe('a loopback address');
    expect(describeAddressClass('private')).toBe('a private network address');
    expect(describeAddressClass('link-local')).toMatch(/^a link-local address/);
  });
});
