import { existsSync } from 'node:fs'
import path from 'node:path'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify'
import cookie from '@fastify/cookie'
import helmet from '@fastify/helmet'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { createAuth, type Auth } from './auth/auth.ts'
import { registerAuthRoutes } from './auth/routes.ts'
import { createActorResolver, type ActorResolver } from './auth/session.ts'
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import { registerErrorHandler } from './errors.ts'
import { registerInputLimits, serverOptions } from './limits.ts'
import type { Mailer } from './mail/mailer.ts'
import { registerPolicy } from './policy.ts'
import type { Storage } from './storage/storage.ts'
import { MAX_UPLOAD_BYTES } from '#shared/arquivos.ts'
import '#shared/zod-locale.ts'
import { contaRoutes } from './features/conta/conta.routes.ts'
import { documentosRoutes } from './features/documentos/documentos.routes.ts'
import { servicosRoutes } from './features/servicos/servicos.routes.ts'
import { avisosRoutes } from './features/avisos/avisos.routes.ts'
import { clientesRoutes } from './features/clientes/clientes.routes.ts'
import { categoriasRoutes } from './features/cadastros/categorias.routes.ts'
import { statusRoutes } from './features/cadastros/status.routes.ts'
import { tiposServicosRoutes } from './features/cadastros/tipos-servicos.routes.ts'
import { tiposDocumentosRoutes } from './features/cadastros/tipos-documentos.routes.ts'
import { regrasDocumentosRoutes } from './features/cadastros/regras-documentos.routes.ts'
import { schedulesRoutes } from './features/cadastros/schedules.routes.ts'

export type AppDeps = {
  config: Config
  db: Db
  storage: Storage
  mailer: Mailer
  /** Secret that signs session cookies (generated once in DATA_DIR when not configured). */
  secret: string
  /** Folder of the built web app; served when it exists. */
  webDir?: string
  logger?: FastifyBaseLogger
  /** Told of every route as it is registered (the input sweep test reads them this way). */
  onRoute?: (route: RouteOptions) => void
}

/** What every route plugin reads through `app.ctx`. */
export type AppContext = AppDeps & { auth: Auth; tmpDir: string }

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
}

/** Builds the whole portal (API and, when built, the web app) without listening. */
export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    forceCloseConnections: true,
    bodyLimit: deps.config.limits.bodyLimitBytes,
    requestTimeout: deps.config.limits.requestTimeoutMs,
    keepAliveTimeout: deps.config.limits.keepAliveTimeoutMs,
    http: serverOptions(deps.config.limits),
    trustProxy: true,
  })
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  registerInputLimits(app, deps.config.limits)

  const auth = createAuth({
    db: deps.db,
    appUrl: deps.config.appUrl,
    secret: deps.secret,
    mailer: deps.mailer,
    rateLimit: deps.config.authRateLimit,
  })
  app.decorate('ctx', { ...deps, auth, tmpDir: path.join(deps.config.dataDir, 'tmp') })

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  })
  await app.register(cookie)
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } })
  const resolveActor = await createActorResolver(auth, deps.db)
  registerPolicy(app, resolveActor, deps.config.appUrl)

  app.get('/api/health', { config: { audience: 'public' } }, async () => ({ ok: true }))
  registerAuthRoutes(app, auth)

  // Feature routes: one plugin per feature (cadastros: one per catalogue).
  await app.register(contaRoutes)
  await app.register(documentosRoutes)
  await app.register(servicosRoutes)
  await app.register(avisosRoutes)
  await app.register(clientesRoutes)
  await app.register(categoriasRoutes)
  await app.register(statusRoutes)
  await app.register(tiposServicosRoutes)
  await app.register(tiposDocumentosRoutes)
  await app.register(regrasDocumentosRoutes)
  await app.register(schedulesRoutes)

  const hasWeb = Boolean(deps.webDir && existsSync(path.join(deps.webDir, 'index.html')))
  if (hasWeb) await registerWeb(app, deps.webDir!, resolveActor)
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api') &&
      !request.url.startsWith('/assets/')
    if (hasWeb && isPage) return reply.header('cache-control', 'no-cache').sendFile('app.html')
    return reply.status(404).send({ message: 'Rota não encontrada.' })
  })
  return app
}

/** Serves the built web app: the landing page at `/`; the not-found handler serves the app shell. */
async function registerWeb(app: FastifyInstance, webDir: string, resolveActor: ActorResolver) {
  await app.register(fastifyStatic, { root: webDir, index: false, wildcard: false })
  app.get('/', async (request, reply) => {
    // SPEC §2: a signed-in visitor who opens the landing page goes to /app.
    const actor = await resolveActor(request, reply).catch(() => null)
    if (actor) return reply.redirect('/app')
    return reply.header('cache-control', 'no-cache').sendFile('index.html')
  })
}
