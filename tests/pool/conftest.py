import pytest


@pytest.fixture(autouse=True)
def pool_settings(settings):
    settings.POOL_WINDOW_START = 100
    settings.POOL_WINDOW_GROWTH = 10
    settings.POOL_BOT_OFFER_SECONDS = 20
    settings.POOL_LEASE_SECONDS = 15
    # Every change's counts sent at once and no limit on joins: the tests of pool/pace.py set them.
    settings.POOL_COUNTS_SECONDS = 0
    settings.POOL_CHANGE_RATE = None
