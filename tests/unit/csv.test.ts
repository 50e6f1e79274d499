// CSV cells: RFC 4180 quoting (every text cell), and formula injection defused with a leading quote.
import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "@/lib/csv";

describe("csvCell", () => {
  it("quotes every text cell, writes numbers as they are, and nothing for null", () => {
    expect(csvCell("list_models")).toBe('"list_models"');
    expect(csvCell(200)).toBe("200");
    expect(csvCell(-1)).toBe("-1");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe('""');
  });

  it("quotes a comma, a quote or a line break, doubling quotes", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
    expect(csvCell(" padded ")).toBe('" padded "');
  });

  it.each(["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])("prefixes a quote to a formula: %j", (value) => {
    expect(csvCell(value).replace(/^"/, "").startsWith(`'${value[0]}`)).toBe(true);
  });

  it("escapes and quotes a formula that also holds quotes and commas", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""click"")"`,
    );
  });

  it("leaves a formula character that is not the first alone, inside quotes", () => {
    expect(csvCell("a=b")).toBe('"a=b"');
    expect(csvCell("curl/8.5.0 (+https://x)")).toBe('"curl/8.5.0 (+https://x)"');
  });

  it("keeps a cell whole for a spreadsheet that splits on semicolons or tabs", () => {
    for (const value of ["x;=1+1", "tab\t@SUM(A1)", "pipe|=1"]) {
      const cell = csvCell(value);
      expect(cell.startsWith('"') && cell.endsWith('"'), value).toBe(true);
    }
  });
});

describe("csvRow", () => {
  it("joins cells with commas and ends with CRLF", () => {
    expect(csvRow(["a", 1, null, "b,c"])).toBe('"a",1,,"b,c"\r\n');
  });
});
