import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '#contract/http/errors.ts';
import type { Role } from '#contract/http/users.ts';
import { requireVerifiedEmail } from '#server/auth/email-verification.ts';
import type { UserRow } from '#server/users/store.ts';

/**
 * Who may call an operation: anyone; anyone signed in, whether or not their profile is complete
 * (`identity`: a provider sign-in finishing sign-up); anyone signed in with a complete profile;
 * or these roles.
 */
export type Access = 'guest' | 'identity' | 'signed-in' | readonly Role[];

/** What one operation takes and answers, as its OpenAPI operation shows it. */
export interface OperationShape {
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodType;
  headers?: z.ZodObject;
  /** The JSON body, for calls that read one. */
  body?: z.ZodType;
  /** The 200 answer's body; the route's handler must return it (the compiler checks). */
  response?: z.ZodType;
  /** Answers 201 Created with `response` instead of 200 (a new resource; the handler sets it). */
  created?: true;
  /**
   * The 200 is a file, not JSON (an export): its media type, as the document shows it. The
   * handler sends it (a stream) and declares no `response`.
   */
  download?: { contentType: string; description: string };
  /**
   * The body is a file sent as it is, not JSON (an import): its media type, which the CSRF guard
   * lets through for this route alone (like JSON, a page of another site cannot send it without
   * asking first), and what it holds. The route parses it itself.
   */
  upload?: { contentType: string; description: string };
  /**
   * Form media types taken beside JSON, for a call a mail program makes rather than our pages:
   * RFC 8058's one-click unsubscribe POSTs `List-Unsubscribe=One-Click` as a form. Only for a
   * route whose authority is a signed token in the call, never a session cookie, so a form on
   * another site can do nothing with it that the token's holder could not.
   */
  formBody?: readonly string[];
  /** Answers 302 (a browser navigation) when this says so, instead of or beside the 200. */
  redirect?: string;
  /** Counted against a rate limit: 429 with Retry-After beyond it. */
  rateLimited?: true;
  /**
   * Refused (403, code `EMAIL_NOT_VERIFIED`) to an account whose e-mail address is not verified
   * yet: reserving, filing a request (decision 026). Checked after the access guard.
   */
  verifiedEmail?: true;
  /** Error statuses the route answers beyond those every call of its kind may get. */
  errors?: Record<number, string>;
}

/** One of better-auth's endpoints that a wildcard route hands on, as the document describes it. */
export interface BetterAuthEndpoint extends OperationShape {
  method: 'GET' | 'POST';
  /** Its path, with `:name` parameters: `/api/auth/callback/:provider`. */
  path: string;
}

/** Everything a route says about itself: the document, the role matrix and its answers read it. */
export interface RouteDeclaration extends OperationShape {
  /** Groups the operations in the document (one per resource). */
  tag: string;
  access: Access;
  /**
   * Served by better-auth, whose answers and errors are its own shape: the route is a wildcard,
   * documented as these of its endpoints instead of as itself.
   */
  betterAuth?: readonly BetterAuthEndpoint[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route declares about itself (`declareRoute`). */
    declaration?: RouteDeclaration;
  }
  interface FastifyInstance {
    /** Every route with a declaration, in registration order (HEAD routes aside). */
    declaredRoutes: readonly DeclaredRoute[];
  }
  interface FastifyRequest {
    /** Who is calling a route whose declaration lets only the signed-in in (`signedInCaller`). */
    caller?: UserRow;
  }
}

/** A registered route and its declaration. */
export interface DeclaredRoute {
  /** `METHOD /api/path`, as `app.apiRoutes` and docs/role-matrix.md spell it. */
  route: string;
  /** `GET`; a route serving several methods is listed once for each. */
  method: string;
  /** `/api/items/:id`. */
  url: string;
  declaration: RouteDeclaration;
}

/**
 * fastify-type-provider-zod's typing of answers (a handler returns its route's declared 200 body,
 * checked by the compiler), with the input left as it arrives: handlers parse bodies, queries and
 * headers with `parseInput` after their guards, so those stay `unknown`, and a path parameter is
 * the string the router matched.
 */
export interface ContractTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodObject<infer Shape>
    ? { [Name in keyof Shape]: string }
    : unknown;
  serializer: ZodAnswer<this['schema']>;
}

/** fastify-type-provider-zod's type of what a route with this response schema answers. */
type ZodAnswer<Schema> = (ZodTypeProvider & { schema: Schema })['serializer'];

/** The app as a route plugin sees it: routes declared with `declareRoute` are typed by it. */
export type DeclaringInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ContractTypeProvider
>;

/** The `:id` of a catalogue item or a resource request, as the document describes it. */
export const uuidParams = (what: string) =>
  z.object({ id: z.uuid().describe(`The ${what}'s id (a UUID); any other text is a 404.`) });

/** A declared route's schema as the compiler sees it; the runtime object leaves out what is absent. */
interface DeclaredSchema<Response, Params, Created> {
  tags: string[];
  summary: string;
  description?: string;
  params: Params;
  // Documented, not parsed before the handler: the handler sees what arrived.
  querystring?: unknown;
  headers?: unknown;
  body?: unknown;
  response: Response extends z.ZodType
    ? Created extends true
      ? { 201: Response }
      : { 200: Response }
    : undefined;
}

/**
 * A route's options from its declaration: the contract's schemas as the route's schema (the
 * answer's for serialisation and the compiler, the input's for the document) and the declaration
 * itself in the route's config, where the document and the tests read who may call it.
 */
export function declareRoute<
  Response extends z.ZodType | undefined = undefined,
  Params extends z.ZodObject | undefined = undefined,
  Created extends true | undefined = undefined,
