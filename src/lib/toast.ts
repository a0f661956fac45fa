/**
 * Tiny toast store shared by every island of a page. It is a module singleton: the bundler puts
 * this module in a chunk the islands share, so ContactForm/DiscountPopup (producers) and Toaster
 * (the only consumer) see the same instance. The Toaster hydrates with the first toast
 * (src/islands/registry.ts), which waits here meanwhile.
 */
export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string | undefined;
  variant?: ToastVariant | undefined;
}

export interface Toast {
  id: number;
  title: string;
  description: string | undefined;
  variant: ToastVariant;
}

/** How long a toast stays (while not hovered or focused). */
export const TOAST_DURATION_MS = 6000;
/** Older toasts are dropped beyond this many. */
const TOAST_LIMIT = 3;

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const EMPTY: readonly Toast[] = [];

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast; returns its id. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  const item: Toast = { id, title: input.title, description: input.description, variant: input.variant ?? 'default' };
  emit([...toasts, item].slice(-TOAST_LIMIT));
  return id;
}

/** Removes one toast, or all of them without an id. */
export function dismissToast(id?: number): void {
  emit(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

/** Snapshot used while server rendering and hydrating: no toasts. */
export function getServerToasts(): readonly Toast[] {
  return EMPTY;
}
