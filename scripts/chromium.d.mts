export function chromiumPath(): string
export function headlessPath(): string
export const HEADLESS_SHELL: string
