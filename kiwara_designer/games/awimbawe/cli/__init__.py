"""Awimbawé's commands: the ``kiwara awimbawe`` group."""
