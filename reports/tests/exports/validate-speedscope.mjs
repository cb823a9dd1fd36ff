// Validates a speedscope file against the file-format schema that the speedscope package publishes
// (dist/release/file-format-schema.json). Prints "valid" or the schema errors and exits 1.
// Usage: node validate-speedscope.mjs FILE.speedscope.json
import Ajv from 'ajv';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(fs.readFileSync(path.join(here, 'node_modules/speedscope/dist/release/file-format-schema.json'), 'utf8'));
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile({ ...schema, $ref: '#/definitions/FileFormat.File' });
if (validate(doc)) {
  console.log('valid');
} else {
  console.log(JSON.stringify(validate.errors.slice(0, 10)));
  process.exit(1);
}
