/** What a page posts to the service worker to have it check the saved tracks (app/service-worker/offline.ts). */
export const CHECK_MESSAGE = 'stagedoor:offline-check';
