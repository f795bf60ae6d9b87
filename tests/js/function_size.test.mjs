// No function of the browser client is over about 80 lines (issue 21): each function, method and
// arrow function with a body in src/unokart/web/js is measured from its first line to its
// closing brace. Run with: node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = new URL("../../src/unokart/web/js/", import.meta.url).pathname;
const LIMIT = 80;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith(".js") ? [path] : [];
  });
}

/**
 * The source with strings, template texts, regular expressions and comments blanked (braces in
 * them do not count); a template's ${...} stays code. Newlines are kept, so lines still count.
 */
function code(source) {
  const out = [...source];
  const blank = (from, to) => { for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " "; };
  const templates = []; // brace depth at each open ${ of a template
  let depth = 0, i = 0, last = "";
  const closeTemplate = (start) => { // from just after ` or }, to the next ${ or closing `
    let k = start;
    while (k < source.length && source[k] !== "`" && !(source[k] === "$" && source[k + 1] === "{")) k += source[k] === "\\" ? 2 : 1;
    blank(start, k);
    if (source[k] === "`") { blank(k, k + 1); return k + 1; }
    blank(k, k + 2); // the ${ ... } that follows is code, its braces apart
    templates.push(depth);
    return k + 2;
  };
  while (i < source.length) {
    const c = source[i], next = source[i + 1];
    if (c === "/" && next === "/") { const end = source.indexOf("\n", i); blank(i, end < 0 ? source.length : end); i = end < 0 ? source.length : end; continue; }
    if (c === "/" && next === "*") { const end = source.indexOf("*/", i) + 2; blank(i, end); i = end; continue; }
    if (c === '"' || c === "'") { let k = i + 1; while (source[k] !== c && source[k] !== "\n") k += source[k] === "\\" ? 2 : 1; blank(i, k + 1); i = k + 1; last = "a"; continue; }
    if (c === "`") { blank(i, i + 1); i = closeTemplate(i + 1); last = "a"; continue; }
    if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last))) { // a regular expression
      let k = i + 1, inClass = false;
      while (k < source.length && (source[k] !== "/" || inClass) && source[k] !== "\n") { if (source[k] === "[") inClass = true; else if (source[k] === "]") inClass = false; k += source[k] === "\\" ? 2 : 1; }
      blank(i, k + 1); i = k + 1; last = "a"; continue;
    }
    if (c === "{") depth++;
    if (c === "}") {
      if (templates.length && templates[templates.length - 1] === depth) { templates.pop(); blank(i, i + 1); i = closeTemplate(i + 1); last = "a"; continue; }
      depth--;
    }
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return out.join("");
}

/** [name, first line, lines] for every function of a file. */
export function measure(source) {
  const text = code(source);
  const lineOf = (index) => text.slice(0, index).split("\n").length;
  const found = [];
  const starts = /(?:function\s*\*?\s*([\w$]*)\s*\([^)]*\)\s*\{)|(?:^\s*(?:async\s+)?([\w$]+)\s*\([^)]*\)\s*\{)|(?:=>\s*\{)/gm;
  for (const match of text.matchAll(starts)) {
    const open = match.index + match[0].length - 1;
    let depth = 0, end = open;
    for (; end < text.length; end++) {
      if (text[end] === "{") depth++;
      else if (text[end] === "}" && --depth === 0) break;
    }
    const name = match[1] || match[2] || `arrow at line ${lineOf(match.index)}`;
    if (["if", "for", "while", "switch", "catch"].includes(name)) continue;
    found.push([name, lineOf(match.index), lineOf(end) - lineOf(match.index) + 1]);
  }
  return found;
}

test("the measure counts a function's lines to its closing brace, braces in strings apart", () => {
  const sample = 'function a(x) {\n  const s = "{{";\n  return () => {\n    return `${x}}`;\n  };\n}\n';
  assert.deepEqual(measure(sample), [["a", 1, 6], ["arrow at line 3", 3, 3]]);
});

test(`no function in web/js is over ${LIMIT} lines`, () => {
  const all = files(ROOT).flatMap((path) => measure(readFileSync(path, "utf8")).map(([name, line, length]) => ({ where: `${relative(ROOT, path)}:${line} ${name}`, length })));
  all.sort((a, b) => b.length - a.length);
  console.log(`largest function: ${all[0].where}, ${all[0].length} lines`);
  assert.deepEqual(all.filter((f) => f.length > LIMIT), []);
});
