// The page: picks the screen from the address (/, /t/CODE, /#replay/ID) and the language.
import { loadLanguage, LANGUAGES, t, translateTree } from "./i18n.js";
import { showError } from "./ui.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./views/replay.js";
import { armSound, soundControls } from "./sound.js";
import { showRules, openRulesDialog } from "./rules.js";

let current = null; // the screen now shown: {close()}

function route() {
  if (current && current.close) current.close();
  const app = document.getElementById("app");
  app.replaceChildren();
  document.getElementById("top-meta").textContent = "";
  document.getElementById("help-btn").classList.add("hidden");
  window.scrollTo(0, 0); // a new screen opens at its top (the rules page scrolls to a section itself)
  const table = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  const replay = location.hash.match(/^#replay\/(\d+)(?:\?(.*))?$/);
  const rules = location.hash.match(/^#rules(?:\/(\d+))?$/);
  if (rules && !table) current = showRules(app, rules[1] && Number(rules[1]));
  else if (replay) current = showReplay(app, Number(replay[1]), replay[2] ?? "");
  else if (table) current = showTable(app, table[1].toUpperCase(), location.hash === "#watch");
  else current = showLobby(app);
}

async function start() {
  const saved = localStorage.getItem("unokart.lang");
  const lang = saved && saved in LANGUAGES ? saved : "en";
  try {
    await loadLanguage(lang);
  } catch (err) {
    document.getElementById("app").textContent = `unokart: the server cannot be reached (${err.message}).`;
    return;
  }
  document.title = t("web.title");
  translateTree(document);
  const select = document.getElementById("lang-select");
  for (const [code, name] of Object.entries(LANGUAGES)) select.append(new Option(name, code, false, code === lang));
  select.addEventListener("change", () => {
    localStorage.setItem("unokart.lang", select.value);
    location.reload();
  });
  // On a table, "How to play" and a refusal's rule hint open the rules over the game instead of leaving it.
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.('a[href^="/#rules"]');
    if (!link || !/^\/t\//.test(location.pathname)) return;
    event.preventDefault();
    openRulesDialog(Number(link.getAttribute("href").split("/")[2]) || null);
  });
  document.getElementById("help-btn").before(soundControls());
  armSound();
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", route);
  window.addEventListener("unhandledrejection", (event) => showError(event.reason?.message || String(event.reason)));
  route();
}

start();
