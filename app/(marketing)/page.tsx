import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { publicRoutes } from "@/lib/public-api/routes";

export const metadata: Metadata = {
  title: { absolute: "Keyport: API keys and docs for the Keyport API" },
};

const features = [
  {
    title: "Keys you can trust",
    body: "Separate development and production keys, stored only as hashes. The full secret is shown once.",
  },
  {
    title: "Rotate in under a minute",
    body: "Rotate with a grace period, revoke at once, or press “this key leaked” and be done.",
  },
  {
    title: "Docs that match the API",
    body: `The docs, the route list and the gate that checks every request come from the same code: ${publicRoutes.length} public routes, one source of truth.`,
  },
];

export default function LandingPage() {
  return (
    <>
      <section className="max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">The developer portal for the Keyport API</h1>
        <p className="mt-4 text-lg text-zinc-700 dark:text-zinc-300">
          Get API keys for server-to-server calls, manage them from one dashboard, and read documentation that is never
          out of date.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link href="/sign-up" className={buttonClasses("primary")}>
            Sign up
          </Link>
          <Link href="/dashboard" className={buttonClasses("secondary")}>
            Open the dashboard
          </Link>
          <Link href="/docs" className={buttonClasses("secondary")}>
            Read the docs
          </Link>
        </div>
      </section>
      <section aria-labelledby="features" className="mt-16">
        <h2 id="features" className="sr-only">
          Features
        </h2>
        <ul className="grid gap-6 sm:grid-cols-3">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800">
              <h3 className="font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
