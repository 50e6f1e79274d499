// Mail names an IPv4 client as IPv4: the dual-stack socket in server.mjs sees
// every IPv4 client as ::ffff:a.b.c.d, which is how it is stored (issue 35:
// the page said 127.0.0.1, the mail ::ffff:127.0.0.1).
import { describe, expect, it } from "vitest";
import { renderMail } from "@/lib/mail/templates";

describe("addresses in mail", () => {
  it("are written as a person reads them, and an IPv6 address stays as it is", () => {
    const changed = renderMail(
      "password_changed",
      { when: "2026-11-27 10:00", ip: "::ffff:198.51.100.7", browser: "Firefox 140 on Linux" },
      "https://keyport.example",
      null,
    );
    expect(changed.text).toContain("IP address: 198.51.100.7\n");
    expect(changed.text).not.toContain("::ffff:");
    const v6 = renderMail(
      "new_sign_in",
      { when: "2026-11-27 10:00", ip: "2001:db8::7", browser: null },
      "https://keyport.example",
      null,
    );
    expect(v6.text).toContain("IP address: 2001:db8::7");
  });
});
