// Small DOM helpers shared by the lobby, the table and the replay viewer.
import { t } from "./i18n.js";

/** el("button.btn.btn-primary", {type: "button", onclick}, "text", child, ...) */
export function el(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const node = document.createElement(tag || "div");
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let errorTimer;
/**
 * A clear, dismissing banner for anything that went wrong (never a stack trace). A rule id, when
 * one applies, follows as a small hint linking to that rule on the "How to play" page.
 */
export function showError(message, rule = null) {
  const banner = document.getElementById("error-banner");
  banner.replaceChildren(el("span.error-text", {}, message));
  const section = rule ? /^R(\d+)/.exec(rule) : null;
  if (section) {
    banner.append(" ", el("a.rule-hint", { href: `/#rules/${section[1]}`, dataset: { rule } }, t("web.rule_hint", { rule })));
  }
  banner.classList.remove("hidden");
  // Below the top bar (its height differs by language and width), never over its buttons.
  const bar = document.querySelector("header.topbar")?.getBoundingClientRect();
  banner.style.top = `${Math.max(8, (bar ? bar.bottom : 0) + 8)}px`;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => banner.classList.add("hidden"), 6000);
}

export function showStatus(message) {
  const banner = document.getElementById("status-banner");
  banner.textContent = message || "";
  banner.classList.toggle("hidden", !message);
}

/** An error from the server in the reader's words (the server translates `message`), its rule id apart. */
export function showServerError(error) {
  showError(error.message || t(`web.error.${error.code}`), error.rule || null);
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API needs a secure context; fall back to a selected field.
    const field = el("textarea", {}, text);
    document.body.append(field);
    field.select();
    document.execCommand("copy");
    field.remove();
  }
  if (button) {
    const before = button.textContent;
    button.textContent = t("web.copied");
    setTimeout(() => (button.textContent = before), 1500);
  }
}

/** Move to another screen without reloading the page (app.js routes on popstate). */
export function navigate(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
