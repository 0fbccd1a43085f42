"""The ``cardtable`` command: parse the command line and run a command.

Commands: ``games``, ``rules GAME``, ``deal GAME``, ``solve GAME``, ``play GAME``,
``tournament GAME``, ``serve`` and ``analyze solve|grade|report|tables`` (:mod:`.analyze`).
``deal`` and ``play`` pick the deal by number
(``--deal N``) or by level (``--level LEVEL [--seed S]``). Every
``--name value`` after the game that is not one of the command's own options
is a game option, checked by the library. Every error (a bad game, option,
deal number, move, layout or file, or a command line click cannot read) is
one line on standard error and exit status 2.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(cli, ["deal", "klondike", "--deal", "0"]).output.splitlines()[0]
'klondike'
"""

from __future__ import annotations

import ipaddress
import json
import os
import random
import socket
import sys
from collections.abc import Sequence
from typing import Any

import click
from rich.markdown import Markdown

from .. import __version__
from ..api import GAMES, new_game
from ..core.errors import CardtableError, OptionError
from ..core.game import Game
from ..core.inputs import quote
from ..core.multiplayer import MultiplayerGame, MultiplayerRules
from ..core.shuffle import read_deal
from ..games import rules_class, rules_for, specs
from ..levels import LEVELS, deal_for_level
from ..rulebook import rules_text
from .analyze import analyze_group
from .common import (
    EXIT_ERROR,
    GAME_OPTIONS,
    MAX_WORKERS,
    CardtableGroup,
    CommandError,
    Number,
    WholeNumber,
    budget_value,
    parse_game_options,
)
from .play import RANDOM_LEVEL, Session, read_save
from .render import game_block, make_console
from .table import TableSession, parse_players

RANDOM_DEALS = 2**32
"""A deal, or a level's seed, chosen at random is below this."""


def parse_deal(text: str | None) -> int:
    """The deal number written ``text``, or a random one (0 to 2**32 - 1) when None.

    ASCII decimal digits, 0 to 2**63 - 1 (:func:`~cardtable.core.shuffle.read_deal`).

    >>> parse_deal("42"), parse_deal(None) < 2**32
    (42, True)
    >>> parse_deal("x")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.DealNumberError: deal number must be a whole number from 0 to 9223372036854775807, not 'x'
    """
    if text is None:
        return random.SystemRandom().randrange(RANDOM_DEALS)
    return read_deal(text)


def check_deal_choice(deal_text: str | None, level: str | None, seed: int | None) -> None:
    """Check that the deal is chosen one way: ``--deal N``, or ``--level LEVEL`` with an optional ``--seed S``.

    >>> check_deal_choice("3", None, None); check_deal_choice(None, "easy", 7)
    >>> check_deal_choice("3", "easy", None)
    Traceback (most recent call last):
    ...
    cardtable.cli.common.CommandError: give --deal N or --level LEVEL, not both
    """
    if deal_text is not None and level is not None:
        raise CommandError("give --deal N or --level LEVEL, not both")
    if seed is not None and level is None:
        raise CommandError("--seed S picks a level's deal: give it with --level LEVEL")
    if seed is not None and seed < 0:
        raise CommandError(f"--seed must be 0 or more, not {seed}")


def level_deal(game: str, level: str, seed: int | None, extra: Sequence[str]) -> tuple[int, int]:
    """The deal of ``level`` for the game and its options (the leftover words) found from
    the seed, and the seed: a random one when ``seed`` is None.

    The deal is :func:`~cardtable.levels.deal_for_level`'s; ``random`` is
    the seed's first candidate deal number. Hard and tricky deals take a while
    to find; on a terminal a spinner says so on standard error.

    >>> from cardtable.levels import deal_for_level
    >>> level_deal("klondike", "easy", 3, []) == (deal_for_level("klondike", "easy", seed=3), 3)
    True
    """
    rules_class(game)  # an unknown game is the first thing to report
    options = parse_game_options(extra)
    if seed is None:
        seed = random.SystemRandom().randrange(RANDOM_DEALS)
    console = make_console(stderr=True)
    if not console.is_terminal:
        return deal_for_level(game, level, seed=seed, **options), seed
    with console.status(f"finding a {level} deal (seed {seed})"):  # pragma: no cover - terminals only
        return deal_for_level(game, level, seed=seed, **options), seed


