import type { Metadata } from "next";
import { EndSessionButton, EndOtherSessionsButton } from "@/components/account/session-buttons";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { requirePageSession } from "@/lib/auth/guard";
import { listSessions } from "@/lib/auth/session-store";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const current = await requirePageSession("/account");
  const sessions = await listSessions(current.userId);
  const others = sessions.filter((session) => session.id !== current.id).length;
  return (
    <>
      <h1 className="text-2xl font-bold">Account</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">Signed in as {current.email}.</p>
      <section aria-labelledby="sessions-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="sessions-heading" className="text-xl font-semibold">
            Active sessions
          </h2>
          {others > 0 && <EndOtherSessionsButton />}
        </div>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Sessions end after 7 days without use, and 30 days after sign-in at the latest.
        </p>
        <div className="mt-4">
          <Table caption="Your active sessions">
            <THead>
              <tr>
                <Th>Browser</Th>
                <Th>IP address</Th>
                <Th>Signed in</Th>
                <Th>Last seen</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id} data-testid="session-row">
                  <Td>
                    {describeUserAgent(session.userAgent)}{" "}
                    {session.id === current.id && <Badge tone="success">This device</Badge>}
                  </Td>
                  <Td>{session.ip ?? "unknown"}</Td>
                  <Td>
                    <time dateTime={session.createdAt.toISOString()}>{session.createdAt.toUTCString()}</time>
                  </Td>
                  <Td>
                    <time dateTime={session.lastSeenAt.toISOString()}>{session.lastSeenAt.toUTCString()}</time>
                  </Td>
                  <Td>{session.id !== current.id && <EndSessionButton sessionId={session.id} />}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      </section>
    </>
  );
}
