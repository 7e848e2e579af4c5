"""Gnav (source 003, Norwegian; Kille in Sweden, Cucù in Italy; 2-12 players, 42 cards).

The deck has two each of 21 cards (``tutor/gnav_deck.py``). From the top: the Cuckoo, the
Dragoon, the Cat, the Horse, the House, the numbers 12 down to 1, the Fool, the Pot, the Owl
and the 0 (the ``low_order`` option ``fool_lowest`` ranks the lowest cards ... 1, 0, the Pot,
the Owl, the Fool). Everyone starts with ``points`` points (default 3). The players sit in seat
order round the table: the player on a seat's left is the next seat.

1. The deck is shuffled and the first dealer is drawn (one chance move, ``shuffle``: the
   order of the deck, top first, and the dealer's seat). Every round the dealer deals one card
   to each player from the top of the deck, starting on the dealer's left.
2. A player dealt the Fool may **knock** three times on the table for an extra point (``knock``)
   or keep quiet (``quiet``), in turn from the dealer's left, before any trading.
3. Then each player in turn, from the dealer's left, **trades** (``trade``) with the player on
   their left, or **stands** (``stand``). The dealer comes last and trades with the deck: the
   top card of the deck becomes the dealer's, and the dealer's card goes face up on the
   discard pile.
4. A player asked to trade must give their card (``accept``) unless they hold a matador that
   refuses (``call``):
   - the **Cuckoo** ("stand for the Cuckoo"): all trading stops; its holder wins the round and
     gains a point, everyone else loses a point;
   - the **Dragoon** ("cut off"): the asker keeps their card and loses a point; the Dragoon's
     holder does not trade, the player on its left trades next;
   - the **Cat** ("kiss"), the **Horse** and the **House** ("horse pass", "house pass"): the
     asker keeps their card, loses a point and must try the next player to the left.
   After a trade (or a refusal without a trade) the turn passes to the asker's left.
5. When the dealer has traded or stood, every card is shown. The highest card wins the round
   and a point. If exactly one Fool is in play, its holder loses a point, and so does the
   holder of the lowest of the other cards. The round's cards go face up on the discard pile,
   the next player to the left deals, and a new round starts.
6. The game ends when the deck cannot deal a new round (or after ``round_limit`` rounds, when
   set); the most points wins, and equal points share the win.

Decisions (games.md, "Gnav", and where the source is silent):

- The round's winner gains 1 point (the source says both "the highest card scores a point" and
  "the Cuckoo's holder takes the round's point"); the losses are as listed above.
- Points never go below 0 and nobody is knocked out: a loss at 0 points is no loss. Every
  change applies when it happens (the knock's point, a refused asker's loss, the Cuckoo's
  points); at the end of a round the winner's point comes first, then the lone Fool's losses.
- The knock comes right after the deal, so a Fool received by trade (or drawn by the dealer)
  never knocks. Nobody but its holder learns that a player kept quiet about a Fool.
- A matador the dealer draws from the deck is just the dealer's new card (no call). With an
  empty deck the dealer stands.
- A refused asker tries the players further to the left, up to the dealer; past the dealer
  there is nobody left to try, and the asker keeps their card. A Dragoon held by the dealer
  ends the trading (the player on its left has had their turn).
- Two Cuckoos: the first one asked stops the trading. Two equal highest cards at the end:
  their holders each draw the top card of the deck, in turn from the dealer's left, and the
  highest draw wins (again on a tie); if the deck has too few cards, nobody wins the round.
- The lone-Fool rule applies only when exactly one Fool is held at the end (not when the
  Cuckoo stops the trading: then everyone but the Cuckoo loses a point anyway). Equal lowest
  other cards: each holder loses a point.
- The cards put away at the end of a round, the dealer's discarded card and the cards drawn
  for a tie lie face up on the discard pile: every player may know them. A matador that
  refuses a trade is shown. A player knows the cards of their own trades; nobody else sees them.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tutor import gnav_deck
from tutor.engine.core import CHANCE, TERMINAL, Bot, Game, InvalidState, Move, Option, State, stored_int
from tutor.engine.war_family import card_list
from tutor.gnav_deck import CUT_OFF, ORDERS, SEED_ORDER, STOP, face_rank, is_fool, rank, refusal
from tutor.text import N_

PHASES = ("shuffle", "knock", "turn", "answer", "over")
END_REASONS = ("", "deck", "round_limit")
#: Round records keep who saw which cards: these event kinds name cards only some players may know.
PRIVATE_CARDS = {"trade": ("gave", "got"), "draw": ("got",), "stand": ("card",)}
#: The beginner trades this card and every lower one most of the time.
BEGINNER_TRADES_UP_TO = "6"


def play_order(dealer: int, players: int) -> list[int]:
    """The seats from the dealer's left round to the dealer."""
    return [(dealer + step) % players for step in range(1, players + 1)]


