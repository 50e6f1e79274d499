// The screenshot checks (tests/screenshots/picture-check.ts) can fail: a
// committed README picture passes, and a flat picture, one of another width,
// and bytes that are no PNG are each refused.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { pictureProblems } from "../screenshots/picture-check";

const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "screenshots", "key-list.png"));

function flat(width: number, height: number) {
  const png = new PNG({ width, height });
  png.data.fill(0xff);
  return PNG.sync.write(png);
}

describe("pictureProblems", () => {
  it("passes a real screenshot at its width (the control)", () => {
    expect(PNG.sync.read(readme).width).toBe(1280);
    expect(pictureProblems(readme, 1280)).toEqual([]);
  });

  it("refuses a flat picture, another width, and bytes that are not a PNG", () => {
    expect(pictureProblems(flat(1280, 800), 1280)).toEqual(["1 colours: a flat picture"]);
    expect(pictureProblems(readme, 390)).toEqual(["1280 px wide, not 390"]);
    expect(pictureProblems(readme, 1440, { fullPage: true })).toEqual(["1280 px wide, not at least 1440"]);
    expect(pictureProblems(Buffer.from("<html>"), 1280)).toEqual(["not a PNG"]);
  });
});
