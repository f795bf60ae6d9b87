// The page's texts: the same catalogue as the Python side (i18n/<lang>/*.json, keys "domain.key").
let messages = {};
let english = {};

export const LANGUAGES = { en: "English", ta: "\u0ba4\u0bae\u0bbf\u0bb4\u0bcd", kn: "\u0c95\u0ca8\u0ccd\u0ca8\u0ca1", te: "\u0c24\u0c46\u0c32\u0c41\u0c17\u0c41", sd: "\u0633\u0646\u068c\u064a" };

async function fetchCatalogue(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`catalogue ${lang}: HTTP ${response.status}`);
  return response.json();
}

/** Load English (the fallback) and the chosen language. */
export async function loadLanguage(lang) {
  english = await fetchCatalogue("en");
  messages = lang === "en" ? english : await fetchCatalogue(lang).catch(() => english);
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "sd" ? "rtl" : "ltr";
}

/** The message ``key`` with its {fields} filled in; a missing key shows itself (never a crash). */
export function t(key, fields = {}) {
  const text = messages[key] ?? english[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** Fill every [data-t] element of a subtree (static page texts). */
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  for (const el of root.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
}

export const currentLanguage = () => document.documentElement.lang || "en";
