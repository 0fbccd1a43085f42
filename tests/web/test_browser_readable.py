"""Issue 26 in Chromium: the honest table, readable at a glance, in words. One test for each
defect the issue lists, and for the honest-table rules, driven as a player does.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import cardtable

from .conftest import Page
from .helpers import at, box, inside, open_at, shown_table, wait_at
from .test_honest_table import DEMONTHIEF_8_LAST_CARD, DEMONTHIEF_1041_UNSEEN

pytestmark = pytest.mark.browser

ROOM_TABLE = "() => { const r = window.cardtableRoom; return r && r.table ? r.table.table : null; }"


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (``#rrggbb`` or ``rgb(r, g, b)``)."""

    def luminance(colour: str) -> float:
        if colour.startswith("#"):
            r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        else:
            r, g, b = (int(x) for x in re.findall(r"\d+", colour)[:3])
        lin = [c / 12.92 if c <= 10.31 else ((c / 255 + 0.055) / 1.055) ** 2.4 * 255 for c in (r, g, b)]
        return (0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]) / 255

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def z(p: Any, selector: str) -> list[int]:
    values: list[int] = p.locator(selector).evaluate_all(
        "nodes => nodes.map(n => Number(getComputedStyle(n).zIndex) || 0)"
    )
    return values


# --- honest at the table -------------------------------------------------------------------


def test_the_last_stock_card_is_drawn_with_a_click(page: Page) -> None:
    p = open_at(page, "demonthief", 8, DEMONTHIEF_8_LAST_CARD)
    assert p.locator("#banner").is_hidden() and len(shown_table(p)["piles"][0]["cards"]) == 1
    before = at(p)
    p.locator('.card[data-pile="stock"]').last.click()
    assert wait_at(p, before) == before + 1
    assert p.locator('.card[data-pile="stock"]').count() == 0
    p.wait_for_function("() => document.getElementById('announce').textContent.includes('Draw a card.')")


def test_autocomplete_is_not_offered_with_unseen_stock_cards(page: Page) -> None:
    p = open_at(page, "demonthief", 1041, DEMONTHIEF_1041_UNSEEN)
    assert p.locator(".card.down").count() == 25  # the stock's, and no other
    assert p.locator("#finish").is_hidden()


def test_the_loss_warning_is_asked_for_says_what_it_looks_at_and_lets_the_player_play_on(page: Page) -> None:
    p = open_at(page, "demonthief", 8, DEMONTHIEF_8_LAST_CARD)
    assert p.locator("#lost-banner").is_hidden()  # not told unless asked
    p.click(".settings summary")
    p.check("#warn-lost")
    p.wait_for_selector("#lost-banner:not([hidden])")
    text = p.locator("#lost-banner").inner_text()
    assert "can no longer be won" in text and "face-down cards" in text
    for button in ("#lost-undo", "#lost-restart", "#lost-new", "#lost-play-on"):
        assert p.locator(button).is_visible()
    p.click("#lost-play-on")
    assert p.locator("#lost-banner").is_hidden()
    before = at(p)
    p.locator('.card[data-pile="stock"]').last.click()  # playing on: the legal draw is taken
    assert wait_at(p, before) == before + 1


def test_the_solver_hint_says_it_sees_the_face_down_cards_and_the_plain_hint_does_not_look(page: Page) -> None:
    p = open_at(page, "klondike", 0, [])
    assert "sees face-down cards" in p.locator("#solver-hint").inner_text()
    p.click("#hint")
    # "Thinking about the cards you have not seen…" shows first, then the honest player's
    # move, in words: first a free look through the stock.
    p.wait_for_function("() => document.getElementById('message').textContent.startsWith('Draw')")
    assert p.locator("#message").inner_text() == (
        "Draw three cards: a look at cards you have not seen, which costs nothing "
        "(the stock comes round to here again)."
    )
    assert inside(box(p, '.card[data-pile="stock"] >> nth=-1'), box(p, ".mark.hinted"))
    p.click("#solver-hint")
    p.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('The solver sees the face-down cards')"
    )


