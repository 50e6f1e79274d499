// Characters that never belong in a name a person reads: C0 and C1 controls,
// and the bidirectional overrides and isolates that can make one name read
// as another ("invoice\u202Egpj.exe" shows as "invoiceexe.jpg").
export const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** The value without those characters. */
export function withoutUnsafe(value: string): string {
  return value.replace(UNSAFE, "");
}

/** A client-sent name made safe to store and show: those characters removed, trimmed, cut to `max`. */
export function cleanName(value: string, max: number): string {
  return withoutUnsafe(value).trim().slice(0, max);
}
