// What was thrown, as text for a message: an Error's message, else the value itself (a thrown string, a rejection
// with a plain object), never `undefined`.

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}