def test_deal_numbers_and_javasolitaire_numbers_in_the_deal_box(page: Page) -> None:
    p = open_at(page, "klondike", 5, [])
    assert p.locator("#label").inner_text() == "Random (5)"
    p.click(".settings summary")  # which deal: in "Deal and settings"
    p.select_option("#numbering", "javasol")
    p.fill("#deal-number", "5")
    p.click("#open-deal")
    p.wait_for_function("() => document.getElementById('label').textContent === 'Random (JavaSolitaire 5)'")
    game = cardtable.new_game("klondike", deal=5, numbering="javasol")
    tops = [p for row in game.rules.display(game.state) for name, p in row if name.isdigit()]
    labels = [p.locator(f'.card[data-pile="{i + 1}"]').last.get_attribute("aria-label") for i in range(7)]
    names = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "T": "10"}
    expected = []
    for pile in tops:
        text = game.rules.card_text(pile[-1][0])
        suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[text[1]]
        expected.append(f"{names.get(text[0], text[0])} of {suit}")
    assert labels == expected


# --- readable at a glance ------------------------------------------------------------------


def test_highlights_are_drawn_over_the_cards(page: Page) -> None:
    # A card with a place on a tableau pile that holds cards: every place it may go lights up over them.
    deal, move = next(
        (d, m)
        for d in range(40)
        for m in cardtable.new_game("klondike", deal=d).legal_moves()
        if str(m)[0].isdigit() and str(m)[1].isdigit()
    )
    p = open_at(page, "klondike", deal, [])
    src = str(move)[0]
    p.locator(f'.card[data-pile="{src}"]').last.click()
    t = shown_table(p)
    index = len(next(x for x in t["piles"] if x["name"] == src)["cards"]) - 1
    targets = {m["to"] for m in t["legal"] if m["from"] == src and m["index"] == index}
    assert targets and p.locator(".mark.target").count() == len(targets)
    top_card = max(z(p, ".card"))
    assert min(z(p, ".mark.target")) > top_card
    marks = [box(p, f".mark.target >> nth={i}") for i in range(len(targets))]
    for name in targets:
        last = p.locator(f'.card[data-pile="{name}"]').last
        shown = last.bounding_box() if last.count() else box(p, f'.pile[data-pile="{name}"]')
        assert any(inside(shown, m) for m in marks), name
    # A hint that draws lights the stock up, over its cards too.
    p = open_at(page, "klondike", 0, [])  # the honest player first looks through the stock
    p.click("#hint")
    p.wait_for_selector(".mark.hinted")
    assert inside(box(p, '.card[data-pile="stock"] >> nth=-1'), box(p, ".mark.hinted"))
    assert min(z(p, ".mark.hinted")) > max(z(p, ".card"))
    # The solver hint's marks too: over the cards, one of them on the card the solver moves.
    p = open_at(page, "klondike", deal, [])
    p.click("#solver-hint")
    p.wait_for_selector(".mark.hinted")
    assert min(z(p, ".mark.hinted")) > max(z(p, ".card:not(.mark)"))  # (a card's own mark is ".mark.hinted.card")
    hint = p.locator("#message").inner_text()
    assert hint.startswith("The solver sees the face-down cards"), hint
    assert p.locator(".mark.hinted").count() >= 2  # where the move starts and where it ends


