"""A roll that falls due and is made with buttons: one base for every kind of roll
(``base``: the kind as one object, the button, its owner/GM check, the view of buttons), each
kind a small module (``consciousness``, ``stability``), and one keeper that disables the
buttons of a roll once it is made or no longer due (``keeper``)."""