class GnavState(State):
    """The deck, one card in each hand, the face-up discard pile, the points, and the round in play."""

    game: Gnav

    def __init__(self, game: Gnav) -> None:
        super().__init__(game)
        seats = game.players
        self.deck: list[int] = list(game.card_ids())  # face down, top first (in id order until the shuffle)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.discard: list[int] = []  # face up, in the order the cards were put down
        self.points = [game.options["points"]] * seats
        self.dealer = 0
        self.turn = 0  # who trades or stands next (the turn phase)
        self.asker = 0  # who asked to trade, and who is asked now (the answer phase)
        self.asked = 0
        self.waiting: list[int] = []  # the players dealt a Fool who have not yet chosen to knock (the knock phase)
        self.phase = "shuffle"
        self.rounds = 0  # rounds played to the end
        self.exposed: dict[str, int] = {}  # a matador shown by its call, while its holder keeps it
        self.seq = 0  # events told so far in the game: each event's number
        self.round: dict = {}  # the round in play: its number, dealer and events
        self.history: list[dict] = []  # every finished round's record
        self.ended_by = ""

    # --- the engine API --------------------------------------------------------------------------
    @property
    def order(self) -> str:
        return self.game.options["low_order"]

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "shuffle":
            return CHANCE
        if self.phase == "knock":
            return self.waiting[0]
        return self.asked if self.phase == "answer" else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        return [p for p, count in enumerate(self.points) if count == max(self.points)]

    def legal_moves(self) -> list[Move]:
        if self.phase == "knock":
            player = self.waiting[0]
            return [Move("knock", player), Move("quiet", player)]
        if self.phase == "turn":
            player = self.turn
            can_trade = player != self.dealer or bool(self.deck)
            return [Move("trade", player)] * can_trade + [Move("stand", player)]
        if self.phase == "answer":
            player = self.asked
            return [Move("accept", player)] + [Move("call", player)] * (refusal(self.hands[player][0]) is not None)
        return []

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase != "shuffle":
            raise InvalidState("no chance event is pending")
        order = list(self.deck)
        rng.shuffle(order)
        return Move("shuffle", CHANCE, tuple(order), str(rng.randrange(self.game.players)))

    def is_legal_chance(self, move: Move) -> bool:
        return (
            self.phase == "shuffle"
            and move.kind == "shuffle"
            and sorted(move.cards) == sorted(self.deck)
            and move.detail in {str(p) for p in range(self.game.players)}
        )

    def _apply(self, move: Move) -> None:
        if move.kind == "shuffle":
            self.deck, self.dealer = list(move.cards), int(move.detail)
            self._start_round()
        elif move.kind in ("knock", "quiet"):
            self._knock(move.player, move.kind == "knock")
        elif move.kind == "stand":
            self._event("stand", move.player, player=move.player, card=self.hands[move.player][0])
            self._next_turn(move.player)
        elif move.kind == "trade":
            self._trade(move.player)
        elif move.kind == "accept":
            self._accept()
        else:
            self._call()

    # --- the rules ---------------------------------------------------------------------------------
    def left_of(self, player: int) -> int:
        return (player + 1) % self.game.players

    def _event(self, kind: str, by: int | None, **fields) -> dict:
        self.seq += 1
        event = {"seq": self.seq, "kind": kind, "by": by, **fields}
        self.round["events"].append(event)
        return event

    def _change(self, player: int, delta: int) -> int:
        """Add ``delta`` to the player's points, never below 0; the change made."""
        before = self.points[player]
        self.points[player] = max(0, before + delta)
        made = self.points[player] - before
        changes = self.round["changes"]
        changes[str(player)] = changes.get(str(player), 0) + made
        return made

    def _start_round(self) -> None:
        limit, seats = self.game.options["round_limit"], self.game.players
        if limit and self.rounds >= limit:
            self._end("round_limit")
            return
        if len(self.deck) < seats:
            self._end("deck")
            return
        self.round = {"round": self.rounds + 1, "dealer": self.dealer, "events": [], "changes": {}}
        order = play_order(self.dealer, seats)
        for player in order:
            self.hands[player] = [self.deck.pop(0)]
        self.exposed = {}
        self.waiting = [p for p in order if is_fool(self.hands[p][0])]
        self.turn = self.left_of(self.dealer)
        self.phase = "knock" if self.waiting else "turn"

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by, self.round = "over", reason, {}

    def _knock(self, player: int, knocks: bool) -> None:
        if knocks:
            self._event("knock", player, player=player, gained=self._change(player, 1))
        else:
            self._event("quiet", player, player=player)
        self.waiting.pop(0)
        if not self.waiting:
            self.phase = "turn"

    def _next_turn(self, after: int) -> None:
        """The turn passes to the left of ``after``; after the dealer the cards are shown."""
        if after == self.dealer:
            self._showdown()
        else:
            self.turn, self.phase = self.left_of(after), "turn"

    def _trade(self, player: int) -> None:
        if player == self.dealer:
            old, new = self.hands[player][0], self.deck.pop(0)
            self.hands[player] = [new]
            self.discard.append(old)
            self.exposed.pop(str(player), None)
            self._event("draw", player, player=player, gave=old, got=new)
            self._showdown()
            return
        self.asker, self.asked, self.phase = player, self.left_of(player), "answer"
        self._event("ask", player, player=player, to=self.asked)

    def _accept(self) -> None:
        asker, asked = self.asker, self.asked
        gave, got = self.hands[asker][0], self.hands[asked][0]
        self.hands[asker], self.hands[asked] = [got], [gave]
        self.exposed.pop(str(asker), None)
        self.exposed.pop(str(asked), None)
        self._event("trade", asked, player=asker, to=asked, gave=gave, got=got)
        self._next_turn(asker)

    def _call(self) -> None:
        asker, asked = self.asker, self.asked
        shown = self.hands[asked][0]
        how = refusal(shown)
        self.exposed[str(asked)] = shown
        if how == STOP:
            self._event("call", asked, player=asker, to=asked, card=shown, refuses=how, lost=0, next=None)
            self._cuckoo_stops(asked)
            return
        lost = -self._change(asker, -1)
        # the next to trade (the Dragoon), or to be asked (the Cat, the Horse, the House); past the dealer: nobody
        after = None if asked == self.dealer else self.left_of(asked)
        self._event("call", asked, player=asker, to=asked, card=shown, refuses=how, lost=lost, next=after)
        if how == CUT_OFF:  # the Dragoon's holder does not trade: the player on its left trades on
            self._next_turn(asked)
        elif after is None:
            self._next_turn(asker)
        else:
            self.asked = after
            self._event("ask", asked, player=asker, to=after)

    def _cuckoo_stops(self, holder: int) -> None:
        """All trading stops: the Cuckoo's holder wins the round, everyone else loses a point."""
        self._change(holder, 1)
        losers = [p for p in play_order(self.dealer, self.game.players) if p != holder]
        self._finish_round(ended="cuckoo", winner=holder, spared=self._lose(losers))

    def _lose(self, players: list[int]) -> list[int]:
        """Each of ``players`` loses a point; those who had none to lose (points never go below 0)."""
        return [player for player in players if not self._change(player, -1)]

    def _showdown(self) -> None:
        """Every card is shown: the highest wins a point (equal highest draw from the deck), then the lone Fool."""
        order = play_order(self.dealer, self.game.players)
        cards = {p: self.hands[p][0] for p in order}
        best = max(rank(c, self.order) for c in cards.values())
        highest = [p for p in order if rank(cards[p], self.order) == best]
        contenders, draws = highest, []
        while len(contenders) > 1 and len(self.deck) >= len(contenders):
            drawn = {p: self.deck.pop(0) for p in contenders}
            draws.append({str(p): c for p, c in drawn.items()})
            self.discard.extend(drawn.values())
            top = max(rank(c, self.order) for c in drawn.values())
            contenders = [p for p in contenders if rank(drawn[p], self.order) == top]
        winner = contenders[0] if len(contenders) == 1 else None
        if winner is not None:
            self._change(winner, 1)
        fools = [p for p in order if is_fool(cards[p])]
        lone, lowest, spared = (fools[0] if len(fools) == 1 else None), [], []
        if lone is not None:
            others = [p for p in order if p != lone]
            low = min(rank(cards[p], self.order) for p in others)
            lowest = [p for p in others if rank(cards[p], self.order) == low]
            spared = self._lose([lone, *lowest])
        self._finish_round(
            ended="showdown",
            winner=winner,
            highest=highest,
            draws=draws,
            lone_fool=lone,
            lowest=lowest,
            spared=spared,
        )

    def _finish_round(self, ended: str, winner: int | None, **showdown) -> None:
        """Every card is shown and put away face up; the next player deals a new round."""
        order = play_order(self.dealer, self.game.players)
        cards = {str(p): self.hands[p][0] for p in order}
        self._event("end", None, ended=ended, cards=cards, winner=winner, points=list(self.points), **showdown)
        self.discard.extend(cards.values())
        self.hands = [[] for _ in self.hands]
        self.exposed = {}
        self.history.append(self.round)
        self.rounds += 1
        self.dealer = self.left_of(self.dealer)
        self._start_round()

    # --- views and storage ---------------------------------------------------------------------------
    def visible_events(self, events: list[dict], player: int) -> list[dict]:
        """The events as ``player`` knows them: another's trade without its cards, another's silence not at all."""
        shown = []
        for event in events:
            if event["kind"] == "quiet" and event["player"] != player:
                continue
            hidden = PRIVATE_CARDS.get(event["kind"], ())
            involved = player in (event.get("player"), event.get("to"))
            shown.append({k: v for k, v in event.items() if involved or k not in hidden})
        return shown

    def seen_by(self, player: int) -> list[int]:
        """Every card ``player`` knows: the discard pile, their own card, the matadors shown, their own trades'."""
        known = set(self.discard) | set(self.hands[player]) | set(self.exposed.values())
        for event in self.round.get("events", []):
            if event["kind"] in PRIVATE_CARDS and player in (event["player"], event.get("to")):
                known.update(event[key] for key in PRIVATE_CARDS[event["kind"]])
        return sorted(known)

    def player_view(self, player: int) -> dict:
        options = self.game.options
        knock_phase = self.phase == "knock"
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "phase": self.phase,
            # who decides to knock stays secret: it says who holds a Fool
            "to_move": None
            if self.is_over or self.phase == "shuffle" or (knock_phase and self.waiting[0] != player)
            else self.current_player,
            "dealer": self.dealer,
            "asker": self.asker if self.phase == "answer" else None,
            "asked": self.asked if self.phase == "answer" else None,
            # not "hand": the lesson page draws a view's hand as cards to choose, and Gnav's choices are buttons
            "card": list(self.hands[player]),
            "points": list(self.points),
            "deck_count": len(self.deck),
            "discard": list(self.discard),
            "exposed": dict(self.exposed),
            "seen": self.seen_by(player),
            "rounds": self.rounds,
            "round_limit": options["round_limit"],
            "low_order": options["low_order"],
            "round": {**self.round, "events": self.visible_events(self.round["events"], player)} if self.round else {},
            "history": [{**record, "events": self.visible_events(record["events"], player)} for record in self.history],
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        return self.deck + [c for hand in self.hands for c in hand] + self.discard

    def summary(self) -> dict:
        return {
            "rounds": self.rounds,
            "ended_by": self.ended_by,
            "points": {str(p): count for p, count in enumerate(self.points)},
            "deck_left": len(self.deck),
            "discarded": len(self.discard),
        }

    def to_dict(self) -> dict:
        return {
            "deck": list(self.deck),
            "hands": [list(hand) for hand in self.hands],
            "discard": list(self.discard),
            "points": list(self.points),
            "dealer": self.dealer,
            "turn": self.turn,
            "asker": self.asker,
            "asked": self.asked,
            "waiting": list(self.waiting),
            "phase": self.phase,
            "rounds": self.rounds,
            "exposed": dict(self.exposed),
            "seq": self.seq,
            "round": self.round,
            "history": self.history,
            "ended_by": self.ended_by,
        }

    @classmethod
    def from_dict(cls, game: Gnav, data: dict) -> GnavState:
        state = cls(game)
        try:
            state.deck = card_list(data["deck"], "the deck")
            state.hands = [card_list(hand, "a hand") for hand in data["hands"]]
            state.discard = card_list(data["discard"], "the discard pile")
            state.points = [stored_int(n) for n in data["points"]]
            state.dealer, state.turn = stored_int(data["dealer"]), stored_int(data["turn"])
            state.asker, state.asked = stored_int(data["asker"]), stored_int(data["asked"])
            state.waiting = [stored_int(p) for p in data["waiting"]]
            state.phase, state.ended_by = str(data["phase"]), str(data["ended_by"])
            state.rounds, state.seq = stored_int(data["rounds"]), stored_int(data["seq"])
            if not isinstance(data["exposed"], dict):
                raise TypeError("the shown matadors are not a table")
            state.exposed = {str(p): stored_int(c) for p, c in data["exposed"].items()}
            state.round, state.history = data["round"], data["history"]
            if not isinstance(state.round, dict) or not isinstance(state.history, list):
                raise TypeError("the round records are not records")
            if not all(isinstance(record, dict) and isinstance(record.get("events"), list) for record in state.history):
                raise TypeError("a finished round without its events")
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"gnav: malformed state ({error})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        self.check_in_stages(self._shape_problems, self._card_problems, self._phase_problems)

    def _shape_problems(self) -> list[str]:
        seats = range(self.game.players)
        problems = []
        if len(self.hands) != len(seats) or len(self.points) != len(seats) or any(len(h) > 1 for h in self.hands):
            problems.append("wrong number of seats, or a hand of more than one card")
        if (
            self.phase not in PHASES
            or self.ended_by not in END_REASONS
            or (self.phase == "over") != bool(self.ended_by)
        ):
            problems.append("unknown phase or end reason")
        if any(p not in seats for p in (self.dealer, self.turn, self.asker, self.asked, *self.waiting)):
            problems.append("a player who has no seat")
        if any(n < 0 for n in self.points) or self.seq < 0:
            problems.append("a negative count")
        limit = self.game.options["round_limit"]
        if not 0 <= self.rounds <= len(self.game.card_ids()) // len(seats) or (limit and self.rounds > limit):
            problems.append("an impossible number of rounds")
        if len(self.history) != self.rounds:
            problems.append("a finished round without its record")
        if any(p not in {str(s) for s in seats} for p in self.exposed):
            problems.append("a shown card of a player who has no seat")
        return problems

    def _card_problems(self) -> list[str]:
        ids = self.card_ids()
        if len(ids) != len(set(ids)) or sorted(ids) != sorted(self.game.card_ids()):
            return ["cards lost or duplicated"]
        return []

    def _phase_problems(self) -> list[str]:
        """The hands, the records and whose move it is must fit the phase."""
        dealt = self.phase in ("knock", "turn", "answer")
        if any(len(hand) != dealt for hand in self.hands):
            return ["the hands do not fit the phase"]
        if self.phase == "shuffle" and (self.deck != sorted(self.deck) or self.discard or self.rounds or self.round):
            return ["a game not yet shuffled with cards already played"]
        if dealt != bool(self.round) or (dealt and not isinstance(self.round.get("events"), list)):
            return ["the round in play does not fit the phase"]
        if any(self.hands[int(p)] != [card] or refusal(card) is None for p, card in self.exposed.items()):
            return ["a shown card that is not a matador its player holds"]
        order = play_order(self.dealer, self.game.players)
        if self.phase == "knock":
            knocking = [p for p in order if p in self.waiting]
            if not self.waiting or knocking != self.waiting or not all(is_fool(self.hands[p][0]) for p in self.waiting):
                return ["a player waiting to knock who was not dealt the Fool"]
        elif self.waiting:
            return ["players waiting to knock outside the knock phase"]
        if self.phase == "answer" and (self.asker == self.dealer or order.index(self.asked) <= order.index(self.asker)):
            return ["a player asked to trade who is not to the asker's left, up to the dealer"]
        return []


