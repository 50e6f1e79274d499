import { Input } from "@/components/ui/input";

/** The email and password fields of sign-in and sign-up; the email comes back after a refusal, the password never does. */
export function CredentialFields({
  email,
  errors,
  newPassword = false,
}: {
  email: string | undefined;
  errors: { email?: string | undefined; password?: string | undefined };
  newPassword?: boolean;
}) {
  return (
    <>
      <Input
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={email}
        error={errors.email}
      />
      <Input
        label="Password"
        name="password"
        type="password"
        autoComplete={newPassword ? "new-password" : "current-password"}
        required
        {...(newPassword ? { hint: "At least 10 characters." } : {})}
        error={errors.password}
      />
    </>
  );
}
