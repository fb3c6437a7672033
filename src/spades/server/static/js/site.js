// The site's pages, listed once: every page's header links to the others from here (a page marks its
// header's <nav data-site>; the game's page puts them in its tools, see main.js).
export const PAGES = [
  ["/", "Play"], ["/lobby", "Lobby"], ["/tournaments", "Tournaments"], ["/leaderboard", "Leaderboard"],
  ["/scorekeeper", "Scorekeeper"], ["/rules", "How to play"],
];

// Add to `nav` a link to each page but `here` (this one) and those it links to already, before `before`
// (or last). A nav of buttons (class "tools") gets links that look like its buttons.
export function addSiteLinks(nav, { before = null, here = location.pathname.replace(/\/+$/, "") || "/" } = {}) {
  const there = new Set([...nav.querySelectorAll("a")].map((a) => new URL(a.href).pathname));
  for (const [path, name] of PAGES) {
    if (path === here || there.has(path)) continue;
    const a = document.createElement("a");
    a.href = path;
    a.textContent = name;
    if (nav.classList.contains("tools")) a.className = "button";
    nav.insertBefore(a, before);
  }
}

for (const nav of document.querySelectorAll("nav[data-site]")) addSiteLinks(nav);
