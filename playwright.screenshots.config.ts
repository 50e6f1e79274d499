import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run screenshots`: the README's pictures (readme.spec.ts), taken from the
// same production build and throw-away server as the end-to-end tests, so they
// show what ships. `npm run screenshots:review` takes those and every page a
// person sees at 1280 and 390 px wide, light and dark (review.spec.ts), into
// .scratch/review/ for a look before a UI change lands.
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  testMatch: process.env.SCREENSHOT_REVIEW ? "*.spec.ts" : "readme.spec.ts",
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  timeout: 180_000,
});
