// What the sign-up confirmation page says, shared with its client form (no server-only here).

export const SIGN_UP_LINK_INVALID_MESSAGE =
  "This link is not valid. Check that you copied all of it, or start again from the sign-up page.";
export const SIGN_UP_LINK_EXPIRED_MESSAGE =
  "This link has expired: links work for 24 hours. Start again from the sign-up page.";
export const SIGN_UP_ALREADY_DONE_MESSAGE = "This address already has an account. Sign in instead.";
export const SIGN_UP_WRONG_PASSWORD_MESSAGE =
  "That is not the password you chose when you signed up. Type it again, or start again from the sign-up page.";
