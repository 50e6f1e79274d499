// Injected into the public API's bundle (scripts/build-gate.mjs): the bundle's
// every reference to the global `Date` means this one, the process's own Date
// as lib/http/native-date.mjs kept it before Next wrapped the global one.
// Where nothing kept it (the benchmark's server, which has no Next), the
// global Date is the process's own.
const processDate: DateConstructor =
  (globalThis as { keyportNativeDate?: DateConstructor }).keyportNativeDate ?? globalThis.Date;

export { processDate as Date };
