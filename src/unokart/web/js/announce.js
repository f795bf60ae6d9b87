// Announcements: UNO!, a catch, a challenge's outcome, a round's and a game's winner, in a large
// banner over the table for about a second (it takes no clicks), and the same words in an
// aria-live region for screen readers.
import { tNodes } from "./i18n.js";
import { el } from "./ui.js";
import { reducedMotion } from "./motion.js";

const SHOW_MS = 1200;
let hideTimer = null;

/** The words of an announcement moment, as nodes (names isolated). */
export function announcementNodes(moment, names) {
  const name = (seat) => el("bdi", {}, Number.isInteger(seat) ? names[seat] ?? "" : "");
  return tNodes(`web.announce.${moment.what}`, { name: name(moment.seat), target: name(moment.target) });
}

export function announce(moment, names) {
  let banner = document.getElementById("announce");
  if (!banner) banner = el("div.announce", { id: "announce", "aria-hidden": "true" });
  // Over an open dialog too (a round's summary opens as its winner is announced): a modal dialog sits in
  // the top layer, above anything outside it, so the banner goes inside it.
  const host = document.querySelector("dialog[open]") ?? document.body;
  if (banner.parentNode !== host) host.append(banner);
  const words = announcementNodes(moment, names);
  banner.replaceChildren(el("span.words", { dataset: { what: moment.what } }, words));
  banner.dataset.what = moment.what;
  banner.classList.add("show");
  keepClearOfNotice();
  document.getElementById("announce-live").textContent = banner.textContent;
  if (!reducedMotion()) {
    banner.firstChild.animate([{ transform: "scale(.3) rotate(-6deg)", opacity: 0 }, { transform: "scale(1.1)", opacity: 1, offset: 0.25 },
      { transform: "scale(1)", opacity: 1, offset: 0.8 }, { transform: "scale(1.05)", opacity: 0 }], { duration: SHOW_MS, easing: "ease-out", fill: "both" });
  }
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => banner.classList.remove("show"), SHOW_MS);
}

/**
 * A banner shown with an item's notice over the table goes in the larger space above or below the
 * notice, so both can be read (over it, as before, when neither space holds the banner's words).
 */
export function keepClearOfNotice() {
  const banner = document.getElementById("announce");
  if (!banner?.classList.contains("show")) return;
  Object.assign(banner.style, { alignItems: "", paddingTop: "", paddingBottom: "" });
  const fx = document.getElementById("item-fx");
  if (!fx || fx.classList.contains("inline") || banner.closest("dialog")) return; // a notice behind a dialog is not read then
  const notice = fx.firstElementChild.getBoundingClientRect(), tall = banner.firstChild.offsetHeight; // offsetHeight: not scaled by the animation
  const above = notice.top, below = innerHeight - notice.bottom;
  if (Math.max(above, below) < tall) return;
  if (above >= below) Object.assign(banner.style, { alignItems: "flex-start", paddingTop: `${(above - tall) / 2}px` });
  else Object.assign(banner.style, { alignItems: "flex-end", paddingBottom: `${(below - tall) / 2}px` });
}

/** Clears the banner (leaving the table). */
export function clearAnnouncement() {
  clearTimeout(hideTimer);
  document.getElementById("announce")?.classList.remove("show");
}

