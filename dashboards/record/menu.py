"""The buttons of one entry: the events a step allows, split into taps.

An event is read as a path of tokens: the player, the kind, then its fields in order, a list
a token an element (a struct in a list a token a field, unless the game enters it whole).
The paths of every allowed event make a tree. A screen shows one node of it: where a node
holds few events (`FEW`) each is a button that enters it at once; where it holds many, each
branch is a button, and one holding a single event enters that event. A node with one branch
is passed through without a tap, so every tap chooses between at least two things.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

import msgspec

# Buttons that fit on a phone's screen at once: a node holding no more events than this shows
# them all, each entered by one tap.
FEW = 12
_ENCODER = msgspec.json.Encoder()


@dataclass(frozen=True)
class Token:
    """One step of an event's path: the field it sets (`steps.from`) and its value."""

    name: str
    value: Any

    @property
    def key(self) -> str:
        return _ENCODER.encode([self.name, self.value]).decode()


@dataclass(frozen=True)
class Shape:
    """How a game's events are read as paths (each game's `entry.SHAPE`, or the default)."""

    # Fields moved to the end of the path, in this order (Paladins' workers: the card first).
    last: tuple[str, ...] = ()
    # List fields whose elements may come in any order, entered one by one in the order
    # tapped (Heraldry's sites): every order the engine accepts is offered.
    unordered: frozenset[str] = frozenset()
    # List fields whose struct elements are one token each (a site: its hex and piece).
    whole: frozenset[str] = frozenset()
    # The fields that name whose entry an event is, the first one set: the player acting, or
    # the one a card is drawn to (Albus Academy's private homework).
    owners: tuple[str, ...] = ("player",)

    def owner(self, event: Any) -> str | None:
        for name in self.owners:
            value = getattr(event, name, None)
            if value is not None:
                return str(value)
        return None


def tokens(event: Any, shape: Shape, with_player: bool = True) -> tuple[Token, ...]:
    fields = msgspec.to_builtins(event)
    kind = fields.pop("kind")
    player = None
    for name in shape.owners:
        if fields.get(name) is not None:
            player = fields.pop(name)
            break
    path: list[Token] = []
    if with_player and player is not None:
        path.append(Token("player", player))
    path.append(Token("kind", kind))
    names = [n for n in fields if n not in shape.last] + [n for n in shape.last if n in fields]
    for name in names:
        _flatten(name, fields[name], shape, path)
    return tuple(path)


def _flatten(name: str, value: Any, shape: Shape, path: list[Token]) -> None:
    if isinstance(value, list) and not _is_pair(value):
        for item in value:
            if isinstance(item, dict) and name not in shape.whole:
                for sub, inner in item.items():
                    _flatten(f"{name}.{sub}", inner, shape, path)
            else:
                path.append(Token(name, item))
    elif isinstance(value, dict):
        for sub, inner in value.items():
            _flatten(f"{name}.{sub}", inner, shape, path)
    else:
        path.append(Token(name, value))


def _is_pair(value: list[Any]) -> bool:
    """A hex or a square, `[q, r]`: one token, not two."""
    return len(value) == 2 and all(isinstance(v, int) for v in value)


def orders(event: Any, shape: Shape) -> Iterable[Any]:
    """The event in every order of its unordered lists that the game accepts: the event
    itself first (a list of up to 4 elements; longer ones keep their order)."""
    yield event
    for name in shape.unordered:
        items = getattr(event, name, None)
        if not isinstance(items, list) or not 1 < len(items) <= 4:
            continue
        seen = {_ENCODER.encode(items)}
        for order in permutations(items):
            again = _ENCODER.encode(list(order))
            if again not in seen:
                seen.add(again)
                yield msgspec.structs.replace(event, **{name: list(order)})


@dataclass
class Node:
    token: Token | None
    depth: int
    leaves: list[Leaf] = field(default_factory=list)  # events whose path ends here
    children: dict[str, Node] = field(default_factory=dict)
    count: int = 0  # events at or under it
    loose: bool = False  # an event under it still has unordered elements to enter

    def child(self, key: str) -> Node:
        return self.children[key]


@dataclass(frozen=True)
class Leaf:
    event: Any
    path: tuple[Token, ...]
    data: bytes  # the event as the log writes it
    loose_from: int  # the path's index from which an unordered list's elements begin


@dataclass(frozen=True)
class Button:
    """One button of a screen: the tokens it adds to the entry (its label), and the event
    it enters, where it enters one."""

    key: str
    tokens: tuple[Token, ...]
    event: Any = None
    group: bool = False  # more taps follow

    @property
    def enters(self) -> bool:
        return self.event is not None


def build(events: Iterable[Any], shape: Shape, with_player: bool = True) -> Node:
    """The tree of the events' paths (each of its orders, for unordered lists)."""
    root = Node(None, 0)
    for event in events:
        for one in orders(event, shape):
            path = tokens(one, shape, with_player)
            loose = _loose_from(path, shape)
            _add(root, Leaf(one, path, _ENCODER.encode(one), loose))
    return root


def _loose_from(path: Sequence[Token], shape: Shape) -> int:
    names = [t.name for t in path]
    for name in shape.unordered:
        if names.count(name) > 1:
            return names.index(name)
    return len(path) + 1


def _add(root: Node, leaf: Leaf) -> None:
    node = root
    node.count += 1
    node.loose |= leaf.loose_from < len(leaf.path)
    for depth, token in enumerate(leaf.path, 1):
        key = token.key
        nxt = node.children.get(key)
        if nxt is None:
            nxt = node.children[key] = Node(token, depth)
        node = nxt
        node.count += 1
        node.loose |= leaf.loose_from < len(leaf.path) and depth <= leaf.loose_from + 1
    node.leaves.append(leaf)


def passed(node: Node) -> tuple[Node, tuple[Token, ...]]:
    """Down the node's single branches, which take no tap; the tokens passed on the way."""
    went: list[Token] = []
    while not node.leaves and len(node.children) == 1:
        node = next(iter(node.children.values()))
        assert node.token is not None
        went.append(node.token)
    return node, tuple(went)


def all_leaves(node: Node) -> list[Leaf]:
    found = list(node.leaves)
    for child in node.children.values():
        found.extend(all_leaves(child))
    return found


def buttons(node: Node, collapse: bool = True) -> list[Button]:
    """The buttons of a node (after `passed`): every event under it when few and none is
    entered in parts (an unordered list), else (or without `collapse`) its branches."""
    if collapse and node.count <= FEW and not node.loose:
        leaves = all_leaves(node)
        # what every one of them says (the round a reveal belongs to) is not worth a word
        same = set.intersection(*({t.key for t in leaf.path[node.depth :]} for leaf in leaves))
        if len(leaves) == 1:
            same = set()
        return [
            Button(
                leaf.data.decode(),
                tuple(t for t in leaf.path[node.depth :] if t.key not in same),
                event=leaf.event,
            )
            for leaf in leaves
        ]
    shown = [Button(leaf.data.decode(), (), event=leaf.event) for leaf in node.leaves]
    for key, child in node.children.items():
        below, went = passed(child)
        assert child.token is not None
        if below.count == 1:
            leaf = all_leaves(below)[0]
            shown.append(Button(leaf.data.decode(), leaf.path[node.depth :], event=leaf.event))
        else:
            if below.leaves:  # the event that ends here, and the ones that go on
                for leaf in below.leaves:
                    shown.append(
                        Button(leaf.data.decode(), leaf.path[node.depth :], event=leaf.event)
                    )
            shown.append(Button(key, (child.token, *went), group=True))
    return shown
