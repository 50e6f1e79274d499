// The docs' examples are run, not just shown: every curl, Node (fetch) and
// Python (requests) example of every route page, in both header forms, plus
// the stream readers and the official Node client libraries, is read from the
// built pages and executed against this server with a fresh dev key in
// KEYPORT_API_KEY. An example that fails, or answers other fields than the
// page's response example shows, fails the test.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { exampleLanguages, headerForms } from "../../lib/docs/examples";
import { routeHref } from "../../lib/docs/nav";
import { envDefaults } from "../../lib/env-schema";
import { publicRoutes } from "../../lib/public-api/routes";
import { newUserWithKey } from "./helpers";

const run = promisify(execFile);

interface Extracted {
  route: string;
  language: string;
  form: string | null;
  variant: string | null;
  code: string;
}

async function examplesOn(page: Page, href: string): Promise<Extracted[]> {
  await page.goto(href);
  return page.locator("[data-example-route]").evaluateAll((blocks) =>
    blocks.map((block) => ({
      route: block.getAttribute("data-example-route")!,
      language: block.getAttribute("data-example-language")!,
      form: block.getAttribute("data-example-form"),
      variant: block.getAttribute("data-example-variant"),
      code: block.querySelector("pre")?.textContent ?? "",
    })),
  );
}

const commands: Record<string, (code: string) => [string, string[]]> = {
  curl: (code) => ["bash", ["-c", code]],
  node: (code) => [process.execPath, ["--input-type=module", "-e", code]],
  "node-sdk": (code) => [process.execPath, ["--input-type=module", "-e", code]],
  python: (code) => ["python3", ["-c", code]],
};

test.describe.configure({ timeout: 240_000 });

/** Uploads one key may have in progress: UPLOADS_PER_KEY's default, which the e2e server keeps (tests/e2e/serve.mjs). */
const UPLOADS_AT_ONCE = envDefaults().UPLOADS_PER_KEY;

test("every example in the docs runs against the app and answers what the page shows", async ({ page }) => {
  const key = await newUserWithKey(page, "docs-examples");
  const workdir = mkdtempSync(path.join(os.tmpdir(), "keyport-docs-"));
  writeFileSync(path.join(workdir, "notes.txt"), "Notes for the Keyport docs.\n");

  async function execute(example: Extracted, extraEnv: Record<string, string> = {}) {
    const [command, args] = commands[example.language]!(example.code);
    // The client-library snippets import packages, so they run where node_modules is.
    const cwd = example.language === "node-sdk" ? process.cwd() : workdir;
    const label = `${example.route} ${example.language} ${example.form ?? ""} ${example.variant ?? ""}`;
    try {
      const { stdout } = await run(command, args, {
        cwd,
        // Only what an integrator's shell would have: no secrets of the test run.
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          KEYPORT_API_KEY: key,
          ...extraEnv,
        },
        timeout: 60_000,
      });
      return stdout;
    } catch (error) {
      const failure = error as { stdout?: string; stderr?: string; code?: number };
      throw new Error(`${label} failed (${failure.code}): ${failure.stderr}\n${failure.stdout}`);
    }
  }

  try {
    const pages = new Map<string, Extracted[]>();
    for (const route of publicRoutes) pages.set(route.name, await examplesOn(page, routeHref(route)));
    const elsewhere = [...(await examplesOn(page, "/docs")), ...(await examplesOn(page, "/docs/authentication"))];
    expect(elsewhere.length).toBeGreaterThanOrEqual(3);

    const generationIds: Record<string, string> = {};
    // The create routes first: their answers give the read routes an id to read.
    const order = [...publicRoutes].sort((a, b) => Number(a.method === "GET") - Number(b.method === "GET"));
    let executed = 0;
    for (const route of order) {
      const examples = pages.get(route.name)!;
      const requests = examples.filter((example) => example.variant === "request");
      // Every route shows all three languages in both header forms.
      for (const language of exampleLanguages) {
        for (const form of headerForms) {
          expect(
            requests.filter((example) => example.language === language && example.form === form),
            `${route.name}: ${language} with ${form}`,
          ).toHaveLength(1);
        }
      }
      const documented = examples.find((example) => example.language === "response");
      expect(documented, `${route.name} shows a response`).toBeTruthy();
      const extraEnv: Record<string, string> = route.path.includes("[id]")
        ? { GENERATION_ID: generationIds[route.path.includes("/apps/") ? "app" : "plain"]! }
        : {};

      // A route's examples run side by side (each is its own process, mostly waiting on the server), but uploads
      // two at a time: the server takes two uploads in progress per key (UPLOADS_PER_KEY), and refuses a third
      // with 429, as it did here once the examples started close enough together (CI, 2026-11-28).
      const runnable = examples.filter(
        (candidate) => candidate.language !== "response" && candidate.language !== "python-sdk",
      );
      const together = route.name === "upload_file" ? UPLOADS_AT_ONCE : runnable.length;
      const outputs: string[] = [];
      for (let start = 0; start < runnable.length; start += together) {
        const batch = runnable.slice(start, start + together);
        outputs.push(...(await Promise.all(batch.map((example) => execute(example, extraEnv)))));
      }
      for (const [index, example] of runnable.entries()) {
        const stdout = outputs[index]!;
        executed++;
        if (example.language === "node-sdk") {
          expect(stdout, `${route.name} ${example.language}`).toContain("Keyport sandbox");
        } else if (example.variant === "stream" || ("streams" in route && route.streams)) {
          expect(stdout, `${route.name} ${example.language} ${example.form} stream`).toMatch(/^data: \{/m);
        } else {
          const answer = JSON.parse(stdout) as Record<string, unknown>;
          const shown = JSON.parse(documented!.code) as Record<string, unknown>;
          expect(Object.keys(answer).sort(), `${route.name} ${example.language} ${example.form}`).toEqual(
            Object.keys(shown).sort(),
          );
          if (route.method === "POST" && route.path.endsWith("/generations")) {
            generationIds[route.path.includes("/apps/") ? "app" : "plain"] = String(answer.id);
          }
        }
      }
    }
    for (const example of elsewhere) {
      const answer = JSON.parse(await execute(example)) as { object: string; data: unknown[] };
      expect(answer.object).toBe("list");
      executed++;
    }
    // 13 routes x 3 languages x 2 header forms, the stream readers, the client libraries, the first call.
    expect(executed).toBeGreaterThanOrEqual(publicRoutes.length * 6 + 12 + 4 + 3);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});
