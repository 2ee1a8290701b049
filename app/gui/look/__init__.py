"""The look: palette and theme, icons, and the notice bar."""
