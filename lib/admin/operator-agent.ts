/** The user agent the operator CLI records with each change it makes; the activity log names the operator by it. */
export const OPERATOR_USER_AGENT = "keyport-admin-cli";
