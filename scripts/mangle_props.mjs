// Shortens the names of the package's internal properties in dist/*.js (scripts/build.mjs runs it after tsc). A
// bundler minifies local names but never property names: `this.pendingSurrogate` stays as long as it is written.
// Which names are internal is decided once per name, from the TypeScript program (every occurrence of a name must be
// the package's own), and every file gets the same short name for it (one esbuild pass over all of dist/ with
// mangleProps). A name is kept when any of these holds:
// - it is public: a declaration file users see (dist/index.d.ts and what it imports) shows it outside a `private`
//   line (options, results, errors);
// - it is declared outside js/ (the DOM and ES libraries, Node's types) at any place it is used, or the checker
//   cannot tell (an `any` receiver, a union with a foreign member);
// - it is a key of an object literal whose contextual type is not the package's own (an options bag passed to
//   TextDecoder, an object given to JSON.stringify), a member of a class that overrides its foreign base's, or a
//   name of a protocol the engine calls on objects without a declared type to tell (PROTOCOLS: an iterator's
//   `next`, a stream source's `pull`, a proxy handler's `get`);
// - it is written as a string anywhere in js/ (`'name' in object`, `object['name']`, lists of option names);
// - it is declared in js/'s own declaration files (node_api.d.ts: Node's API as the command line uses it), or it
//   is a member of an interface or type literal and the platform's declarations know the name (such a type may
//   describe a foreign object: `(await import('node:fs')) as { readFile(...) }`);
// - tests/ or bench/ name it as a property (`.name`, `{ name }`, 'name': test hooks read internal fields by name).
// Usage: node scripts/mangle_props.mjs [--dry-run]  (prints the names, and writes nothing, with --dry-run)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist');
const jsDir = join(root, 'js') + sep;

const files = (dir, test) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'data' || name === 'results') return [];
    return statSync(path).isDirectory() ? files(path, test) : test(name) ? [path] : [];
  });
const identifiers = (text, into) => {
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) into.add(m[0]);
};

/** `entry` and the declaration files it imports, transitively. */
function publicDeclarations(entry) {
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const path = queue.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    for (const m of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
      queue.push(join(dirname(path), (m[1] ?? m[2]).replace(/\.js$/, '.d.ts')));
    }
  }
  return seen;
}

/** The names `text` (JS or TS) writes as properties: `.name`, `o['name']`, `'name' in o`, keys and members. */
function propertyNames(text) {
  const names = new Set();
  const walk = (node) => {
    const name = node.name;
    if (ts.isPropertyAccessExpression(node)) names.add(node.name.text);
    else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      names.add(node.argumentExpression.text);
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
      ts.isStringLiteralLike(node.left)
    ) {
      names.add(node.left.text);
    } else if (ts.isBindingElement(node) && node.propertyName !== undefined && ts.isIdentifier(node.propertyName)) {
      names.add(node.propertyName.text);
    } else if (
      (ts.isObjectLiteralElement(node) || ts.isClassElement(node) || ts.isTypeElement(node)) &&
      name !== undefined &&
      (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name))
    ) {
      names.add(name.text);
    }
    ts.forEachChild(node, walk);
  };
  walk(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return names;
}

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, ts.sys);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

const candidates = new Set();
const kept = new Set();
const ours = (declaration) => {
  const file = declaration.getSourceFile();
  return file.fileName.startsWith(jsDir.split(sep).join('/')) && !file.isDeclarationFile;
};
/** Whether every declaration of `symbol` is in the package's own sources. */
const ownSymbol = (symbol) => {
  if (symbol === undefined) return false;
  if (symbol.flags & ts.SymbolFlags.Alias) return true; // an import's name, not a property
  const declarations = symbol.declarations ?? [];
  return declarations.length > 0 && declarations.every(ours);
};
// What the engine or a library calls on an object the package hands it, by name, without a declared type to tell:
// the iterator, thenable, stream source, sink, transformer, queuing strategy and proxy handler protocols, and the
// methods every object answers.
const PROTOCOLS = new Set(
  (
    'next return throw then catch finally start pull cancel write close abort transform flush type ' +
    'autoAllocateChunkSize highWaterMark size handleEvent toJSON toString valueOf toLocaleString constructor ' +
    'prototype length name message cause stack get set has deleteProperty ownKeys getOwnPropertyDescriptor ' +
    'defineProperty apply construct getPrototypeOf setPrototypeOf isExtensible preventExtensions'
  ).split(' '),
);

// Every name the platform's declarations know (the DOM and ES libraries, Node's types): a member of an interface or
// type literal with such a name may describe a foreign object (`(await import('node:fs')) as { readFile(...) }`).
const platformNames = new Set();
for (const dir of [join(root, 'node_modules', 'typescript', 'lib'), join(root, 'node_modules', '@types', 'node')]) {
  for (const path of files(dir, (name) => name.endsWith('.d.ts')))
    identifiers(readFileSync(path, 'utf8'), platformNames);
}

function visitName(name, verdict) {
  if (!ts.isIdentifier(name) && !ts.isPrivateIdentifier(name)) {
    if (ts.isStringLiteral(name)) kept.add(name.text);
    return;
  }
  if (ts.isPrivateIdentifier(name)) return; // #names: the minifier renames them
  candidates.add(name.text);
  if (!verdict) kept.add(name.text);
}

