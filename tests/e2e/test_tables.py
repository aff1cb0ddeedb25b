"""Tables, end to end (COMMANDS.md "Tables"; issue 27): two games in one server played side by
side by different GMs with same-named characters, a thread bound to its own table inside a
bound category, a name typed at the wrong table refused saying where it plays, `/undo` and
`/history` per table, a deleted bound channel unbinding itself. The real bot process against
the fake Discord with categories, channels and threads, in English and Spanish.
"""

from __future__ import annotations

import asyncio

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import undo as confirmed_undo


async def test_two_tables_side_by_side_with_same_named_characters(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    owner = guild.member("Owner", permissions=["manage_guild"])
    keeper_role = guild.role("Keepers of Monday")
    keeper = guild.member("Keeper", roles=[keeper_role])
    monday = guild.category("Monday")
    monday_chat = guild.channel_in(monday, "monday-game")
    created = await fake.slash(
        guild,
        owner,
        "table create",
        {"name": "Miskatonic", "place": monday, "gm_role": keeper_role},
    )
    assert created.ephemeral and "Miskatonic" in created.text, created.text
    # The same name at each table: names are unique per table.
    main = await fake.slash(guild, owner, "character create", {"name": "Amelia Ríos", "health": 10})
    assert not main.ephemeral, main.text
    there = await fake.slash(
        guild,
        keeper,
        "character create",
        {"name": "Amelia Ríos", "health": 8},
        channel=monday_chat,
    )
    assert not there.ephemeral, there.text
    # The table's GM is a GM there, not at the main table.
    hurt = await fake.slash(
        guild, keeper, "hurt", {"character": "Amelia Ríos", "amount": "3"}, channel=monday_chat
    )
    assert not hurt.ephemeral and "5 / 8" in str(hurt.embeds), hurt.embeds
    refused = await fake.slash(guild, keeper, "scene new", {})
    assert refused.ephemeral, refused.text
    shown = await fake.slash(guild, owner, "character show", {"character": "Amelia Ríos"})
    assert "10 / 10" in str(shown.embeds), shown.embeds
    # History is numbered per table: each table's first change is #1.
    history = await fake.slash(guild, keeper, "history", {}, channel=monday_chat)
    assert "#2" in str(history.embeds) and "#3" not in str(history.embeds), history.embeds
    # /undo at the main table reverts the main table's latest change, never Monday's.
    await confirmed_undo(fake, guild, owner)
    still = await fake.slash(
        guild, keeper, "character show", {"character": "Amelia Ríos"}, channel=monday_chat
    )
    assert "5 / 8" in str(still.embeds), still.embeds
    listed = await fake.slash(guild, owner, "table list", {})
    assert not listed.ephemeral
    print("TABLE LIST (en):", listed.embeds)
    assert listed.embed["title"] == "Tables"
    assert listed.embed["description"] == (
        "**Main table** · everywhere else · no characters\n"
        f"**Miskatonic** · <#{monday.id}> · GMs: <@&{keeper_role.id}> · 1 character"
    ), listed.embed


async def test_a_name_at_the_wrong_table_is_refused_saying_where_it_plays(
    fake: FakeDiscord, make_guild: object
) -> None:
    guild = await make_guild(locale="es-ES")  # type: ignore[operator]
    dj = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    salon = guild.channel_in(None, "salon")
    await fake.slash(guild, dj, "table create", {"name": "Miskatonic", "place": salon})
    made = await fake.slash(
        guild, dj, "character create", {"name": "Jack Malone", "health": 9}, channel=salon
    )
    assert not made.ephemeral, made.text
    refused = await fake.slash(guild, dj, "hurt", {"character": "Jack Malone", "amount": "2"})
    assert refused.ephemeral
    assert refused.text == "Jack Malone juega en la mesa «Miskatonic»: usa el comando allí.", (
        refused.text
    )
    print("REFUSAL (es):", refused.text)
    english = await fake.slash(
        guild, dj, "hurt", {"character": "Jack Malone", "amount": "2"}, locale="en-US"
    )
    assert english.text == "Jack Malone plays at the table “Miskatonic”: use the command there."
    choices = await fake.autocomplete(guild, dj, "hurt", {"character": "Jack"}, focused="character")
    assert choices == [], choices
    listed = await fake.slash(guild, dj, "table list", {})
    print("TABLE LIST (es):", listed.embeds)
    assert "Mesa principal" in str(listed.embeds) and "Miskatonic" in str(listed.embeds)


async def test_a_thread_bound_inside_a_bound_category_plays_at_its_own_table(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    oneshot = guild.category("One-shot")
    hall = guild.channel_in(oneshot, "hall")
    duet = guild.thread(hall, "one-to-one")
    await fake.slash(guild, gm, "table create", {"name": "Innsmouth", "place": oneshot})
    await fake.slash(guild, gm, "table create", {"name": "Duet", "place": duet})
    await fake.slash(guild, gm, "character create", {"name": "Ada", "health": 7}, channel=hall)
    await fake.slash(guild, gm, "character create", {"name": "Bea", "health": 6}, channel=duet)
    at_hall = await fake.slash(guild, gm, "character list", {}, channel=hall)
    at_duet = await fake.slash(guild, gm, "character list", {}, channel=duet)
    assert "Ada" in str(at_hall.embeds) and "Bea" not in str(at_hall.embeds), at_hall.embeds
    assert "Bea" in str(at_duet.embeds) and "Ada" not in str(at_duet.embeds), at_duet.embeds
    # A forum in the category: its posts play at the category's table, or at the forum's.
    forum = guild.channel_in(oneshot, "clues", forum=True)
    post = guild.thread(forum, "the letter")
    in_post = await fake.slash(guild, gm, "character list", {}, channel=post)
    assert "Ada" in str(in_post.embeds), in_post.embeds
    await fake.slash(guild, gm, "table bind", {"table": "Duet", "place": forum})
    in_post = await fake.slash(guild, gm, "character list", {}, channel=post)
    assert "Bea" in str(in_post.embeds) and "Ada" not in str(in_post.embeds), in_post.embeds
    # Unbinding the thread: it plays at the next table out (the category's).
    await fake.slash(guild, gm, "table unbind", {"place": duet})
    after = await fake.slash(guild, gm, "character list", {}, channel=duet)
    assert "Ada" in str(after.embeds), after.embeds
    # A bound category deleted in Discord unbinds itself: its channel plays at the main table.
    guild.delete_channel(oneshot)
    guild.move_channel(hall, None)
    await asyncio.sleep(0.3)
    main = await fake.slash(guild, gm, "character list", {}, channel=hall)
    assert "Ada" not in str(main.embeds), main.embeds


async def test_a_character_moved_with_a_roll_due_keeps_its_button_and_undo_brings_it_back(
    fake: FakeDiscord, bot: BotProcess, make_guild: object
) -> None:
    guild = await make_guild(locale="es-ES")  # type: ignore[operator]
    dj = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    salon = guild.channel_in(None, "salon")
    await fake.slash(guild, dj, "table create", {"name": "Miskatonic", "place": salon})
    await fake.slash(guild, dj, "character create", {"name": "Amelia Ríos", "health": 4})
    hurt = await fake.slash(guild, dj, "hurt", {"character": "Amelia Ríos", "amount": "6"})
    button = next(i for i in hurt.custom_ids if i.startswith("salud:cons:") and ":0:" in i)
    moved = await fake.slash(
        guild, dj, "character move", {"character": "Amelia Ríos", "table": "Miskatonic"}
    )
    assert not moved.ephemeral, moved.text
    print("MOVE (es):", moved.embeds)
    assert "juega desde ahora en «Miskatonic» (hasta ahora en «Mesa principal»)" in str(
        moved.embeds
    )
    # It plays at Miskatonic now: not found at the main table, found there.
    refused = await fake.slash(guild, dj, "character show", {"character": "Amelia Ríos"})
    assert refused.ephemeral and "«Miskatonic»" in refused.text, refused.text
    there = await fake.slash(
        guild, dj, "character show", {"character": "Amelia Ríos"}, channel=salon
    )
    assert "-2 / 4" in str(there.embeds), there.embeds
    # The roll button posted at the main table still rolls its roll.
    await bot.script_dice(5)
    rolled = await fake.click(guild, dj, hurt, button)
    assert not rolled.ephemeral, rolled.text
    preview = await fake.slash(guild, dj, "undo", {})
    print("UNDO PREVIEW (es):", preview.text)
    assert "**Amelia Ríos** vuelve a jugar en «Mesa principal»" in preview.text, preview.text
    # /undo at the table it left brings it back (the roll is the table's own change).
    await confirmed_undo(fake, guild, dj)
    back = await fake.slash(guild, dj, "character show", {"character": "Amelia Ríos"})
    assert not back.ephemeral and "Amelia Ríos" in str(back.embeds), back.text
    gone = await fake.slash(
        guild, dj, "character show", {"character": "Amelia Ríos"}, channel=salon
    )
    assert gone.ephemeral, gone.text


async def test_moving_in_english_and_the_limits_of_tables(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    player = guild.member("Player")
    room = guild.channel_in(None, "room")
    refused = await fake.slash(guild, player, "table create", {"name": "Arkham", "place": room})
    assert refused.ephemeral and refused.text.startswith("Only a GM"), refused.text
    await fake.slash(guild, gm, "table create", {"name": "Arkham", "place": room})
    taken = await fake.slash(guild, gm, "table create", {"name": "ARKHAM", "place": room})
    assert taken.ephemeral and "already called" in taken.text, taken.text
    main_named = await fake.slash(guild, gm, "table create", {"name": "Main table"})
    assert main_named.ephemeral, main_named.text
    await fake.slash(guild, gm, "character create", {"name": "Jack", "health": 9}, channel=room)
    not_empty = await fake.slash(guild, gm, "table delete", {"table": "Arkham"})
    assert not_empty.text == (
        "“Arkham” still has 1 character: move it with /character move before deleting the table."
    ), not_empty.text
    moved = await fake.slash(
        guild, gm, "character move", {"character": "Jack", "table": "Main table"}, channel=room
    )
    assert not moved.ephemeral, moved.text
    print("MOVE (en):", moved.embeds)
    assert "Jack plays at “Main table” from now on (until now at “Arkham”)." in str(moved.embeds)
    deleted = await fake.slash(guild, gm, "table delete", {"table": "Arkham"})
    assert deleted.ephemeral and deleted.text == "Table “Arkham” deleted.", deleted.text
    main = await fake.slash(guild, gm, "table delete", {"table": "Main table"})
    assert main.text == "The main table cannot be deleted.", main.text


async def test_each_table_has_its_tracker_and_titles_name_the_table(
    fake: FakeDiscord, bot: BotProcess, make_guild: object
) -> None:
    guild = await make_guild(locale="es-ES")  # type: ignore[operator]
    dj = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    salon = guild.channel_in(None, "salon")
    await fake.slash(guild, dj, "character create", {"name": "Amelia Ríos", "health": 9})
    # Only the main table: titles are as they were.
    alone = await fake.slash(guild, dj, "character list", {})
    assert "·" not in str(alone.embed["title"]), alone.embed
    await fake.slash(guild, dj, "table create", {"name": "Miskatonic", "place": salon})
    await fake.slash(
        guild, dj, "character create", {"name": "Amelia Ríos", "health": 7}, channel=salon
    )
    main_tracker = await fake.slash(guild, dj, "scene tracker", {})
    other_tracker = await fake.slash(guild, dj, "scene tracker", {}, channel=salon)
    print("TRACKERS (es):", main_tracker.embeds, other_tracker.embeds)
    assert str(main_tracker.embed["title"]).endswith(" · Mesa principal"), main_tracker.embed
    assert str(other_tracker.embed["title"]).endswith(" · Miskatonic"), other_tracker.embed
    await bot.settled(main_tracker, other_tracker)
    hurt = await fake.slash(
        guild, dj, "hurt", {"character": "Amelia Ríos", "amount": "3"}, channel=salon
    )
    await bot.settled(hurt)
    other = fake.message(str(other_tracker.message_id))
    main = fake.message(str(main_tracker.message_id))
    assert other is not None and "4 / 7" in str(other["embeds"]), other
    assert str(other["embeds"][0]["title"]).endswith(" · Miskatonic"), other["embeds"]
    assert (
        main is not None and "9 / 9" in str(main["embeds"]) and "4 / 7" not in str(main["embeds"])
    )
    listed = await fake.slash(guild, dj, "character list", {}, channel=salon)
    assert str(listed.embed["title"]).endswith(" · Miskatonic"), listed.embed
    status = await fake.slash(guild, dj, "scene status", {})
    assert str(status.embed["title"]).endswith(" · Mesa principal"), status.embed
    history = await fake.slash(guild, dj, "history", {}, channel=salon)
    assert str(history.embed["title"]).endswith(" · Miskatonic"), history.embed
