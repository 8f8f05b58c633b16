import type { ApiContext, ApiHandler } from '../http/api-handler.ts';
import type { Mailer } from '../mail/mailer.ts';
import { adminCreateUser, adminDeleteUser, adminGenerateLink, adminGetUser, adminListUsers, adminUpdateUser } from './admin-users.ts';
import type { AuthEndpoint, AuthEnvironment } from './auth-environment.ts';
import { AuthApiError, errorResponse, jsonResponse } from './auth-errors.ts';
import { type AuthApiOptions, authSettings } from './auth-settings.ts';
import { getCurrentUser, updateCurrentUser } from './current-user.ts';
import { recover, requestEmailOtp, resend } from './email-link-requests.ts';
import { authorize, callback } from './google-sign-in.ts';
import { logout } from './logout.ts';
import { RateLimiter } from './rate-limits.ts';
import { reauthenticate } from './reauthentication.ts';
import { signUp } from './signup.ts';
import { token } from './token.ts';
import { verifyEmailLink, verifyOtp } from './verify.ts';

/** GET /settings: which sign-in methods are on, as auth-js and the SPA read them. */
const publicSettings: AuthEndpoint = async (env) =>
  jsonResponse({
    external: {
      anonymous_users: false,
      email: true,
      phone: false,
      google: env.settings.google !== null,
      apple: false,
      azure: false,
      github: false,
      facebook: false,
    },
    disable_signup: false,
    mailer_autoconfirm: false,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  });

const health: AuthEndpoint = async () =>
  jsonResponse({ name: 'obyect-local-auth', version: 'local', description: 'The local stack\u2019s Supabase-compatible auth/v1 API' });

/** Access tokens are HS256: no public keys to publish, so auth-js's getClaims asks /user instead. */
const jwks: AuthEndpoint = async () => jsonResponse({ keys: [] });

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const ROUTES: Record<string, Partial<Record<Method, AuthEndpoint>>> = {
  '/signup': { POST: signUp },
  '/token': { POST: token },
  '/verify': { GET: verifyEmailLink, POST: verifyOtp },
  '/user': { GET: getCurrentUser, PUT: updateCurrentUser },
  '/reauthenticate': { GET: reauthenticate },
  '/logout': { POST: logout },
  '/recover': { POST: recover },
  '/otp': { POST: requestEmailOtp },
  '/resend': { POST: resend },
  '/authorize': { GET: authorize },
  '/callback': { GET: callback, POST: callback },
  '/settings': { GET: publicSettings },
  '/health': { GET: health },
  '/.well-known/jwks.json': { GET: jwks },
  '/admin/users': { GET: adminListUsers, POST: adminCreateUser },
  '/admin/users/:id': { GET: adminGetUser, PUT: adminUpdateUser, DELETE: adminDeleteUser },
  '/admin/generate_link': { POST: adminGenerateLink },
};

const routeOf = (path: string) => (/^\/admin\/users\/[^/]+$/.test(path) ? '/admin/users/:id' : path);

/**
 * The auth/v1 API of the local stack: the part of Supabase Auth that the SPA
 * uses through supabase-js, writing Supabase's auth schema as the database
 * owner. Emails go through the mailer (the local mailbox or SMTP).
 */
export function createAuthApi(ctx: ApiContext & { mailer: Mailer } & AuthApiOptions): ApiHandler {
  const settings = authSettings(ctx.config, ctx);
  const env: AuthEnvironment = {
    db: ctx.db,
    settings,
    mailer: ctx.mailer,
    limiter: new RateLimiter(settings.rateLimits, ctx.clock),
    fetch: ctx.fetch ?? globalThis.fetch,
  };
  return async (request) => {
    const path = new URL(request.url).pathname.replace(/^\/auth\/v1/, '').replace(/\/+$/, '') || '/';
    const route = ROUTES[routeOf(path)];
    if (!route) return errorResponse(new AuthApiError(404, 'not_found', `No auth endpoint at ${path}`));
    const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
    const endpoint = route[method];
    if (!endpoint) {
      const allowed = Object.keys(route).join(', ');
      return errorResponse(new AuthApiError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allowed}`, {}, { allow: allowed }));
    }
    try {
      return await endpoint(env, request);
    } catch (error) {
      if (error instanceof AuthApiError) return errorResponse(error, { oauth: path === '/token' });
      console.error(`auth: ${request.method} ${path} failed:`, error);
      return errorResponse(new AuthApiError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'));
    }
  };
}
