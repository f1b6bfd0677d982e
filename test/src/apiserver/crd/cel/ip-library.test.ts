// Kubernetes' CEL IP and CIDR functions (after upstream's ip and cidr library tests).
import { describe, expect, it } from 'vitest';
import { objectOf, outcome, S } from './cel-harness.ts';

const SCHEMA = objectOf({ addr: S, net: S });
const VALUE = { addr: '192.168.0.1', net: '10.0.0.0/8' };

describe('the IP and CIDR library', () => {
  it.each([
    "isIP('1.2.3.4')",
    "isIP('2001:db8::1')",
    "isIP('::ffff:1.2.3.4') == false",
    "!isIP('1.2.3.4%eth0')",
    "!isIP('01.2.3.4')",
    "!isIP('256.1.1.1')",
    "!isIP('1.2.3')",
    "!isIP('2001:db8::1::2')",
    'isIP(self.addr) && ip(self.addr).family() == 4',
    "ip('2001:db8::1').family() == 6",
    "string(ip('2001:0DB8:0:0:0:0:0:1')) == '2001:db8::1'",
    "string(ip('2001:db8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1'",
    "string(ip('::')) == '::'",
    "string(ip('1:2:3:4:5:6:7:8')) == '1:2:3:4:5:6:7:8'",
    "string(ip('64:ff9b::1.2.3.4')) == '64:ff9b::102:304'",
    "ip('127.0.0.1') == ip('127.0.0.1')",
    "ip('127.0.0.1') != ip('127.0.0.2')",
    "ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified() && !ip('1.2.3.4').isUnspecified()",
    "ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && !ip('10.0.0.1').isLoopback()",
    "ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast()",
    "ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('10.0.0.1').isLinkLocalUnicast()",
    "ip('8.8.8.8').isGlobalUnicast() && ip('10.0.0.1').isGlobalUnicast() && ip('2001:db8::1').isGlobalUnicast()",
    "!ip('255.255.255.255').isGlobalUnicast() && !ip('224.0.0.1').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()",
    "isCIDR(self.net) && !isCIDR('10.0.0.0') && !isCIDR('10.0.0.0/33') && isCIDR('2001:db8::/32')",
    "cidr(self.net).containsIP('10.1.2.3') && !cidr(self.net).containsIP(ip('11.0.0.1'))",
    "cidr(self.net).containsCIDR('10.1.0.0/16') && !cidr(self.net).containsCIDR(cidr('0.0.0.0/0'))",
    "cidr('192.168.1.5/24').ip() == ip('192.168.1.5')",
    "cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24')",
    "string(cidr('2001:db8::1/32').masked()) == '2001:db8::/32'",
    "cidr('192.168.1.5/24').prefixLength() == 24",
    "!cidr('2001:db8::/32').containsIP('10.0.0.1')",
  ])('%s holds', (rule) => {
    expect(outcome(SCHEMA, VALUE, rule)).toEqual([]);
  });

  it.each([
    ["ip('nope').family() == 4", 'IP Address "nope" parse error during conversion from string'],
    ["ip('::ffff:1.2.3.4').family() == 6", 'IPv4-mapped IPv6 address is not allowed'],
    ["ip('fe80::1%eth0').family() == 6", 'IP address with zone value is not allowed'],
    ["cidr('10.0.0.0').prefixLength() == 0", 'network address parse error during conversion from string'],
  ])('%s fails with "%s"', (rule, text) => {
    const out = outcome(SCHEMA, VALUE, rule);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(text);
  });
});
