"""The settings of the sites the end-to-end tests serve (tests/embedded.py, tests/scaled): the site's
own, but new passwords hashed the cheap way. A browser test registers and logs in a few players, and
the site's PBKDF2 (a million iterations, about 0.6 s of CPU here) made that a minute and a half of
every suite; what those tests check is the site around the password, not its hashing (the site's
hasher is its own, tested in tests/accounts). Passwords hashed the site's way still verify."""
from django.conf import global_settings

from config.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
