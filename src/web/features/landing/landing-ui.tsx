import type { ReactNode } from 'react'
import { cn } from '../../lib/utils.ts'

export function SectionHeading({
  eyebrow,
  title,
  children,
  className,
}: {
  eyebrow: string
  title: string
  children?: ReactNode
  className?: string
}) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      <p className="text-sm font-semibold tracking-[0.14em] text-emerald-700 uppercase">
        {eyebrow}
      </p>
      <h2 className="mt-3 text-3xl font-bold tracking-tight text-balance text-emerald-950 sm:text-4xl">
        {title}
      </h2>
      {children && (
        <p className="mt-4 text-base leading-relaxed text-pretty text-slate-600 sm:text-lg">
          {children}
        </p>
      )}
    </div>
  )
}

/** Concentric contour lines, like a topographic map, drawn behind the hero. */
export function ContourLines({ className }: { className?: string }) {
  const rings = [1, 2, 3, 4, 5, 6, 7, 8, 9]
  return (
    <svg
      viewBox="0 0 800 600"
      aria-hidden="true"
      className={className}
      preserveAspectRatio="xMidYMid slice"
    >
      <g fill="none" stroke="currentColor" strokeWidth="1.2">
        {rings.map((i) => (
          <ellipse
            key={`a${i}`}
            cx="640"
            cy="120"
            rx={40 + i * 46}
            ry={26 + i * 32}
            transform={`rotate(${-18 + i * 2} 640 120)`}
          />
        ))}
        {rings.slice(0, 6).map((i) => (
          <ellipse
            key={`b${i}`}
            cx="90"
            cy="560"
            rx={30 + i * 42}
            ry={20 + i * 28}
            transform={`rotate(${12 - i * 2} 90 560)`}
          />
        ))}
      </g>
    </svg>
  )
}
