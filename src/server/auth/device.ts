import { isIPv4 } from 'node:net'
import Bowser from 'bowser'
import { addressKey } from './rate-limit.ts'

/**
 * A session's device as people say it: "Chrome 140 · Windows 10", "Safari · iOS 18.5" (the
 * browser and its major version, then the system). Unknown parts are left out; nothing known at
 * all is "Dispositivo desconhecido".
 */
export function describeDevice(userAgent: string | null | undefined): string {
  const { browser, os } = parse(userAgent)
  const navegador = [browser.name, browser.version?.split('.')[0]].filter(Boolean).join(' ')
  const sistema = [os.name, os.versionName ?? os.version?.split('.').slice(0, 2).join('.')]
    .filter(Boolean)
    .join(' ')
  return [navegador, sistema].filter(Boolean).join(' · ') || 'Dispositivo desconhecido'
}

/**
 * What counts as "the same device" for the new-access notice: the browser's name, the system's
 * name and the address's network (IPv4 /24, IPv6 /64). A browser update or a new address from
 * the same provider's block is the same device; another browser, system or network is new.
 */
export function deviceKey(userAgent: string | null | undefined, ip: string | null | undefined) {
  const { browser, os } = parse(userAgent)
  return [browser.name ?? '?', os.name ?? '?', networkOf(ip ?? '')].join('|')
}

/** Bowser's reading of a user agent; none (empty) for a missing one, which it refuses. */
function parse(
  userAgent: string | null | undefined,
): Pick<Bowser.Parser.ParsedResult, 'browser' | 'os'> {
  return userAgent ? Bowser.parse(userAgent.slice(0, 1000)) : { browser: {}, os: {} }
}

function networkOf(ip: string) {
  const key = addressKey(ip)
  if (!isIPv4(key)) return key
  return `${key.split('.').slice(0, 3).join('.')}.0/24`
}
