"""Weng and Lin's Bayesian approximation of the Plackett–Luce model, for a match of one-seat
sides, with openskill's defaults (`openskill.models.PlackettLuce()`, version 6.2): the same
numbers, to the last bit, as its `rate(teams, ranks=…)` (tests/ingest/analyses/test_ratings.py
holds it to that over random matches with ties). Written out because openskill copies every
rating and draws a uuid for each copy, which was most of what rating cost an ingest; the
arithmetic is the model's (Weng and Lin 2011, Algorithm 4)."""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0  # a new name's skill
SIGMA = 25.0 / 3.0  # and its uncertainty
BETA = 25.0 / 6.0  # the spread of one match's performance around a skill
KAPPA = 0.0001  # the least a variance may shrink to, as a share of itself
TAU = 25.0 / 300.0  # the drift a skill may take between matches


def rate(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[float]
) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a match it finished in at `ranks` (lower is better, equal
    is a tie), from its (mu, sigma) before, in the seats' order."""
    n = len(ratings)
    order = sorted(range(n), key=ranks.__getitem__)  # stable: tied seats keep their order
    tau_squared = TAU * TAU
    mus = [ratings[i][0] for i in order]
    sigmas = [math.sqrt(ratings[i][1] * ratings[i][1] + tau_squared) for i in order]
    variances = [(sigma * 1.0) ** 2 for sigma in sigmas]
    rank = [int(ranks[i]) for i in order]
    beta_squared = BETA**2
    collective = 0.0
    for variance in variances:
        collective += variance + beta_squared
    c = math.sqrt(collective)
    # sum_q[q]: exp(mu / c) summed over the seats that finished at q's rank or below it.
    sum_q = [0.0] * n
    for i in range(n):
        summed = math.exp(mus[i] / c)
        for q in range(n):
            if rank[i] >= rank[q]:
                sum_q[q] += summed
    tied = [rank.count(r) for r in rank]
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for i in range(n):
        omega = 0.0
        delta = 0.0
        e = math.exp(mus[i] / c)
        for q in range(n):
            share = e / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c**2
        delta *= math.sqrt(variance) / c
        sigma = sigmas[i]
        mu = mus[i] + (sigma**2 / variance) * omega * 1.0
        sigma *= math.sqrt(max(1 - (sigma**2 / variance) * delta * 1.0, KAPPA))
        out[order[i]] = (mu, sigma)
    return out
