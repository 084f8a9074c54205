import express, { type NextFunction, type Request, type Response } from 'express';
import fs from 'node:fs';
import { assetHeaders } from './security.js';

/**
 * The files in public/ other than the build (the favicon, images), served for the paths that can name one.
 * express.static alone asked the file system about every page's path first (a stat that fails), about 2 % of a
 * page's CPU under load. The names are read once at start: public/ is part of the release, not written at run time.
 */
export function publicFiles(dir: string) {
  const names = new Set(fs.readdirSync(dir).filter((name) => name !== 'build'));
  const serve = express.static(dir, { maxAge: '1h', setHeaders: assetHeaders });
  return (req: Request, res: Response, next: NextFunction) => (names.has(req.path.split('/', 2)[1]) ? serve(req, res, next) : next());
}