# --- computer players ---------------------------------------------------------------------------------


def unseen_higher(view: dict) -> tuple[int, int]:
    """How many cards the player has not seen, and how many of them beat the player's card."""
    seen, mine, order = set(view["seen"]), view["card"][0], view["low_order"]
    unseen = [c for c in gnav_deck.deck() if c not in seen]
    return sum(rank(c, order) > rank(mine, order) for c in unseen), len(unseen)


def answer_or_knock(legal: list[Move]) -> Move | None:
    """What every computer player does: knock with the Fool, refuse with a matador, else give the card."""
    kinds = {move.kind: move for move in legal}
    for kind in ("knock", "call", "accept"):
        if kind in kinds:
            return kinds[kind]
    return None


class BeginnerBot(Bot):
    """Trades a low card (:data:`BEGINNER_TRADES_UP_TO` or lower) most of the time, and a higher one now and then."""

    name = "beginner"
    label = N_("beginner")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        forced = answer_or_knock(legal)
        if forced is not None:
            return forced
        low = rank(view["card"][0], view["low_order"]) <= face_rank(BEGINNER_TRADES_UP_TO, view["low_order"])
        wants = rng.random() < (0.8 if low else 0.15)
        return legal[0] if wants and legal[0].kind == "trade" else legal[-1]


