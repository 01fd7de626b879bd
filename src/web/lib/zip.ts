export type ZipEntry = { name: string; fetch: () => Promise<Blob> }

/**
 * SPEC §7: builds a zip in the browser with DEFLATE level 6. Entries whose download fails are
 * skipped; a repeated name gets ' (2)', ' (3)'... before its extension. JSZip (25 KB) loads with the
 * first zip, not with the screens that offer one.
 */
export async function buildZip(entries: ZipEntry[]): Promise<{ blob: Blob | null; added: number }> {
  const { default: JSZip } = await import('jszip')
  const zip = new JSZip()
  const used = new Map<string, number>()
  let added = 0
  for (const entry of entries) {
    let blob: Blob
    try {
      blob = await entry.fetch()
    } catch (err) {
      console.error(`Falha ao baixar ${entry.name}`, err)
      continue
    }
    const count = (used.get(entry.name) ?? 0) + 1
    used.set(entry.name, count)
    const name = count === 1 ? entry.name : entry.name.replace(/(\.[^.]*)?$/, ` (${count})$1`)
    zip.file(name, blob)
    added++
  }
  if (added === 0) return { blob: null, added }
  const blob = await zip.generateAsync({
    type: 'blob',
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
  })
  return { blob, added }
}
