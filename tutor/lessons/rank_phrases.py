"""How a sentence names a standard card by its rank, with its article and whose card it is.

A bare rank reads as a fragment in a sentence ("jack beats 8 and 6"): the languages inflect the
noun (nb *knekten*, sv *knekten*, it *il fante*) and say whose card it is in their own order (nb
*knekten din*, sv *din knekt*, it *il tuo fante*, *la tua donna*). So each rank is one message
per use, with a context: the card ("the jack"), the pupil's ("your jack"), another player's
("Computer 2's jack") and the house's in Casino War ("the house's jack"). A sentence that starts
with one of them is marked :meth:`Text.as_sentence`, so it starts with a capital in every language.
"""

from __future__ import annotations

from tutor.standard_deck import ACE, JACK, JOKER_RANK, KING, QUEEN, card
from tutor.text import NC_, Text

THE = {
    ACE: NC_("a card in a sentence, with its article", "the ace"),
    KING: NC_("a card in a sentence, with its article", "the king"),
    QUEEN: NC_("a card in a sentence, with its article", "the queen"),
    JACK: NC_("a card in a sentence, with its article", "the jack"),
    JOKER_RANK: NC_("a card in a sentence, with its article", "the joker"),
    2: NC_("a card in a sentence, with its article", "the 2"),
    3: NC_("a card in a sentence, with its article", "the 3"),
    4: NC_("a card in a sentence, with its article", "the 4"),
    5: NC_("a card in a sentence, with its article", "the 5"),
    6: NC_("a card in a sentence, with its article", "the 6"),
    7: NC_("a card in a sentence, with its article", "the 7"),
    8: NC_("a card in a sentence, with its article", "the 8"),
    9: NC_("a card in a sentence, with its article", "the 9"),
    10: NC_("a card in a sentence, with its article", "the 10"),
}
YOUR = {
    ACE: NC_("a card in a sentence: the pupil's card", "your ace"),
    KING: NC_("a card in a sentence: the pupil's card", "your king"),
    QUEEN: NC_("a card in a sentence: the pupil's card", "your queen"),
    JACK: NC_("a card in a sentence: the pupil's card", "your jack"),
    JOKER_RANK: NC_("a card in a sentence: the pupil's card", "your joker"),
    2: NC_("a card in a sentence: the pupil's card", "your 2"),
    3: NC_("a card in a sentence: the pupil's card", "your 3"),
    4: NC_("a card in a sentence: the pupil's card", "your 4"),
    5: NC_("a card in a sentence: the pupil's card", "your 5"),
    6: NC_("a card in a sentence: the pupil's card", "your 6"),
    7: NC_("a card in a sentence: the pupil's card", "your 7"),
    8: NC_("a card in a sentence: the pupil's card", "your 8"),
    9: NC_("a card in a sentence: the pupil's card", "your 9"),
    10: NC_("a card in a sentence: the pupil's card", "your 10"),
}
PLAYERS = {
    # Translators: %(name)s is a computer player's name ("Computer 2").
    ACE: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's ace"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    KING: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's king"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    QUEEN: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's queen"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    JACK: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's jack"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    JOKER_RANK: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's joker"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    2: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 2"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    3: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 3"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    4: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 4"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    5: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 5"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    6: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 6"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    7: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 7"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    8: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 8"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    9: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 9"),
    # Translators: %(name)s is a computer player's name ("Computer 2").
    10: NC_("a card in a sentence: a computer player's card, %(name)s is its name", "%(name)s's 10"),
}
HOUSES = {
    ACE: NC_("a card in a sentence: the house's card (Casino War)", "the house's ace"),
    KING: NC_("a card in a sentence: the house's card (Casino War)", "the house's king"),
    QUEEN: NC_("a card in a sentence: the house's card (Casino War)", "the house's queen"),
    JACK: NC_("a card in a sentence: the house's card (Casino War)", "the house's jack"),
    JOKER_RANK: NC_("a card in a sentence: the house's card (Casino War)", "the house's joker"),
    2: NC_("a card in a sentence: the house's card (Casino War)", "the house's 2"),
    3: NC_("a card in a sentence: the house's card (Casino War)", "the house's 3"),
    4: NC_("a card in a sentence: the house's card (Casino War)", "the house's 4"),
    5: NC_("a card in a sentence: the house's card (Casino War)", "the house's 5"),
    6: NC_("a card in a sentence: the house's card (Casino War)", "the house's 6"),
    7: NC_("a card in a sentence: the house's card (Casino War)", "the house's 7"),
    8: NC_("a card in a sentence: the house's card (Casino War)", "the house's 8"),
    9: NC_("a card in a sentence: the house's card (Casino War)", "the house's 9"),
    10: NC_("a card in a sentence: the house's card (Casino War)", "the house's 10"),
}


def the_card(card_id: int) -> Text:
    """The card by its rank with its article: "the jack", "the 8"."""
    return Text.in_context(THE[card(card_id).rank])


def your_card(card_id: int) -> Text:
    """The pupil's card: "your jack"."""
    return Text.in_context(YOUR[card(card_id).rank])


def players_card(card_id: int, name: Text) -> Text:
    """A computer player's card: "Computer 2's jack"."""
    return Text.in_context(PLAYERS[card(card_id).rank], name=name)


def houses_card(card_id: int) -> Text:
    """The house's card in Casino War: "the house's jack"."""
    return Text.in_context(HOUSES[card(card_id).rank])
