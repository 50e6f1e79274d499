import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names; of two Tailwind classes for one property, the later wins (`min-h-10` then `min-h-8` is `min-h-8`). */
export function cn(...classes: ClassValue[]): string {
  return twMerge(clsx(classes));
}
