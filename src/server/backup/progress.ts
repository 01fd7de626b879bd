/** A text progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise. */
/** `totalFiles` null: not known in advance (the restore reads the archive as it goes). */
export function createProgress(label: string, totalBytes: number, totalFiles: number | null) {
  const out = process.stderr
  const tty = Boolean(out.isTTY)
  let bytes = 0
  let files = 0
  let lastDraw = 0
  let lastTenth = -1
  const draw = (final = false) => {
    const ratio =
      totalBytes > 0 ? Math.min(1, bytes / totalBytes) : files >= (totalFiles ?? 0) ? 1 : 0
    const pct = Math.floor(ratio * 100)
    const width = 30
    const filled = Math.round(ratio * width)
    const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}%  ${totalFiles === null ? files : `${files}/${totalFiles}`} arquivos  ${formatBytes(bytes)}/${formatBytes(totalBytes)}`
    if (tty) out.write(`\r${line}${final ? '\n' : ''}`)
    else if (final || Math.floor(pct / 10) > lastTenth) {
      lastTenth = Math.floor(pct / 10)
      out.write(`${line}\n`)
    }
  }
  return {
    add(n: number) {
      bytes += n
      const now = Date.now()
      if (now - lastDraw > 200 || !tty) {
        lastDraw = now
        draw()
      }
    },
    fileDone() {
      files++
    },
    done() {
      draw(true)
    },
  }
}

export function formatBytes(n: number) {
  if (n < 1024) return `${n} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(1)} ${units[i]}`
}