def test_a_drop_is_judged_where_the_pointer_is(page: Page) -> None:
    # Desturado deal 6809: hand stack 4 (four cards) dragged by its top card onto stack 2.
    line = ["45", "e5", "e5", "ad", "cd", "d4", "cd", "ca", "21", "b4", "e2"]
    p = open_at(page, "desturado", 6809, line)
    t = shown_table(p)
    assert len(next(x for x in t["piles"] if x["name"] == "4")["cards"]) == 4
    assert any(m["from"] == "4" and m["to"] == "2" for m in t["legal"])
    grabbed = box(p, '.card[data-pile="4"] >> nth=-1')  # the top card, lowest of the fan
    target = box(p, '.card[data-pile="2"] >> nth=-1')
    p.mouse.move(grabbed["x"] + grabbed["width"] / 2, grabbed["y"] + grabbed["height"] * 0.8)
    p.mouse.down()
    p.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] * 0.8, steps=8)
    p.mouse.up()
    assert wait_at(p, len(line)) == len(line) + 1
    after = shown_table(p)
    assert not next(x for x in after["piles"] if x["name"] == "4")["cards"]
    assert after["told"] == [next(m["words"] for m in t["legal"] if m["from"] == "4" and m["to"] == "2") + "."]


def test_a_ten_in_a_fanned_waste_reads_10(page: Page) -> None:
    rules = cardtable.rules_for("klondike")
    deal, draws = next(
        (d, k)
        for d in range(100)
        for k in range(1, 8)
        if any(rules.card_text(c)[0] == "T" for c in _waste_after(rules, d, k)[-3:-1])
    )
    p = open_at(page, "klondike", deal, ["d"] * draws)
    waste = p.locator('.card[data-pile="w"]')
    count = waste.count()
    for i in range(max(0, count - 3), count - 1):
        card = waste.nth(i)
        rank = card.locator("text.rank")
        right = rank.bounding_box()
        following = waste.nth(i + 1).bounding_box()
        assert right["x"] + right["width"] <= following["x"] + 0.5, (i, rank.inner_html())
    assert any(waste.nth(i).locator("text.rank").inner_html() == "10" for i in range(count - 1))


def _waste_after(rules: Any, deal: int, draws: int) -> tuple[int, ...]:
    state = rules.deal(deal)
    for _ in range(draws):
        state = rules.apply(state, rules.parse_move("d"))
    waste: tuple[int, ...] = state.waste
    return waste


def test_demonthief_waste_shows_the_drawn_card_and_the_foundations_their_base_rank(page: Page) -> None:
    p = open_at(page, "demonthief", 8, ["d", "d", "d"])
    waste = [box(p, f'.card[data-pile="w"] >> nth={i}') for i in range(3)]
    assert all(b["x"] == waste[0]["x"] for b in waste)  # one card drawn at a time: its top card shows
    reserve = box(p, '.pile[data-pile="x"]')
    assert waste[-1]["x"] + waste[-1]["width"] <= reserve["x"]
    base = cardtable.new_game("demonthief", deal=8).state.base
    rank = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][base - 1]
    notes = p.locator(".note")
    assert notes.count() == 8 and set(notes.all_inner_texts()) == {f"base {rank}"}
    assert min(z(p, ".note")) > max(z(p, ".card"))
    for i in range(8):  # on its foundation: over its lower edge, centred on it
        note, pile = box(p, f".note >> nth={i}"), box(p, f'.pile[data-pile="f{i + 1}"]')
        assert abs(note["x"] + note["width"] / 2 - (pile["x"] + pile["width"] / 2)) < 1
        assert pile["y"] <= note["y"] and note["y"] + note["height"] <= pile["y"] + pile["height"] + 1


