import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/** Extracts a zip into `dest`; returns the entry names. */
export async function unzip(zipPath: string, dest: string): Promise<string[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      const target = path.join(dest, entry.fileName);
      if (!target.startsWith(path.resolve(dest) + path.sep)) return reject(new Error(`unsafe entry ${entry.fileName}`));
      if (entry.fileName.endsWith('/')) {
        mkdirSync(target, { recursive: true });
        return zip.readEntry();
      }
      mkdirSync(path.dirname(target), { recursive: true });
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        pipeline(stream!, createWriteStream(target)).then(() => zip.readEntry(), reject);
      });
    });
    zip.readEntry();
  });
  return names;
}
