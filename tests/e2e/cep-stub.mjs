// A stand-in for the public CEP service (ViaCEP's /ws/{cep}/json/ shape) on 127.0.0.1,
// so the end-to-end tests never leave the machine.
import { createServer } from 'node:http'

const ADDRESSES = {
  29050000: {
    cep: '29050-000',
    logradouro: 'Avenida Nossa Senhora dos Navegantes',
    bairro: 'Enseada do Suá',
    localidade: 'Vitória',
    uf: 'ES',
  },
  29900000: { cep: '29900-000', logradouro: '', bairro: '', localidade: 'Linhares', uf: 'ES' },
  '01310100': {
    cep: '01310-100',
    logradouro: 'Avenida Paulista',
    bairro: 'Bela Vista',
    localidade: 'São Paulo',
    uf: 'SP',
  },
}

const server = createServer((req, res) => {
  const match = req.url?.match(/^\/ws\/(\d{8})\/json\/?$/)
  if (!match) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request')
    return
  }
  const cep = match[1]
  if (cep === '11111111') return // never answers: the portal must time out
  if (cep === '22222222') {
    res.writeHead(500, { 'content-type': 'text/plain' }).end('erro')
    return
  }
  const body = ADDRESSES[cep] ?? { erro: 'true' }
  res
    .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(body))
})
server.listen(Number(process.env.PORT ?? 3101), '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