SIZES = [(360, 740), (768, 1024), (1280, 720), (1920, 1080)]
PATHS = {
    "klondike": "/play/klondike?deal=5",
    "desturado": "/play/desturado?deal=6809&mode=hard",
    "demonthief": "/play/demonthief?deal=5",
    "devils-square": "/play/devils-square?deal=5",
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_whole_table_fits_the_window(page: Page, size: tuple[int, int]) -> None:
    p = page.page
    width, height = size
    p.set_viewport_size({"width": width, "height": height})
    line = ["45", "e5", "e5", "ad", "cd", "d4", "cd", "ca", "21", "b4"]  # Desturado's hand stacks grown
    places = [*PATHS.items(), ("demons-and-thieves", "/play/demons-and-thieves?deal=5"), ("desturado-grown", "")]
    for name, path in places:
        if name == "desturado-grown":
            open_at(page, "desturado", 6809, line)
        else:
            p.goto(page.live.url + path)
            p.wait_for_selector("body[data-state='playing']")
        board = box(p, ".board")
        assert p.evaluate("document.documentElement.scrollWidth") <= width, name
        assert board["height"] <= height and board["x"] + board["width"] <= width, (name, board)
        assert board["y"] + board["height"] <= height + 1, (name, board)  # all of it in view, no scrolling
        cards = p.locator(".card").evaluate_all(
            "cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
        )
        for left, top, right, bottom in cards:
            assert left >= board["x"] - 1 and right <= board["x"] + board["width"] + 1, name
            assert top >= board["y"] - 1 and bottom <= board["y"] + board["height"] + 1, name


def test_the_areas_are_named_on_the_table(page: Page) -> None:
    p = page.page
    expected = {
        "klondike": {"stock", "waste", "foundations", "tableau"},
        "desturado": {"board", "hand"},
        "demonthief": {"stock", "waste", "reserve", "foundations", "tableau"},
        "devils-square": {"square", "draw pile", "books"},
    }
    for name, path in PATHS.items():
        p.goto(page.live.url + path)
        p.wait_for_selector("body[data-state='playing']")
        assert set(p.locator(".area-label").all_inner_texts()) == expected[name], name


@pytest.mark.parametrize("size", [(1280, 720), (360, 740)], ids=["desktop", "phone"])
def test_deserto_numbers_its_squares_and_keeps_the_turn_and_newest_moves_in_view(
    page: Page, size: tuple[int, int]
) -> None:
    p = page.page
    width, height = size
    p.set_viewport_size({"width": width, "height": height})
    p.goto(page.live.url + "/play/deserto?seats=you,greedy,random&new=1")
    p.wait_for_selector("body[data-state='playing']")
    p.wait_for_function(f"() => {{ const t = ({ROOM_TABLE})(); return t && t.to_move === t.seat; }}")
    captions = p.locator(".caption").all_inner_texts()
    assert all(f"square {n}" in captions for n in range(1, 5))
    p.evaluate(
        """() => { window.latest = []; const news = document.getElementById('news');
        new MutationObserver(() => { const li = news.querySelector('li.latest');
          if (li && window.latest[window.latest.length - 1] !== li.textContent) window.latest.push(li.textContent); })
        .observe(news, { childList: true, subtree: true }); }"""
    )
    t = p.evaluate(f"({ROOM_TABLE})()")
    p.fill("#move-input", t["legal"][0]["move"])
    p.press("#move-input", "Enter")
    p.wait_for_function(f"() => {{ const t = ({ROOM_TABLE})(); return t && t.at >= {t['at'] + 3}; }}")
    latest = p.evaluate("window.latest")
    movers = [line.split(" put ")[0].split(" could ")[0] for line in latest]
    assert movers[:3] == ["You", "Greedy 2", "Random 3"], latest  # each bot's move shown on its own, in turn
    turn = box(p, "#news .turn")
    newest = box(p, "#news li.latest")
    assert turn["y"] >= 0 and newest["y"] + newest["height"] <= height
    assert inside(box(p, ".board"), {"x": 0, "y": 0, "width": width, "height": height + 1})


def test_devils_square_books_stay_in_view_with_the_score(page: Page) -> None:
    deal = cardtable.deal_for_level("devils-square", "easy", seed=1)
    game = cardtable.new_game("devils-square", deal=deal)
    line = cardtable.solve(game, seconds=30).moves
    moves: list[str] = []
    made: dict[int, list[str]] = {}  # books made: the moves that make them
    for move in line:
        moves.append(str(move))
        game.play(move)
        made.setdefault(game.state.books, list(moves))
        if game.state.books == 2:
            break
    for books_made, score in ((1, 10), (2, 20)):  # the first book, then the second on it
        p = open_at(page, "devils-square", deal, made[books_made])
        books = p.locator('.card[data-pile="books"]')
        assert books.count() == 4 * books_made and books.last.is_visible()
        label = f"{books_made} book{'s' if books_made > 1 else ''}, score {score}"
        assert p.locator(".note").filter(has_text=label).count() == 1, label


def test_contrast_of_the_cards_and_the_focus_ring(page: Page) -> None:
    p = page.page
    p.goto(page.live.url + "/play/devils-square?deal=5")
    p.wait_for_selector("body[data-state='playing']")
    pairs = p.locator(".card.up svg").evaluate_all(
        "svgs => svgs.map(s => [s.querySelector('text.number').getAttribute('fill'),"
        " s.querySelectorAll('rect')[1].getAttribute('fill')])"
    )
    assert len({band for _, band in pairs}) == 4  # every colour of the deck is on the table
    for number, band in pairs:
        assert contrast(number, band) >= 4.5, (number, band)
    # The focus ring: 3:1 against the cream page (its outline) and against the felt (its white halo).
    p.keyboard.press("Tab")
    ring = p.evaluate("getComputedStyle(document.activeElement).outlineColor")
    page_colour = p.evaluate("getComputedStyle(document.body).backgroundColor")
    assert contrast(ring, page_colour) >= 3
    p.locator('.card.up[data-pile="a1"]').focus()
    halo = p.evaluate("getComputedStyle(document.activeElement).boxShadow")
    felt = p.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--felt')").strip()
    assert contrast(re.findall(r"rgb\([^)]*\)", halo)[0], felt) >= 3
    assert contrast(ring, felt) < 3 <= contrast("#ffffff", felt)  # the halo is what shows on the felt


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/play/klondike?deal=5",
        "/play/deserto?seats=you,greedy&new=1",
        "/stats",
        "/lobby",
        "/ratings",
        "/me",
        "/rules/klondike",
        "/daily",
        "/leaderboard?mode=klondike-draw3",
    ],
)
def test_touch_targets_are_at_least_44_px_on_a_phone(page: Page, path: str) -> None:
    p = page.page
    p.set_viewport_size({"width": 360, "height": 740})
    p.goto(page.live.url + path)
    p.wait_for_selector("body:not([data-state='loading'])")
    targets = "button, select, input:not([type=checkbox]), a.button, summary, header a, .settings label"
    sizes = p.locator(targets).evaluate_all(
        "nodes => nodes.filter(n => n.offsetParent !== null).map(n => { const r = n.getBoundingClientRect();"
        " return [n.id || n.textContent.trim().slice(0, 20), r.width, r.height]; })"
    )
    assert sizes
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small