class StrongBot(Bot):
    """Trades by the odds: when more than half of the cards it has not seen beat its card.

    A matador its left neighbour has shown is known: it trades for it only if it is higher
    and would not refuse.
    """

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        forced = answer_or_knock(legal)
        if forced is not None:
            return forced
        if legal[0].kind != "trade":
            return legal[-1]
        me, mine, order = view["you"], view["card"][0], view["low_order"]
        shown = view["exposed"].get(str((me + 1) % view["players"])) if me != view["dealer"] else None
        if shown is not None:
            wants = refusal(shown) is None and rank(shown, order) > rank(mine, order)
        else:
            higher, unseen = unseen_higher(view)
            wants = 2 * higher > unseen
        return legal[0] if wants else legal[-1]


class Gnav(Game):
    """Rules and options of Gnav."""

    id: ClassVar[str] = "gnav"
    title: ClassVar[str] = N_("Gnav")
    order: ClassVar[int] = 210
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 12
    state_class = GnavState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = (
        Option("points", N_("Points each player starts with"), 3, minimum=1, maximum=20),
        Option("low_order", N_("Order of the lowest cards"), SEED_ORDER, choices=ORDERS),
        Option("round_limit", N_("Number of rounds (0 = play until the deck runs out)"), 0, minimum=0, maximum=21),
    )

    def card_ids(self) -> tuple[int, ...]:
        return gnav_deck.deck()
