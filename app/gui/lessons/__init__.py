"""The Lessons view: what this folder's runs taught, with evidence, Accept and Dismiss."""
