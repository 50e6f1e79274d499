"use client";

import { useTeam } from "@/components/teams/team-context";
import { teamPath } from "@/lib/web/team-paths";
import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { ToastProvider, useToast } from "@/components/ui/toast";
import type { KeyActionData } from "@/lib/web/actions/keys";
import type { RestrictionOptions } from "@/lib/keys/restriction-options";
import type { KeyActionKind, KeyStatus } from "@/lib/keys/status";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeyActionDialog } from "./key-action-dialog";
import { SecretDialog, type Reveal } from "./secret-dialog";

// Every key dialog lives here, in the dashboard's layout, outside any list
// row: a row can leave the view while its action runs (a filter, a page, a
// revalidation), and a new secret must never leave with it.

export interface KeyTarget {
  id: string;
  label: string;
  status: KeyStatus;
  /** A decoy offers revoking only: rotating or replacing it would make a real key. */
  decoy?: boolean;
  /**
   * Whether the member's role may change this key (lib/teams/roles.ts, canManageKey): when not, only "This key
   * leaked" is offered. The server checks the role again on every action.
   */
  manageable?: boolean;
  /**
   * Whether the member is handed a new secret of it, by a rotation or a leak report (lib/teams/policies.ts,
   * mayReplaceKey: their role and the team's rule for production keys): when not, Rotate is not offered and "This key
   * leaked" says it makes no replacement for them. The server decides again on every action.
   */
  replaceable?: boolean;
}

type Open = { kind: "create" } | { kind: KeyActionKind; key: KeyTarget };

interface KeyDialogs {
  /** Opens a dialog; `trigger` gets focus back when it closes (if it is still on the page). */
  open: (what: Open, trigger: HTMLElement | null) => void;
  /** Shows a new key's secret made elsewhere (a request's reveal), here above the page that may change under it. */
  showSecret: (data: KeyActionData, trigger: HTMLElement | null) => void;
}

const KeyDialogsContext = createContext<KeyDialogs | null>(null);

export function useKeyDialogs(): KeyDialogs {
  const context = useContext(KeyDialogsContext);
  if (!context) throw new Error("useKeyDialogs needs <KeyDialogsProvider>.");
  return context;
}

/** Focus after a dialog: its trigger, else the same control found again, else the page's heading. */
function restoreFocus(trigger: HTMLElement | null) {
  const target =
    (trigger?.isConnected ? trigger : null) ??
    (trigger?.id ? document.getElementById(trigger.id) : null) ??
    document.querySelector<HTMLElement>("main h1");
  target?.focus();
}

/**
 * After a create, the list shows the new key even when the filters would hide
 * it (`created=`); any later change to a key ends that, so a key revoked or
 * rotated since is listed by the filters alone.
 */
function pinCreatedKey(router: ReturnType<typeof useRouter>, listPath: string, keyId: string | null) {
  const url = new URL(window.location.href);
  if (url.pathname !== listPath || (!keyId && !url.searchParams.has("created"))) return;
  if (keyId) {
    url.searchParams.set("created", keyId);
    url.searchParams.delete("page");
  } else {
    url.searchParams.delete("created");
  }
  router.replace(`${url.pathname}${url.search}`, { scroll: false });
}

function Dialogs({ options, children }: { options: RestrictionOptions; children: ReactNode }) {
  const router = useRouter();
  const team = useTeam();
  const toast = useToast();
  const [current, setCurrent] = useState<(Open & { round: number }) | null>(null);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const [trigger, setTrigger] = useState<HTMLElement | null>(null);
  // Set before the action's dialog unmounts, so its focus handling knows a
  // secret's dialog is taking over (state would be one render late).
  const revealing = useRef(false);

  const open = useCallback((what: Open, from: HTMLElement | null) => {
    setTrigger(from);
    setCurrent({ ...what, round: Date.now() });
  }, []);
  const showSecret = useCallback((data: KeyActionData, from: HTMLElement | null) => {
    setTrigger(from);
    revealing.current = true;
    setReveal({ ...data, leaked: false });
  }, []);
  const value = useMemo(() => ({ open, showSecret }), [open, showSecret]);

  const done = (kind: Open["kind"], data: KeyActionData) => {
    setCurrent(null);
    pinCreatedKey(router, teamPath(team.slug), kind === "create" ? data.keyId : null);
    if (data.secret || kind === "leak") {
      revealing.current = true;
      setReveal({ ...data, leaked: kind === "leak" });
    } else {
      toast(data.message);
    }
  };
  // Focus goes back only once nothing else will open: a success that shows a
  // secret keeps it for the secret's dialog.
  const afterClose = (event: Event) => {
    event.preventDefault();
    if (!revealing.current) restoreFocus(trigger);
  };

  return (
    <KeyDialogsContext.Provider value={value}>
      {children}
      {current?.kind === "create" && (
        <CreateKeyDialog
          key={current.round}
          options={options}
          onClose={() => setCurrent(null)}
          onDone={(data) => done("create", data)}
          onRequested={(data) => {
            setCurrent(null);
            toast(data.message);
            router.push(data.href);
          }}
          onCloseAutoFocus={afterClose}
        />
      )}
      {current && current.kind !== "create" && (
        <KeyActionDialog
          key={current.round}
          kind={current.kind}
          target={current.key}
          onClose={() => setCurrent(null)}
          onDone={(data) => done(current.kind, data)}
          onCloseAutoFocus={afterClose}
        />
      )}
      {reveal && (
        <SecretDialog
          reveal={reveal}
          onClose={() => setReveal(null)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            revealing.current = false;
            restoreFocus(trigger);
          }}
        />
      )}
    </KeyDialogsContext.Provider>
  );
}

export function KeyDialogsProvider({ options, children }: { options: RestrictionOptions; children: ReactNode }) {
  return (
    <ToastProvider>
      <Dialogs options={options}>{children}</Dialogs>
    </ToastProvider>
  );
}
