import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn";
import { ScrollBox } from "./scroll-box";

/**
 * A table that scrolls sideways on a phone instead of breaking the page. Positioned, so that a header cell's
 * screen-reader-only text (absolutely placed) stays inside its box and cannot widen the page.
 */
export function Table({
  caption,
  children,
  className,
}: {
  caption?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <ScrollBox
      label={typeof caption === "string" ? caption : "Table"}
      className="relative overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800"
    >
      <table className={cn("w-full border-collapse text-left text-sm", className)}>
        {caption && <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </ScrollBox>
  );
}

export function THead(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className="bg-zinc-50 dark:bg-zinc-900" {...props} />;
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn("px-3 py-2 font-semibold", className)} {...props} />;
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={cn("border-t border-zinc-200 px-3 py-2 align-top dark:border-zinc-800", className)} {...props} />
  );
}
