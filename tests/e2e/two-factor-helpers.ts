import { expect, type Page } from "@playwright/test";
import jsQR from "jsqr";
import { Secret, TOTP } from "otpauth";
import { PNG } from "pngjs";

/** Reads the enrolment QR code off the page, as a phone would: the otpauth:// URI. */
export async function scanQrCode(page: Page): Promise<string> {
  const image = PNG.sync.read(await page.getByTestId("totp-qr").screenshot());
  const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  expect(decoded, "the QR code decodes").not.toBeNull();
  return decoded!.data;
}

/** The code an authenticator app shows `stepsAhead` steps from now (the server accepts one step of drift). */
export function codeFrom(uri: string, stepsAhead = 0): string {
  const secret = new URL(uri).searchParams.get("secret")!;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Turns two-factor on from the account page by scanning the QR code; returns the URI and the recovery codes shown. */
export async function enrolTwoFactor(page: Page): Promise<{ uri: string; codes: string[] }> {
  await page.goto("/account/two-factor");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const uri = await scanQrCode(page);
  await page.getByLabel("Code from the app").fill(codeFrom(uri));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const items = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(items).toHaveCount(10);
  return { uri, codes: await items.allTextContents() };
}
