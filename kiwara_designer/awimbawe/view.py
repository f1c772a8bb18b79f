"""Plain-text drawings of what one player sees (for the terminal game and notebooks).
Draws an :class:`~.information.Observation` only, so it can never show a hidden card."""
from __future__ import annotations

from .information import Observation

NOTATION_HELP = """\
Moves are typed in notation (or picked by number):
  a card: G1 … P6 (grassland, desert, mountain, plain; 1 mouse, 2 rhinoceros, 3 cheetah,
          4 hyena, 5 snake, 6 elephant), E7 … E10 (eagles); a bare card uses no power
  G3:me / G3:you    cheetah: who leads the next trick
  D2:3>1            rhinoceros: the opponent's pile 3 top slides under their pile position 1
  M5:p2 / M5:h      snake: block the opponent's pile 2 top / a card of their hand, blind
  E9:flee / E9:fight  an eagle played on a land card
  start:me / start:you  after losing a round: who leads the next one
Piles are shown bottom to top, ? is a face-down card, * a blocked card.
Commands: help, moves (the numbered list again), quit."""


def _pile(cards: tuple[str, ...], blocked: set[str]) -> str:
    if not cards:
        return "—"
    return " ".join(c + ("*" if c in blocked else "") for c in cards)


def describe(view: Observation, names: tuple[str, str] = ("you", "opponent")) -> str:
    """The table as ``view.seat`` sees it: the opponent's side, the trick, their own side."""
    me, other = view.seat, 1 - view.seat
    blocked = set(view.blocked)
    lines = [f"Round {view.round} · rounds won: {names[0]} {view.rounds_won[me]}, "
             f"{names[1]} {view.rounds_won[other]} · tricks played {view.tricks}"]
    piles = "  ".join(f"[{k + 1}] {_pile(p, blocked)}" for k, p in enumerate(view.piles[other]))
    blind = f" ({view.blind_blocks} blocked)" if view.blind_blocks else ""
    lines.append(f"{names[1]}: hand {view.opponent_hand_size} cards{blind} · piles {piles}")
    lines.append(f"   hyenas {view.hyenas[other]} · crowns {view.crowns[other]}")
    if view.trick:
        who = names[0] if view.leader == me else names[1]
        lines.append(f"trick: {who} led {' '.join(view.trick)}")
    piles = "  ".join(f"[{k + 1}] {_pile(p, blocked)}" for k, p in enumerate(view.piles[me]))
    lines.append(f"{names[0]}: piles {piles}")
    lines.append(f"   hand {_pile(view.hand, blocked)} · hyenas {view.hyenas[me]} · "
                 f"crowns {view.crowns[me]}")
    return "\n".join(lines)
