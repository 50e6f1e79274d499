import { Badge } from "@/components/ui/badge";
import type { KeyEnvironment } from "@/lib/keys/format";
import { KEY_STATUS_LABELS, type KeyStatus } from "@/lib/keys/status";

const STATUS_TONE = { active: "success", expiring: "warning", expired: "neutral", revoked: "danger" } as const;

export function EnvironmentBadge({ environment }: { environment: KeyEnvironment }) {
  return environment === "prod" ? <Badge tone="danger">Production</Badge> : <Badge tone="info">Development</Badge>;
}

export function StatusBadge({ status }: { status: KeyStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{KEY_STATUS_LABELS[status]}</Badge>;
}

/** A decoy key: never works, and its use raises an alert. */
export function DecoyBadge({ decoy }: { decoy: boolean }) {
  return decoy ? <Badge tone="warning">Decoy</Badge> : null;
}

/** Who owns a key, when a service account does: it outlives any departure. */
export function ServiceAccountLine({ keyView }: { keyView: { serviceAccount: { name: string } | null } }) {
  if (!keyView.serviceAccount) return null;
  return (
    <div data-testid="key-owner" className="mt-1 text-xs break-words text-zinc-700 dark:text-zinc-300">
      Service account: <bdi className="font-medium">{keyView.serviceAccount.name}</bdi>
    </div>
  );
}
