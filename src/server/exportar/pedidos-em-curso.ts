import type { FastifyInstance } from 'fastify'

// How many requests this process is answering now (every app built in it: they share its one
// thread). A long export reads at full speed while it is alone and leaves the thread to the
// others while there are any (`emLotes`).

let emCurso = 0

/** The requests this process has begun and not yet finished answering (or seen go away). */
export const pedidosEmCurso = () => emCurso

/** Counts each request of `app` from its arrival until its answer ends or its client leaves. */
export function contarPedidosEmCurso(app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    emCurso++
    reply.raw.once('close', () => emCurso--)
    done()
  })
}
