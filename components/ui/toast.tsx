"use client";

import { Toast } from "radix-ui";
import { createContext, useCallback, useContext, useState, type ReactNode } from "react";

// Short confirmations ("Revoked “billing”.") that need no answer. Radix
// announces each in a polite live region and keeps it while it has focus or
// the pointer; F8 moves focus to the notifications.

interface Note {
  id: number;
  message: string;
}

const ToastContext = createContext<(message: string) => void>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [notes, setNotes] = useState<Note[]>([]);
  const show = useCallback((message: string) => {
    setNotes((current) => [...current.slice(-2), { id: Date.now() + Math.random(), message }]);
  }, []);
  const drop = (id: number) => setNotes((current) => current.filter((note) => note.id !== id));
  return (
    <ToastContext.Provider value={show}>
      <Toast.Provider duration={8000} label="Notifications">
        {children}
        {notes.map((note) => (
          <Toast.Root
            key={note.id}
            data-testid="toast"
            onOpenChange={(open) => !open && drop(note.id)}
            className="flex items-start justify-between gap-3 rounded-md border border-zinc-200 bg-white p-4 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {/* min-w-0 and overflow-wrap: a 64-character label without spaces wraps inside the toast, and the close button stays in view. */}
            <Toast.Description className="min-w-0 [overflow-wrap:anywhere]">{note.message}</Toast.Description>
            <Toast.Close
              aria-label="Dismiss"
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-lg leading-none hover:bg-zinc-100 dark:hover:bg-zinc-800"
            >
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="fixed bottom-0 right-0 z-50 flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}