function visit(node) {
  if (ts.isStringLiteralLike(node)) {
    if (/^[A-Za-z_$][\w$]*$/.test(node.text)) kept.add(node.text);
  } else if (ts.isPropertyAccessExpression(node)) {
    const symbol = checker.getSymbolAtLocation(node.name);
    const receiver = checker.getTypeAtLocation(node.expression);
    visitName(node.name, ownSymbol(symbol) && !(receiver.flags & ts.TypeFlags.Any));
  } else if (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) {
    if (ts.isComputedPropertyName(node.name)) {
      // [Symbol.asyncIterator]() and the like: nothing to rename
    } else if (ts.isObjectLiteralExpression(node.parent)) {
      const contextual = checker.getContextualType(node.parent);
      const property = contextual?.getProperty?.(node.name.text);
      const own =
        contextual !== undefined &&
        !(contextual.flags & ts.TypeFlags.Any) &&
        property !== undefined &&
        ownSymbol(property);
      visitName(node.name, own);
    } else {
      visitClassMember(node);
    }
  } else if (
    ts.isPropertyDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isPropertySignature(node) ||
    ts.isMethodSignature(node)
  ) {
    visitClassMember(node);
  } else if (ts.isParameter(node) && ts.isIdentifier(node.name) && ts.getModifiers(node)?.length) {
    visitClassMember(node); // a parameter property: constructor(private readonly x)
  } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
    const name = node.propertyName ?? node.name;
    if (ts.isIdentifier(name)) {
      const type = checker.getTypeAtLocation(node.parent);
      const property = type.getProperty?.(name.text);
      visitName(name, !(type.flags & ts.TypeFlags.Any) && property !== undefined && ownSymbol(property));
    }
  } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    kept.add(node.argumentExpression.text);
  }
  ts.forEachChild(node, visit);
}

/**
 * A member the package declares: internal unless a protocol names it, a class it belongs to extends or implements a
 * type from outside js/ that has a member of that name (an override the engine calls), or it belongs to an interface
 * or type literal and the platform knows the name.
 */
function visitClassMember(node) {
  const name = node.name;
  if (name === undefined || ts.isComputedPropertyName(name)) return;
  if (!ts.isIdentifier(name)) return visitName(name, false);
  let own = !PROTOCOLS.has(name.text);
  const owner = ts.isParameter(node) ? node.parent.parent : node.parent;
  if (ts.isTypeLiteralNode(owner) || ts.isInterfaceDeclaration(owner)) own &&= !platformNames.has(name.text);
  if (own && (ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner))) {
    for (const clause of owner.heritageClauses ?? []) {
      for (const base of clause.types) {
        const property = checker.getTypeAtLocation(base).getProperty(name.text);
        if (property !== undefined && !ownSymbol(property)) own = false;
      }
    }
  }
  visitName(name, own);
}

for (const file of program.getSourceFiles()) {
  if (!file.fileName.startsWith(jsDir.split(sep).join('/'))) continue;
  if (file.isDeclarationFile) {
    identifiers(file.text, kept);
    continue;
  }
  visit(file);
}
// Public: every name the declaration files users see show (index.d.ts and those it imports; private members
// excepted: users cannot reach them).
for (const path of publicDeclarations(join(dist, 'index.d.ts'))) {
  const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*/g, '');
  for (const line of code.split('\n')) {
    if (!/^\s*(private|protected)\s/.test(line)) identifiers(line, kept);
  }
}
for (const dir of ['tests', 'bench']) {
  for (const path of files(join(root, dir), (name) => /\.(m?[jt]s|html)$/.test(name))) {
    for (const name of propertyNames(readFileSync(path, 'utf8'))) kept.add(name);
  }
}

const names = [...candidates].filter((name) => !kept.has(name) && name.length > 1).sort();
if (process.argv.includes('--dry-run')) {
  console.log(`${names.length} names shortened:\n${names.join(' ')}`);
  process.exit(0);
}

const entryPoints = files(dist, (name) => name.endsWith('.js'));
// The short names, chosen here (esbuild's mangleCache) so that every file gets the same one for a name: the most
// frequent names the shortest, none equal to a property name kept or written anywhere in dist/ or the tests.
const texts = entryPoints.map((path) => readFileSync(path, 'utf8'));
const frequency = new Map(names.map((name) => [name, 0]));
const taken = new Set([...kept, ...PROTOCOLS, ...Object.getOwnPropertyNames(Object.prototype)]);
for (const text of texts) {
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
    if (frequency.has(m[0])) frequency.set(m[0], frequency.get(m[0]) + 1);
  }
  for (const name of propertyNames(text)) if (!frequency.has(name)) taken.add(name);
}
const FIRST = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
const NEXT = `${FIRST}0123456789`;
function* shortNames() {
  for (const a of FIRST) yield a;
  for (const a of FIRST) for (const b of NEXT) yield a + b;
  for (const a of FIRST) for (const b of NEXT) for (const c of NEXT) yield a + b + c;
}
const RESERVED_WORDS = new Set(['do', 'if', 'in', 'for', 'let', 'new', 'try', 'var', 'int', 'of']);
const mangleCache = {};
const short = shortNames();
for (const name of [...names].sort((a, b) => frequency.get(b) - frequency.get(a))) {
  let next = short.next().value;
  while (taken.has(next) || RESERVED_WORDS.has(next)) next = short.next().value;
  mangleCache[name] = next;
}
await build({
  entryPoints,
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: false,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  mangleProps: new RegExp(`^(${names.join('|')})$`),
  mangleCache,
  logLevel: 'warning',
});
console.log(`mangle_props: ${names.length} internal property names shortened in ${entryPoints.length} files of dist/`);
