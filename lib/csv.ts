// CSV cells as RFC 4180 writes them, made safe to open in a spreadsheet.
//
// A cell that starts with = + - @ (or a tab or carriage return, which some
// spreadsheets skip before reading a formula) would run as a formula when the
// file is opened (OWASP's "CSV injection"): a user agent is whatever the
// caller sent, so such a cell gets a leading single quote, which spreadsheets
// show as text. Numbers are written as they are: they come from our own
// columns, never from a caller.

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Every text cell is quoted, whatever it holds: a spreadsheet set to split on
 * ";" or tabs (Excel in many locales) would otherwise cut "x;=1+1" into a
 * second cell that starts a formula. Inside quotes it stays one cell.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** One record, ended by CRLF as RFC 4180 asks. */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