def pick_deal(
    game: str, deal_text: str | None, level: str | None, seed: int | None, extra: Sequence[str]
) -> tuple[int, str | None]:
    """The deal the command line asks for, by ``--deal`` or by ``--level`` (see
    :func:`check_deal_choice`), and what to tell on standard error once the
    command has not failed: ``deal N`` for a random deal, ``LEVEL deal N (seed S)``
    for a level's deal, else None.

    >>> pick_deal("klondike", "5", None, None, [])
    (5, None)
    >>> pick_deal("klondike", None, "random", 1, [])
    (2433363436, 'random deal 2433363436 (seed 1)')
    """
    check_deal_choice(deal_text, level, seed)
    if level is not None:
        deal, seed = level_deal(game, level, seed, extra)
        return deal, f"{level} deal {deal} (seed {seed})"
    deal = parse_deal(deal_text)
    return deal, f"deal {deal}" if deal_text is None else None


def make_game(game: str, deal: int, extra: Sequence[str]) -> Game[Any, Any]:
    """A new game from the command line's game name, deal number and leftover words (the options).

    Every option is checked by the game's declaration first: a name it does not declare
    (``--self``, ``--layout``...) is refused with :class:`~cardtable.core.errors.OptionError`.

    >>> make_game("klondike", 3, ["--draw", "1"]).options["draw"]
    1
    >>> make_game("klondike", 3, ["--layout", "x"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: klondike has no option 'layout' (its options: draw, redeals, ...)
    """
    options = parse_game_options(extra)
    rules_for(game, **options)  # an unknown game first, then an option the game does not declare
    return new_game(game, deal=deal, **options)


@click.group(cls=CardtableGroup, name="cardtable")
@click.version_option(__version__, prog_name="cardtable")
def cli() -> None:
    """Play and study card games (list them with "cardtable games").

    Errors print one line on standard error and exit with status 2.
    \f

    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(cli, ["--version"]).output.startswith("cardtable")
    True
    """


cli.add_command(analyze_group)


@cli.command("games")
def games_command() -> None:
    """List the games: name, title and options.
    \f

    >>> from click.testing import CliRunner
    >>> "devils-square" in CliRunner().invoke(cli, ["games"]).output
    True
    """
    console = make_console()
    for i, name in enumerate(GAMES):
        cls = rules_class(name)
        if i:
            console.print()
        console.print(game_block(name, cls.title, cls.OPTIONS))


@cli.command("rules")
@click.argument("game")
def rules_command(game: str) -> None:
    """Show the rules of GAME, its options and its move notation.
    \f

    >>> from click.testing import CliRunner
    >>> "Desturado" in CliRunner().invoke(cli, ["rules", "desturado"]).output
    True
    """
    make_console().print(Markdown(rules_text(game)))


def layout_formats() -> list[str]:
    """The position text formats of every game, in the order of the games' declarations.

    >>> layout_formats()
    ['cardtable', 'pysol']
    """
    found: list[str] = []
    for spec in specs():
        found += [f for f in spec.rules.FORMATS if f not in found]
    return found


def format_games() -> str:
    """Which games write each format other than every game's own, for ``--format``'s help.

    >>> format_games()
    'pysol: klondike'
    """
    return "; ".join(f"{f}: {', '.join(s.name for s in specs() if f in s.rules.FORMATS)}" for f in layout_formats()[1:])


@cli.command("deal", context_settings=GAME_OPTIONS)
@click.argument("game")
@click.option("--deal", "deal_text", metavar="N", help="Deal number (default: a random one, told on stderr).")
@click.option(
    "--level",
    type=click.Choice(LEVELS, case_sensitive=False),
    help="Pick the deal by level instead (one-player games; told on stderr as 'LEVEL deal N (seed S)').",
)
@click.option("--seed", type=WholeNumber(0), metavar="S", help="Seed of the --level deal (default: a random one).")
@click.option(
    "--format",
    "layout_format",
    type=click.Choice(layout_formats()),
    default="cardtable",
    show_default=True,
    help=f"Layout format ({format_games()}).",
)
@click.pass_context
def deal_command(
    ctx: click.Context,
    game: str,
    deal_text: str | None,
    level: str | None,
    seed: int | None,
    layout_format: str,
) -> None:
    """Print the full layout of a deal of GAME, face-down cards included.

    The deal is --deal N, or the deal of --level LEVEL found from --seed S.
    Game options follow the game as --name value (see 'cardtable games').
    \f

    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(cli, ["deal", "klondike", "--deal", "0"]).output.splitlines()[0]
    'klondike'
    >>> CliRunner().invoke(cli, ["deal", "klondike", "--level", "random", "--seed", "1"]).stderr
    'random deal 2433363436 (seed 1)\n'
    """
    deal, told = pick_deal(game, deal_text, level, seed, ctx.args)
    text = make_game(game, deal, ctx.args).to_text(layout_format)
    if told is not None:
        click.echo(told, err=True)
    click.echo(text)