def test_the_statistics_chart_shows_whole_labels(page: Page) -> None:
    p = open_at(page, "klondike", 3, ["d"])
    p.evaluate(
        """async () => { const post = async (path, body) => (await fetch(path, {method: 'POST',
          headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json();
          let t = await post('/api/tables', {game: 'klondike', level: 'easy', seed: 2});
          t = await post(`/api/tables/${t.id}/move`, {at: 0, move: 'd'});
          await post('/api/tables', {game: 'klondike', level: 'easy', seed: 3});
          t = await post('/api/tables', {game: 'demons-and-thieves', deal: 4});
          t = await post(`/api/tables/${t.id}/move`, {at: 0, move: 'd'});
          await post('/api/tables', {game: 'demons-and-thieves', deal: 5}); }"""
    )
    for width in (1100, 360):
        p.set_viewport_size({"width": width, "height": 800})
        p.goto(page.live.url + "/stats")
        p.wait_for_selector("body[data-state='stats']")
        names = p.locator(".bar-name").all_inner_texts()
        assert "Klondike (draw three) · Easy (draw 3, redeals unlimited, foundation return on)" in names
        assert "100%" not in " ".join(names)
        cut = p.locator(".bars li > span").evaluate_all(
            "spans => spans.filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.textContent)"
        )
        assert not cut, cut
        assert all(v.endswith(("of 1", "of 2")) for v in p.locator(".bar-value").all_inner_texts())
        assert p.evaluate("document.documentElement.scrollWidth") <= width


