"""The CLI's heavier commands, each imported only when it runs."""