@cli.command("solve", context_settings=GAME_OPTIONS)
@click.argument("game")
@click.option("--deal", "deal_text", metavar="N", help="Deal number (default: a random one, told on stderr).")
@click.option("--seconds", type=Number(0), default=30.0, show_default=True, help="Time limit.")
@click.option("--nodes", type=WholeNumber(0), default=None, help="Limit on positions explored (default: none).")
@click.pass_context
def solve_command(ctx: click.Context, game: str, deal_text: str | None, seconds: float, nodes: int | None) -> None:
    """Solve a deal of a one-player GAME with every card known ("thoughtful").

    Prints the verdict (solved, unsolvable: proved, or unknown: out of time),
    the work done, and the winning moves in the game's notation.
    Game options follow the game as --name value (see 'cardtable games').
    \f

    >>> from click.testing import CliRunner
    >>> out = CliRunner().invoke(cli, ["solve", "klondike", "--deal", "8"]).output
    >>> out.splitlines()[0]
    'verdict: solved'
    """
    from ..solve import solve

    deal = parse_deal(deal_text)
    made = make_game(game, deal, ctx.args)
    if deal_text is None:
        click.echo(f"deal {deal}", err=True)
    result = solve(made, seconds=seconds, nodes=nodes)
    click.echo(f"verdict: {result.verdict}")
    click.echo(f"work: {result.nodes} positions, {result.seconds:.2f} s, peak memory {result.peak_mb:.0f} MB")
    if result.solved:
        click.echo(f"moves ({len(result.moves)}): " + " ".join(str(m) for m in result.moves))


@cli.command("play", context_settings=GAME_OPTIONS)
@click.argument("game")
@click.option("--deal", "deal_text", metavar="N", help="Deal number (default: a random one).")
@click.option(
    "--level",
    type=click.Choice(LEVELS, case_sensitive=False),
    help="Pick the deal by level instead (one-player games; told on stderr as 'LEVEL deal N (seed S)').",
)
@click.option("--seed", type=WholeNumber(0), metavar="S", help="Seed of the --level deal (default: a random one).")
@click.option("--load", "load_path", metavar="FILE", help="Start from a save file instead of a new deal.")
@click.option("--moves", "moves_text", metavar="MOVES", help='Play these moves first, e.g. "d w4 3f".')
@click.option(
    "--players",
    "players_text",
    metavar="WHO,WHO,...",
    help="Multi-player games: who plays each seat, 'you' or a bot (random, greedy, ismcts).",
)
@click.pass_context
def play_command(
    ctx: click.Context,
    game: str,
    deal_text: str | None,
    level: str | None,
    seed: int | None,
    load_path: str | None,
    moves_text: str | None,
    players_text: str | None,
) -> None:
    """Play GAME in the terminal. Type 'help' at the prompt for the commands.

    The deal is --deal N, or the deal of --level LEVEL found from --seed S;
    the screen shows the level and deal number, as Easy (N) (Random (N) for
    a deal chosen by number). Game options follow the game as --name value
    (see 'cardtable games'). For a multi-player game, --players you,ismcts,greedy seats you and two
    bots (the number of names is the number of players; no 'you' to watch).
    \f

    >>> from click.testing import CliRunner
    >>> "moves played: 1" in CliRunner().invoke(cli, ["play", "klondike", "--deal", "0"], input="d\nquit\n").output
    True
    >>> "Random (0)" in CliRunner().invoke(cli, ["play", "klondike", "--deal", "0"], input="").output
    True
    """
    cls = rules_class(game)
    name = cls.name
    extra = list(ctx.args)
    names = None
    if players_text is not None and players_text.strip().isdigit():
        extra += ["--players", players_text]  # the game option, as before: hot seat, one screen
    elif players_text is not None:
        if not issubclass(cls, MultiplayerRules):
            raise CommandError(f"{name} is a one-player game: --players is for multi-player games")
        names = parse_players(players_text)
        extra += ["--players", str(len(names))]
    told = None
    if load_path is not None:
        count_given = players_text is not None and names is None  # --players N: the game option
        if deal_text is not None or level is not None or seed is not None or ctx.args or count_given:
            raise CommandError(
                "--load starts from the save file's deal and options:"
                " give no --deal, --level, --seed, --players N or game options"
            )
        played = read_save(load_path)
        if played.name != name:
            raise CommandError(f"{load_path} is a save file of {played.name}, not {name}")
        seats = getattr(played, "players", 1)
        if names is not None and len(names) != seats:
            raise CommandError(f"{load_path} is a game of {seats} players, and --players names {len(names)}")
    else:
        deal, told = pick_deal(game, deal_text, level, seed, extra)
        played = make_game(game, deal, extra)
    for i, move in enumerate((moves_text or "").split(), start=1):
        try:
            played.play(move)
        except CardtableError as err:
            raise CommandError(f"--moves, move {i}: {err}") from None
    if level is not None and told is not None:
        click.echo(told, err=True)  # the seed, to play the deal again (a random deal is in the title)
    if names is None:
        Session(played, make_console(), level or RANDOM_LEVEL).run()
    else:
        assert isinstance(played, MultiplayerGame)
        TableSession(played, names, make_console()).run()


