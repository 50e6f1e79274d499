"use client";

// The docs' chosen example language, kept in the browser's local storage so
// it holds across pages and reloads, and shared by every tab set on a page:
// choosing Python in one shows Python in all. Read through
// useSyncExternalStore, so the server's render (which cannot know it) shows
// the first language and the browser then switches without a mismatch.

const STORAGE_KEY = "keyport.docs.language";
const CHANGED = "keyport-docs-language";

export function subscribeLanguage(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

export function chosenLanguage(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (a private window's settings): the choice lasts for the page.
    return null;
  }
}

export function chooseLanguage(label: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, label);
  } catch {
    // As above.
  }
  window.dispatchEvent(new Event(CHANGED));
}
