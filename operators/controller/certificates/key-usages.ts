// keyUsagesFor: a CSR's spec.usages as X.509 key usage bits and extended key usage OIDs, refusing names upstream does not know.

const KEY_USAGE: Readonly<Record<string, string>> = {
  signing: 'digitalSignature',
  'digital signature': 'digitalSignature',
  'content commitment': 'nonRepudiation',
  'key encipherment': 'keyEncipherment',
  'key agreement': 'keyAgreement',
  'data encipherment': 'dataEncipherment',
  'cert sign': 'keyCertSign',
  'crl sign': 'cRLSign',
  'encipher only': 'encipherOnly',
  'decipher only': 'decipherOnly',
};

const EXT_KEY_USAGE: Readonly<Record<string, string>> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

/** Key usage bit names (RFC 5280's, as node-forge spells them) and extended key usage OIDs, each once. */
export type KeyUsages = { keyUsage: string[]; extKeyUsage: string[] } | { error: string };

/**
 * Translates usages as upstream's signing policy does: each name is a key usage bit or an extended key
 * usage; an unknown name fails the whole request with `unrecognized usage values: [...]`.
 * @param usages `spec.usages`
 */
export function keyUsagesFor(usages: readonly string[]): KeyUsages {
  const keyUsage = new Set<string>();
  const ext = new Set<string>();
  const unrecognized: string[] = [];
  for (const u of usages) {
    const bit = KEY_USAGE[u];
    const oid = EXT_KEY_USAGE[u];
    if (bit) keyUsage.add(bit);
    else if (oid) ext.add(oid);
    else unrecognized.push(u);
  }
  if (unrecognized.length > 0)
    return { error: `unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]` };
  return { keyUsage: [...keyUsage], extKeyUsage: [...ext] };
}
