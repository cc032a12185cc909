"""The archive's tests play and rate matches as the ratings' tests do: the same fixtures."""
from tests.ratings.conftest import play_out, rating_queue  # noqa: F401  (fixtures)
