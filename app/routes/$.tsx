/** Unknown paths: a 404 status and the not-found page of the root error boundary. */
export function loader() {
  throw new Response('Not found', { status: 404 });
}

export const action = loader;

export default function NotFound() {
  return null;
}
