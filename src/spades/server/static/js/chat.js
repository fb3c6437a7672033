// A friends' table's talk: the chat log drawn from the table's lines, the reactions offered, and
// sending a line.

import { $, state } from "./state.js";
import { el } from "./html.js";

// The chat as last drawn, and for which seat ("You"): an update that did not change it draws nothing.
let drawnChat = { lines: [], you: null };

/** The chat as the table has it. Only the lines not shown yet are added (the log is a live region:
 * what is added is read out), the oldest dropped as the server drops them; the log follows the newest
 * line unless the person has scrolled up to read. */
export function drawChat(t) {
  $("chat").hidden = false;
  const log = $("chat-log");
  const same = (a, b) => a.seat === b.seat && a.name === b.name && a.text === b.text && a.reaction === b.reaction;
  if (t.chat !== drawnChat.lines || t.you !== drawnChat.you) {
    const old = t.you === drawnChat.you ? drawnChat.lines : [];
    let kept = Math.min(old.length, t.chat.length);  // the longest end of the old log that starts the new
    while (kept && !t.chat.slice(0, kept).every((c, i) => same(c, old[old.length - kept + i]))) kept -= 1;
    const following = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    while (log.children.length > kept) log.firstElementChild.remove();
    log.append(...t.chat.slice(kept).map((c) => el("p", c.reaction ? { class: "reaction" } : {},
      el("strong", {}, c.seat === t.you ? "You" : c.name), `: ${c.text}`)));
    if (following) log.scrollTop = log.scrollHeight;
    drawnChat = { lines: t.chat, you: t.you };
  }
  if (!$("reactions").children.length) {
    $("reactions").replaceChildren(...Object.entries(t.reactions).map(([name, text]) =>
      el("button", { type: "button", "data-act": "react", "data-reaction": name }, text)));
  }
}

/** The chat form sent: the line to the table (a refusal puts it back in the box, see live.js). */
export function sendChat(e) {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text || !state.remote) return;
  $("chat-error").textContent = "";
  state.remote.send({ do: "chat", text });
  $("chat-text").value = "";
}
