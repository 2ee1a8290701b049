"""Harness Desk: put an AI to work on a folder of your own files and stay in control."""

NAME = "Harness Desk"
__version__ = "0.1.0"
