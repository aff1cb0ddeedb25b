"""Several games in one server (issue 27, COMMANDS.md ``/table``): the options that name a
table or a place (``option``), a table's name checked (``names``), each command's work in one
transaction, the directory in memory updated once it committed: a table made, renamed or
removed (``edits``), the places it plays in (``places``), its settings (``settings``), the
list read (``listing``). The words are ``bot.render.tables``'s."""
