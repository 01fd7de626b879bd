import type { Empresa } from '#shared/schemas/empresa.ts'
import { VERSAO_AVISO } from '#shared/aviso-privacidade.ts'

/**
 * The public pages /privacidade and /termos, rendered by the server from "Dados da
 * empresa" (the controller and the encarregado): plain HTML and a few lines of CSS, no script,
 * nothing of the app's bundle.
 */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const versaoBr = VERSAO_AVISO.split('-').reverse().join('/')

const CSS = `*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1917;background:#f8faf9;line-height:1.6}
header{background:#064e3b;color:#fff}header div,main,footer div{max-width:48rem;margin:0 auto;padding:1rem 1.25rem}
header a{color:#fff;text-decoration:none;font-weight:600}main{background:#fff;padding:2rem 1.25rem 3rem}
h1{font-size:1.75rem;line-height:1.25;margin:.5rem 0 .25rem}h2{font-size:1.15rem;margin:2rem 0 .5rem;color:#065f46}
p,li{overflow-wrap:anywhere}a{color:#047857}.meta{color:#57534e;font-size:.9rem}
footer{color:#57534e;font-size:.875rem}footer a{margin-right:1rem}`

function layout(title: string, body: string, appUrl: string) {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Portal do Cliente</title><link rel="canonical" href="${esc(appUrl)}${title === 'Termos de Uso' ? '/termos' : '/privacidade'}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${CSS}</style></head>
<body><header><div><a href="/">Portal do Cliente</a></div></header>
<main>${body}</main>
<footer><div><a href="/privacidade">Política de Privacidade</a><a href="/termos">Termos de Uso</a><a href="/auth">Entrar no portal</a></div></footer>
</body></html>`
}

function controlador(e: Empresa) {
  const contato = [
    e.endereco && `endereço: ${esc(e.endereco)}`,
    e.email && `e-mail: <a href="mailto:${esc(e.email)}">${esc(e.email)}</a>`,
    e.telefone && `telefone: ${esc(e.telefone)}`,
  ].filter(Boolean)
  return `<strong>${esc(e.nome)}</strong>${contato.length ? ` (${contato.join('; ')})` : ''}`
}

function encarregado(e: Empresa) {
  const email = e.encarregado_email ?? e.email
  const nome = e.encarregado_nome
    ? esc(e.encarregado_nome)
    : 'o encarregado pelo tratamento de dados'
  return email
    ? `${nome}, pelo e-mail <a href="mailto:${esc(email)}">${esc(email)}</a>`
    : `${nome}, pelos canais de contato de ${esc(e.nome)}`
}

export function paginaPrivacidade(e: Empresa, appUrl: string) {
  return layout(
    'Política de Privacidade',
    `<h1>Política de Privacidade</h1>
<p class="meta">Versão de ${versaoBr}. Esta política explica como o Portal do Cliente trata os seus dados pessoais, conforme a Lei Geral de Proteção de Dados (Lei 13.709/2018, LGPD).</p>
<h2>1. Quem é o controlador</h2>
<p>O controlador dos dados tratados neste portal é ${controlador(e)}, consultoria ambiental que presta os serviços acompanhados aqui.</p>
<h2>2. Encarregado (DPO)</h2>
<p>O contato para qualquer assunto sobre os seus dados pessoais é ${encarregado(e)}.</p>
<h2>3. Quais dados tratamos</h2>
<ul>
<li>Dados da conta: e-mail, senha (guardada apenas como resumo criptográfico), verificação em duas etapas, sessões abertas e dispositivos de acesso (navegador, sistema, endereço IP).</li>
<li>Dados cadastrais: nome ou razão social, CPF ou CNPJ, e-mail, telefone, data de nascimento e endereço.</li>
<li>Serviços: tipo, protocolos, datas de vigência, status, avisos e os documentos que você envia ou que a consultoria disponibiliza.</li>
<li>Comunicações: os e-mails que o portal envia a você e o seu histórico de envio.</li>
<li>Registros de auditoria: quem acessou ou alterou cada registro, quando e de onde.</li>
</ul>
<h2>4. Para que usamos e com qual base legal (LGPD, art. 7º)</h2>
<ul>
<li><strong>Prestar os serviços contratados</strong> (licenciamento, outorgas, estudos e acompanhamento de prazos): execução de contrato e procedimentos preliminares a ele (art. 7º, V).</li>
<li><strong>Cumprir obrigações legais e regulatórias</strong>, como manter o histórico das licenças ambientais exigido pela legislação ambiental e atender aos órgãos ambientais: cumprimento de obrigação legal ou regulatória (art. 7º, II).</li>
<li><strong>Proteger sua conta e prevenir fraudes</strong> (verificação em duas etapas, aviso de novo acesso, registros de auditoria): legítimo interesse (art. 7º, IX) e exercício regular de direitos (art. 7º, VI).</li>
<li><strong>Enviar avisos e notificações sobre seus serviços</strong>: execução de contrato (art. 7º, V); você escolhe quais notificações recebe por e-mail em Meus Dados.</li>
</ul>
<p>Não vendemos seus dados nem os usamos para publicidade. Compartilhamos dados apenas com órgãos públicos quando o serviço exige (por exemplo, um protocolo no órgão ambiental) e com fornecedores de infraestrutura (hospedagem, armazenamento de arquivos e envio de e-mails) que tratam os dados em nosso nome.</p>
<h2>5. Por quanto tempo guardamos</h2>
<ul>
<li>Conta e cadastro: enquanto você usar o portal ou até pedir a exclusão.</li>
<li>Contas criadas e não confirmadas: removidas automaticamente após o prazo definido pela consultoria (7 dias por padrão).</li>
<li>Sessões, histórico de envio de e-mails e registros de auditoria: pelos prazos definidos pela consultoria (auditoria: 5 anos por padrão), e depois removidos automaticamente.</li>
<li>Histórico dos serviços e das licenças ambientais: pelo prazo que a legislação ambiental exige; após um pedido de exclusão, esse histórico é mantido sem os seus dados pessoais (anonimizado).</li>
</ul>
<h2>6. Seus direitos (LGPD, art. 18)</h2>
<p>Você pode, a qualquer momento: confirmar que tratamos seus dados e acessá-los; corrigir dados incompletos ou desatualizados; pedir a anonimização, o bloqueio ou a eliminação de dados desnecessários; receber seus dados em formato portável; pedir a eliminação dos dados tratados com seu consentimento; saber com quem os compartilhamos; e revogar o consentimento.</p>
<h2>7. Como exercer seus direitos</h2>
<ul>
<li><strong>Acesso e portabilidade:</strong> em <a href="/app/meus-dados">Meus Dados</a>, seção “Privacidade e dados”, use “Baixar meus dados” para receber um arquivo .zip com todos os seus dados e documentos.</li>
<li><strong>Correção:</strong> altere seus dados cadastrais em <a href="/app/meus-dados">Meus Dados</a>.</li>
<li><strong>Exclusão:</strong> em Meus Dados, use “Solicitar exclusão” e confirme com sua senha. Respondemos em até 15 dias (art. 19); você recebe a resposta por e-mail.</li>
<li>Para qualquer outro pedido, ou se não tiver mais acesso à conta, fale com ${encarregado(e)}. Você também pode reclamar à Autoridade Nacional de Proteção de Dados (ANPD).</li>
</ul>
<h2>8. Segurança</h2>
<p>Usamos conexão criptografada, senhas guardadas com argon2id, verificação em duas etapas, limites de tentativas de acesso e registros de auditoria que não podem ser alterados.</p>
<h2>9. Cookies</h2>
<p>O portal usa apenas cookies necessários para manter você conectado e proteger a sessão. Não usamos cookies de publicidade nem de rastreamento.</p>
<h2>10. Alterações desta política</h2>
<p>Quando esta política mudar, a nova versão será publicada aqui e pediremos o seu aceite no próximo acesso ao portal.</p>`,
    appUrl,
  )
}

export function paginaTermos(e: Empresa, appUrl: string) {
  return layout(
    'Termos de Uso',
    `<h1>Termos de Uso</h1>
<p class="meta">Versão de ${versaoBr}. Estes termos regem o uso do Portal do Cliente de ${controlador(e)}.</p>
<h2>1. O que é o portal</h2>
<p>O Portal do Cliente permite acompanhar os serviços ambientais contratados (licenças, outorgas, estudos), enviar os documentos exigidos, receber os documentos emitidos pela consultoria e ser avisado de prazos.</p>
<h2>2. Sua conta</h2>
<ul>
<li>A conta é pessoal. Mantenha sua senha em sigilo e use a verificação em duas etapas quando possível.</li>
<li>Você é responsável pela veracidade dos dados cadastrais e dos documentos que envia.</li>
<li>Avise a consultoria imediatamente se suspeitar de uso indevido da sua conta. Você pode encerrar as sessões abertas em Meus Dados.</li>
</ul>
<h2>3. Uso permitido</h2>
<p>Use o portal apenas para tratar dos seus próprios serviços. É proibido tentar acessar dados de outros clientes, contornar os limites de segurança ou enviar arquivos com conteúdo ilícito ou malicioso.</p>
<h2>4. Documentos e prazos</h2>
<p>Os prazos e avisos exibidos no portal ajudam no acompanhamento, mas não substituem as comunicações oficiais dos órgãos ambientais. Documentos enviados passam por análise da consultoria, que pode aprová-los ou pedir um novo envio.</p>
<h2>5. Dados pessoais</h2>
<p>O tratamento dos seus dados pessoais segue a <a href="/privacidade">Política de Privacidade</a>, que explica as finalidades, as bases legais, os prazos de guarda e como exercer seus direitos.</p>
<h2>6. Disponibilidade</h2>
<p>Buscamos manter o portal disponível continuamente, mas podem ocorrer interrupções para manutenção ou por falhas de terceiros. Guarde cópias dos documentos importantes.</p>
<h2>7. Encerramento</h2>
<p>Você pode pedir a exclusão da sua conta a qualquer momento em Meus Dados (“Solicitar exclusão”). A consultoria pode suspender contas usadas em desacordo com estes termos.</p>
<h2>8. Alterações e contato</h2>
<p>Quando estes termos mudarem, pediremos o seu aceite no próximo acesso. Dúvidas: ${encarregado(e)}.</p>
<p>Estes termos seguem a legislação brasileira.</p>`,
    appUrl,
  )
}