def parse_budget(texts: Sequence[str]) -> dict[str, int | float]:
    """The search budget from ``--budget KEY=VALUE`` flags (commas also separate pairs).

    >>> parse_budget(["iterations=200", "seconds=0.5"])
    {'iterations': 200, 'seconds': 0.5}
    >>> parse_budget(["iterations"])
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: --budget takes KEY=VALUE (e.g. iterations=200), not 'iterations'
    """
    budget: dict[str, int | float] = {}
    for text in texts:
        for pair in text.split(","):
            key, equals, value = pair.strip().partition("=")
            if not equals or not key.strip():
                raise OptionError(f"--budget takes KEY=VALUE (e.g. iterations=200), not {quote(pair.strip())}")
            budget[key.strip()] = budget_value(key.strip(), value)
    return budget


@cli.command("tournament", context_settings=GAME_OPTIONS)
@click.argument("game")
@click.option("--players", "players_text", required=True, metavar="BOT,BOT,...", help="A bot for each seat.")
@click.option(
    "--games", type=WholeNumber(1), default=100, show_default=True, help="Games to play (seats rotate each game)."
)
@click.option("--seed", type=WholeNumber(0), default=0, show_default=True, help="Seed of the deals and of the bots.")
@click.option(
    "--budget", "budget_texts", multiple=True, metavar="KEY=VALUE", help="Search budget, e.g. iterations=200."
)
@click.option(
    "--workers", type=WholeNumber(1, MAX_WORKERS), default=1, show_default=True, help="Processes playing games."
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (and no progress bar).")
@click.pass_context
def tournament_command(
    ctx: click.Context,
    game: str,
    players_text: str,
    games: int,
    seed: int,
    budget_texts: Sequence[str],
    workers: int,
    as_json: bool,
) -> None:
    """Play bots against each other in GAME and print each player's results.

    Seats rotate from game to game; each block of as many games as players
    plays one deal, and the order round the table changes from block to block
    (with a multiple of 2, 6 or 24 games for 2, 3 or 4 players every bot
    sits after every other equally often). Prints each --players entry's win
    share (a k-way shared win counts 1/k), its 95% confidence interval and
    mean score.
    Game options follow the game as --name value.
    \f

    >>> from click.testing import CliRunner
    >>> args = ["tournament", "deserto", "--players", "greedy,random", "--games", "2", "--json"]
    >>> json.loads(CliRunner().invoke(cli, args).stdout)["players"][0]["name"]
    'greedy'
    """
    from rich.progress import Progress

    from ..bots.tournament import check_lineup, run_tournament

    rules_class(game)  # an unknown game is the first thing to report
    names = [word.strip().lower() for word in players_text.split(",")]
    budget = parse_budget(budget_texts)
    options: dict[str, Any] = parse_game_options(ctx.args)
    if "players" in options:
        raise CommandError("give the players with --players BOT,BOT,... (one bot a seat), not as a number")
    if games < 1:
        raise CommandError(f"--games must be at least 1, not {games}")
    check_lineup(game, names, budget, options)
    if as_json:
        stats = run_tournament(game, names, games, seed, budget, options, workers)
        click.echo(json.dumps({"players": [entry.to_json() for entry in stats]}))
        return
    with Progress(console=make_console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{games} games", total=games)
        stats = run_tournament(game, names, games, seed, budget, options, workers, lambda: progress.advance(task))
    console = make_console()
    console.print(f"{rules_class(game).name}: {len(names)} players, {games} games, seed {seed}", soft_wrap=True)
    width = max(len(entry.name) for entry in stats)
    console.print(f"{'#':>2}  {'player'.ljust(width)}  win share  95% CI           mean score", soft_wrap=True)
    for i, entry in enumerate(stats):
        low, high = entry.ci95
        ci = f"[{low:.3f}, {high:.3f}]"
        console.print(
            f"{i:>2}  {entry.name.ljust(width)}  {entry.win_share:9.3f}  {ci}   {entry.mean_score:10.2f}",
            soft_wrap=True,
        )


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=WholeNumber(0, 65535), help="Port to listen on.")
@click.option(
    "--data",
    default="cardtable-data",
    show_default=True,
    metavar="DIR",
    help="Folder of the games and statistics (an SQLite file, made if missing).",
)
@click.option(
    "--database",
    default=None,
    metavar="URL",
    help="Keep everything in this PostgreSQL database (postgresql://...) instead of the data folder's SQLite file;"
    " several servers may share it.",
)
@click.option(
    "--allow-host",
    "hosts",
    multiple=True,
    metavar="NAME",
    help="A host name the server answers for (besides IP addresses and localhost); repeat for more.",
)
def serve_command(host: str, port: int, data: str, database: str | None, hosts: tuple[str, ...]) -> None:
    """Start the card table in the browser and print its address. Each room event is
    logged on standard error (one line each).
    \f

    >>> from click.testing import CliRunner
    >>> out = CliRunner().invoke(cli, ["serve", "--help"]).output
    >>> "--data DIR" in out, "--database URL" in out
    (True, True)
    >>> CliRunner().invoke(cli, ["serve", "--database", "mysql://x"]).output.splitlines()[-1]
    'Error: --database is a PostgreSQL URL (postgresql://...)'
    """
    import uvicorn

    from ..web import SERVER_OPTIONS, create_app, log_events
    from ..web.postgres import is_url

    if database is not None and not is_url(database):
        raise CommandError("--database is a PostgreSQL URL (postgresql://...)")
    if not host.strip():
        raise CommandError("--host is the address to listen on (127.0.0.1, the default; ::1; 0.0.0.0 for every one)")
    try:
        app = create_app(data, hosts=hosts, database=database)
    except OSError as err:
        if database is not None:
            raise CommandError(f"cannot use the database: {err}") from None
        if isinstance(err, FileExistsError):  # the folder's making found a file there
            raise CommandError(f"--data is a folder to keep the games in: {data} is a file") from None
        raise CommandError(f"cannot use the data folder {data}: {err.strerror or err}") from None
    try:  # bound here, so that a port in use or an address not of this machine is one line
        listening = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as err:
        said = str(err.strerror or err).split(" (while attempting")[0]  # the address is said already
        raise CommandError(f"cannot listen on {host} port {port}: {said}") from None
    shown = f"[{host}]" if ":" in host else host
    kept = "games kept in PostgreSQL" if database is not None else f"games kept in {data}"
    click.echo(f"cardtable is at http://{shown}:{listening.getsockname()[1]}/ ({kept}; Ctrl+C stops)")
    if not ipaddress.ip_address(listening.getsockname()[0]).is_loopback:
        click.echo(f"cardtable: note: listening on {host}: other machines can reach this server", err=True)
    log_events()
    uvicorn.Server(uvicorn.Config(app, **SERVER_OPTIONS)).run(sockets=[listening])


def main() -> None:
    """Run the ``cardtable`` command (the console-script entry point).

    >>> import sys
    >>> saved, sys.argv = sys.argv, ["cardtable", "--version"]
    >>> try:
    ...     main()
    ... except SystemExit as done:
    ...     print("exit", done.code)
    ... finally:
    ...     sys.argv = saved
    cardtable, version 0.1.0
    exit 0
    """
    if sys.stdout is None:  # started with its standard output closed: nowhere to write
        if sys.stderr is not None:
            print("cardtable: error: cannot write the output: standard output is closed", file=sys.stderr)
        sys.exit(EXIT_ERROR)
    try:
        try:
            cli(prog_name="cardtable")
        finally:
            sys.stdout.flush()  # here, not at exit, where a failure is a traceback
    except OSError as err:  # the output could not be written: a full disk, a closed pipe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to lose at exit
        click.echo(f"cardtable: error: cannot write the output: {err.strerror or err}", err=True)
        sys.exit(EXIT_ERROR)


if __name__ == "__main__":  # pragma: no cover
    main()