def test_new_game_and_restart_ask_first_and_say_it_counts_as_a_loss(page: Page) -> None:
    p = open_at(page, "klondike", 0, [])
    p.locator('.card[data-pile="stock"]').last.click()
    wait_at(p, 0)
    p.click("#new")
    p.wait_for_selector("dialog#confirm[open]")
    assert "count as a loss" in p.locator("#confirm").inner_text()
    p.click("#confirm-no")
    assert p.locator("dialog#confirm").count() == 0 and at(p) == 1
    p.click("#restart")
    p.wait_for_selector("dialog#confirm[open]")
    assert "count as a loss" in p.locator("#confirm").inner_text()
    p.click("#confirm-yes")
    assert wait_at(p, 1) == 0
    p.click("#new")  # no move made: nothing to lose, nothing asked
    p.wait_for_function("() => !new URLSearchParams(location.search).get('deal') || document.body.dataset.at === '0'")
    assert p.locator("dialog#confirm").count() == 0
    p.goto(page.live.url + "/stats")
    p.wait_for_selector("body[data-state='stats']")
    assert "0%" in p.locator("tbody tr").first.inner_text()


def test_deserto_first_player_counts_seats_as_the_page_labels_them(page: Page) -> None:
    p = page.page
    p.goto(page.live.url + "/")
    p.wait_for_selector("body[data-state='home']")
    card = p.locator('.game-card[data-game="deserto"]')
    card.locator('select[name="players"]').select_option("3")
    first = card.locator('select[name="first"]')
    assert first.locator("option").all_inner_texts() == ["seat 1 (you)", "seat 2", "seat 3"]
    first.select_option(label="seat 3")
    card.locator('button[type="submit"]').click()  # every other seat a bot: it starts at once
    p.wait_for_selector("body[data-state='playing']")
    code = p.url.rsplit("/", 1)[1].split("#")[0]
    key = f"localStorage.getItem('cardtable.room.{code}')"  # the seat token opens the room's summary
    summary = p.evaluate(f"fetch('/api/rooms/{code}', {{headers: {{'X-Room-Key': {key}}}}}).then(r => r.json())")
    assert int(summary["options"]["first"]) == 2
    p.wait_for_function(f"() => {{ const t = ({ROOM_TABLE})(); return t && t.to_move === t.seat; }}")
    assert p.locator(".log li").first.inner_text().startswith("Greedy 3")
    p.goto(page.live.url + "/play/deserto?first=4&new=1")
    p.wait_for_selector("body[data-state='error']")
    text = p.locator("main").inner_text()
    assert "from 1 to 2" in text and "Something went wrong" not in text


def test_every_move_is_said_in_words_to_a_screen_reader(page: Page) -> None:
    p = open_at(page, "klondike", 0, [])
    assert p.locator("#announce[aria-live='polite']").count() == 1
    p.locator('.card[data-pile="stock"]').last.click()
    p.wait_for_function("() => document.getElementById('announce').textContent === 'Draw three cards.'")
    assert p.locator("#news").inner_text() == "Draw three cards."
    p.keyboard.press("Control+z")
    p.wait_for_function("() => document.getElementById('announce').textContent === 'Taken back: Draw three cards.'")


def test_every_table_links_to_its_rules_page_with_a_picture(page: Page) -> None:
    p = page.page
    for name, path in [*PATHS.items(), ("deserto", "/play/deserto?seats=you,greedy&new=1")]:
        p.goto(page.live.url + path)
        p.wait_for_selector("body[data-state='playing']")
        p.click("#rules-link")
        p.wait_for_selector("body[data-state='rules']")
        assert p.url.endswith(f"/rules/{name}")
        assert cardtable.rules_for(name).title in p.locator("article.rules h1").first.inner_text()
        assert p.locator("article.rules svg.layout").is_visible()
        text = p.locator("article.rules").inner_text()
        assert "*i*" not in text and "](" not in text and "../deals.md" not in text
