"""The viewer's move log: the match's sentences as a list that scrolls to the step shown, whose
rows jump to their step, and that also takes the arrow keys and plays the match by itself.

Why one browser-side component: a button's keyboard shortcut is a trigger, and two presses
that reach the server before its run reads the first count once (ten presses of → moved eight
steps). Here the browser keeps its own count of where the presses lead and sends that target
with a sequence number; the server moves to the latest target it gets, so a press is never
lost however many runs it overtakes. Autoplay asks for the next step only once the page shows
the one before, so a slow run slows the play down instead of piling up steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st
import streamlit.components.v2 as components

CSS = """
.log { max-height: 20rem; overflow-y: auto; border: 1px solid rgba(128,128,128,.3);
  border-radius: .5rem; font-size: .9rem; line-height: 1.35; }
.row { display: flex; gap: .5rem; padding: .25rem .5rem; cursor: pointer;
  border-bottom: 1px solid rgba(128,128,128,.12); }
.row:hover { background: rgba(128,128,128,.12); }
.row.now { background: rgba(255,75,75,.14); font-weight: 600; }
.n { flex: 0 0 2.6rem; text-align: right; color: rgba(128,128,128,.9);
  font-variant-numeric: tabular-nums; }
.s { flex: 1 1 auto; overflow-wrap: anywhere; }
"""

# Module scope outlives each run's call: the count of presses sent and where they lead.
JS = """
let sent = 0;
let target = null;

export default function (component) {
  const { data, setStateValue, parentElement } = component;
  const { step, last, acked, playing, every, rows, start } = data;
  if (target === null || acked >= sent) target = step;  // caught up: the page's step stands
  const go = (to) => {
    target = Math.max(0, Math.min(last, to));
    sent += 1;
    setStateValue("moved", { to: target, seq: sent });
  };

  let log = parentElement.querySelector(".log");
  if (!log) {
    log = document.createElement("div");
    log.className = "log";
    log.setAttribute("role", "list");
    parentElement.appendChild(log);
  }
  log.replaceChildren();
  rows.forEach((text, i) => {
    const at = start + i;
    const row = document.createElement("div");
    row.className = at === step ? "row now" : "row";
    row.setAttribute("role", "listitem");
    row.dataset.step = String(at);
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = String(at);
    const s = document.createElement("span");
    s.className = "s";
    s.textContent = text;
    row.append(n, s);
    row.onclick = () => go(at);
    log.appendChild(row);
  });
  const now = log.querySelector(".row.now");
  if (now) log.scrollTop = now.offsetTop - log.clientHeight / 2 + now.clientHeight / 2;

  const key = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const el = e.composedPath()[0];
    const tag = el && el.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (el && (el.isContentEditable || el.getAttribute?.("role") === "slider")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); go(target + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); go(target - 1); }
  };
  document.addEventListener("keydown", key);
  let tick = null;
  if (playing && acked >= sent && step < last) tick = setTimeout(() => go(step + 1), every);
  return () => {
    document.removeEventListener("keydown", key);
    if (tick) clearTimeout(tick);
  };
}
"""

_log = components.component("squire.move_log", css=CSS, js=JS)

MOVED = "moved"


def move_log(
    key: str,
    sentences: Sequence[str],
    step: int,
    *,
    acked: int,
    playing: bool,
    every_ms: int,
    on_move: Callable[[], None],
) -> None:
    """The list of `sentences` (the one of step n at n - 1, the start at 0 a heading), the
    current step's marked. `acked` is the sequence number of the last move the page took;
    `on_move` reads the move from `moved(key)`."""
    last = len(sentences) - 1
    _log(
        key=key,
        data={
            "step": step,
            "last": last,
            "acked": acked,
            "playing": playing,
            "every": every_ms,
            "rows": list(sentences),
            "start": 0,
        },
        on_moved_change=on_move,
    )


def moved(key: str) -> tuple[int, int] | None:
    """The step the latest move asked for and its sequence number."""
    state = st.session_state.get(key)
    asked = state.get(MOVED) if state is not None else None
    if not asked:
        return None
    return int(asked["to"]), int(asked["seq"])
