import { existsSync } from 'node:fs'
import path from 'node:path'
import { constants as zlib } from 'node:zlib'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify'
import compress from '@fastify/compress'
import cookie from '@fastify/cookie'
import helmet from 'helmet'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { createAuth, type Auth } from './auth/auth.ts'
import { registerAuthRoutes } from './auth/routes.ts'
import { createActorResolver, type ActorResolver } from './auth/session.ts'
import type { Config } from './config.ts'
import type { Db, Tx } from './db/client.ts'
import { registerErrorHandler } from './errors.ts'
import { registerHealthRoutes } from './health.ts'
import { redactingLogger } from './log.ts'
import { registerInputLimits, serverOptions } from './limits.ts'
import type { Mailer } from './mail/mailer.ts'
import { registerPolicy } from './policy.ts'
import type { Storage } from './storage/storage.ts'
import { MAX_UPLOAD_BYTES } from '#shared/arquivos.ts'
import '#shared/zod-locale.ts'
import { contaRoutes } from './features/conta/conta.routes.ts'
import { documentosRoutes } from './features/documentos/documentos.routes.ts'
import { dossieRoutes } from './features/documentos/dossie.routes.ts'
import { servicosRoutes } from './features/servicos/servicos.routes.ts'
import { avisosRoutes } from './features/avisos/avisos.routes.ts'
import { notificacoesRoutes } from './features/notificacoes/notificacoes.routes.ts'
import { clientesRoutes } from './features/clientes/clientes.routes.ts'
import { cadastrosRoutes } from './features/cadastros/cadastros.routes.ts'
import { privacidadeRoutes } from './features/privacidade/privacidade.routes.ts'
import { auditoriaRoutes } from './features/auditoria/auditoria.routes.ts'
import { listHistoricoCompleto } from './features/auditoria/auditoria.queries.ts'
import { renovacoesRoutes } from './features/renovacoes/renovacoes.routes.ts'
import { condicionantesRoutes } from './features/condicionantes/condicionantes.routes.ts'
import { regerarEntregasDoServico } from './features/condicionantes/condicionantes.queries.ts'
import { mensagensRoutes } from './features/mensagens/mensagens.routes.ts'
import { processosRoutes } from './features/processos/processos.routes.ts'
import { calendarioRoutes } from './features/calendario/calendario.routes.ts'
import { contarPedidosEmCurso } from './exportar/pedidos-em-curso.ts'

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
  /** Readiness' write probe of the database (`Database.probe`); by default `probeDatabase(db)`. */
  probeDatabase?: () => Promise<void>
  /** Told of every route as it is registered (the input sweep test reads them this way). */
  onRoute?: (route: RouteOptions) => void
}

/** What every route plugin reads through `app.ctx`. */
export type AppContext = AppDeps & {
  auth: Auth
  tmpDir: string
  /**
   * What follows a licence's new end date, in the transaction that changes it (composed here:
   * the condicionantes' entregas follow it, `regerarEntregasDoServico`).
   */
  aoMudarVigencia: (tx: Tx, servicoId: string) => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
}

