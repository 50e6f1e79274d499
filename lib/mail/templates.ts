import "server-only";
import { displayIp } from "../format-ip";

// Every message Keyport sends, as plain text. A message names a key by its
// label and id, never its secret, and links to where the person can act. The
// data each kind needs is typed here; what is queued is checked against it.

export interface MailData {
  confirm_sign_up: { email: string };
  account_exists: { email: string };
  password_reset: { email: string };
  password_changed: { when: string; ip: string | null; browser: string | null };
  new_sign_in: { when: string; ip: string | null; browser: string | null };
  step_up_failed: { when: string; ip: string | null; browser: string | null };
  two_factor_changed: { change: "enabled" | "disabled" | "recovery_codes_replaced"; when: string };
  key_changed: {
    keyId: string;
    label: string;
    environment: "dev" | "prod";
    change: "created" | "rotated" | "revoked" | "leaked";
    when: string;
  };
  key_reported_leaked: {
    keyId: string;
    label: string;
    environment: "dev" | "prod";
    source: "secret-scanning" | "public-report";
    url: string | null;
    when: string;
    /** The key that replaced it in a rotation still in its grace period: it goes on working. */
    replacement?: { keyId: string; label: string } | null;
  };
  decoy_key_used: {
    keyId: string;
    label: string;
    environment: "dev" | "prod";
    route: string;
    ip: string | null;
    when: string;
  };
  key_expiring: { keyId: string; label: string; environment: "dev" | "prod"; expiresAt: string; within: "7d" | "1d" };
  revoked_key_used: {
    keyId: string;
    label: string;
    environment: "dev" | "prod";
    lastTriedAt: string;
    ip: string | null;
  };
  team_membership: {
    team: string;
    slug: string;
    change: "added" | "role_changed" | "removed" | "deleted";
    role: string | null;
    when: string;
    /** On a removal: keys they made that keep working for a service account (absent in older rows). */
    handedOver?: number;
  };
  team_invitation: {
    team: string;
    role: string;
    /** The address of whoever invited; null for the operator. */
    by: string | null;
    /** When the link stops working, UTC. */
    expires: string;
  };
  team_key_changed: {
    team: string;
    slug: string;
    keyId: string;
    label: string;
    environment: "dev" | "prod";
    change: "created" | "leaked";
    by: string | null;
    when: string;
  };
  team_two_factor_required: { team: string; slug: string; when: string };
  key_requested: {
    team: string;
    slug: string;
    requestId: string;
    label: string;
    by: string | null;
    reason: string;
    /** When the request stops waiting for a decision, UTC. */
    decideBy: string;
  };
  key_request_decided: {
    team: string;
    slug: string;
    requestId: string;
    label: string;
    decision: "approved" | "denied";
    by: string | null;
    comment: string | null;
    /** After an approval: when the key can no longer be revealed, UTC. */
    revealBy: string | null;
  };
}

export type MailKind = keyof MailData;

export interface RenderedMail {
  subject: string;
  text: string;
}

const INVITATION_SIGNATURE = "\n\n-- \nKeyport. You get this message because a member of a team invited this address.";

const SIGNATURE =
  "\n\n-- \nKeyport. You get this message because it is about your account's security; it cannot be turned off.";

// Addresses as a person reads them (displayIp: an IPv4 client seen through the dual-stack socket is shown as IPv4),
// applied when the mail is written, so mail queued before this release reads the same.
const fromWhere = (ip: string | null, browser: string | null) =>
  [browser ? `Browser: ${browser}` : null, ip ? `IP address: ${displayIp(ip)}` : null].filter(Boolean).join("\n");

const keyName = (data: { label: string; keyId: string; environment: string }) =>
  `"${data.label}" (${data.keyId}, ${data.environment === "prod" ? "production" : "development"})`;

/** A person's own words in a message, each line quoted, so they cannot pass for the message's text (or its links). */
const quoted = (text: string) =>
  text
    .split(/\r\n?|\n/)
    .map((line) => `> ${line}`)
    .join("\n");

const requestLink = (base: string, data: { slug: string; requestId: string }) =>
  `${base}/dashboard/${data.slug}/requests/${data.requestId}`;

type Renderers = { [K in MailKind]: (data: MailData[K], base: string, link: string | null) => RenderedMail };

