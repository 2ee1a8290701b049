"""How a run's cost reads on the command line and in the exports: a plain amount at list
price, or an upper estimate when the model's price is not known (app/engines/prices.py
then counts it at the highest price known for its engine). Light: `status` imports it."""

from __future__ import annotations


def unknown_price(model: str) -> str:
    """Why a cost is an upper estimate, as a clause."""
    return (f"the price of {model or 'this model'} is not known, so the highest price "
            "is used")


def cost_text(amount: str, upper: bool, model: str) -> str:
    """'$0.4200', or 'about $0.4200 at most – the price of claude-x is not known, so the
    highest price is used' when the cost is an upper estimate."""
    if not upper:
        return amount
    return f"about {amount} at most – {unknown_price(model)}"


def upper_estimate_notice(model: str) -> str:
    """The sentence `run` prints as a run starts with a model whose price is not known."""
    return (f"The price of {model or 'this model'} is not known, so its cost is counted at "
            "the highest price known for its engine: the cost shown is the most it can be. "
            "Add the model to your prices.json to count it exactly.")
