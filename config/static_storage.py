"""The collected static files: hashed names (cached for ever), compressed copies, and the page
scripts' ES module imports rewritten to the hashed names too (``import ... from "./x.js";``), so a
module and what it imports always come from the same collection."""
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    # Each pass settles one more level of nested imports (main -> prompts -> render -> state ...).
    max_post_process_passes = 20
