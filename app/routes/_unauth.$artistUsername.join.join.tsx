/** /{artist}/join/join behaves like /{artist}/subscribe (spec §2): the same loader, page and title. */
export { default, loader, meta } from './_unauth.$artistUsername.subscribe._index';
