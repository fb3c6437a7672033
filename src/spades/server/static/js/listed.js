// The tournaments their hosts listed for anyone to join, as the tournaments' page and the lobby show them:
// each a link to its page, with its format, rules and rounds, and where it stands.

import { api } from "./api.js";
import { el, plural } from "./html.js";

/** A tournament's format as a key of FORMAT_NAMES (and of the tournament page's descriptions). */
export const kind = (t) => (t.individual ? "swiss-individual" : t.format);

const FORMAT_NAMES = {
  "duplicate-pairs": "duplicate pairs", swiss: "Swiss, fixed pairs", "swiss-individual": "Swiss, individual",
  teams: "teams of four",
};

/** Fill the list with the listed tournaments; `none` (a line saying there are none) shows when it is empty. */
export async function showListed(list, none) {
  const listed = await api.get("/api/tournaments");
  none.hidden = listed.length > 0;
  list.replaceChildren(...listed.map((t) => el("li", {},
    el("a", { href: `/tournaments/${encodeURIComponent(t.code)}` }, t.name),
    ` · ${FORMAT_NAMES[kind(t)]}, ${t.rules_name} rules to ${t.target}, ${plural(t.rounds, "round")}`
      + `${t.to_target ? ", each a game to the target" : ` of ${plural(t.boards, "board")}`} · `
      + (t.status === "open" ? `${t.people} registered so far` : `under way, ${t.people} playing`))));
}
