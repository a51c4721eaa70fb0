import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { buildDeps, type DepsOptions } from './build-deps.ts';
import type { AppEnv } from './context.ts';
import type { AppDeps } from './deps.ts';
import { ApiError } from './errors.ts';
import { authenticate } from './middleware/authenticate.ts';
import { compress } from './middleware/compress.ts';
import { noNul } from './middleware/no-nul.ts';
import { originCheck } from './middleware/origin-check.ts';
import { requestContext } from './middleware/request-context.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { createRouter } from './router.ts';
import { activityRoutes } from './routes/activity.ts';
import { alertNotificationRoutes } from './routes/alert-notifications.ts';
import { alertRuleRoutes } from './routes/alert-rules.ts';
import { alertRoutes } from './routes/alerts.ts';
import { assetBodyLimit, assetBodyPath, assetRoutes } from './routes/assets.ts';
import { authRoutes } from './routes/auth.ts';
import { connectorRoutes } from './routes/connector.ts';
import { dashboardQueryRoutes } from './routes/dashboard-query.ts';
import { dashboardRoutes } from './routes/dashboards.ts';
import { renderDocs } from './routes/docs.ts';
import { eventRoutes } from './routes/events.ts';
import { findingRoutes } from './routes/findings.ts';
import { firewallCatalogRoutes } from './routes/firewall-catalog.ts';
import { firewallRoutes } from './routes/firewalls.ts';
import { ingestRoutes } from './routes/ingest.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { meRoutes } from './routes/me.ts';
import { memberRoutes } from './routes/members.ts';
import { devDemoRoutes, devRoutes, healthRoutes } from './routes/meta.ts';
import { overviewRoutes } from './routes/overview.ts';
import { savedSearchRoutes } from './routes/saved-searches.ts';
import { sourceRoutes } from './routes/sources.ts';
import { spaceRoutes } from './routes/spaces.ts';
import { subscriptionRoutes } from './routes/subscription.ts';
import { importBodyLimit, vulnImportPath, vulnRefRoutes } from './routes/vuln-refs.ts';
import { wafRoutes } from './routes/waf.ts';
import { skipCaptcha } from './services/accounts/captcha.ts';
import { errorLogFields } from './services/shared/error-log.ts';

export type CreateAppOptions = DepsOptions & {
  /** The dependencies built already (createApi shares them with the job runner); the other options are then unused. */
  deps?: AppDeps;
};

/** Builds the API: every route under /api, one error shape, the OpenAPI document and its reference page. */
export function createApp(options: CreateAppOptions) {
  const deps: AppDeps = options.deps ?? buildDeps(options);
  const { config, log } = deps;
  if (deps.captcha === skipCaptcha) {
    log({ level: 'warn', msg: 'CAPTCHA_SECRET is not set: captcha tokens are not verified' });
  }

  const app = createRouter().basePath('/api');
  app.use('*', requestContext(deps));
  app.use('*', securityHeaders);
  // Inside the two above (they add headers to what it answers), outside everything else, so errors are compressed too.
  app.use('*', compress);
  // CDN deployment: the site on another origin calls the API with credentials.
  app.use(
    '*',
    cors({
      origin: (origin) => (config.allowedOrigins.includes(origin) ? origin : null),
      credentials: true,
      allowHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key'],
      allowMethods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
      exposeHeaders: ['Retry-After', 'X-Request-Id', 'Content-Disposition', 'X-Total-Count', 'ETag'],
      maxAge: 600,
    }),
  );
  const globalBodyLimit = bodyLimit({
    maxSize: config.bodyLimitBytes,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', `Request bodies are limited to ${config.bodyLimitBytes} bytes.`);
    },
  });
  // Ingest and the connector's events have their own, larger limit (10 MB), applied by their routers. Asset bodies
  // carry an SBOM (32 MB): their limit is applied here, before noNul reads the body.
  const ownLimit = (path: string) => path.startsWith('/api/ingest/') || path === '/api/connector/events';
  // Asset bodies (SBOMs) and OSV imports have their own limits, applied here: before anything reads the body.
  app.use('*', (c, next) =>
    ownLimit(c.req.path)
      ? next()
      : assetBodyPath.test(c.req.path)
        ? assetBodyLimit(c, next)
        : vulnImportPath.test(c.req.path)
          ? importBodyLimit(c, next)
          : globalBodyLimit(c, next),
  );
  app.use('*', originCheck);
  app.use('*', noNul);
  app.use('*', authenticate);

  const api = app
    .route('/', healthRoutes)
    .route('/auth', authRoutes)
    .route('/me', meRoutes)
    .route('/spaces', spaceRoutes)
    .route('/spaces', memberRoutes)
    .route('/spaces', activityRoutes)
    .route('/spaces', sourceRoutes)
    .route('/spaces', eventRoutes)
    .route('/spaces', dashboardQueryRoutes)
    .route('/spaces', overviewRoutes)
    .route('/spaces', savedSearchRoutes)
    .route('/spaces', dashboardRoutes)
    .route('/spaces', firewallRoutes)
    .route('/spaces', firewallCatalogRoutes)
    .route('/spaces', alertRuleRoutes)
    .route('/spaces', alertRoutes)
    .route('/spaces', alertNotificationRoutes)
    .route('/spaces', wafRoutes)
    .route('/spaces', vulnRefRoutes)
    .route('/spaces', assetRoutes)
    .route('/spaces', findingRoutes)
    .route('/spaces', subscriptionRoutes)
    .route('/ingest', ingestRoutes)
    .route('/connector', connectorRoutes)
    .route('/invitations', invitationRoutes);
  if (!config.production) {
    app.route('/dev', devRoutes);
    app.route(
      '/dev',
      devDemoRoutes((path, init) => app.request(path, init)),
    );
  }

  const docConfig = {
    openapi: '3.1.0',
    info: {
      title: 'Spaceguard API',
      version: '0.1.0',
      description:
        'JSON over HTTPS. Browsers use the session cookie (state-changing calls need an allowed Origin); scripts use `Authorization: Bearer <personal API token>`. `x-min-role` on each operation names the least access it needs.',
    },
  };
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'sg_session',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.doc31('/openapi.json', docConfig);
  app.get('/docs', (c) => c.html(renderDocs(app.getOpenAPI31Document(docConfig))));

  app.notFound((c) => c.json({ error: { code: 'not_found', message: 'No such API path.' } }, 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.retryAfter !== undefined) c.header('Retry-After', String(error.retryAfter));
      // A body limit answers before the body is read, and the server then drops the connection: say so.
      if (error.status === 413) c.header('Connection', 'close');
      return c.json(error.body(), error.status);
    }
    if (error instanceof HTTPException) {
      const status = error.status as ContentfulStatusCode;
      const code = status === 400 ? 'bad_request' : status === 415 ? 'unsupported_media_type' : 'http_error';
      return c.json({ error: { code, message: error.message || 'Bad request.' } }, status);
    }
    log({
      level: 'error',
      msg: 'unhandled error',
      requestId: c.var.requestId,
      ...errorLogFields(error),
    });
    return c.json({ error: { code: 'internal', message: 'Something went wrong on our side; try again.' } }, 500);
  });
  return api;
}

/** The typed API, for `hc<AppType>()` in the islands. */
export type AppType = ReturnType<typeof createApp>;
export type { AppEnv };
