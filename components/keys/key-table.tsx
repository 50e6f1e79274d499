import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { absoluteTime, relativeTime } from "@/lib/format-time";
import type { KeyView } from "@/lib/keys/views";
import { KeyActions } from "./key-actions";
import { RenameKey } from "./rename-key";

const STATUS_TEXT = {
  active: "Active",
  expiring: "Expiring after rotation",
  expired: "Expired",
  revoked: "Revoked",
} as const;
const STATUS_TONE = { active: "success", expiring: "warning", expired: "neutral", revoked: "danger" } as const;

export function EnvironmentBadge({ environment }: { environment: KeyView["environment"] }) {
  return environment === "prod" ? <Badge tone="danger">Production</Badge> : <Badge tone="info">Development</Badge>;
}

function Expiry({ keyView, now }: { keyView: KeyView; now: Date }) {
  if (keyView.status === "revoked" && keyView.revokedAt) {
    return <span>Revoked {relativeTime(keyView.revokedAt, now)}</span>;
  }
  if (!keyView.expiresAt) return <span>Never</span>;
  const verb = keyView.expiresAt > now ? "Expires" : "Expired";
  return (
    <time dateTime={keyView.expiresAt.toISOString()} title={absoluteTime(keyView.expiresAt)}>
      {verb} {relativeTime(keyView.expiresAt, now)}
    </time>
  );
}

export function KeyTable({ keys, now }: { keys: KeyView[]; now: Date }) {
  return (
    <Table caption="Your API keys">
      <THead>
        <tr>
          <Th>Label</Th>
          <Th>Environment</Th>
          <Th>Key</Th>
          <Th>Created</Th>
          <Th>Last used</Th>
          <Th>Expiry</Th>
          <Th>Status</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <tbody>
        {keys.map((key) => {
          const inactive = key.status === "revoked" || key.status === "expired";
          return (
            <tr
              key={key.id}
              data-testid="key-row"
              data-key-id={key.id}
              className={cn(inactive && "text-zinc-500 dark:text-zinc-500")}
            >
              <Td>
                {inactive ? (
                  <span className="font-medium">{key.label}</span>
                ) : (
                  <RenameKey keyId={key.id} label={key.label} />
                )}
                <div className="mt-1 font-mono text-xs text-zinc-500">{key.id}</div>
              </Td>
              <Td>
                <EnvironmentBadge environment={key.environment} />
              </Td>
              <Td>
                <code className="whitespace-nowrap">{key.displayFragment}</code>
              </Td>
              <Td>
                <time dateTime={key.createdAt.toISOString()} title={absoluteTime(key.createdAt)}>
                  {relativeTime(key.createdAt, now)}
                </time>
              </Td>
              <Td>
                {key.lastUsedAt ? (
                  <time dateTime={key.lastUsedAt.toISOString()} title={absoluteTime(key.lastUsedAt)}>
                    {relativeTime(key.lastUsedAt, now)}
                  </time>
                ) : (
                  "Never"
                )}
              </Td>
              <Td>
                <Expiry keyView={key} now={now} />
              </Td>
              <Td>
                <Badge tone={STATUS_TONE[key.status]}>{STATUS_TEXT[key.status]}</Badge>
                {key.successorId && (
                  <div className="mt-1 text-xs">
                    Replaced by <span className="font-mono">{key.successorId}</span>
                  </div>
                )}
              </Td>
              <Td>
                <div className="flex flex-col gap-2">
                  <KeyActions keyId={key.id} label={key.label} status={key.status} />
                  <Link href={`/dashboard/activity?key=${key.id}`} className="text-xs">
                    Activity
                  </Link>
                </div>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
