"""The folder: first start, the top bar, the welcome page and the page of an open workspace."""