>(
  declaration: RouteDeclaration & { response?: Response; params?: Params; created?: Created },
): {
  schema: DeclaredSchema<Response, Params, Created>;
  config: { declaration: RouteDeclaration };
} {
  const { tag, summary, description, params, query, headers, body, response, created } =
    declaration;
  const schema = {
    tags: [tag],
    summary,
    ...(description ? { description } : {}),
    ...(params ? { params } : {}),
    ...(query ? { querystring: query } : {}),
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    ...(response ? { response: { [created ? 201 : 200]: response } } : {}),
  };
  return { schema: schema as DeclaredSchema<Response, Params, Created>, config: { declaration } };
}

/** The error statuses an operation may answer, each with what it means. */
export function errorStatuses(
  operation: OperationShape,
  access: Access,
  method: string,
): Record<number, string[]> {
  const statuses: Record<number, string[]> = {};
  const add = (status: number, text: string) => (statuses[status] ??= []).push(text);
  const reads = operation.params ?? operation.query ?? operation.headers ?? operation.body;
  const changes = method.toUpperCase() !== 'GET';
  if (reads) add(400, 'Some fields are missing or invalid: `errors` names each one.');
  if (operation.body) add(400, 'The body is not JSON.');
  const media = operation.upload ? `\`${operation.upload.contentType}\`` : '`application/json`';
  if (access !== 'guest') add(401, 'Not signed in.');
  if (access !== 'guest' && access !== 'identity') add(403, 'The profile is not complete yet.');
  if (Array.isArray(access)) add(403, `Only for ${access.join(' and ')}.`);
  if (changes) add(403, 'Sent from another site (a foreign `Origin`).');
  if (operation.params) add(404, 'Nothing has that id.');
  if (changes) {
    add(413, 'The body is larger than the server reads.');
    add(415, `The body is not ${media}.`);
  }
  if (operation.verifiedEmail)
    add(403, 'The e-mail address is not verified yet (`code`: `EMAIL_NOT_VERIFIED`).');
  if (operation.rateLimited) add(429, 'Too many attempts: see `Retry-After`.');
  for (const [status, text] of Object.entries(operation.errors ?? {})) add(Number(status), text);
  add(500, 'Something went wrong on the server (logged there; no details are sent).');
  return statuses;
}

/**
 * The error shape, named once: the document refers to it as a component, and every declared
 * error answer is serialised by it.
 */
const errorResponseComponent = errorResponseSchema.meta({ id: 'ErrorResponse' });

/**
 * Prepares the app for declared routes; call it before any route is registered.
 * - Answers are serialised by their declared schema (fastify-type-provider-zod's serializer): a
 *   body that breaks the contract is a logged 500, and a field the contract does not name is
 *   dropped. Each declared route also gets the error answers of its kind, in the error shape.
 * - Input schemas document only. Handlers parse input with `parseInput` where they choose (after
 *   the session and role guards, a rate limit, a size check), so a refusal and its body stay what
 *   they are; Fastify's own validation and its error format never run.
 * - `app.declaredRoutes` lists the declared routes, for the document and the drift tests.
 * Every response schema in the app is therefore a zod schema.
 */
export function installRouteDeclarations(app: FastifyInstance): void {
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(serializerCompiler);
  const declared: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);
  app.addHook('onRoute', (route) => {
    const declaration = route.config?.declaration;
    if (!declaration) return;
    const method = [route.method].flat()[0]!;
    if (method === 'HEAD') return;
    for (const each of [route.method].flat())
      declared.push({ route: `${each} ${route.url}`, method: each, url: route.url, declaration });
    // better-auth answers in its own shape, passed through as it comes.
    if (declaration.betterAuth) return;
    const errors = Object.entries(errorStatuses(declaration, declaration.access, method)).map(
      ([status, texts]) => [
        status,
        {
          description: texts.join(' '),
          content: { 'application/json': { schema: errorResponseComponent } },
        },
      ],
    );
    route.schema = {
      ...route.schema,
      response: { ...(route.schema?.response as object), ...Object.fromEntries(errors) },
    };
  });
}

/** Checks who may call a route declared with `access`: the signed-in user, or a refusal. */
export type AccessGuard = (
  request: FastifyRequest,
  reply: FastifyReply,
  access: Exclude<Access, 'guest'>,
) => Promise<UserRow>;

/**
 * Makes each declaration's `access` the route's guard: a route for the signed-in (or for some
 * roles) runs `guard` before its handler, and then, when it says `verifiedEmail`, refuses an
 * unverified address, so access is written once, where the document and the role matrix read it.
 * The guard runs before the handler parses anything, so a guest still gets 401 before a 400
 * about the body, as every route answered when each handler called it first.
 */
export function guardDeclaredRoutes(app: FastifyInstance, guard: AccessGuard): void {
  app.addHook('onRoute', (route) => {
    const declaration = route.config?.declaration;
    if (!declaration || declaration.betterAuth || declaration.access === 'guest') return;
    const { access } = declaration;
    const check = async (request: FastifyRequest, reply: FastifyReply) => {
      request.caller = await guard(request, reply, access);
      if (declaration.verifiedEmail) requireVerifiedEmail(request.caller);
    };
    route.preHandler = [check, ...[route.preHandler ?? []].flat()];
  });
}

/** The caller of a route declared for the signed-in, as its guard found them. */
export function signedInCaller(request: FastifyRequest): UserRow {
  if (!request.caller) {
    throw new Error(`${request.routeOptions.url} reads its caller but is declared for guests`);
  }
  return request.caller;
}
