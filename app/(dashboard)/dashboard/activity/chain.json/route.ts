import { exportChain } from "@/lib/audit-chain-store";
import { chainDownload } from "@/lib/web/chain-download";
import { requireApiSession } from "@/lib/web/guard";
import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

// GET /dashboard/activity/chain.json: the signed-in account's whole activity
// log with each row's hash and the signed head, as a download. An operator
// checks it offline with the deployment's ENCRYPTION_KEY (npm run -s admin --
// audit:verify --file F); kept elsewhere, it proves the log later. An internal
// route: it checks the browser session itself and refuses an API key.
export async function GET(request: Request) {
  const session = await requireApiSession(request);
  if (session instanceof Response) return session;
  const chain = await exportChain(db, session.userId);
  return chainDownload(chain, "keyport-activity");
}
