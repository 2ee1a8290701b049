"""The bundled resources (demo workspaces, fonts, icons, the price table, translations).

This folder sits at the top of the repository and is installed as the package
``app.resources`` (setup.py maps it), so a checkout, an editable install, an installed
wheel and a frozen build all find it through ``app.core.resources``. It holds no code.
"""
