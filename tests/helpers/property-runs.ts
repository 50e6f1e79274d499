// How many cases a property test generates. CI runs the full count each test
// names; a run on a developer's machine runs a tenth of it, so the suite stays
// quick enough to run before every commit. KEYPORT_PROPERTY_SCALE sets the
// share either way (1 for the full count, 0.01 for a smoke run, 10 for a soak).
export function propertyRuns(full: number, source: Record<string, string | undefined> = process.env): number {
  const given = Number(source.KEYPORT_PROPERTY_SCALE);
  const scale = source.KEYPORT_PROPERTY_SCALE && Number.isFinite(given) && given > 0 ? given : source.CI ? 1 : 0.1;
  return Math.max(1, Math.round(full * scale));
}
