"""The one thing pyproject.toml cannot say on its own: the top-level resources/ folder is
installed as the package ``app.resources``, so `pip install .`, a wheel and an editable install
carry the demo workspaces, fonts, icons, prices and translations inside the app.
Everything else about the package is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["app", "app.*"]), "app.resources"],
    package_dir={"app.resources": "resources"},
)
