// countedClient: the client an address counts as for every per-IP count.
import { describe, expect, it } from "vitest";
import { countedClient } from "@/lib/auth/client-ip";

describe("countedClient", () => {
  it.each([
    ["198.51.100.1", "198.51.100.1"],
    // How the dual-stack socket in server.mjs reports every IPv4 client, in any spelling.
    ["::ffff:198.51.100.1", "198.51.100.1"],
    ["::FFFF:198.51.100.2", "198.51.100.2"],
    ["0:0:0:0:0:ffff:c633:6402", "198.51.100.2"],
    // IPv6: the /64, however the address is written.
    ["2001:db8:1:2::5", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8::/64"],
    ["::1", "::/64"],
  ])("counts %s as %s", (ip, client) => expect(countedClient(ip)).toBe(client));

  it("keeps neighbouring IPv4 addresses and neighbouring /64s apart", () => {
    expect(countedClient("::ffff:127.0.0.1")).not.toBe(countedClient("::ffff:127.0.0.2"));
    expect(countedClient("2001:db8:1:2::1")).not.toBe(countedClient("2001:db8:1:3::1"));
  });

  it("counts anything that is not a strict address as itself", () => {
    for (const ip of ["unknown", "fe80::1%eth0", "::1.2.3.4", "127.1", ""]) expect(countedClient(ip)).toBe(ip);
  });
});
