"""What other apps react to: ``analysed(match_id)``, sent once a match's analysis is stored
(puzzles/ takes its puzzles then)."""
from django.dispatch import Signal

analysed = Signal()
