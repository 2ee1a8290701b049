"""Web lookups: which rounds may look things up and what a round looked up."""
