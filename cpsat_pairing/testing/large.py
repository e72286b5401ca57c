"""Big tournaments with a random but legal history, to benchmark and test one round.

`build`: rounds 1..R are paired at random among players of nearby score (no rematches,
no third colour in a row where avoidable), results drawn from the ratings; round R+1 is
left to pair.  Not Dutch-paired (that would need an engine fast at this size): the point
is a realistic spread of scores, colours and floats, with the same bytes for the same seed.

`greedy`: rounds paired greedily down the score order instead (each player with the next
one he has not met), the history of `corpus/large/naive2000-r6.trf`.  Its scoregroups
hold long runs of players who met their neighbours, which is what makes a big round hard.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from cpsat_pairing.formats import format_points


def expected(ra: int, rb: int) -> float:
    return 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))


def build(players: int, rounds: int, seed: int) -> str:
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1400, 2700) for _ in range(players)), reverse=True)
    score = [0] * (players + 1)  # half-points
    met: list[set[int]] = [set() for _ in range(players + 1)]
    colours: list[list[str]] = [[] for _ in range(players + 1)]
    cells: list[list[str]] = [[] for _ in range(players + 1)]
    for _ in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        order.sort(key=lambda p: -score[p])  # stable: random within a score
        free = order[:]
        if len(free) % 2:
            bye = free.pop()  # the lowest: a pairing-allocated bye
            cells[bye].append("0000 - U")
            score[bye] += 2
        while free:
            p = free.pop(0)
            q = next((q for q in free[:40] if q not in met[p]), free[0])
            free.remove(q)
            met[p].add(q)
            met[q].add(p)
            last_p = colours[p][-2:]
            white, black = (q, p) if last_p == ["w", "w"] or (colours[q][-2:] == ["b", "b"]) else (p, q)
            if rng.random() < 0.5 and last_p != ["w", "w"] and colours[q][-2:] != ["b", "b"] and \
                    colours[p][-2:] != ["b", "b"] and colours[q][-2:] != ["w", "w"]:
                white, black = black, white
            e = expected(ratings[white - 1], ratings[black - 1])
            r = rng.random()
            draw = 0.3
            if r < e - draw / 2:
                res = ("1", "0")
                score[white] += 2
            elif r < e + draw / 2:
                res = ("=", "=")
                score[white] += 1
                score[black] += 1
            else:
                res = ("0", "1")
                score[black] += 2
            colours[white].append("w")
            colours[black].append("b")
            cells[white].append(f"{black:4d} w {res[0]}")
            cells[black].append(f"{white:4d} b {res[1]}")
    from fractions import Fraction

    lines = [f"012 random legal history n={players} seed={seed}"]
    for p in range(1, players + 1):
        pts = format_points(Fraction(score[p], 2))
        head = f"001 {p:4d}      {'Player' + format(p, '05d'):<33} {ratings[p - 1]:4d}"
        head = head.ljust(80) + f"{pts:>4} {p:4d}"
        lines.append(head + "".join("  " + c for c in cells[p]))
    lines += [f"XXR {rounds + 4}", "XXC white1"]
    return "\n".join(lines) + "\n"


def make_large(directory: Path, players: int, seed: int, rounds: int = 5) -> Path:
    """Write `build(players, rounds, seed)` to a file in `directory`; its path."""
    trf = directory / f"large-{players}-{seed}.trf"
    trf.write_text(build(players, rounds, seed), encoding="utf-8")
    return trf


def greedy(players: int, played: int, total: int, seed: int) -> str:
    """A history of `played` rounds paired greedily inside score order (rating order
    within a score; the lowest player without a bye gets the PAB when the field is odd;
    White to the player with the lower colour difference), results from a normal rating
    model with at most 30 % draws; `XXR total`.  Same bytes for the same arguments."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1400, 2700) for _ in range(players)), reverse=True)
    score = [0.0] * (players + 1)
    cells: list[list[str]] = [[] for _ in range(players + 1)]
    met: list[set[int]] = [set() for _ in range(players + 1)]
    cdiff = [0] * (players + 1)
    had_bye: set[int] = set()
    for _ in range(played):
        order = sorted(range(1, players + 1), key=lambda i: (-score[i], -ratings[i - 1], i))
        if players % 2:
            bye = next(i for i in reversed(order) if i not in had_bye)
            order.remove(bye)
            had_bye.add(bye)
            cells[bye].append("0000 - U")
            score[bye] += 1
        while order:
            a = order.pop(0)
            b = order.pop(next((k for k, b in enumerate(order) if b not in met[a]), 0))
            met[a].add(b)
            met[b].add(a)
            w, bl = (a, b) if cdiff[a] <= cdiff[b] else (b, a)
            cdiff[w] += 1
            cdiff[bl] -= 1
            e = 0.5 * math.erfc(-(ratings[w - 1] - ratings[bl - 1]) * 7.0 / math.sqrt(2.0) / 2000.0)
            x = rng.random()
            d = min(0.3, 2 - 2 * max(e, 1 - e))
            rw, rb, pw = ("=", "=", 0.5) if x < d else ("1", "0", 1.0) if x < d + e - d / 2 else ("0", "1", 0.0)
            score[w] += pw
            score[bl] += 1 - pw
            cells[w].append(f"{bl:4d} w {rw}")
            cells[bl].append(f"{w:4d} b {rb}")
    lines = [f"012 naive history n={players} seed={seed}"]
    for i in range(1, players + 1):
        name = f"Test{i:04d} Player{i:04d}"
        head = f"001 {i:4d}      {name:<33} {ratings[i - 1]:4d}{'':28s}{score[i]:4.1f} {i:4d}"
        lines.append((head + "".join("  " + c for c in cells[i])).rstrip())
    return "\n".join(lines + [f"XXR {total}", "XXC white1"]) + "\n"
