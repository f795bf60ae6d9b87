// The table's sounds, made here with Web Audio (no files): a few notes or a burst of noise for
// each moment. The audio context is made at the player's first gesture on the page (browsers'
// autoplay rules), so nothing sounds before it; mute and volume are kept in localStorage.
import { t } from "./i18n.js";
import { el } from "./ui.js";

const STORE = "unokart.sound";
let settings = loadSettings();
let audio = null; // {ctx, master} once the player has touched the page

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    return { muted: saved.muted === true, volume: Number.isFinite(saved.volume) ? Math.min(1, Math.max(0, saved.volume)) : 0.6 };
  } catch { return { muted: false, volume: 0.6 }; }
}

function saveSettings(change) {
  settings = { ...settings, ...change };
  localStorage.setItem(STORE, JSON.stringify(settings));
  if (audio) audio.master.gain.value = settings.volume;
}

export const soundSettings = () => ({ ...settings });

/** Makes the audio context at the first pointer or key press (once). */
export function armSound() {
  const wake = () => {
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      const ctx = new Context();
      const master = ctx.createGain();
      master.gain.value = settings.volume;
      master.connect(ctx.destination);
      audio = { ctx, master };
    }
    if (audio.ctx.state === "suspended") audio.ctx.resume();
  };
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, wake, { capture: true });
}

// [wave, start Hz, end Hz, start s, length s, loudness]; "noise" bursts are filtered white noise.
const N = (wave, f0, f1, at, len, gain = 0.3) => ({ wave, f0, f1, at, len, gain });
const SOUNDS = {
  play: [N("triangle", 660, 990, 0, 0.09)],
  draw: [N("sine", 520, 360, 0, 0.08, 0.25), N("sine", 520, 360, 0.12, 0.08, 0.2)],
  mushroom: [523, 659, 784, 1047].map((f, i) => N("square", f, f, i * 0.07, 0.08, 0.12)),
  banana: [N("sawtooth", 760, 140, 0, 0.4, 0.16)],
  green_shell: [N("triangle", 300, 900, 0, 0.18), N("triangle", 900, 300, 0.18, 0.18)],
  lightning: [N("noise", 4000, 400, 0, 0.35, 0.35), N("square", 1400, 90, 0, 0.3, 0.12)],
  bobomb: [N("noise", 900, 60, 0, 0.6, 0.5), N("sine", 120, 40, 0, 0.5, 0.4)],
  uno: [N("square", 784, 784, 0, 0.1, 0.16), N("square", 1047, 1047, 0.11, 0.16, 0.16)],
  catch: [N("square", 330, 320, 0, 0.12, 0.16), N("square", 220, 200, 0.13, 0.2, 0.16)],
  challenge_won: [523, 659, 784].map((f, i) => N("triangle", f, f, i * 0.09, 0.12)),
  challenge_lost: [392, 330, 262].map((f, i) => N("triangle", f, f, i * 0.11, 0.14)),
  your_turn: [N("sine", 880, 880, 0, 0.1, 0.22), N("sine", 1320, 1320, 0.1, 0.16, 0.18)],
  round_won: [523, 659, 784, 1047, 784, 1047].map((f, i) => N("triangle", f, f, i * 0.09, i === 5 ? 0.35 : 0.1)),
  game_won: [392, 523, 659, 784, 659, 784, 1047].map((f, i) => N("square", f, f, i * 0.12, i === 6 ? 0.6 : 0.12, 0.13)),
};

function noiseSource(ctx, len) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * len), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  return source;
}

function schedule({ ctx, master }, note, now) {
  const start = now + note.at, end = start + note.len;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(note.gain, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, end);
  let source;
  if (note.wave === "noise") {
    source = noiseSource(ctx, note.len);
    const filter = ctx.createBiquadFilter();
    filter.type = "lowpass";
    filter.frequency.setValueAtTime(note.f0, start);
    filter.frequency.exponentialRampToValueAtTime(note.f1, end);
    source.connect(filter).connect(gain);
  } else {
    source = ctx.createOscillator();
    source.type = note.wave;
    source.frequency.setValueAtTime(note.f0, start);
    source.frequency.exponentialRampToValueAtTime(note.f1, end);
    source.connect(gain);
  }
  gain.connect(master);
  source.start(start);
  source.stop(end + 0.02);
}

/** Plays a named sound, unless muted, silent, or before the player's first gesture. */
export function playSound(name) {
  if (!audio || settings.muted || settings.volume === 0 || !SOUNDS[name] || audio.ctx.state !== "running") return;
  const now = audio.ctx.currentTime + 0.01;
  for (const note of SOUNDS[name]) schedule(audio, note, now);
}

const SPEAKER = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path class="waves" d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><path class="cross" d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** The sound menu of the top bar: mute, and the volume. */
export function soundControls() {
  const summary = el("summary.btn.btn-ghost.btn-small", { id: "sound-btn", "aria-label": t("web.sound.title"), title: t("web.sound.title") });
  summary.innerHTML = SPEAKER;
  const mute = el("input", { type: "checkbox", id: "sound-mute", checked: settings.muted });
  const volume = el("input", { type: "range", id: "sound-volume", min: 0, max: 100, step: 5, value: Math.round(settings.volume * 100), "aria-label": t("web.sound.volume") });
  const menu = el(`details.sound-menu${settings.muted ? ".muted" : ""}`, { id: "sound-menu" }, summary,
    el("div.sound-panel", {}, el("label.row", {}, mute, " ", t("web.sound.mute")), el("label.field", {}, el("span", {}, t("web.sound.volume")), volume)));
  mute.addEventListener("change", () => { saveSettings({ muted: mute.checked }); menu.classList.toggle("muted", mute.checked); });
  volume.addEventListener("input", () => saveSettings({ volume: Number(volume.value) / 100 }));
  document.addEventListener("click", (event) => { if (menu.open && !menu.contains(event.target)) menu.open = false; });
  return menu;
}
