// The managing-keys page's Usage section, checked on the HTML it renders: its
// retention figures come from the settings' defaults and the pruning code,
// never from typed text, and the leaked-key checklist points at the request log.
import { createElement } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { describe, expect, it } from "vitest";
import ManagingKeysPage from "@/app/(docs)/docs/managing-keys/page";
import { newDocsSearch, searchDocs } from "@/lib/docs/search";
import { indexEntries } from "@/lib/docs/search-index";
import { envDefaults } from "@/lib/env-schema";
import { USAGE_AGGREGATE_RETENTION_DAYS } from "@/lib/maintenance/prune";
import { USER_AGENT_MAX_LENGTH } from "@/lib/usage/event";

async function render(): Promise<string> {
  const { prelude } = await prerenderToNodeStream(createElement(ManagingKeysPage));
  let text = "";
  for await (const chunk of prelude) text += String(chunk);
  return text;
}

/** A section's HTML: from its heading to the next section's. */
function section(page: string, id: string): string {
  const start = page.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  const next = page.indexOf("<h2", start);
  return page.slice(start, next === -1 ? undefined : next);
}

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "")
    .replaceAll("&#x27;", "'");

describe("the managing-keys page's Usage section", () => {
  it("states what is kept, and for how long, from the code's own figures", async () => {
    const usage = text(section(await render(), "usage"));
    expect(usage).toContain(`The request log is kept for ${envDefaults().USAGE_RETENTION_DAYS} days`);
    expect(usage).toContain("USAGE_RETENTION_DAYS");
    expect(usage).toContain(`kept for ${USAGE_AGGREGATE_RETENTION_DAYS} days`);
    expect(usage).toContain(`the user agent cut to ${USER_AGENT_MAX_LENGTH} characters`);
    expect(usage).toMatch(/Never recorded: the key itself, the value of any header other than the user agent/);
    expect(usage).toContain("key:usage");
  });

  it("keeps the leaked-key checklist pointing at the key page's request log", async () => {
    const page = await render();
    expect(page).toContain('id="usage-on-the-key-page"');
    const checklist = section(page, "leaked-key-checklist");
    expect(text(checklist)).toContain("Check where the key was used: the key's page lists every request with its IP");
    expect(checklist).toContain('href="#usage-on-the-key-page"');
  });

  it("is what the search finds for usage and the request log", () => {
    const index = newDocsSearch(indexEntries());
    expect(searchDocs(index, "usage")[0]?.href).toBe("/docs/managing-keys");
    expect(searchDocs(index, "request log")[0]?.href).toBe("/docs/managing-keys");
  });
});