/** Builds the whole portal (API and, when built, the web app) without listening. */
export async function buildApp(deps: AppDeps) {
  const { trustProxy } = deps.config
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: redactingLogger(deps.logger) } : { logger: false }),
    forceCloseConnections: true,
    bodyLimit: deps.config.limits.bodyLimitBytes,
    requestTimeout: deps.config.limits.requestTimeoutMs,
    keepAliveTimeout: deps.config.limits.keepAliveTimeoutMs,
    http: serverOptions(deps.config.limits),
    // TRUST_PROXY: a hop count trusts that many proxies nearest to the server.
    trustProxy:
      typeof trustProxy === 'number' ? (_: string, hop: number) => hop < trustProxy : trustProxy,
  })
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  registerInputLimits(app, deps.config.limits)
  contarPedidosEmCurso(app)

  const auth = createAuth({
    db: deps.db,
    appUrl: deps.config.appUrl,
    secret: deps.secret,
    mailer: deps.mailer,
  })
  app.decorate('ctx', {
    ...deps,
    auth,
    tmpDir: path.join(deps.config.dataDir, 'tmp'),
    aoMudarVigencia: regerarEntregasDoServico,
  })

  // The security headers (helmet's), its middleware built once: @fastify/helmet built it again
  // for every request (CSP directives parsed each time: 4 % of the server's CPU on the first page).
  const cabecalhos = helmet({
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
  app.addHook('onRequest', (request, reply, done) =>
    cabecalhos(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined)),
  )
  // API answers above 1 KB are compressed (static files come pre-compressed from the build).
  // Brotli at quality 4: most of its gain for a fraction of the CPU of its default 11.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  })
  await app.register(cookie)
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } })
  const resolveActor = await createActorResolver(auth, deps.db)
  registerPolicy(app, resolveActor, deps.config.appUrl)

  registerHealthRoutes(app)
  registerAuthRoutes(app, auth, resolveActor)

  // Feature routes: one plugin per feature (cadastros: one per catalogue).
  await app.register(contaRoutes)
  await app.register(documentosRoutes)
  // The dossier's index holds the service's Histórico, which the auditoria feature reads.
  await app.register(dossieRoutes, { historico: listHistoricoCompleto })
  await app.register(servicosRoutes)
  await app.register(avisosRoutes)
  await app.register(notificacoesRoutes)
  await app.register(clientesRoutes)
  await app.register(cadastrosRoutes)
  await app.register(privacidadeRoutes)
  await app.register(auditoriaRoutes)
  await app.register(renovacoesRoutes)
  await app.register(condicionantesRoutes)
  await app.register(mensagensRoutes)
  await app.register(processosRoutes)
  await app.register(calendarioRoutes)

  const hasWeb = Boolean(deps.webDir && existsSync(path.join(deps.webDir, 'index.html')))
  if (hasWeb) await registerWeb(app, deps.webDir!, resolveActor)
  // The signed-in screens' shell asks at once for what they all need (the build writes it).
  const areaShell =
    hasWeb && existsSync(path.join(deps.webDir!, 'app-area.html')) ? 'app-area.html' : 'app.html'
  app.setNotFoundHandler((request, reply) => {
    // A path naming a file (`/assets/old-1a2b.js` after a deploy, `/favicon.png`) that does not
    // exist is a 404, never the app's HTML; every other unknown path is a screen of the app.
    const pathname = request.url.split('?')[0]
    const isPage =
      request.method === 'GET' &&
      !pathname.startsWith('/api') &&
      !pathname.startsWith('/assets/') &&
      !/\.[a-z0-9]+$/i.test(pathname)
    if (hasWeb && isPage) return reply.sendFile(isAreaPage(pathname) ? areaShell : 'app.html')
    return reply.status(404).send({ message: 'Rota não encontrada.' })
  })
  return app
}

/** A signed-in screen: `/app` and below. */
const isAreaPage = (pathname: string) => pathname === '/app' || pathname.startsWith('/app/')

/** Helmet's headers that apply to documents only (kept: nosniff, CORP and the referrer policy, which scripts obey). */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]

/**
 * Serves the built web app: the landing page at `/`; the not-found handler serves the app shell.
 * Files come pre-compressed (brotli, gzip: made by the build); hashed assets are immutable and
 * HTML is revalidated on every load, so a deploy shows at once.
 */
async function registerWeb(app: FastifyInstance, webDir: string, resolveActor: ActorResolver) {
  await app.register(fastifyStatic, {
    root: webDir,
    index: false,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    // Hashed files never change: no Last-Modified or ranges beside their ETag.
    lastModified: false,
    acceptRanges: false,
    setHeaders: (reply, filePath) => {
      const hashed = filePath.startsWith(path.join(webDir, 'assets') + path.sep)
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      // A script or style sheet is not a document: the headers that only a page obeys (its
      // CSP, framing, opener, HSTS: the page's own response carries them) would only add
      // ~650 bytes to each of the app's script requests (/auth's JS ≤ 120 KB).
      if (hashed && /\.(js|css)(\.br|\.gz)?$/.test(filePath))
        for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name)
    },
  })
  const { appUrl } = app.ctx.config
  // The public pages for search engines (the landing page and the sign-in page); the app behind
  // /app, the reset links under /auth/ and the API are not for them.
  app.get('/robots.txt', async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send(
        `User-agent: *\nAllow: /$\nAllow: /auth$\nAllow: /privacidade$\nAllow: /termos$\nDisallow: /app\nDisallow: /auth/\nDisallow: /api/\nSitemap: ${appUrl}/sitemap.xml\n`,
      ),
  )
  app.get('/sitemap.xml', async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>${appUrl}/</loc></url>\n  <url><loc>${appUrl}/auth</loc></url>\n  <url><loc>${appUrl}/privacidade</loc></url>\n  <url><loc>${appUrl}/termos</loc></url>\n</urlset>\n`,
      ),
  )
  app.get('/', async (request, reply) => {
    // SPEC §2: a signed-in visitor who opens the landing page goes to /app.
    const actor = await resolveActor(request, reply).catch(() => null)
    if (actor) return reply.redirect('/app')
    return reply.sendFile('index.html')
  })
  // The sign-in page likewise: decided here, so the page itself never asks `/api/me` (an
  // anonymous 401 there is a console error on every visit).
  app.get('/auth', async (request, reply) => {
    const actor = await resolveActor(request, reply).catch(() => null)
    if (actor) return reply.redirect('/app')
    return reply.sendFile('app.html')
  })
}
