"use client";

import { useRouter } from "next/navigation";
import { useRef } from "react";

/**
 * A list's filters as a GET form applied as soon as one changes: the form's
 * fields become the address's query (kept on reload, shareable), through
 * Next's router without a scroll. `read` says what each field puts in the
 * address: its value, null to leave it out (a default), or false to apply
 * nothing (a value that must not reach the address).
 */
export function useFilterForm(base: string, read: (name: string, value: string) => string | null | false) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  // Read the form after React has committed the change (a select's hidden input too).
  const apply = () =>
    requestAnimationFrame(() => {
      const form = formRef.current;
      if (!form) return;
      const params = new URLSearchParams();
      for (const [name, raw] of new FormData(form)) {
        const value = read(name, typeof raw === "string" ? raw.trim() : "");
        if (value === false) return;
        if (value !== null) params.set(name, value);
      }
      const query = params.toString();
      router.replace(query ? `${base}?${query}` : base, { scroll: false });
    });
  return { formRef, apply };
}
