import type { Server } from 'node:http';
import Provider from 'oidc-provider';

/**
 * The display name the provider reports for a login: the login is an e-mail, and its local part,
 * split at dots, is the name ('nova.quinn.smith@uni.example' is 'Nova Quinn Smith').
 */
export function nameOfLogin(login: string): string {
  return (login.split('@')[0] ?? login)
    .split('.')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback for tests: one confidential
 * client, PKCE, and its development login page, where any login and password sign in and the
 * login becomes the account's e-mail.
 */
export async function startTestOidcProvider(options: {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<{ issuer: string; close(): Promise<void> }> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-only-cookie-key-0123456789'] },
    async findAccount(_context, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: sub.toLowerCase(), email_verified: true, name: nameOfLogin(sub) };
        },
      };
    },
  });
  // The provider runs over plain HTTP on loopback, which it allows outside production.
  provider.proxy = false;
  const server: Server = provider.listen(options.port);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
