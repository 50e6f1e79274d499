import "server-only";

/** An activity chain as a JSON download (the account's or a team's): an attachment, never cached or sniffed. */
export function chainDownload(chain: { exportedAt: string }, name: string): Response {
  return new Response(`${JSON.stringify(chain, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${chain.exportedAt.slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
