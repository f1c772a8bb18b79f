"""The command toolkit: what every game's ``kiwara`` commands share, below the games and above
the lab (the games' command modules import it; it imports no game).

- :mod:`.shell`: exit codes and :class:`KiwaraGroup`, which turns user errors into one line;
- :mod:`.options`: worker processes, stdin read once, agent specs, the play-test lab's options;
- :mod:`.output`: progress bars, perft counts, play-test summaries;
- :mod:`.play`: what the play commands share (seats, stdin kept for a person, the record).
"""
from .options import (MAX_GAMES, Real, Whole, agents_help, check_writable_file, lab_options,
                      parse_settings, scheduler_option, skill_options, skill_pairing, stdin_once,
                      two_variants, workers_option)
from .output import describe_playtest, play_given_moves, print_perft, progress_bar, summary_line
from .play import keep_stdin_for_people, save_record, seats_from_options, table_stream
from .shell import EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, OUTPUT_FULL, KiwaraGroup

__all__ = ["EXIT_BAD_INPUT", "EXIT_NEGATIVE", "EXIT_OK", "MAX_GAMES", "OUTPUT_FULL", "KiwaraGroup",
           "Real", "Whole", "agents_help", "check_writable_file", "describe_playtest", "keep_stdin_for_people",
           "lab_options", "parse_settings", "play_given_moves", "print_perft", "progress_bar",
           "save_record", "scheduler_option", "seats_from_options", "skill_options",
           "skill_pairing", "stdin_once", "summary_line", "table_stream", "two_variants",
           "workers_option"]
