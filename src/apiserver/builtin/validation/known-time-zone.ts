// knownTimeZone: whether an IANA time zone name is one Go's time.LoadLocation would load (exact spelling), via the runtime's ICU data.

/** Whether the runtime knows the IANA time zone, spelled as its database spells it. */
export function knownTimeZone(zone: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved === zone || resolved.toLowerCase() !== zone.toLowerCase();
  } catch {
    return false;
  }
}
