"""The Content-Security-Policy header: django-csp's middleware, with the policy of settings.py
(CONTENT_SECURITY_POLICY), plus this site's own websocket origin in connect-src.

CSP Level 3 lets 'self' match ws:// and wss:// on the page's own host (Chromium, Firefox, current
Safari); older browsers read 'self' as http(s) only and would refuse the table's, the lobby's and the
tournament page's sockets, all of which open on the host that served the page. So the origin is named
too: wss:// when the request came over TLS (HTTPS=1 trusts the proxy's X-Forwarded-Proto), else ws://.
"""
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.middleware import PolicyParts
from django.core.exceptions import DisallowedHost


class CSPMiddleware(BaseCSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:      # answered 400 already; 'self' is enough for that page
            return parts
        update = dict(parts.update or {})
        update["connect-src"] = [*(update.get("connect-src") or ()),
                                 ("wss://" if request.is_secure() else "ws://") + host]
        parts.update = update
        return parts
