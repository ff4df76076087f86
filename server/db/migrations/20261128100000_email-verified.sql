-- Password sign-ups verify their e-mail address before they reserve, file requests or chat
-- (decision 026). Everyone who has an account already keeps using the library as before: the
-- column existed (better-auth's) but nothing asked for it, so it is set for every account now.
-- New accounts start unverified and are marked by the mailed link, by a provider sign-in, or
-- by staff (`npm run user:create`).
UPDATE users SET email_verified = true WHERE NOT email_verified;
