import Link from "next/link";
import { keyPath } from "@/lib/web/team-paths";
import { canManageKey, type Role } from "@/lib/teams/roles";
import { mayReplaceKey, type ProductionKeyRule } from "@/lib/teams/policies";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { isUsable } from "@/lib/keys/status";
import type { KeyView } from "@/lib/keys/views";
import { EnvironmentBadge, ServiceAccountLine, StatusBadge } from "./key-badges";
import { accessSummary } from "@/lib/keys/restrictions";
import { KeyMenu } from "./key-menu";

/** Who looks at the list: their role, and their team's rule for production keys (for what each row's menu offers). */
type Viewer = { role: Role; userId: string; productionKeys: ProductionKeyRule };

/** What canManageKey and mayReplaceKey read of a key: its environment and who owns it. */
const owners = (keyView: KeyView) => ({
  environment: keyView.environment,
  userId: keyView.makerId,
  serviceAccountId: keyView.serviceAccount?.id ?? null,
});

// One row per key. On a phone the table keeps two columns (the key and its
// menu): the environment and state move under the label, like a card.

function KeyState({ slug, keyView, now }: { slug: string; keyView: KeyView; now: Date }) {
  const { status, expiresAt, revokedAt, successor } = keyView;
  // A decoy in place never works: "Active" would say the opposite (a new user's walk).
  if (keyView.decoy && status === "active") {
    return (
      <div className="flex flex-col items-start gap-1">
        <Badge tone="warning">Decoy</Badge>
        <span className="text-xs">Never works; any use alerts you</span>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1">
      <StatusBadge status={status} />
      {status === "revoked" && revokedAt && (
        <Timestamp date={revokedAt} now={now} compact prefix="Revoked" className="text-xs" />
      )}
      {status !== "revoked" && expiresAt && (
        <Timestamp
          date={expiresAt}
          now={now}
          compact
          prefix={expiresAt <= now ? "Expired" : status === "expiring" ? "Stops working" : "Expires"}
          className="text-xs"
        />
      )}
      {status === "active" && !expiresAt && <span className="text-xs">Never expires</span>}
      {successor && (
        <span className="text-xs">
          Replaced by <Link href={keyPath(slug, successor.id)}>{successor.id}</Link>
        </span>
      )}
    </div>
  );
}

/** Requests in the last 24 hours: a number in its column, a sentence under the label on a phone. */
function requestsText(count: number | undefined): string {
  if (count === undefined) return "";
  return count === 1 ? "1 request in 24 hours" : `${count.toLocaleString("en")} requests in 24 hours`;
}

/** A line under a key's label about its use: "danger" for use after it stopped working. */
export interface UsageNote {
  text: string;
  tone: "danger" | "warning";
}

function KeyRow({
  slug,
  member,
  keyView,
  now,
  note,
  requests,
  usageNotes = [],
}: {
  slug: string;
  member: Viewer;
  keyView: KeyView;
  now: Date;
  note?: string | undefined;
  requests: number | undefined;
  usageNotes?: UsageNote[] | undefined;
}) {
  const access = accessSummary(keyView.restrictions);
  return (
    <tr
      data-testid="key-row"
      data-key-id={keyView.id}
      className={cn(
        !isUsable(keyView.status) && "text-zinc-600 dark:text-zinc-400",
        note && "bg-amber-50 dark:bg-amber-950/40",
      )}
    >
      <Td className="w-full sm:w-auto">
        {note && (
          <Badge tone="warning" className="mb-1">
            {note}
          </Badge>
        )}
        {/* Anywhere, not break-words: only that lets a 64-character label without spaces shrink the column. */}
        <Link href={keyPath(slug, keyView.id)} className="block font-medium wrap-anywhere">
          {keyView.label}
        </Link>
        <div className="mt-1 font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">{keyView.id}</div>
        <ServiceAccountLine keyView={keyView} />
        {access && (
          <div data-testid="key-access" className="mt-1 text-xs wrap-anywhere text-zinc-700 dark:text-zinc-300">
            {access}
          </div>
        )}
        {/* On narrower screens the columns for the secret and the last use are hidden: their facts come here. */}
        <div data-testid="key-phone-facts" className="mt-1 text-xs text-zinc-700 lg:hidden dark:text-zinc-300">
          <code className="break-all md:hidden">{keyView.displayFragment}</code>
          <div>
            Last used {keyView.lastUsedAt ? <Timestamp date={keyView.lastUsedAt} now={now} compact /> : "never"}
          </div>
        </div>
        <div className="mt-2 flex flex-col items-start gap-2 sm:hidden">
          <EnvironmentBadge environment={keyView.environment} />
          <KeyState slug={slug} keyView={keyView} now={now} />
        </div>
        {usageNotes.map((note) => (
          <div
            key={note.text}
            data-testid="key-usage-note"
            className={cn(
              "mt-1 text-xs font-medium wrap-anywhere",
              note.tone === "danger" ? "text-red-700 dark:text-red-300" : "text-amber-800 dark:text-amber-200",
            )}
          >
            {note.text}
          </div>
        ))}
        {requests !== undefined && (
          <div data-testid="key-requests-24h" className="mt-1 text-xs text-zinc-700 lg:hidden dark:text-zinc-300">
            {requestsText(requests)}
          </div>
        )}
      </Td>
      <Td className="hidden sm:table-cell">
        <EnvironmentBadge environment={keyView.environment} />
      </Td>
      <Td className="hidden md:table-cell">
        <code className="whitespace-nowrap">{keyView.displayFragment}</code>
      </Td>
      <Td className="hidden lg:table-cell">
        {keyView.lastUsedAt ? <Timestamp date={keyView.lastUsedAt} now={now} compact /> : "Never"}
      </Td>
      <Td className="hidden text-right tabular-nums lg:table-cell" data-testid="key-requests-24h-cell">
        {requests?.toLocaleString("en") ?? "–"}
      </Td>
      <Td className="hidden sm:table-cell">
        <KeyState slug={slug} keyView={keyView} now={now} />
      </Td>
      <Td className="w-12 px-1 text-right">
        <KeyMenu
          target={{
            id: keyView.id,
            label: keyView.label,
            status: keyView.status,
            decoy: keyView.decoy,
            manageable: canManageKey(member, owners(keyView)),
            replaceable: mayReplaceKey(member, owners(keyView), member.productionKeys),
          }}
        />
      </Td>
    </tr>
  );
}

export function KeyList({
  slug,
  member,
  keys,
  now,
  pinned,
  requests24h = {},
  usageNotes = {},
}: {
  /** The team's slug, for the links to each key's page. */
  slug: string;
  /** Who looks, in the team: their role decides which actions each row offers. */
  member: Viewer;
  keys: KeyView[];
  now: Date;
  pinned?: KeyView | undefined;
  /** Requests in the last 24 hours, by key id. */
  requests24h?: Record<string, number>;
  /** Lines about a key's use (after it stopped working, rotation progress), by key id. */
  usageNotes?: Record<string, UsageNote[]>;
}) {
  return (
    <Table caption="Your API keys">
      <THead>
        <tr>
          <Th>Key</Th>
          <Th className="hidden sm:table-cell">Environment</Th>
          <Th className="hidden md:table-cell">Secret</Th>
          <Th className="hidden lg:table-cell">Last used</Th>
          <Th className="hidden text-right whitespace-nowrap lg:table-cell">Requests, 24 h</Th>
          <Th className="hidden sm:table-cell">Status</Th>
          <Th className="w-12 px-1">
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <tbody>
        {pinned && (
          <KeyRow
            slug={slug}
            member={member}
            keyView={pinned}
            now={now}
            note="Just created: outside your filters"
            requests={requests24h[pinned.id]}
            usageNotes={usageNotes[pinned.id]}
          />
        )}
        {keys.map((key) => (
          <KeyRow
            key={key.id}
            slug={slug}
            member={member}
            keyView={key}
            now={now}
            requests={requests24h[key.id]}
            usageNotes={usageNotes[key.id]}
          />
        ))}
      </tbody>
    </Table>
  );
}

/**
 * The key list for a member the team's two-factor policy holds back (lib/teams/policies.ts): label, fragment and
 * status, and "This key leaked", which makes no replacement for them. Nothing links further into the team.
 */
export function HeldBackKeyList({ keys }: { keys: KeyView[] }) {
  return (
    <Table caption="The team's API keys">
      <THead>
        <tr>
          <Th>Key</Th>
          <Th className="hidden md:table-cell">Secret</Th>
          <Th>Status</Th>
          <Th className="w-12 px-1">
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} data-testid="key-row" data-key-id={key.id}>
            <Td className="w-full sm:w-auto">
              <span className="block font-medium wrap-anywhere">{key.label}</span>
              <div className="mt-1 font-mono text-xs break-all text-zinc-600 md:hidden dark:text-zinc-400">
                {key.displayFragment}
              </div>
            </Td>
            <Td className="hidden font-mono text-xs md:table-cell">{key.displayFragment}</Td>
            <Td>
              <StatusBadge status={key.status} />
            </Td>
            <Td className="px-1">
              <KeyMenu
                target={{
                  id: key.id,
                  label: key.label,
                  status: key.status,
                  decoy: key.decoy,
                  manageable: false,
                  replaceable: false,
                }}
              />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
