import type { ComponentProps } from 'react'
import { cn } from '../../lib/utils.ts'
import { inputClass } from './input.tsx'

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(inputClass, 'min-h-20 h-auto py-2', className)} {...props} />
}
