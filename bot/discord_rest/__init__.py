"""Discord's REST, spoken directly: the requests the bot makes on its own, outside an
interaction's reply (``pacer``: one pace for them all; ``message_edits``: a message posted
earlier read and edited; ``announcements``: the copies in a server's announcement channel).
The only package that touches ``discord.http`` (tests/architecture/test_layout.py).
"""
