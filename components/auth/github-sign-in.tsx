"use client";

import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";

export function GitHubSignIn() {
  return (
    <Button
      variant="secondary"
      className="mt-4 w-full"
      onClick={() => void signIn("github", { callbackUrl: "/dashboard" })}
    >
      Sign in with GitHub
    </Button>
  );
}
