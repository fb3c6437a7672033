// The scorekeeper's plot: each side's running total after each hand, as an SVG line chart.

import { el, num } from "./html.js";

const SVG = "http://www.w3.org/2000/svg";

/** Draw into the figure the running totals (one row per hand, one number per side) against the target. */
export function drawPlot(fig, names, totals, target) {
  const W = 640, H = 260, L = 48, R = 16, T = 14, B = 30;
  const series = names.map((_, s) => [0, ...totals.map((row) => row[s])]);
  const all = [...series.flat(), 0, target];
  const lo = Math.min(...all), hi = Math.max(...all);
  const n = Math.max(1, totals.length);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + ((hi - v) / (hi - lo || 1)) * (H - T - B);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `The running scores of ${names.join(", ")} after each hand`);
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  for (const [v, cls] of [[0, "zero"], [target, "target"]]) {
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: cls });
    add("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, num(v));
  }
  for (let i = 0; i <= n; i++) {
    if (n <= 20 || i % 5 === 0) add("text", { x: x(i), y: H - 10, class: "axis", "text-anchor": "middle" }, String(i));
  }
  series.forEach((values, s) => {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    add("polyline", { points, class: `line team${s}`, "data-test": `plot-line-${s}`,
      "data-values": values.join(",") });
    values.forEach((v, i) => add("circle", { cx: x(i), cy: y(v), r: 3.2, class: `dot team${s}` }));
  });
  const legend = el("figcaption", {},
    ...names.map((name, s) => el("span", { class: `key team${s}` }, name)), " · hands along the bottom");
  fig.replaceChildren(svg, legend);
}
