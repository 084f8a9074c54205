/** /{artist}/join/join behaves like /{artist}/subscribe: the same loader, page and title. */
export { default, loader, meta } from './_unauth.$artistUsername.subscribe._index';
