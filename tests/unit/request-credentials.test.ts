import { describe, expect, it } from "vitest";
import { carriesApiKey } from "@/lib/auth/api-key-headers";
import { generateApiKey } from "@/lib/keys/format";
import { clientIp, PEER_IP_HEADER } from "@/lib/auth/client-ip";

// Generated, never a key-shaped literal in the repo.
const KEY = generateApiKey("dev");

describe("carriesApiKey", () => {
  it.each([
    [{ authorization: `Basic ${btoa(`${KEY}:`)}` }],
    [{ authorization: `basic ${btoa(`user:${KEY}`)}` }],
    [{ authorization: `Token ${KEY}` }],
    [{ authorization: KEY }],
    [{ authorization: `Bearerx ${KEY}` }],
    [{ authorization: `Token ${encodeURIComponent(KEY).replace("_", "%5F")}` }],
    [{ "proxy-authorization": `Bearer ${KEY}` }],
    [{ "proxy-authorization": `Basic ${btoa(`${KEY}:`)}` }],
    // Readings a lenient decoder would give (found by attacking the wall).
    [{ authorization: `Basic ${btoa(`u:${KEY}`)}==` }],
    [{ authorization: `Basic ${btoa(`u:${KEY}`).slice(0, 8)} ${btoa(`u:${KEY}`).slice(8)}` }],
    [{ authorization: `Basic realm ${btoa(`u:${KEY}`)}` }],
    [{ authorization: `Token ${KEY.replace(/_/g, "%5F")} %` }],
    [{ "proxy-authorization": `Digest username=${KEY.replace(/_/g, "%5F")}, x=%` }],
    [{ authorization: `Token ${encodeURIComponent(encodeURIComponent(KEY.replace(/_/g, "%5F")))}` }],
    [{ authorization: `Basic ${btoa(KEY.replace(/_/g, "%5F"))}` }],
    [{ authorization: `Basic ${btoa(btoa(`${KEY}:`))}` }],
    [{ authorization: `Basic ${Buffer.from(`${KEY}:`, "utf16le").toString("base64")}` }],
    [{ authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64url")}` }],
    [{ x_api_key: KEY }],
    [{ "api-key": KEY }],
    [{ "x-api-key": "sk_dev_x" }],
    [{ "X-API-KEY": "" }],
    [{ authorization: "Bearer sk_prod_x" }],
    [{ authorization: "bearer anything" }],
    [{ authorization: "  BEARER token" }],
  ])("sees a key in %o", (headers) => expect(carriesApiKey(new Headers(headers))).toBe(true));

  it.each([
    [{}],
    [{ authorization: "Basic dXNlcjpwYXNz" }],
    [{ cookie: "keyport.session=abc" }],
    [{ authorization: "Bearerish" }],
  ])("sees none in %o", (headers) => expect(carriesApiKey(new Headers(headers))).toBe(false));
});

describe("clientIp", () => {
  const headers = (xff?: string) =>
    new Headers({ [PEER_IP_HEADER]: "10.0.0.2", ...(xff === undefined ? {} : { "x-forwarded-for": xff }) });

  it("uses the socket's peer and ignores X-Forwarded-For without TRUST_PROXY", () => {
    expect(clientIp(headers("203.0.113.9"), 0)).toBe("10.0.0.2");
  });

  it("takes the entry appended by our own proxy when one is trusted, so a forged left part is ignored", () => {
    expect(clientIp(headers("6.6.6.6, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientIp(headers("6.6.6.6, 203.0.113.9, 10.0.0.9"), 2)).toBe("203.0.113.9");
    expect(clientIp(headers("203.0.113.9"), 3)).toBe("203.0.113.9");
  });

  it("drops a port a proxy wrote after the address, and nothing else", () => {
    expect(clientIp(headers("6.6.6.6, 203.0.113.9:5678"), 1)).toBe("203.0.113.9");
    expect(clientIp(headers("[2001:db8::1]:443"), 1)).toBe("2001:db8::1");
    expect(clientIp(headers("[2001:db8::1]"), 1)).toBe("2001:db8::1");
    expect(clientIp(headers("2001:db8::1"), 1)).toBe("2001:db8::1");
    expect(clientIp(headers("203.0.113.9:port"), 1)).toBe("unknown");
    expect(clientIp(headers("<script>, 203.0.113.9"), 2)).toBe("unknown");
  });

  it("falls back to the peer when a trusted proxy sent no X-Forwarded-For", () => {
    expect(clientIp(headers(), 1)).toBe("10.0.0.2");
    expect(clientIp(new Headers(), 0)).toBe("unknown");
  });
});
