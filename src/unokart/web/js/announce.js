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
  if (!banner) document.body.append((banner = el("div.announce", { id: "announce", "aria-hidden": "true" })));
  const words = announcementNodes(moment, names);
  banner.replaceChildren(el("span.words", { dataset: { what: moment.what } }, words));
  banner.dataset.what = moment.what;
  banner.classList.add("show");
  document.getElementById("announce-live").textContent = banner.textContent;
  if (!reducedMotion()) {
    banner.firstChild.animate([{ transform: "scale(.3) rotate(-6deg)", opacity: 0 }, { transform: "scale(1.1)", opacity: 1, offset: 0.25 },
      { transform: "scale(1)", opacity: 1, offset: 0.8 }, { transform: "scale(1.05)", opacity: 0 }], { duration: SHOW_MS, easing: "ease-out", fill: "both" });
  }
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => banner.classList.remove("show"), SHOW_MS);
}

/** Clears the banner (leaving the table). */
export function clearAnnouncement() {
  clearTimeout(hideTimer);
  document.getElementById("announce")?.classList.remove("show");
}

