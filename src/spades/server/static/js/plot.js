// Line charts as SVG, drawn in the page: the scorekeeper's running totals, a profile's rating history and
// the coach's points lost a hand.

import { el, num } from "./html.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * Draw into the figure a line per name through the rows (one row per step, one number per name), each line
 * from `start` (null: from the first row), with a labelled rule across at each of the `marks` ([value,
 * class]); `along` names the steps on the bottom axis, `what` the values.
 */
export function drawPlot(fig, names, rows, marks, { start = 0, along = "hands", what = "running scores" } = {}) {
  const W = 640, H = 260, L = 48, R = 16, T = 14, B = 30;
  const first = start === null ? 1 : 0;
  const series = names.map((_, s) => [...(start === null ? [] : [start]), ...rows.map((row) => row[s])]);
  const all = [...series.flat(), ...marks.map(([v]) => v)];
  const lo = Math.min(...all), hi = Math.max(...all);
  const n = Math.max(1, rows.length);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + ((hi - v) / (hi - lo || 1)) * (H - T - B);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `The ${what} of ${names.join(", ")} after each of the ${along}`);
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  for (const [v, cls] of marks) {
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: cls });
    add("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, num(v));
  }
  for (let i = first; i <= n; i++) {
    if (n <= 20 || i % 5 === 0) add("text", { x: x(i), y: H - 10, class: "axis", "text-anchor": "middle" }, String(i));
  }
  series.forEach((values, s) => {
    const points = values.map((v, i) => `${x(i + first).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    add("polyline", { points, class: `line team${s}`, "data-test": `plot-line-${s}`,
      "data-values": values.join(",") });
    values.forEach((v, i) => add("circle", { cx: x(i + first), cy: y(v), r: 3.2, class: `dot team${s}` }));
  });
  const legend = el("figcaption", {},
    ...names.map((name, s) => el("span", { class: `key team${s}` }, name)), ` · ${along} along the bottom`);
  fig.replaceChildren(svg, legend);
}
