"use client";

import Link from "next/link";
import { useEffect, useState } from "react";

/**
 * "Sign in" (a list item) in the public pages' header (docs, landing), for someone not
 * signed in; gone once the browser's session is known to be live (the
 * header's Dashboard link is theirs then). The pages are prerendered, the same
 * for everyone, so the session is asked for in the browser; until it answers,
 * or without JavaScript, the link shows, and signing in from it lands on the
 * dashboard of someone already signed in.
 */
export function SessionLink() {
  const [signedIn, setSignedIn] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/auth/session", { signal: controller.signal, credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((session: { user?: unknown } | null) => setSignedIn(Boolean(session?.user)))
      .catch(() => {});
    return () => controller.abort();
  }, []);
  if (signedIn) return null;
  return (
    <li>
      <Link href="/sign-in">Sign in</Link>
    </li>
  );
}
