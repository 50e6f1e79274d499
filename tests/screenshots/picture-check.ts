// What a screenshot must be to count as one: a PNG as wide as the page it
// shows (at least, for a full page), and not one flat colour (a blank or
// unstyled page). Apart from Playwright so that a unit test can show each
// check failing (tests/unit/picture-check.test.ts).
import { PNG } from "pngjs";

/** The problems with a picture, none when it is a screenshot of `width` pixels. */
export function pictureProblems(bytes: Buffer, width: number, options: { fullPage?: boolean } = {}): string[] {
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch {
    return ["not a PNG"];
  }
  const problems: string[] = [];
  if (options.fullPage ? png.width < width : png.width !== width) {
    problems.push(`${png.width} px wide, not ${options.fullPage ? "at least " : ""}${width}`);
  }
  const colours = new Set<number>();
  for (let i = 0; i < png.data.length && colours.size < 16; i += 4 * 97) colours.add(png.data.readUInt32BE(i));
  if (colours.size <= 8) problems.push(`${colours.size} colours: a flat picture`);
  return problems;
}
