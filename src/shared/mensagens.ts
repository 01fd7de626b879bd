// The conversation of a service: its limits (no zod: the message card shows at first load).

/** A message's text: up to this many characters, its line breaks kept. */
export const MENSAGEM_MAX = 5000
/** For how long the author may edit or delete a message; after that it is part of the record. */
export const MENSAGEM_EDICAO_MINUTOS = 15
/** How many messages a page of the thread brings (the newest first, "Mensagens anteriores"). */
export const MENSAGENS_PAGINA = 30
