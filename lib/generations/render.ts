import { createHash } from "node:crypto";

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/**
 * The sandbox's output: a small SVG drawn from the prompt, the same for the
 * same prompt and model, inline as a data URL.
 */
export function renderSandboxOutput(model: string, prompt: string): { type: string; url: string } {
  const digest = createHash("sha256").update(`${model}\n${prompt}`).digest();
  const hue = (digest[0]! * 360) / 256;
  const accent = (hue + 150) % 360;
  const lines = (prompt.match(/.{1,28}(\s|$)/g) ?? [prompt]).slice(0, 4).map((line) => escapeXml(line.trim()));
  const text = lines
    .map((line, i) => `<text x="32" y="${220 + i * 34}" font-size="26" fill="#fff">${line}</text>`)
    .join("");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">` +
    `<rect width="512" height="512" fill="hsl(${hue.toFixed(0)} 60% 35%)"/>` +
    `<circle cx="400" cy="112" r="72" fill="hsl(${accent.toFixed(0)} 70% 60%)"/>` +
    `${text}<text x="32" y="480" font-size="16" fill="#ddd">${escapeXml(model)} · Keyport sandbox</text></svg>`;
  return { type: "image/svg+xml", url: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}
