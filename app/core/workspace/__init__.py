"""The workspace on disk: .harness/, the run lock, folder settings, atomic writes."""
