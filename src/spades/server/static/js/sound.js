// Short sounds made in the page with the Web Audio API: nothing to fetch.

let ctx = null;

function tone(freq, start, length, type = "sine", gain = 0.08) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(gain, ctx.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length);
}

const SOUNDS = {
  card: () => tone(420, 0, 0.06, "triangle", 0.06),
  trick: () => { tone(660, 0, 0.12); tone(880, 0.1, 0.16); },
  turn: () => tone(520, 0, 0.18, "sine", 0.05),
  win: () => { tone(523, 0, 0.2); tone(659, 0.15, 0.2); tone(784, 0.3, 0.35); },
  lose: () => { tone(392, 0, 0.25); tone(311, 0.2, 0.4); },
};

// A browser starts audio made before the person's first tap or key suspended, with a console
// warning: so the sounds wait for that first tap or key.
let tapped = false;
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { tapped = true; }, { capture: true, once: true });
}

export function play(name, enabled) {
  if (!enabled || !tapped || !window.AudioContext) return;
  try {
    ctx = ctx || new AudioContext();
    SOUNDS[name]();
  } catch {
    // A browser that refuses audio simply stays quiet.
  }
}