const renderers: Renderers = {
  confirm_sign_up: (data, _base, link) => ({
    subject: "Finish creating your Keyport account",
    text: `Someone (we hope you) started creating a Keyport account for ${data.email}.\n\nTo finish, open this link within 24 hours and type the password you chose:\n${link}\n\nIf this was not you, ignore this message: without that password nobody can finish it.`,
  }),
  account_exists: (data, base) => ({
    subject: "You already have a Keyport account",
    text: `Someone (we hope you) tried to create a Keyport account for ${data.email}, but this address already has one.\n\nSign in: ${base}/sign-in\nForgot your password? ${base}/forgot-password\n\nIf this was not you, you can ignore this message: nothing was changed.`,
  }),
  password_reset: (data, base, link) => ({
    subject: "Reset your Keyport password",
    text: `A password reset was asked for ${data.email}.\n\nChoose a new password within 30 minutes (the link works once):\n${link}\n\nIf this was not you, ignore this message: your password stays as it is. Someone may know your address; two-factor sign-in (${base}/account) keeps them out even with your password.`,
  }),
  password_changed: (data, base) => ({
    subject: "Your Keyport password was changed",
    text: `The password of your Keyport account was changed at ${data.when} UTC, and every other session was signed out.\n${fromWhere(data.ip, data.browser)}\n\nIf this was not you, reset your password now: ${base}/forgot-password`,
  }),
  new_sign_in: (data, base) => ({
    subject: "New sign-in to your Keyport account",
    text: `Your Keyport account was signed in to from a browser or network it has not used before, at ${data.when} UTC.\n${fromWhere(data.ip, data.browser)}\n\nIf this was you, there is nothing to do. If not, change your password and end the session: ${base}/account`,
  }),
  step_up_failed: (data, base) => ({
    subject: "A Keyport session was signed out after five wrong answers",
    text: `A signed-in session of your Keyport account answered "Confirm it's you" wrongly five times in a row, at ${data.when} UTC, and was signed out.\n${fromWhere(data.ip, data.browser)}\n\nIf this was you, sign in again. If not, someone had that session: change your password and end every session you do not recognise: ${base}/account`,
  }),
  two_factor_changed: (data, base) => ({
    subject:
      data.change === "enabled"
        ? "Two-factor sign-in is on"
        : data.change === "disabled"
          ? "Two-factor sign-in was turned off"
          : "New two-factor recovery codes",
    text: `${
      data.change === "enabled"
        ? "Two-factor sign-in was turned on for your Keyport account"
        : data.change === "disabled"
          ? "Two-factor sign-in was turned off for your Keyport account"
          : "New recovery codes were made for your Keyport account; the old ones no longer work"
    } at ${data.when} UTC.\n\nIf this was not you, change your password now and review your account: ${base}/account`,
  }),
  key_changed: (data, base) => {
    const what = { created: "created", rotated: "rotated", revoked: "revoked", leaked: "reported leaked and revoked" }[
      data.change
    ];
    return {
      subject: `Production key ${what}: ${data.label}`,
      text: `The production key ${keyName(data)} was ${what} at ${data.when} UTC.\n\nSee the key and its activity: ${base}/dashboard/keys/${data.keyId}`,
    };
  },
  key_reported_leaked: (data, base) => ({
    subject: `Key found in public and revoked: ${data.label}`,
    text: `The key ${keyName(data)} was ${
      data.source === "secret-scanning"
        ? "found in public code by GitHub secret scanning"
        : "reported through Keyport's public report form"
    } and revoked at ${data.when} UTC. Requests with it are refused from now on.${
      data.url ? `\n\nWhere it was found: ${data.url}` : ""
    }\n\n${
      data.replacement
        ? `It was in a rotation's grace period, so its replacement, "${data.replacement.label}" (${data.replacement.keyId}), goes on working: check that its secret was not kept in the same place.`
        : "No replacement was issued: create one (or rotate another key) and update what used it."
    } See the key and its activity: ${base}/dashboard/keys/${data.keyId}`,
  }),
  decoy_key_used: (data, base) => ({
    subject: `Decoy key used: ${data.label}`,
    text: `Someone used the decoy key ${keyName(data)} at ${data.when} UTC (${data.route}${
      data.ip ? `, from ${displayIp(data.ip)}` : ""
    }). It was refused as an unknown key, so they learned nothing.\n\nWherever you placed this decoy has leaked: treat every real secret stored beside it as exposed, and rotate them.\n\nSee its uses: ${base}/dashboard/keys/${data.keyId}\n\n(At most one of these an hour per decoy; the key's activity counts every use.)`,
  }),
  key_expiring: (data, base) => ({
    subject: `Key expires in ${data.within === "7d" ? "7 days" : "1 day"}: ${data.label}`,
    text: `The key ${keyName(data)} expires at ${data.expiresAt} UTC. Requests with it will be refused from then on.\n\nRotate it before then to keep your integration working: ${base}/dashboard/keys/${data.keyId}`,
  }),
  team_membership: (data, base) => ({
    subject:
      data.change === "added"
        ? `You were added to the team ${data.team}`
        : data.change === "role_changed"
          ? `Your role in the team ${data.team} is now ${data.role}`
          : data.change === "deleted"
            ? `The team ${data.team} was deleted`
            : `You are no longer in the team ${data.team}`,
    text:
      data.change === "deleted"
        ? `The Keyport team "${data.team}" was deleted by an owner at ${data.when} UTC. Every key of the team was revoked and no longer works; keys of your other teams are untouched.`
        : data.change === "removed"
          ? `Your membership of the Keyport team "${data.team}" ended at ${data.when} UTC. ${
              data.handedOver
                ? `${data.handedOver === 1 ? "One key" : `${data.handedOver} keys`} you made in that team ${data.handedOver === 1 ? "was" : "were"} handed to its service accounts, or stay${data.handedOver === 1 ? "s" : ""} with them, and keep${data.handedOver === 1 ? "s" : ""} working for the team; do not use ${data.handedOver === 1 ? "it" : "them"} any more. The other keys you made there were revoked and no longer work`
                : "The keys you made in that team were revoked and no longer work"
            }; keys of your other teams are untouched.\n\nIf you did not expect this, ask the team's owners.`
          : `${
              data.change === "added"
                ? `You were added to the Keyport team "${data.team}" as ${data.role}`
                : `Your role in the Keyport team "${data.team}" changed to ${data.role}`
            } at ${data.when} UTC.\n\nOpen the team: ${base}/dashboard/${data.slug}\nWhat each role may do: ${base}/docs/teams-and-roles`,
  }),
  team_invitation: (data, _base, link) => ({
    subject: `You are invited to the team ${data.team} on Keyport`,
    text: `${data.by ? `${data.by} invites you` : "You are invited"} to join the Keyport team "${data.team}" as ${data.role}.\n\nTo accept, open this link before ${data.expires} UTC. It works once, and only for this address: sign in with it, or create your account from the link.\n${link}\n\nIf you do not know this team, ignore this message: nothing happens unless you open the link.`,
  }),
  team_key_changed: (data, base) => ({
    subject:
      data.change === "created"
        ? `Production key created in ${data.team}: ${data.label}`
        : `Key reported leaked in ${data.team}: ${data.label}`,
    text: `${
      data.change === "created"
        ? `The production key ${keyName(data)} was created in the team "${data.team}"`
        : `The key ${keyName(data)} of the team "${data.team}" was reported leaked and revoked`
    }${data.by ? ` by ${data.by}` : ""} at ${data.when} UTC. You get this as an admin or owner of the team.\n\nSee the key and its activity: ${base}/dashboard/${data.slug}/keys/${data.keyId}`,
  }),
  team_two_factor_required: (data, base) => ({
    subject: `The team ${data.team} now requires two-factor sign-in`,
    text: `An admin of the Keyport team "${data.team}" required two-factor sign-in at ${data.when} UTC, and your account does not have it on yet. Until you turn it on you see only the team's key list, and may report a key leaked; the keys you made keep working.\n\nTurn it on (it takes an authenticator app and a minute): ${base}/account\nThen open the team: ${base}/dashboard/${data.slug}`,
  }),
  key_requested: (data, base) => ({
    subject: `Production key requested in ${data.team}: ${data.label}`,
    text: `${data.by ?? "A developer"} asks for a production key "${data.label}" in the team "${data.team}". You get this as an admin or owner of the team.\n\nTheir reason, as they wrote it:\n${quoted(data.reason)}\n\nOpening this link only shows the request; approving or denying it takes a button and your fresh sign-in. It waits until ${data.decideBy} UTC, then expires.\n${requestLink(base, data)}\n\nNo admin ever sees the key's secret: it is made when the developer reveals it.`,
  }),
  key_request_decided: (data, base) => ({
    subject: `Your production key request was ${data.decision}: ${data.label}`,
    text: `${data.by ?? "An admin"} ${data.decision} your request for the production key "${data.label}" in the team "${data.team}".${
      data.comment ? `\n\nTheir comment:\n${quoted(data.comment)}` : ""
    }${
      data.decision === "approved"
        ? `\n\nReveal the key once, before ${data.revealBy} UTC (you will be asked to confirm it's you); its secret is made at that moment and shown only to you:\n${requestLink(base, data)}`
        : `\n\nSee the request: ${requestLink(base, data)}`
    }`,
  }),
  revoked_key_used: (data, base) => ({
    subject: `A revoked key is still being used: ${data.label}`,
    text: `The key ${keyName(data)} was revoked, but requests with it are still arriving (last at ${data.lastTriedAt} UTC${data.ip ? ` from ${displayIp(data.ip)}` : ""}). They are refused.\n\nSomething still holds this key: update it to the new key, or find out who does. ${base}/dashboard/keys/${data.keyId}`,
  }),
};

export function renderMail<K extends MailKind>(
  kind: K,
  data: MailData[K],
  base: string,
  link: string | null,
): RenderedMail {
  const rendered = (renderers[kind] as Renderers[K])(data, base, link);
  // An invitation may reach an address with no account: its footer says why it came instead.
  const footer = kind === "team_invitation" ? INVITATION_SIGNATURE : SIGNATURE;
  return { subject: rendered.subject, text: rendered.text + footer };
}
