/**
 * The institution's OpenID Connect provider for the end-to-end run: Playwright starts it beside
 * the app (OIDC_ISSUER points here). Any login signs in; the login is the identity's e-mail.
 */
import { startTestOidcProvider } from '#server/test/oidc.ts';

const port = Number(process.env.PORT);
const redirectUri = process.env.REDIRECT_URI;
if (!port || !redirectUri) throw new Error('PORT and REDIRECT_URI are required');
const provider = await startTestOidcProvider({
  port,
  clientId: 'digi-library',
  clientSecret: 'e2e-oidc-client-secret',
  redirectUri,
});
process.on('SIGTERM', () => void provider.close().then(() => process.exit(0)));
