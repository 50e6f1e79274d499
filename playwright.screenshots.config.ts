import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `npm run screenshots`: the README's pictures, taken from the same production
// build and throw-away server as the end-to-end tests, so they show what
// ships. Set SCREENSHOT_REVIEW=1 to also write every dashboard page at 1280
// and 390 px wide, light and dark, to .scratch/review/ for a look before a change lands.
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  timeout: 180_000,
});
