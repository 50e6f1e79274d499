// Site-wide navigation as data: the header and footer render these lists.
export const siteConfig = {
  name: "Keyport",
  description: "API keys for the server-to-server API, and docs that are never wrong.",
  mainNav: [
    { title: "Docs", href: "/docs" },
    { title: "Dashboard", href: "/dashboard" },
  ],
} as const;
