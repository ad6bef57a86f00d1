"""The dashboard's address of the Ray cluster whose GCS is at argv[1], read
from the GCS's internal KV (namespace "dashboard", key "dashboard") with the
cluster's own ray package. Prints one JSON object: {"dashboard": "HOST:PORT"}
or {"error": "..."}. The token, if the cluster uses one, is found by Ray
itself ($RAY_AUTH_TOKEN, $RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token)."""
import json
import logging
import sys

logging.disable(logging.WARNING)  # Ray's notices would pollute nothing, but stay quiet


def main():
    try:
        from ray._raylet import GcsClient

        try:
            from ray._private.authentication.authentication_token_setup import (
                maybe_enable_token_auth_if_token_available,
            )

            maybe_enable_token_auth_if_token_available(warn_if_disabled=False)
        except ImportError:  # a Ray without token authentication
            pass
        value = GcsClient(address=sys.argv[1]).internal_kv_get(b"dashboard", b"dashboard", timeout=10)
        print(json.dumps({"dashboard": value.decode() if value else ""}))
    except Exception as e:  # noqa: BLE001 - reported to the caller as the reason
        print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}))


main()
