export function chromiumPath(): string
